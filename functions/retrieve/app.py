"""Lambda entry point of the "Retrieve evidence" state.

The logic is certiq.steps.retrieve; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("retrieve")

"""Lambda entry point of the "Persist certificate" state.

The logic is certiq.steps.persist; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("persist")

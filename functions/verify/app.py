"""Lambda entry point of the "Verify claims" state.

The logic is certiq.steps.verify; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("verify")

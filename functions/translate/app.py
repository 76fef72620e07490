"""Lambda entry point of the "Translate question" state.

The logic is certiq.steps.translate; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("translate")

"""Lambda entry point of the "Redact personal data" state.

The logic is certiq.steps.redact; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("redact")

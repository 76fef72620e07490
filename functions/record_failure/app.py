"""Lambda entry point of the "Record failure" state.

The logic is certiq.steps.record_failure; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("record_failure")

"""Lambda entry point of the "Find verified answer" state.

The logic is certiq.steps.find_verified_answer; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("find_verified_answer")

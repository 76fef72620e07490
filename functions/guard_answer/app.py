"""Lambda entry point of the "Guard answer" state.

The logic is certiq.steps.guard_answer; the ASL file decides when it runs.
"""

from certiq.runtime.lambda_handlers import step_handler

lambda_handler = step_handler("guard_answer")

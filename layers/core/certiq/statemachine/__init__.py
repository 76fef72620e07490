"""The answer state machine: its definition (answer.asl.json, the single source of truth) and
the interpreter that runs it locally, as Step Functions runs it in AWS."""

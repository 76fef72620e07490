"""The exported JSON Schemas are Draft-07, current with the models, and describe real output."""

from __future__ import annotations

import pytest
from jsonschema import Draft7Validator

from certiq.models import SCHEMA_MODELS
from certiq.schemas import load, render, schema_file


@pytest.mark.parametrize("name", sorted(SCHEMA_MODELS))
def test_exported_schema_is_current_and_valid_draft_07(name: str) -> None:
    # GIVEN the schema file the API and tests use / WHEN compared with the model
    on_disk = schema_file(name).read_text(encoding="utf-8")
    # THEN it is what `make schemas` would write now, and a valid Draft-07 schema
    assert on_disk == render(SCHEMA_MODELS[name]), f"run `make schemas`: {name} is stale"
    Draft7Validator.check_schema(load(name))


def test_qa_response_schema_refuses_an_unknown_status() -> None:
    validator = Draft7Validator(load("QAResponse"))
    response = {
        "question_id": "q",
        "status": "DONE",
        "question": "?",
        "language": "en",
        "answer": "",
        "claims": [],
        "citations": [],
        "sources": [],
        "certificate_id": None,
        "timings_ms": {},
    }
    assert not validator.is_valid(response)
    assert validator.is_valid({**response, "status": "COMPLETE"})

"""JSON Schema (Draft-07) of the contracts, exported to files the API and the tests use.

`python -m certiq.schemas` rewrites the files; a test fails when they fall behind the models.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from certiq.models import SCHEMA_MODELS

SCHEMA_DIR = Path(__file__).parent
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def schema_file(name: str) -> Path:
    """QAResponse -> qa_response.schema.json"""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return SCHEMA_DIR / f"{snake}.schema.json"


def draft07_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template="#/definitions/{model}", mode="serialization")
    if "$defs" in schema:
        schema["definitions"] = schema.pop("$defs")
    return {
        "$schema": DRAFT_07,
        "$id": f"https://certiq.dev/schemas/{schema_file(model.__name__).name}",
        **schema,
    }


def render(model: type[BaseModel]) -> str:
    return json.dumps(draft07_schema(model), indent=2, sort_keys=True) + "\n"


def load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_file(name).read_text(encoding="utf-8"))
    return loaded


def export() -> list[Path]:
    written = []
    for name, model in SCHEMA_MODELS.items():
        path = schema_file(name)
        path.write_text(render(model), encoding="utf-8")
        written.append(path)
    return written

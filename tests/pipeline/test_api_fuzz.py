"""Generated requests over the OpenAPI document against the local server: no server error.

schemathesis reads /openapi.json from a running server (the same router as the Lambda function)
and sends requests built from it, valid and invalid, a bounded number per operation so the suite
stays fast. Every answer must be below 500, carry a status the document lists for its operation,
and match the schema it gives for that status.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.ingestion.service import Upload, ingest
from certiq.runtime.server import ApiServer, make_server
from tests.conftest import build_pdf

# Uploads are raw PDF bytes: generated bodies go out as they are, like application/octet-stream.
schemathesis.serializer.alias("application/pdf", "application/octet-stream")

MAX_EXAMPLES = 25  # per operation: enough to reach every validation branch, fast in the suite
# The operations with a body or constrained parameters, which invalid requests can break.
CONSTRAINED = {
    "POST /v1/questions",
    "POST /v1/documents",
    "GET /v1/documents/{doc_id}/pages/{page}.png",
}


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    """A server over one indexed PDF, so ids in generated requests can meet real records."""
    home: Path = tmp_path_factory.mktemp("certiq-fuzz")
    deps = build_deps(Settings(home=home, embedding={"provider": "none"}))
    pdf = build_pdf([["Backups of customer data are kept for 35 days."]])
    ingest(
        Upload(data=pdf, file_name="backups.pdf", uri="file:///in/backups.pdf", tenant="default"),
        deps,
    )
    server = make_server(deps, LocalRuntime(deps), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.intake.wait_idle()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def base_url(fuzzed_server: ApiServer) -> str:
    return f"http://127.0.0.1:{fuzzed_server.server_port}"


@pytest.fixture(scope="module")
def api_schema(base_url: str) -> Any:
    return schemathesis.openapi.from_url(f"{base_url}/openapi.json")


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_generated_requests_get_no_server_error(
    api_schema: Any, base_url: str, mode: GenerationMode
) -> None:
    # GIVEN every operation of the OpenAPI document, and requests generated from it that keep
    # to its schemas (positive) or break them (negative)
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert {operation.label for operation in operations} >= CONSTRAINED

    statuses: set[int] = set()
    for operation in operations:
        if mode is GenerationMode.NEGATIVE and operation.label not in CONSTRAINED:
            continue  # its only inputs are free strings (ids): no request breaks its schema

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def send(case: Any) -> None:
            # WHEN each is sent to the server
            response = case.call(base_url=base_url, timeout=30)
            statuses.add(response.status_code)
            # THEN the server answers without a 5xx, as the document says it answers
            case.validate_response(
                response,
                checks=[
                    not_a_server_error,
                    status_code_conformance,
                    response_schema_conformance,
                ],
            )

        send()

    # AND the requests reached the routes: refused ones (4xx), and for valid ones, answers
    assert any(400 <= status < 500 for status in statuses), statuses
    if mode is GenerationMode.POSITIVE:
        assert statuses & {200, 201, 202}, statuses

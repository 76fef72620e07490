"""CORS on the API function's own responses (api.cors_allow_origin), as API Gateway proxies them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from aws_lambda_powertools.utilities.typing import LambdaContext

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.api.routes import create_app
from certiq.bootstrap import build_deps
from certiq.config import ApiSettings, Settings
from certiq.runtime.server import to_event

ALLOWED = "https://app.example.com"
OTHER = "https://evil.example.net"


class Context:
    function_name = "certiq-api"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:certiq-api"
    aws_request_id = "req-1"


def call(
    tmp_path: Path, method: str, path: str, headers: dict[str, str], allow_origin: str = ALLOWED
) -> tuple[int, dict[str, str]]:
    """Resolves one REST proxy request; returns the status and the headers (lower-case names)."""
    settings = Settings(home=tmp_path, api=ApiSettings(cors_allow_origin=allow_origin))
    deps = build_deps(settings)
    app = create_app(deps, LocalRuntime(deps))
    result: dict[str, Any] = app.resolve(
        to_event(method, path, headers, b""), cast(LambdaContext, Context())
    )
    found = {name.lower(): str(value) for name, value in (result.get("headers") or {}).items()}
    for name, values in (result.get("multiValueHeaders") or {}).items():
        found[name.lower()] = ",".join(str(value) for value in values)
    return int(result["statusCode"]), found


def preflight(origin: str) -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
    }


def test_the_allowed_origin_gets_the_preflight_and_may_read_responses(tmp_path: Path) -> None:
    # GIVEN the API allowing https://app.example.com
    # WHEN that origin's page sends a preflight, then a GET (answered or refused)
    status, headers = call(tmp_path, "OPTIONS", "/v1/documents", preflight(ALLOWED))
    listed, list_headers = call(tmp_path, "GET", "/v1/documents", {"Origin": ALLOWED})
    missing, missing_headers = call(tmp_path, "GET", "/v1/questions/q-none", {"Origin": ALLOWED})

    # THEN the preflight allows it, its methods and the Authorization header
    assert status == 204
    assert headers["access-control-allow-origin"] == ALLOWED
    assert "GET" in headers["access-control-allow-methods"]
    allowed_headers = headers["access-control-allow-headers"].lower()
    assert "authorization" in allowed_headers and "idempotency-key" in allowed_headers
    # AND every response, errors included, names the origin as allowed to read it
    assert (listed, list_headers["access-control-allow-origin"]) == (200, ALLOWED)
    assert (missing, missing_headers["access-control-allow-origin"]) == (404, ALLOWED)


def test_another_origin_gets_no_cors_header(tmp_path: Path) -> None:
    # GIVEN the API allowing https://app.example.com
    # WHEN a page of another origin sends a preflight and a GET
    _, preflight_headers = call(tmp_path, "OPTIONS", "/v1/documents", preflight(OTHER))
    status, headers = call(tmp_path, "GET", "/v1/documents", {"Origin": OTHER})

    # THEN no response lets it read (the browser blocks), though the GET itself is served
    assert "access-control-allow-origin" not in preflight_headers
    assert status == 200 and "access-control-allow-origin" not in headers


def test_without_a_cors_origin_no_page_of_another_origin_may_read(tmp_path: Path) -> None:
    # GIVEN the default setting (same origin only) WHEN any origin asks THEN no header is sent
    status, headers = call(tmp_path, "GET", "/v1/documents", {"Origin": ALLOWED}, allow_origin="")
    assert status == 200 and "access-control-allow-origin" not in headers


def test_any_origin_when_the_stack_allows_star(tmp_path: Path) -> None:
    # GIVEN CorsAllowOrigin "*" (the template's default) WHEN some page asks THEN it may read
    _, headers = call(tmp_path, "GET", "/v1/documents", {"Origin": OTHER}, allow_origin="*")
    assert headers["access-control-allow-origin"] in {"*", OTHER}


def test_a_cors_origin_must_be_star_or_one_origin() -> None:
    # GIVEN a path or a list instead of one origin WHEN read THEN settings refuse it
    for bad in ("https://app.example.com/page", "https://a.example, https://b.example"):
        with pytest.raises(ValueError, match="cors_allow_origin"):
            ApiSettings(cors_allow_origin=bad)

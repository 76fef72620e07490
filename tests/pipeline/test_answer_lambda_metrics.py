"""The answer function's Lambda handler publishes the step's metrics before it returns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from certiq.adapters.local.metrics import RecordingMetrics
from certiq.config import get_settings
from certiq.questions import receive
from certiq.runtime import lambda_handlers
from certiq.steps import STEPS
from tests.fakes import make_chunk
from tests.pipeline.test_ingest_lambda import LambdaContext


@pytest.fixture
def container(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("CERTIQ_HOME", str(tmp_path / "home"))
    get_settings.cache_clear()
    lambda_handlers.container_deps.cache_clear()
    yield
    get_settings.cache_clear()
    lambda_handlers.container_deps.cache_clear()


@pytest.mark.usefixtures("container")
def test_the_step_handler_flushes_the_metrics_the_step_added() -> None:
    # GIVEN the container's deps (local runtime: metrics kept in memory) and retrieved evidence
    deps = lambda_handlers.container_deps()
    deps.index.index(
        [make_chunk("Backups of customer data are kept for 35 days", tenant=deps.settings.tenant)]
    )
    state = STEPS["retrieve"](receive("How long are backups of customer data kept?", deps), deps)
    assert state.evidence

    # WHEN Lambda invokes the answer function's handler
    handler = lambda_handlers.step_handler("answer")
    result = handler(state.model_dump(mode="json"), LambdaContext())

    # THEN the step answered and its metrics were flushed, none left pending
    assert result["answerer"] == "extractive"
    assert isinstance(deps.metrics, RecordingMetrics)
    assert deps.metrics.pending == []
    assert {record.name for record in deps.metrics.flushed} >= {"QuestionTokens", "Fallbacks"}

"""The MetricsSink adapters: Powertools EMF documents, and the in-memory recorder."""

from __future__ import annotations

import json

import pytest

from certiq.adapters.aws.metrics import PowertoolsMetrics
from certiq.adapters.local.metrics import MetricRecord, RecordingMetrics


def test_powertools_prints_one_emf_document_per_dimension_set_in_namespace_certiq(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GIVEN metrics for two providers and one without dimensions
    metrics = PowertoolsMetrics()
    metrics.add("InputTokens", 100, "Count", {"provider": "anthropic"})
    metrics.add("InputTokens", 40, "Count", {"provider": "anthropic"})
    metrics.add("ModelLatency", 812.5, "Milliseconds", {"provider": "openai"})
    metrics.add("Fallbacks", 1, "Count")

    # WHEN flushed
    metrics.flush()

    # THEN stdout holds EMF documents with each metric under its own dimensions
    documents = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_provider = {doc.get("provider"): doc for doc in documents}
    assert set(by_provider) == {"anthropic", "openai", None}
    anthropic = by_provider["anthropic"]
    [directive] = anthropic["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "certiq"
    assert directive["Dimensions"] == [["provider", "service"]]
    assert directive["Metrics"] == [{"Name": "InputTokens", "Unit": "Count"}]
    assert anthropic["InputTokens"] == [100.0, 40.0]
    assert by_provider["openai"]["_aws"]["CloudWatchMetrics"][0]["Metrics"] == [
        {"Name": "ModelLatency", "Unit": "Milliseconds"}
    ]
    assert by_provider[None]["Fallbacks"] == [1.0]

    # AND a second flush publishes only what was added since, dimensions kept
    metrics.add("InputTokens", 7, "Count", {"provider": "anthropic"})
    metrics.flush()
    [again] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert again["provider"] == "anthropic" and again["InputTokens"] == [7.0]


def test_recording_metrics_keep_what_is_added_and_move_it_on_flush() -> None:
    metrics = RecordingMetrics()
    metrics.add("Fallbacks", 0, "Count")
    metrics.add("InputTokens", 5, "Count", {"provider": "openai"})
    assert len(metrics.pending) == 2 and not metrics.flushed
    metrics.flush()
    assert metrics.pending == []
    assert metrics.all() == [
        MetricRecord("Fallbacks", 0, "Count", {}),
        MetricRecord("InputTokens", 5, "Count", {"provider": "openai"}),
    ]

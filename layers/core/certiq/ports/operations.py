"""Ports of the runtime around the domain: the clock, operational metrics, the orchestrator that
runs the answer state machine, and the URL checker (the SSRF guard)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from certiq.models import QuestionState


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware datetime in UTC."""
        ...


MetricUnit = Literal["Count", "Milliseconds"]


class MetricsSink(Protocol):
    """Operational metrics (CloudWatch EMF through Powertools in AWS, kept in memory locally)."""

    def add(
        self,
        name: str,
        value: float,
        unit: MetricUnit,
        dimensions: Mapping[str, str] | None = None,
    ) -> None: ...

    def flush(self) -> None:
        """Publishes what was added since the last flush (the Lambda handler calls it)."""
        ...


class Orchestrator(Protocol):
    """Runs the answer state machine (Step Functions in the cloud, the local runtime here)."""

    def start(self, state: QuestionState) -> str:
        """Starts an execution for the question and returns its id without waiting."""
        ...


@dataclass(frozen=True)
class UrlVerdict:
    """Whether a URL may be fetched (the SSRF guard, every hop) and whether it is alive."""

    url: str
    allowed: bool
    reachable: bool
    status: int | None
    final_url: str | None
    reason: str


class UrlChecker(Protocol):
    def check(self, url: str) -> UrlVerdict:
        """Never raises for a bad or dead URL: the verdict says why."""
        ...

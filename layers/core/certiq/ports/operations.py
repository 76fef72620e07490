"""Ports of the runtime around the domain: the clock, operational metrics, the orchestrator that
runs the answer state machine, the queue of certificate re-checks, and the URL checker (the
SSRF guard)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from certiq.models import QuestionState, RecheckRequest


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


class RecheckQueue(Protocol):
    """Carries re-checks of certificates to a worker that runs them (SQS and the recheck
    function in AWS), so a document cited by thousands of certificates is not re-checked inside
    the process that changed it. Locally there is none: they run at once (Deps.rechecks)."""

    def submit(self, requests: Sequence[RecheckRequest]) -> None:
        """Queues every request, one message each; raises when any could not be queued."""
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

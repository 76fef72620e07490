"""Metrics kept in memory: the local runtime has no CloudWatch, tests and the CLI read them here."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from certiq.ports import MetricUnit

KEPT = 10_000  # flushed metrics kept, newest last: a long `certiq serve` must not grow forever


@dataclass(frozen=True)
class MetricRecord:
    name: str
    value: float
    unit: MetricUnit
    dimensions: dict[str, str] = field(default_factory=dict)


class RecordingMetrics:
    """Implements certiq.ports.MetricsSink: ``pending`` until flushed, then ``flushed``."""

    def __init__(self) -> None:
        self.pending: list[MetricRecord] = []
        self.flushed: deque[MetricRecord] = deque(maxlen=KEPT)
        self._lock = threading.Lock()  # the local runtime runs questions on worker threads

    def add(
        self,
        name: str,
        value: float,
        unit: MetricUnit,
        dimensions: Mapping[str, str] | None = None,
    ) -> None:
        with self._lock:
            self.pending.append(MetricRecord(name, value, unit, dict(dimensions or {})))

    def flush(self) -> None:
        with self._lock:
            self.flushed.extend(self.pending)
            self.pending.clear()

    def all(self) -> list[MetricRecord]:
        """Flushed and pending, oldest first."""
        with self._lock:
            return [*self.flushed, *self.pending]

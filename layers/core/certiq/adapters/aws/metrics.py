"""Metrics as CloudWatch Embedded Metric Format through Powertools, namespace "certiq".

Powertools' Metrics objects share one metric set with one set of dimensions; certiq's metrics
carry different dimensions (per provider, or none), so each distinct dimension set gets its own
EphemeralMetrics (isolated state) with those dimensions as defaults. ``flush`` prints one EMF
document per dimension set to stdout, where Lambda's log agent turns it into metrics.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Final

from aws_lambda_powertools.metrics import EphemeralMetrics, MetricUnit

from certiq.ports import MetricUnit as UnitName

NAMESPACE: Final = "certiq"
SERVICE: Final = "certiq"

_UNITS: Final = {"Count": MetricUnit.Count, "Milliseconds": MetricUnit.Milliseconds}


class PowertoolsMetrics:
    """Implements certiq.ports.MetricsSink with aws_lambda_powertools (EMF)."""

    def __init__(self, namespace: str = NAMESPACE, service: str = SERVICE) -> None:
        self._namespace = namespace
        self._service = service
        self._sets: dict[tuple[tuple[str, str], ...], EphemeralMetrics] = {}
        self._lock = threading.Lock()

    def add(
        self,
        name: str,
        value: float,
        unit: UnitName,
        dimensions: Mapping[str, str] | None = None,
    ) -> None:
        key = tuple(sorted((dimensions or {}).items()))
        with self._lock:
            metrics = self._sets.get(key)
            if metrics is None:
                metrics = EphemeralMetrics(namespace=self._namespace, service=self._service)
                if key:
                    metrics.set_default_dimensions(**dict(key))
                self._sets[key] = metrics
            metrics.add_metric(name=name, unit=_UNITS[unit], value=value)

    def flush(self) -> None:
        with self._lock:
            for metrics in self._sets.values():
                if metrics.metric_set:
                    metrics.flush_metrics()

"""The wall clock."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """Implements certiq.ports.Clock with the system time."""

    def now(self) -> datetime:
        return datetime.now(UTC)

"""The base of every contract."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Contract(BaseModel):
    """Base of every contract: unknown fields are refused so a typo never passes silently."""

    model_config = ConfigDict(extra="forbid")


# --- documents and evidence ------------------------------------------------------------------


def reader_probability(description: str) -> Any:
    """A field for the reader's probability, in [0, 1]: left out of the JSON when unset, so
    records sealed before the reader keep their digests."""
    return Field(
        default=None,
        ge=0,
        le=1,
        exclude_if=lambda probability: probability is None,
        description=description,
    )

"""The base of every contract."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Contract(BaseModel):
    """Base of every contract: unknown fields are refused so a typo never passes silently."""

    model_config = ConfigDict(extra="forbid")


# --- documents and evidence ------------------------------------------------------------------

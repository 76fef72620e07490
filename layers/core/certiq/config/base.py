"""The base of every settings group: unknown fields are refused."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Group(BaseModel):
    model_config = ConfigDict(extra="forbid")

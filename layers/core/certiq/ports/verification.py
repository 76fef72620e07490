"""Ports of claim verification: how far evidence supports a claim, the verifiers that judge it,
and the splitter that breaks a drafted sentence into the claims they judge."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class Support:
    """How far evidence supports (entail) or refutes (contradict) a claim, each in [0, 1].

    ``note`` says why a verifier could not judge (a model's refusal or malformed output): such a
    Support has entail 0, so it never renders VERIFIED, and the decision's reason quotes it.
    """

    entail: float
    contradict: float
    note: str | None = None
    rationale: str | None = None  # a judge's one-line reason, kept in the decision


class Verifier(Protocol):
    @property
    def name(self) -> str: ...

    def assess(self, claim: str, evidence: Sequence[str]) -> Support: ...


@runtime_checkable
class BatchVerifier(Verifier, Protocol):
    """A verifier that judges many (claim, evidence set) pairs at once (a model runs them in one
    batch); the render policy uses it when the verifier has it, asking for every evidence set
    that the claims of an answer need judged next."""

    def assess_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Support]:
        """One Support per (claim, evidence set), in order."""
        ...


class ClaimSplitter(Protocol):
    """Splits one draft sentence into the atomic claims it states (rules offline, or an LLM)."""

    @property
    def name(self) -> str: ...

    def split(self, sentence: str) -> list[str]:
        """Standalone sentences, one claim each, in the sentence's own words where possible.

        Raises CertiqError when it cannot (bad model output, refusal, upstream failure): the
        caller falls back to the rule-based splitter and records why.
        """
        ...

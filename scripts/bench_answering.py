"""Benchmark: what certiq adds around a model call when answering, per provider.

When to run it: `make bench` runs it; run it after changing the model adapters (Claude, OpenAI), how
drafts and their citations are read back, or the fallback parser.

Asks each answerer (Claude and OpenAI through their real SDKs against tests/provider_fakes.py's
HTTP server on 127.0.0.1, which answers at once; and the extractive answerer) for drafts from 12
evidence sentences, and times the whole draft() call: request building, the SDK, loopback HTTP
and reading the citations back. The model's own time is not in it. Also times the fallback
parser on prose whose quotes need fuzzy repair. Run with `make bench`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "layers" / "core")]

from tests.fakes import make_chunk, make_evidence  # noqa: E402
from tests.provider_fakes import (  # noqa: E402
    anthropic_citing,
    by_provider,
    llm_settings,
    openai_citing,
    serve,
)

from certiq.adapters.llm.anthropic_chat import AnthropicChat  # noqa: E402
from certiq.adapters.llm.clients import anthropic_client, openai_client  # noqa: E402
from certiq.adapters.llm.openai_chat import OpenAIChat  # noqa: E402
from certiq.answering.extractive import ExtractiveAnswerer  # noqa: E402
from certiq.answering.parsing import EvidenceIds, parse_marked_text  # noqa: E402
from certiq.config import AnswerSettings  # noqa: E402
from certiq.ports import ChatModel  # noqa: E402

QUESTION = "How long are backups of customer data kept?"
SENTENCES = [
    "Backups of customer data are kept for 35 days",
    "Logs are rotated weekly and kept for one year",
    "Staff badges expire after one year",
    "Access rights are reviewed every quarter by the system owner",
    "Security incidents are reported to the security team within 24 hours",
    "Personal data is deleted at the end of its retention period",
    "Laptops are encrypted with full disk encryption",
    "Visitors sign in at reception and wear a badge",
    "Passwords are at least 14 characters long",
    "Backups are encrypted at rest and in transit",
    "Restores are tested twice a year",
    "The data protection officer approves retention exceptions",
]
EVIDENCE = make_evidence(make_chunk(". ".join(SENTENCES), doc_id="policy"))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(call: Callable[[], object], rounds: int) -> list[float]:
    call()  # warm: imports, connection
    out = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("ANTHROPIC_API_KEY", "sk-ant-bench")
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    server_run = serve()
    server = next(server_run)
    server.responder = by_provider(
        anthropic_citing("35 days"), openai_citing("35 days", "Backups are kept 35 days.")
    )
    settings = llm_settings(server, timeout_seconds=10.0)
    models: list[ChatModel] = [
        AnthropicChat(
            anthropic_client(settings), "claude-sonnet-5", max_output_tokens=512, max_sentences=3
        ),
        OpenAIChat(openai_client(settings), "gpt-4.1-mini", max_output_tokens=512, max_sentences=3),
        ExtractiveAnswerer(AnswerSettings()),
    ]
    print(f"draft() from {len(EVIDENCE)} evidence sentences, {args.rounds} rounds each")
    print(f"{'answerer':28}{'p50 ms':>10}{'p95 ms':>10}")
    for model in models:
        draft = model.draft(QUESTION, EVIDENCE)
        assert draft.problem is None and draft.sentences, f"{model.name}: {draft.problem}"
        values = timed(lambda model=model: model.draft(QUESTION, EVIDENCE), args.rounds)
        print(f"{model.name:28}{statistics.median(values):>10.3f}{percentile(values, 0.95):>10.3f}")
        server.requests.clear()
    ids = EvidenceIds(EVIDENCE)
    prose = " ".join(
        f'<extract ids="S{i + 1}">{text.replace("are", "were")}</extract> [S{i + 1}].'
        for i, text in enumerate(SENTENCES)
    )
    repaired = parse_marked_text(prose, ids)
    assert all(sentence.quotes for sentence in repaired), "every misquote should be repaired"
    values = timed(lambda: parse_marked_text(prose, ids), args.rounds)
    print(
        f"{'parse 12 misquoted extracts':28}{statistics.median(values):>10.3f}"
        f"{percentile(values, 0.95):>10.3f}"
    )
    server_run.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: SciFact retrieval through a real OpenSearch node beside the local engine.

When to run it: after changing the OpenSearch adapter, its mapping or analyzer, or retrieval;
`make bench` runs it. It starts its own node (scripts/opensearch_node.py: OpenSearch 2.19 with
k-NN and neural-search, from Maven Central) and stops it at the end.

For each mode (bm25, dense, hybrid) it runs `certiq eval retrieval` twice with the same
settings, once on the local engine and once with CERTIQ_OPENSEARCH__ENDPOINT set (the self-hosted
mode: a setting, not a code change), and prints nDCG@10, Recall@100, MRR@10 and per-query
p50/p95 side by side with the differences. The first run embeds SciFact once per engine (about
15 minutes each on 2 cores); later runs reuse both ingested copies (the node's copy only while
the same node is up: a new node ingests again). Nothing is fitted on SciFact.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import opensearch_node
from bench_retrieval import SCIFACT, certiq_eval

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ("ndcg_at_10", "recall_at_100", "mrr_at_10", "latency_ms_p50", "latency_ms_p95")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SCIFACT, help="a BEIR folder like scifact/")
    parser.add_argument("--home", type=Path, default=ROOT / ".bench", help="certiq data folder")
    parser.add_argument("--modes", default="bm25,dense,hybrid")
    parser.add_argument("--endpoint", default="", help="a running node's URL (default: start one)")
    parser.add_argument("--out", type=Path, default=ROOT / ".bench" / "opensearch.json")
    args = parser.parse_args()

    node = None
    endpoint = args.endpoint
    if not endpoint:
        node = opensearch_node.start(port=0)
        endpoint = node.url
    print(opensearch_node.describe(endpoint), file=sys.stderr)
    rows: dict[str, dict[str, float]] = {}
    try:
        for mode in args.modes.split(","):
            os.environ.pop("CERTIQ_OPENSEARCH__ENDPOINT", None)
            rows[f"local {mode}"] = certiq_eval(mode, args.home, args.data)
            os.environ["CERTIQ_OPENSEARCH__ENDPOINT"] = endpoint
            try:
                rows[f"opensearch {mode}"] = certiq_eval(mode, args.home, args.data)
            except subprocess.CalledProcessError as error:
                print(error.stderr, file=sys.stderr)
                raise
            finally:
                os.environ.pop("CERTIQ_OPENSEARCH__ENDPOINT", None)
    finally:
        if node is not None:
            opensearch_node.stop(node)

    print(f"SciFact train ({args.data}), local engine vs {opensearch_node.OPENSEARCH_VERSION}")
    print(f"{'':18}{'nDCG@10':>9}{'R@100':>8}{'MRR@10':>8}{'p50 ms':>9}{'p95 ms':>9}")
    for name, row in rows.items():
        print(f"{name:18}" + "".join(f"{row[f]:>9.4f}" for f in FIGURES))
    for mode in args.modes.split(","):
        local, remote = rows[f"local {mode}"], rows[f"opensearch {mode}"]
        print(
            f"{mode}: nDCG@10 {remote['ndcg_at_10'] - local['ndcg_at_10']:+.4f},"
            f" Recall@100 {remote['recall_at_100'] - local['recall_at_100']:+.4f}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Reading BEIR-format benchmarks: queries as JSONL, qrels as TSV with a header.

The corpus is read by certiq.ingestion.text.read_jsonl, as `certiq ingest --jsonl` reads it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

from certiq.errors import InvalidRequest


def read_queries(path: Path) -> dict[str, str]:
    queries = {}
    for number, record in _jsonl(path):
        if "_id" not in record or "text" not in record:
            raise InvalidRequest(f"{path}:{number}", "a query line needs _id and text")
        queries[str(record["_id"])] = str(record["text"])
    return queries


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """query-id, corpus-id, score columns; the first line is a header."""
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.reader(handle, delimiter="\t")
        header = next(rows, None)
        if header is None or len(header) < 3:
            raise InvalidRequest(str(path), "qrels need a header line: query-id corpus-id score")
        for row in rows:
            if len(row) < 3:
                continue
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise InvalidRequest(f"{path}:{number}", "each line must be a JSON object")
                yield number, record

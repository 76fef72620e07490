"""Text corpora and the retrieval evaluation, through the `certiq` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from certiq.cli import main

CORPUS = [
    {"_id": "10", "title": "Backup retention", "text": "Backups are kept for 35 days."},
    {"_id": "20", "title": "Travel", "text": "Staff book travel through the agency."},
    {"_id": "30", "title": "Incidents", "text": "The DPO is told within 24 hours."},
]
QUERIES = [
    {"_id": "q1", "text": "how long are backups kept"},
    {"_id": "q2", "text": "who books travel for staff"},
]


def run(home: Path, *args: str) -> Result:
    env = {"CERTIQ_HOME": str(home), "CERTIQ_EMBEDDING__PROVIDER": "none"}
    return CliRunner().invoke(main, list(args), env=env)


@pytest.fixture
def benchmark(tmp_path: Path) -> dict[str, Path]:
    files = {
        "corpus": tmp_path / "corpus.jsonl",
        "queries": tmp_path / "queries.jsonl",
        "qrels": tmp_path / "qrels.tsv",
    }
    files["corpus"].write_text("\n".join(json.dumps(line) for line in CORPUS) + "\n")
    files["queries"].write_text("\n".join(json.dumps(line) for line in QUERIES) + "\n")
    files["qrels"].write_text("query-id\tcorpus-id\tscore\nq1\t10\t1\nq2\t20\t1\n")
    return files


def test_ingest_jsonl_indexes_text_documents_without_pages_or_boxes(
    tmp_path: Path, benchmark: dict[str, Path]
) -> None:
    # GIVEN a JSONL corpus / WHEN it is ingested
    result = run(tmp_path / "home", "ingest", "--jsonl", str(benchmark["corpus"]))
    # THEN every document is indexed as a text source
    assert result.exit_code == 0, result.output
    assert "3 of 3 documents" in result.output
    documents = json.loads(run(tmp_path / "home", "documents", "--json").output)
    assert {d["file_name"] for d in documents} == {"Backup retention", "Travel", "Incidents"}
    assert {d["mime_type"] for d in documents} == {"text/plain"}
    # AND a question is answered from it, citing the text with no box
    answer = json.loads(
        run(tmp_path / "home", "ask", "--json", "How long are backups kept?").output
    )
    citation = answer["citations"][0]
    assert citation["quote"] == "Backups are kept for 35 days."
    assert citation["boxes"] == []
    assert answer["sources"][0]["source_type"] == "text"


def test_a_malformed_corpus_line_names_the_line(tmp_path: Path) -> None:
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text('{"_id": "1", "text": "fine"}\n{"title": "no id"}\n')
    result = run(tmp_path / "home", "ingest", "--jsonl", str(corpus))
    assert result.exit_code != 0
    assert "bad.jsonl:2" in str(result.exception) + result.output


def test_eval_retrieval_prints_the_metrics_and_reuses_its_index(
    tmp_path: Path, benchmark: dict[str, Path]
) -> None:
    args = [
        "eval",
        "retrieval",
        "--corpus",
        str(benchmark["corpus"]),
        "--queries",
        str(benchmark["queries"]),
        "--qrels",
        str(benchmark["qrels"]),
        "--mode",
        "bm25",
        "--json",
    ]
    # WHEN the benchmark is run twice
    first = run(tmp_path / "home", *args)
    second = run(tmp_path / "home", *args)
    # THEN it prints the agreed keys, ranks the one relevant document first for each query
    assert first.exit_code == 0, first.output
    report = json.loads(first.output)
    for key in ("ndcg_at_10", "recall_at_100", "mrr_at_10", "latency_ms_p50", "latency_ms_p95"):
        assert key in report
    assert report["ndcg_at_10"] == 1.0 and report["mrr_at_10"] == 1.0
    assert report["queries"] == 2
    # AND the second run reuses the data directory the first one built
    again = json.loads(second.output)
    assert again["data_dir"] == report["data_dir"]
    assert (Path(report["data_dir"]) / "ready.json").exists()


@pytest.mark.real_embedder
def test_a_bm25_evaluation_never_embeds_the_corpus(
    tmp_path: Path, benchmark: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN embedders that would be used for dense or hybrid search, and fail if asked
    from certiq.adapters.local import minilm, minilm_int8

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a BM25 evaluation embedded text")

    monkeypatch.setattr(minilm.MiniLmEmbedder, "embed", refuse)
    monkeypatch.setattr(minilm_int8.MiniLmInt8Embedder, "embed", refuse)
    env = {"CERTIQ_HOME": str(tmp_path / "home"), "CERTIQ_EMBEDDING__PROVIDER": "minilm"}

    # WHEN the benchmark is evaluated with BM25
    result = CliRunner().invoke(
        main,
        ["eval", "retrieval", "--mode", "bm25", "--json"]
        + [f"--{name}={path}" for name, path in benchmark.items()],
        env=env,
    )

    # THEN it ran as BM25, and nothing was embedded
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["mode"] == report["mode_used"] == "bm25"

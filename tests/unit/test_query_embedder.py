"""Questions reach a QueryEmbedder through embed_queries, passages through embed: search, span
selection and reuse (e5 models prefix "query: " to the one and "passage: " to the other)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from certiq.adapters.local.fts_index import SqliteSearchIndex
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.config import RetrievalSettings
from certiq.models import RetrievalMode, SearchHit, VerifiedAnswer
from certiq.ports import QueryEmbedder, embed_query_texts
from certiq.retrieval.reuse import near_identical, question_terms, terms_key
from certiq.retrieval.search import hybrid_search
from certiq.retrieval.spans import select_spans
from tests.fakes import EPOCH, HashingEmbedder, QueryHashingEmbedder, make_chunk

QUESTION = "How long are backups of customer data kept?"
ANSWER = "Backups of customer data are kept for 35 days."
OTHER = "Passwords must be at least 14 characters long."


def test_questions_take_embed_queries_where_there_is_one() -> None:
    # GIVEN a symmetric embedder and a query embedder
    symmetric, asymmetric = HashingEmbedder(), QueryHashingEmbedder()

    # WHEN a question is embedded through each
    plain = embed_query_texts(symmetric, [QUESTION])
    routed = embed_query_texts(asymmetric, [QUESTION])

    # THEN the symmetric one embeds it with embed(), the other with embed_queries()
    assert not isinstance(symmetric, QueryEmbedder) and isinstance(asymmetric, QueryEmbedder)
    assert symmetric.calls == [[QUESTION]]
    assert (asymmetric.calls, asymmetric.query_calls) == ([], [[QUESTION]])
    assert plain.tolist() == routed.tolist()


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_search_embeds_the_question_as_a_question(mode: RetrievalMode, tmp_path: Path) -> None:
    # GIVEN chunks indexed with a query embedder's passage vectors
    embedder = QueryHashingEmbedder()
    db = SqliteDatabase(tmp_path)
    index = SqliteSearchIndex(db, vector_model=embedder.name)
    index.index(
        [
            make_chunk(text, doc_id=doc_id, embedding=embedder.embed([text])[0].tolist())
            for doc_id, text in (("answer", ANSWER), ("other", OTHER))
        ]
    )
    embedder.calls.clear()

    # WHEN a question is searched in a mode that reads vectors
    result = hybrid_search(index, embedder, "tenant-a", QUESTION, 1, mode, RetrievalSettings())

    # THEN the question went through embed_queries only, and found the answer
    assert (embedder.calls, embedder.query_calls) == ([], [[QUESTION]])
    assert [hit.chunk.doc_id for hit in result.hits] == ["answer"]
    db.close()


def test_span_selection_embeds_the_question_as_a_question_and_sentences_as_passages() -> None:
    # GIVEN a retrieved chunk of two sentences and a query embedder
    embedder = QueryHashingEmbedder(dimension=16)
    chunk = make_chunk(f"{ANSWER} {OTHER}", doc_id="retention")

    # WHEN evidence spans are selected with the embedder's cosines
    spans = select_spans(
        QUESTION,
        [SearchHit(chunk=chunk, score=1.0)],
        max_spans=5,
        embedder=embedder,
        settings=RetrievalSettings(span_scorer="weighted"),
    )

    # THEN the question was embedded as a question, the sentences as passages, once each
    sentences = [sentence.text for sentence in chunk.sentences]
    assert embedder.query_calls == [[QUESTION]]
    assert embedder.calls == [sentences]
    assert spans and spans[0].text == sentences[0]


def test_reuse_compares_questions_as_questions() -> None:
    # GIVEN a verified answer to the same question, stored without a vector of this model
    embedder = QueryHashingEmbedder(dimension=16)
    earlier = VerifiedAnswer(
        tenant="tenant-a",
        question_id="q-1",
        certificate_id="cert-1",
        question="How long are the backups of customer data kept?",
        terms_key=terms_key(question_terms(QUESTION)),
        documents=[],
        created_at=EPOCH + timedelta(minutes=1),
    )

    # WHEN a near-identical question is matched with the embedder
    matches = near_identical(
        QUESTION, [earlier], min_term_overlap=1.0, min_similarity=0.9, embedder=embedder
    )

    # THEN both questions were embedded as questions, none as a passage
    assert [match.answer for match in matches] == [earlier]
    assert embedder.query_calls == [[QUESTION, earlier.question]]
    assert embedder.calls == []

"""Evidence span selection: rank-bm25 over the candidate sentences, plus embedding similarity."""

from __future__ import annotations

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from certiq.config import RetrievalSettings
from certiq.models import SearchHit
from certiq.retrieval.spans import lexical_scores, select_spans
from certiq.text import content_terms
from tests.fakes import HashingEmbedder, PinnedRelevance, make_chunk

QUESTION = "How long are backups of customer data kept?"
ANSWER = "Backups of customer data are kept for 35 days"
PARAPHRASE = "Archived client records are destroyed after five weeks"  # no word of the question
RETENTION = make_chunk(
    f"Logs are rotated weekly. {ANSWER}. {PARAPHRASE}. Staff badges expire yearly",
    doc_id="retention",
    page=3,
)
NEAR = (np.ones(16) / 4.0).tolist()
# The hand-set score, whose formula most tests here pin down; a relevance scorer's at the end.
WEIGHTED = RetrievalSettings(span_scorer="weighted")


def hits() -> list[SearchHit]:
    return [SearchHit(chunk=RETENTION, score=2.0)]


def embedder() -> HashingEmbedder:
    """The question and the paraphrase share a vector; every other text is bag-of-words."""
    return HashingEmbedder(dimension=16, pinned={QUESTION: NEAR, PARAPHRASE: NEAR})


def test_without_an_embedder_only_sentences_sharing_terms_are_kept() -> None:
    spans = select_spans(QUESTION, hits(), max_spans=10, settings=WEIGHTED)
    assert [span.text for span in spans] == [ANSWER]


def test_a_single_matching_sentence_scores_above_zero() -> None:
    # GIVEN a corpus of one sentence: rank-bm25's own idf would be negative (log(0.5 / 1.5))
    chunk = make_chunk(ANSWER, doc_id="one")
    assert BM25Okapi([content_terms(ANSWER)]).get_scores(content_terms(QUESTION))[0] < 0

    # WHEN spans are selected
    [span] = select_spans(
        QUESTION, [SearchHit(chunk=chunk, score=1.0)], max_spans=5, settings=WEIGHTED
    )

    # THEN the sentence is kept, scored positive (Lucene's idf is never negative)
    assert span.text == ANSWER and span.score > 0


def test_lexical_scores_are_bm25_relative_to_the_best() -> None:
    documents = [["backup", "kept"], ["backup"], ["badge"], []]
    scores = lexical_scores(["backup", "kept", "backup"], documents)
    assert scores[0] == pytest.approx(1.0)
    assert 0 < scores[1] < 1
    assert scores[2] == scores[3] == 0
    assert lexical_scores([], documents).tolist() == [0.0] * 4
    assert lexical_scores(["x"], [[], []]).tolist() == [0.0, 0.0]


def test_each_sentence_is_read_in_its_document() -> None:
    # GIVEN two documents whose header lines differ only in what the file name says
    plan = make_chunk(
        "Owner: Chief Information Security Officer. The plan is tested twice a year",
        doc_id="plan",
        file_name="incident-response-plan.pdf",
    )
    agreement = make_chunk(
        "Owner: Head of Procurement. The agreement runs for 3 years",
        doc_id="agreement",
        file_name="supplier-agreement.pdf",
    )
    found = [SearchHit(chunk=agreement, score=1.0), SearchHit(chunk=plan, score=1.0)]

    # WHEN the owner of the incident response plan is asked for
    spans = select_spans(
        "Who is the owner of the incident response plan?", found, max_spans=4, settings=WEIGHTED
    )

    # THEN the plan's owner line ranks first, though the agreement's was retrieved first
    assert spans[0].text == "Owner: Chief Information Security Officer"


def test_each_sentence_is_read_in_its_section() -> None:
    # GIVEN, under the heading "6. Legal hold", what a legal hold does and what owners confirm
    chunk = make_chunk(
        "A legal hold suspends deletion until the General Counsel lifts it. "
        "System owners must confirm within 2 business days that deletion has been suspended"
    )
    held = [s.model_copy(update={"section": "6. Legal hold"}) for s in chunk.sentences]
    found = [SearchHit(chunk=chunk.model_copy(update={"sentences": held}), score=1.0)]

    # WHEN asked how long there is to confirm a legal hold
    spans = select_spans(
        "How long do we have to confirm a legal hold?", found, max_spans=2, settings=WEIGHTED
    )

    # THEN the confirmation rule ranks first, with its section
    assert spans[0].text.startswith("System owners must confirm")
    assert spans[0].section == "6. Legal hold"


def test_with_an_embedder_a_paraphrase_is_evidence_too() -> None:
    # GIVEN an embedder for which the paraphrase means what the question asks
    fake = embedder()

    # WHEN spans are selected with it
    spans = select_spans(QUESTION, hits(), max_spans=10, embedder=fake, settings=WEIGHTED)

    # THEN the paraphrase (no shared word) is kept beside the lexical answer, with its place
    by_text = {span.text: span for span in spans}
    assert set(by_text) >= {ANSWER, PARAPHRASE}
    paraphrase = by_text[PARAPHRASE]
    assert RETENTION.text[paraphrase.start : paraphrase.end] == PARAPHRASE
    assert paraphrase.page == 3 and paraphrase.boxes and paraphrase.span_id == "retention:0:2"
    # AND the question and every candidate sentence were embedded in one call
    assert fake.calls == [[QUESTION, *(sentence.text for sentence in RETENTION.sentences)]]


def test_scores_combine_normalised_bm25_and_cosine_by_the_weights() -> None:
    # GIVEN only semantic weight: the paraphrase (cosine 1) leads
    semantic_only = RetrievalSettings(
        span_scorer="weighted", span_bm25_weight=0.0, span_chunk_weight=0.0
    )
    spans = select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=semantic_only)
    assert spans[0].text == PARAPHRASE and spans[0].score == pytest.approx(1.0)

    # AND equal weights: the answer = (1 + cos) / 2, the paraphrase = (0 + 1) / 2
    equal = RetrievalSettings(span_scorer="weighted", span_dense_weight=1.0, span_chunk_weight=0.0)
    scored = {
        s.text: s.score
        for s in select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=equal)
    }
    vectors = embedder().embed([QUESTION, ANSWER])
    assert scored[ANSWER] == pytest.approx((1 + float(vectors[0] @ vectors[1])) / 2, abs=1e-6)
    assert scored[PARAPHRASE] == pytest.approx(0.5)


def test_each_span_carries_its_cosine_with_the_question_and_none_without_an_embedder() -> None:
    # GIVEN spans selected with an embedder
    spans = select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=WEIGHTED)
    vectors = embedder().embed([QUESTION, ANSWER])
    by_text = {span.text: span.similarity for span in spans}
    # THEN each carries its cosine with the question, the answerer's floor reads it
    assert by_text[ANSWER] == pytest.approx(float(vectors[0] @ vectors[1]), abs=1e-6)
    assert by_text[PARAPHRASE] == pytest.approx(1.0)
    # AND without an embedder there is no cosine to carry
    assert {span.similarity for span in select_spans(QUESTION, hits(), 10)} == {None}


def test_a_zero_dense_weight_never_calls_the_embedder() -> None:
    fake = embedder()
    settings = RetrievalSettings(span_scorer="weighted", span_dense_weight=0.0)
    spans = select_spans(QUESTION, hits(), 10, embedder=fake, settings=settings)
    assert [span.text for span in spans] == [ANSWER] and fake.calls == []


def test_the_threshold_drops_weak_spans() -> None:
    # GIVEN spans kept at the default threshold, with an embedder
    kept = select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=WEIGHTED)
    weakest = min(span.score for span in kept)

    # WHEN the threshold is raised just above the weakest score
    settings = RetrievalSettings(span_scorer="weighted", span_threshold=weakest + 1e-6)
    stricter = select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=settings)

    # THEN exactly the spans below it are gone, and every kept score is in [threshold, 1]
    assert {s.text for s in stricter} == {s.text for s in kept if s.score > weakest}
    assert all(settings.span_threshold <= s.score <= 1 for s in stricter)


def test_a_better_ranked_chunk_lifts_its_sentence_over_an_equal_one() -> None:
    # GIVEN the same sentence in a strong chunk and in a weak one (different documents)
    strong = make_chunk(ANSWER, doc_id="strong")
    weak = make_chunk(ANSWER, doc_id="weak")
    ranked = [SearchHit(chunk=weak, score=1.0), SearchHit(chunk=strong, score=4.0)]

    # WHEN spans are selected
    spans = select_spans(QUESTION, ranked, max_spans=5, settings=WEIGHTED)

    # THEN the strong chunk's copy leads: score x (1 + 0.5 x 1) / 1.5 vs x (1 + 0.5 x 0.25) / 1.5
    assert [span.doc_id for span in spans] == ["strong", "weak"]
    assert spans[1].score == pytest.approx(spans[0].score * 1.125 / 1.5)


def test_a_relevance_scorer_reorders_the_sentences_by_its_probability() -> None:
    # GIVEN a scorer that finds the paraphrase, which shares no word with the question, the answer
    scorer = PinnedRelevance({PARAPHRASE: 0.9, ANSWER: 0.2})
    settings = RetrievalSettings()
    # WHEN spans are selected with it
    spans = select_spans(
        QUESTION, hits(), 10, embedder=embedder(), settings=settings, relevance=scorer
    )
    # THEN the paraphrase leads the hand-set score's favourite
    assert [span.text for span in spans[:2]] == [PARAPHRASE, ANSWER]
    without = select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=WEIGHTED)
    assert without[0].text == ANSWER


def test_the_reader_s_probability_is_the_span_s_score_and_what_it_answers() -> None:
    scorer = PinnedRelevance({ANSWER: 0.25})
    spans = select_spans(QUESTION, hits(), 10, embedder=embedder(), relevance=scorer)
    scored = {span.text: (span.score, span.answers) for span in spans}
    assert scored[ANSWER] == (0.25, 0.25)


def test_the_scorer_reads_only_the_shortlist_of_the_hand_set_score() -> None:
    # GIVEN a shortlist of one sentence
    scorer = PinnedRelevance(default=0.5)
    settings = RetrievalSettings(span_scorer="model", span_shortlist=1)
    # WHEN spans are selected
    spans = select_spans(QUESTION, hits(), 10, settings=settings, relevance=scorer)
    # THEN the model read the hand-set score's best sentence alone, and only it is evidence
    assert [passage.split(" | ")[0] for passage in scorer.asked] == [ANSWER]
    assert [span.text for span in spans] == [ANSWER]


def test_spans_the_model_finds_weak_stay_evidence_ranked_last() -> None:
    # GIVEN a scorer that gives every sentence but the answer almost nothing
    scorer = PinnedRelevance({ANSWER: 0.9}, default=1e-6)
    plain = select_spans(QUESTION, hits(), 10, embedder=embedder(), settings=WEIGHTED)
    spans = select_spans(
        QUESTION, hits(), 10, embedder=embedder(), settings=WEIGHTED, relevance=scorer
    )
    # THEN the hand-set score decides what is evidence, the model its order
    assert {span.text for span in spans} == {span.text for span in plain}
    assert spans[0].text == ANSWER
    assert all(span.score < 0.1 for span in spans[1:])

"""Reading model output: markers, <extract> tags, JSON, and quotes anchored in the evidence."""

from __future__ import annotations

import pytest

from certiq.answering.parsing import (
    EvidenceIds,
    alignment,
    anchor_quote,
    parse_json_sentences,
    parse_marked_text,
    parse_model_text,
)
from certiq.models import DraftQuote
from certiq.text import strip_markers
from tests.fakes import make_chunk, make_evidence

LOGS = "Logs are rotated weekly"
BACKUPS = "Backups of customer data are kept for 35 days"
BADGES = "Staff badges expire after one year"
EVIDENCE = make_evidence(make_chunk(f"{LOGS}. {BACKUPS}. {BADGES}", doc_id="policy"))
S1, S2, S3 = (span.span_id for span in EVIDENCE)


@pytest.fixture
def ids() -> EvidenceIds:
    return EvidenceIds(EVIDENCE)


def test_markers_cite_labels_and_span_ids_and_unknown_ids_are_dropped(ids: EvidenceIds) -> None:
    # GIVEN prose citing by label, by C-label, by span id, an unknown label and a non-citation
    text = f"Backups are kept 35 days [S2, S9]. Logs rotate weekly [C1][{S3}]. Badges [sic] expire."

    # WHEN it is parsed
    sentences = parse_marked_text(text, ids)

    # THEN each sentence cites what it named, the markers are gone, [sic] stays, S9 is dropped
    assert [(s.text, s.citation_ids) for s in sentences] == [
        ("Backups are kept 35 days.", [S2]),
        ("Logs rotate weekly.", [S1, S3]),
        ("Badges [sic] expire.", []),
    ]
    # AND each cited span is quoted exactly as the evidence has it
    assert sentences[1].quotes == [
        DraftQuote(span_id=S1, text=LOGS),
        DraftQuote(span_id=S3, text=BADGES),
    ]


def test_a_marker_after_the_full_stop_belongs_to_the_sentence_before(ids: EvidenceIds) -> None:
    sentences = parse_marked_text("Backups are kept 35 days. [S2] Logs rotate weekly. [S1]", ids)
    assert [(s.text, s.citation_ids) for s in sentences] == [
        ("Backups are kept 35 days.", [S2]),
        ("Logs rotate weekly.", [S1]),
    ]


def test_an_extract_quoted_verbatim_is_kept_and_anchored(ids: EvidenceIds) -> None:
    text = 'The policy says <extract ids="S2">kept for 35 days</extract>.'
    [sentence] = parse_marked_text(text, ids)
    assert sentence.text == "The policy says kept for 35 days."
    assert sentence.citation_ids == [S2]
    assert sentence.quotes == [DraftQuote(span_id=S2, text="kept for 35 days")]


def test_an_extract_differing_only_in_spacing_gets_the_evidence_text(ids: EvidenceIds) -> None:
    [sentence] = parse_marked_text('<extract ids="S2">Backups of  customer\ndata</extract>', ids)
    assert sentence.quotes == [DraftQuote(span_id=S2, text="Backups of customer data")]


def test_a_misquoted_extract_is_repaired_to_the_nearest_evidence_sentence(
    ids: EvidenceIds,
) -> None:
    # GIVEN an extract with a wrong word, citing two spans
    text = '<extract ids="S1, S2">Backups of client data are kept for 35 days</extract>'

    # WHEN parsed
    [sentence] = parse_marked_text(text, ids)

    # THEN the quote, and the text, become the evidence sentence it aligns with, exactly
    assert sentence.quotes == [DraftQuote(span_id=S2, text=BACKUPS)]
    assert sentence.text == BACKUPS and sentence.citation_ids == [S2]


def test_an_extract_found_in_no_cited_evidence_is_dropped_never_kept(ids: EvidenceIds) -> None:
    # GIVEN an extract whose words are not in the span it cites
    text = 'Also <extract ids="S1">Visitors must sign in at the front desk</extract>.'

    # WHEN parsed THEN its words cite nothing and carry no quote: it can never be verified
    [sentence] = parse_marked_text(text, ids)
    assert sentence.citation_ids == [] and sentence.quotes == []


def test_anchor_quote_tries_every_cited_span_and_refuses_a_fragment() -> None:
    assert anchor_quote("35 days", EVIDENCE) == DraftQuote(span_id=S2, text="35 days")
    # a short fragment with a typo is not a sentence: too little of the sentence to repair to
    assert anchor_quote("35 dayz", EVIDENCE) is None
    assert anchor_quote("", EVIDENCE) is None
    assert anchor_quote("Backups of customer data are kept for 35 days", []) is None


def test_alignment_scores_in_order_matches_and_penalises_fragments() -> None:
    assert alignment(BACKUPS, BACKUPS) == 1.0
    assert alignment(BACKUPS.upper(), BACKUPS) == 1.0
    assert alignment("kept", BACKUPS) < 0.25
    assert alignment("Backups of client data are kept for 35 days", BACKUPS) > 0.85


def test_json_sentences_resolve_ids_and_read_markers_left_in_the_text(ids: EvidenceIds) -> None:
    raw = (
        '```json\n{"sentences": [{"text": "Backups are kept 35 days [S1].",'
        ' "citation_ids": ["S2", "S7"]}, {"text": "Nothing else.", "citation_ids": []}]}\n```'
    )
    sentences = parse_json_sentences(raw, ids)
    assert sentences is not None
    assert [(s.text, s.citation_ids) for s in sentences] == [
        ("Backups are kept 35 days.", [S2, S1]),
        ("Nothing else.", []),
    ]
    assert [quote.text for quote in sentences[0].quotes] == [BACKUPS, LOGS]


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        '{"sentences": "Backups"}',
        '{"sentences": [{"citation_ids": ["S1"]}]}',
        '{"sentences": [{"text": "x", "citation_ids": "S1"}]}',
        '["S1"]',
    ],
)
def test_json_of_another_shape_is_not_taken_for_the_format(raw: str, ids: EvidenceIds) -> None:
    assert parse_json_sentences(raw, ids) is None


def test_model_text_falls_back_to_markers_when_the_json_is_malformed(ids: EvidenceIds) -> None:
    # GIVEN a reply that began as JSON and then ignored the format
    raw = '{"sentences": [ oops. Backups are kept for 35 days [S2].'

    # WHEN read THEN the marker still cites the span
    cited = [s for s in parse_model_text(raw, ids) if s.citation_ids]
    assert [s.citation_ids for s in cited] == [[S2]]


def test_strip_markers_keeps_brackets_that_are_not_citations() -> None:
    assert strip_markers("Kept 35 days [C1]. Logs [sic] rotate [S2, C3].") == (
        "Kept 35 days. Logs [sic] rotate."
    )

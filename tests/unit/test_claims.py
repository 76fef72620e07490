"""The claim compiler: rule-based splitting, hedge stripping, duplicates, the LLM fallback."""

from __future__ import annotations

import pytest

from certiq.config import PolicySettings
from certiq.errors import CertiqError
from certiq.models import Claim, Decision, RenderState
from certiq.trust.claims import (
    QUOTED,
    RULES,
    RuleSplitter,
    compile_claims,
    covers,
    field_labels,
    is_heading,
    is_statement,
    quoted_whole,
    strip_hedges,
)
from certiq.trust.policy import render, statements

SPLITTER = RuleSplitter()
POLICY = PolicySettings()


@pytest.mark.parametrize(
    ("sentence", "claims"),
    [
        (
            "Backups are encrypted and logs are kept for 90 days.",
            ["Backups are encrypted.", "Logs are kept for 90 days."],
        ),
        (
            "Backups are encrypted and stored in Frankfurt.",
            ["Backups are encrypted.", "Backups are stored in Frankfurt."],
        ),
        (
            "The service encrypts data and stores backups for 35 days.",
            ["The service encrypts data.", "The service stores backups for 35 days."],
        ),
        (
            "Backups are encrypted; logs rotate weekly.",
            ["Backups are encrypted.", "Logs rotate weekly."],
        ),
        (
            "Access is logged, but deletions are reviewed monthly.",
            ["Access is logged.", "Deletions are reviewed monthly."],
        ),
    ],
)
def test_rules_split_coordinated_clauses(sentence: str, claims: list[str]) -> None:
    # GIVEN a sentence joining two clauses / WHEN split / THEN one claim per clause
    assert SPLITTER.split(sentence) == claims


@pytest.mark.parametrize(
    "sentence",
    [
        "The kitchen stocks salt and pepper.",
        "Customers accept the terms and conditions.",
        "The policy covers names, emails and home addresses of users.",
        "Retention is between 3 and 5 days.",
        "Research and development are funded by grants.",
        "Patients had higher risk and worse outcomes.",
    ],
)
def test_rules_keep_noun_phrases_lists_and_ranges_whole(sentence: str) -> None:
    # GIVEN an "and" between noun phrases, not clauses / WHEN split / THEN one claim, unchanged
    assert SPLITTER.split(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "This policy explains how the company keeps and removes the data it holds.",
        "The service keeps and deletes backups on a schedule.",
        "Backups that hold customer data are encrypted and stored in Frankfurt.",
        "Staff must report when a laptop is lost and a replacement is issued.",
        "Where a breach is likely to result in a risk to people's rights and freedoms, the "
        "supervisory authority is notified within 72 hours.",
        "If a laptop is lost and it holds customer data, the DPO is told.",
    ],
)
def test_rules_keep_shared_objects_and_subordinate_clauses_whole(sentence: str) -> None:
    # GIVEN an "and" joining verbs that share one object, or inside a subordinate clause
    # WHEN split / THEN the sentence stays one claim (a half such as "Removes the data it
    # holds." would have no subject, and "how the company keeps." no object)
    assert SPLITTER.split(sentence) == [sentence]


def test_hedges_are_stripped_and_recorded() -> None:
    # GIVEN hedged sentences / WHEN stripped / THEN the plain assertion and the hedges found
    assert strip_hedges("Backups may be kept for 35 days.") == (
        "Backups be kept for 35 days.",
        ["may"],
    )
    assert strip_hedges("It seems that reportedly logs rotate weekly.") == (
        "Logs rotate weekly.",
        ["it seems that", "reportedly"],
    )
    # AND a word merely containing a hedge is left alone
    assert strip_hedges("Mayors could not be reached.") == ("Mayors not be reached.", ["could"])
    assert strip_hedges("Maybelline is a brand.") == ("Maybelline is a brand.", [])
    # AND the month stays: a vaguer claim would be easier to verify than the draft's
    assert strip_hedges("Backups were tested in May 2024.") == (
        "Backups were tested in May 2024.",
        [],
    )
    assert strip_hedges("It may rain in May.") == ("It rain in May.", ["may"])


def sentence(text: str, *citation_ids: str) -> Claim:
    return Claim(id="K1", text=text, citation_ids=list(citation_ids))


def test_compile_keeps_citations_source_and_hedges_on_each_claim() -> None:
    # GIVEN a hedged two-clause sentence citing C1 and C2
    draft = [sentence("Backups may be encrypted and logs are kept for 90 days.", "C1", "C2")]
    # WHEN compiled
    claims = compile_claims(draft)
    # THEN two claims, numbered K1.., each with the sentence's citations and source as written
    assert [c.id for c in claims] == ["K1", "K2"]
    assert [c.text for c in claims] == ["Backups be encrypted.", "Logs are kept for 90 days."]
    assert all(c.citation_ids == ["C1", "C2"] for c in claims)
    assert all(c.source == draft[0].text and c.compiled_by == RULES for c in claims)
    assert [c.hedges for c in claims] == [["may"], []]


def test_compile_drops_duplicates_and_merges_their_citations() -> None:
    # GIVEN two sentences stating the same claim (once hedged) with different citations
    draft = [
        sentence("Logs are rotated weekly.", "C1"),
        sentence("Backups are encrypted and logs are possibly rotated weekly.", "C2"),
    ]
    # WHEN compiled
    claims = compile_claims(draft)
    # THEN the repeat is judged once, on the citations of both
    assert [(c.text, c.citation_ids) for c in claims] == [
        ("Logs are rotated weekly.", ["C1", "C2"]),
        ("Backups are encrypted.", ["C2"]),
    ]


def test_compile_passes_compiled_claims_through_unchanged() -> None:
    # GIVEN claims compiled once (Verify may run again on a retry)
    once = compile_claims([sentence("Backups are encrypted and logs are kept for 90 days.", "C1")])
    # WHEN compiled again / THEN nothing changes
    assert compile_claims(once) == once


class FailingSplitter:
    name = "llm:fake"

    def split(self, sentence: str) -> list[str]:
        raise CertiqError("the model refused")


class ListSplitter:
    name = "llm:fake"

    def __init__(self, claims: list[str]) -> None:
        self._claims = claims

    def split(self, sentence: str) -> list[str]:
        return self._claims


def test_a_failing_llm_splitter_falls_back_to_rules_and_says_why() -> None:
    # GIVEN an LLM splitter that fails / WHEN a sentence is compiled
    claims = compile_claims(
        [sentence("Backups are encrypted and logs are kept for 90 days.", "C1")], FailingSplitter()
    )
    # THEN the rules split it, and each claim records the failure
    assert [c.text for c in claims] == ["Backups are encrypted.", "Logs are kept for 90 days."]
    assert all(c.compiled_by == "rules (llm:fake failed: the model refused)" for c in claims)


def test_an_empty_llm_answer_falls_back_to_rules() -> None:
    claims = compile_claims([sentence("Logs rotate weekly.", "C1")], ListSplitter([]))
    assert [c.text for c in claims] == ["Logs rotate weekly."]
    assert claims[0].compiled_by == "rules (llm:fake returned no claims)"


def test_llm_claims_are_normalised_like_rule_claims() -> None:
    # GIVEN an LLM that returns a hedged claim twice / WHEN compiled / THEN stripped and deduped
    claims = compile_claims(
        [sentence("Logs might rotate weekly, as logs rotate weekly.", "C1")],
        ListSplitter(["Logs might rotate weekly.", "Logs rotate weekly."]),
    )
    assert [(c.text, c.hedges, c.compiled_by) for c in claims] == [
        ("Logs rotate weekly.", ["might"], "llm:fake")
    ]


def decided(claim: Claim, state: RenderState, *evidence: str) -> Claim:
    decision = Decision(
        state=state,
        entail=1.0 if state is RenderState.VERIFIED else 0.0,
        contradict=1.0 if state is RenderState.BLOCKED else 0.0,
        evidence=list(evidence),
        verifier="lexical",
        reason="test",
    )
    return claim.model_copy(update={"decision": decision})


def test_render_shows_a_fully_verified_sentence_as_written() -> None:
    # GIVEN a hedged sentence whose two claims are both verified on C1 and C2
    first, second = compile_claims(
        [sentence("Backups may be encrypted and logs are kept for 90 days.", "C1", "C2")]
    )
    claims = [
        decided(first, RenderState.VERIFIED, "C1"),
        decided(second, RenderState.VERIFIED, "C2"),
    ]
    # WHEN rendered / THEN the sentence reads as drafted, hedge kept, with both citations
    assert render(claims, POLICY) == (
        "Backups may be encrypted and logs are kept for 90 days. [C1] [C2]"
    )


def test_a_sentence_with_a_blocked_claim_is_withheld_whole_and_says_why() -> None:
    # GIVEN a sentence with one verified claim and one contradicted claim
    first, second = compile_claims(
        [sentence("Backups are encrypted and logs are kept for 90 days.", "C1", "C2")]
    )
    claims = [
        decided(first, RenderState.VERIFIED, "C1"),
        decided(second, RenderState.BLOCKED, "C2"),
    ]
    # WHEN rendered / THEN no fragment of it shows, and it is listed as withheld with the
    # blocked claim's reason and evidence
    assert render(claims, POLICY) == ""
    (withheld,) = statements(claims, POLICY)
    assert (withheld.text, withheld.state, withheld.shown) == (
        "Backups are encrypted and logs are kept for 90 days.",
        RenderState.BLOCKED,
        False,
    )
    assert withheld.citation_ids == ["C2"]
    assert withheld.claim_ids == ["K1", "K2"]


def test_a_partly_unverified_sentence_is_shown_whole_and_marked_in_the_drafts_words() -> None:
    # GIVEN a split hedged sentence whose hedged claim is verified and whose other claim is not
    first, second = compile_claims(
        [sentence("Backups may be encrypted and logs are kept for 90 days.", "C1")]
    )
    claims = [
        decided(first, RenderState.VERIFIED, "C1"),
        decided(second, RenderState.UNVERIFIED),
    ]
    # WHEN rendered / THEN the sentence shows as drafted, hedge kept, marked unverified
    assert render(claims, POLICY) == (
        "Backups may be encrypted and logs are kept for 90 days. [C1] (unverified)"
    )
    # AND when the policy drops unverified claims it is withheld, not cut down
    drop = POLICY.model_copy(update={"unverified": "drop"})
    assert render(claims, drop) == ""
    assert [(s.shown, s.state) for s in statements(claims, drop)] == [
        (False, RenderState.UNVERIFIED)
    ]


def test_render_never_shows_a_sentence_its_claims_do_not_cover() -> None:
    # GIVEN an LLM decomposition that left out part of the sentence, all claims verified
    (claim,) = compile_claims(
        [sentence("Backups are encrypted and shipped to Mars.", "C1")],
        ListSplitter(["Backups are encrypted."]),
    )
    # WHEN rendered / THEN the sentence shows as drafted but is not VERIFIED: half of it was
    # never judged, and the judged half is never shown in its place
    assert render([decided(claim, RenderState.VERIFIED, "C1")], POLICY) == (
        "Backups are encrypted and shipped to Mars. [C1] (unverified)"
    )
    assert not covers("Backups are encrypted and shipped to Mars.", [claim])


@pytest.mark.parametrize(
    "line",
    [
        "2. Accounts and passwords",
        "Data Retention Policy",
        "Northwind Analytics Ltd. | Data Retention Policy Internal",
        "Northwind Analytics Ltd.",
        "Page 3 of 7",
        "Backups | 35 days | Operations",
        "4.2 Deletion from backups",
        "Section 2: Scope",  # no full stop: a heading, not a field
        "Figure 2.",  # a caption's label, not a field
        "Page 3.",
        "Data Retention Policy 2024.",  # a title with a year
    ],
)
def test_titles_headings_headers_and_table_rows_are_not_statements(line: str) -> None:
    assert not is_statement(line)


@pytest.mark.parametrize(
    "line",
    [
        "Passwords must be at least 14 characters long and must not be reused across services.",
        "Backups expire after 35 days.",
        "CCTV footage from the Leeds office is overwritten after 30 days.",
        "Customer account data is kept for the duration of the contract",  # a bullet, no stop
        '"Personal data" means any information relating to a person."',
        "Owner: Chief Information Security Officer.",  # a header field states its value
        "Version 1.4.",  # so does a label with a number or a date
        "Effective 1 March 2024.",
        "Last reviewed January 2025.",
    ],
)
def test_sentences_and_bullets_are_statements(line: str) -> None:
    assert is_statement(line)


@pytest.mark.parametrize(
    "line", ["6. Legal hold", "4.2 Deletion from backups", "Data Retention Policy", "II. Terms"]
)
def test_a_heading_is_a_short_line_stating_nothing(line: str) -> None:
    assert is_heading(line)


@pytest.mark.parametrize(
    "line",
    [
        "Backups expire after 35 days.",  # a statement
        "Owner: Data Protection Officer.",  # a header field states its value
        "Version 3.2 Page 2",  # a short document's running footer
        "Page 3 of 7",
        "12",
        "The following are not allowed:",  # a list's lead-in
        "\u2022 Shared accounts",  # a list's item
        "shared accounts and passwords",  # an item cut from its lead-in
        "This line is far too long to be the heading of a section in any document one reads",
    ],
)
def test_statements_page_labels_and_list_lines_are_no_headings(line: str) -> None:
    assert not is_heading(line)


def test_a_sentence_quoted_word_for_word_is_judged_whole_with_its_hedge() -> None:
    # GIVEN an offline answer's sentence quoting its evidence, hedge and all
    text = "Every incident is given a severity, and the severity may change as more is learned."
    # WHEN marked against its quote and compiled
    (claim,) = compile_claims([quoted_whole(sentence(text, "C1"), [text])])
    # THEN it is one claim in the document's words: never split, never dehedged
    assert (claim.text, claim.source, claim.hedges, claim.compiled_by) == (text, text, [], QUOTED)


def test_a_sentence_that_is_not_its_quote_is_still_split() -> None:
    draft = sentence("Backups are encrypted and logs are kept for 90 days.", "C1")
    marked = quoted_whole(draft, ["Backups are encrypted."])
    assert len(compile_claims([marked])) == 2


@pytest.mark.parametrize(
    ("line", "labels"),
    [
        ("Owner: Chief Information Security Officer.", ["Owner"]),
        ("Version 1.4.", ["Version"]),
        ("Last reviewed January 2025.", ["Last reviewed"]),
        ("Employee name: Jane Smith; Start date: 2026-01-05.", ["Employee name", "Start date"]),
        ("Mobile services: we collect your location.", []),  # a run-in heading
        ("Backups expire after 35 days.", []),
        ("Data Retention Policy", []),
    ],
)
def test_a_header_field_is_known_by_its_label(line: str, labels: list[str]) -> None:
    assert field_labels(line) == labels

"""What the offline answer shows, chosen by certiq's reader, on policies the tests make.

Each question runs the whole state machine with the product's defaults (the offline answerer,
the shipped reader and its settings, MiniLM retrieval) over four PDFs: two organisations'
privacy policies, a security policy and a recruitment policy. None of these documents or
questions is in the reader's training data (scripts/reader_data.py).
"""

from __future__ import annotations

import pytest

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.config import ReuseSettings, Settings
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.models import AnswerOutcome, QAResponse
from certiq.questions import receive
from tests.conftest import build_pdf

HONDA_KEEPS = (
    "We keep your personal information for six years after your last purchase from Honda, "
    "and then delete it."
)
ROCKSTAR_KEEPS = (
    "Rockstar Games retains your personal information for as long as your account is open and "
    "for 90 days after it is closed."
)
MIN_LENGTH = "Passwords must be at least 14 characters long."
CVS_DELETED = (
    "CVs of candidates who are not offered a position are deleted six months after the "
    "recruitment campaign closes."
)
DOCUMENTS = {
    "honda-privacy-policy.pdf": [
        [
            "Honda Motor Europe privacy policy.",
            "This policy explains how Honda Motor Europe uses the personal information of its "
            "customers.",
            "We use your contact details to arrange servicing and to tell you about recalls.",
            HONDA_KEEPS,
        ]
    ],
    "rockstar-games-privacy-policy.pdf": [
        [
            "Rockstar Games privacy policy.",
            "This policy explains how Rockstar Games uses the personal information of players.",
            "We use your gameplay data to match you with other players online.",
            ROCKSTAR_KEEPS,
        ]
    ],
    "information-security-policy.pdf": [
        [
            "Information security policy.",
            "Every employee must lock their screen when they leave their desk.",
            MIN_LENGTH,
            "A password that has appeared in a known data breach must be changed at once.",
            "Laptops are encrypted with BitLocker before they are issued.",
        ]
    ],
    "recruitment-policy.pdf": [
        [
            "Recruitment policy.",
            "Every vacancy is advertised internally for one week before it is advertised "
            "externally.",
            "Interview panels have at least two members, one of them from HR.",
            CVS_DELETED,
        ]
    ],
}


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> Deps:
    home = tmp_path_factory.mktemp("reader-answers")
    deps = build_deps(Settings(home=home, reuse=ReuseSettings(enabled=False)))
    assert deps.relevance is not None, "the shipped reader must load"
    for name, pages in DOCUMENTS.items():
        upload = Upload(
            data=build_pdf(pages), file_name=name, uri=f"file:///{name}", tenant="default"
        )
        assert ingest(upload, deps).status.value == "INDEXED"
    return deps


def ask(question: str, deps: Deps) -> QAResponse:
    state = receive(question, deps)
    LocalRuntime(deps).run(state)
    record = deps.questions.get(state.question_id)
    assert record is not None and record.response is not None
    return record.response


def shown(response: QAResponse) -> list[str]:
    return [statement.text for statement in response.statements if statement.shown]


def shown_files(response: QAResponse) -> set[str]:
    cited = {cid for s in response.statements if s.shown for cid in s.citation_ids}
    return {c.file_name for c in response.citations if c.id in cited}


@pytest.mark.parametrize(
    ("question", "answer", "file_name"),
    [
        pytest.param(
            "how long does honda keep my personal information",
            HONDA_KEEPS,
            "honda-privacy-policy.pdf",
            # Known miss (models/reader/MODEL_CARD.md): the reader ranks Honda's sentence first
            # (0.18) and Rockstar's second (0.15), both below min_answer, so it says not stated.
            marks=pytest.mark.xfail(strict=True, reason="the reader's 0.18 is below min_answer"),
        ),
        (
            "how long does rockstar keep my personal information",
            ROCKSTAR_KEEPS,
            "rockstar-games-privacy-policy.pdf",
        ),
    ],
)
def test_a_question_naming_an_organisation_is_answered_from_its_own_document(
    question: str, answer: str, file_name: str, deps: Deps
) -> None:
    response = ask(question, deps)
    assert answer in shown(response)
    assert shown_files(response) == {file_name}


def test_a_question_naming_an_organisation_with_no_document_is_not_answered_from_another(
    deps: Deps,
) -> None:
    response = ask("how long does nintendo keep my personal information", deps)
    assert shown(response) == []  # no document is Nintendo's
    assert response.outcome is AnswerOutcome.NOT_STATED


@pytest.mark.parametrize(
    ("asked", "as_typed"),
    [
        ("whats the min password length", "whats the min pasword length"),
        (
            "how long does my password need to be",
            "how long does my password need to be - asked by user",
        ),
    ],
)
def test_a_typo_or_a_trailing_note_leaves_the_answer_unchanged(
    asked: str, as_typed: str, deps: Deps
) -> None:
    plain = ask(asked, deps)
    assert MIN_LENGTH in shown(plain)
    assert shown(ask(as_typed, deps)) == shown(plain)


# Known miss (models/reader/MODEL_CARD.md): the CV sentence is the reader's first (0.15, the next
# 0.04), but below min_answer, so the answer says not stated and offers it as related reading.
@pytest.mark.xfail(strict=True, reason="the reader's 0.15 is below min_answer")
def test_how_long_cvs_of_people_not_hired_are_kept_is_answered(deps: Deps) -> None:
    response = ask("how long do we keep CVs of people we didnt hire", deps)
    assert shown(response) == [CVS_DELETED]
    [statement] = [s for s in response.statements if s.shown]
    assert statement.answers_question is not None
    assert statement.answers_question >= deps.settings.answer.min_answer


def test_a_question_the_reader_ranks_but_finds_unlikely_offers_its_sentence_as_reading(
    deps: Deps,
) -> None:
    response = ask("how long do we keep CVs of people we didnt hire", deps)
    assert response.outcome is AnswerOutcome.NOT_STATED
    assert response.related and response.related[0].text == CVS_DELETED


def test_a_question_the_documents_do_not_answer_says_so(deps: Deps) -> None:
    response = ask("Does the company offer a cycle-to-work scheme?", deps)
    assert response.outcome is AnswerOutcome.NOT_STATED
    assert shown(response) == []

"""A model's answer in its own words, judged on meaning by certiq's shipped verifier.

The policy is a PDF the test makes; the answer comes from OpenAI's HTTP-level fake, written as an
LLM writes: the policy restated in other words, or restated with one fact changed (a number, a
negation, the person who decides, a deadline), or a sentence about something the cited passage
does not say. Each runs the whole state machine with the default verifier (the shipped model and
its calibration) and is read back where users meet it: the API's response and `certiq ask`.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import AnswerSettings, Settings
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.models import RenderState
from tests.conftest import MakePdf
from tests.pipeline.test_api import running
from tests.provider_fakes import ProviderServer, llm_settings, openai_stating

pytestmark = pytest.mark.usefixtures("provider_keys")

BACKUPS = "Backups of customer data are kept for 35 days."
LAPTOPS = "Employees must report a lost laptop to the IT service desk within 24 hours."
EXTENSIONS = (
    "Only the Data Protection Officer may approve keeping records beyond their retention period."
)
EXPENSES = "Expense claims must be submitted by the 5th day of the following month."
POLICY = [["Information handling policy.", BACKUPS, LAPTOPS], [EXTENSIONS, EXPENSES]]
QUESTION = "What does the policy say about backups, lost laptops, record extensions and expenses?"

VERIFIED, BLOCKED, UNVERIFIED = RenderState.VERIFIED, RenderState.BLOCKED, RenderState.UNVERIFIED
# (the model's sentence, words of the passage it cites, the state it must end in)
CASES = {
    "paraphrase": ("Customer data backups are retained for 35 days.", "35 days", VERIFIED),
    "paraphrase of a duty": (
        "A lost laptop has to be reported to the IT service desk within 24 hours.",
        "lost laptop",
        VERIFIED,
    ),
    "flipped number": ("Customer data backups are retained for 90 days.", "35 days", BLOCKED),
    "negation": (
        "Employees do not have to report a lost laptop to the IT service desk.",
        "lost laptop",
        BLOCKED,
    ),
    "role": (
        "Only the IT service desk may approve keeping records beyond their retention period.",
        "retention period",
        BLOCKED,
    ),
    "deadline": (
        "Expense claims must be submitted by the 20th day of the following month.",
        "Expense claims",
        BLOCKED,
    ),
    "something else": (
        "Customer data backups are stored in the Frankfurt region.",
        "35 days",
        UNVERIFIED,
    ),
}


def openai_env(server: ProviderServer, home: Path) -> dict[str, str]:
    return {
        "CERTIQ_HOME": str(home),
        "CERTIQ_ANSWER__PROVIDERS": '["openai"]',
        "CERTIQ_LLM__OPENAI_BASE_URL": server.openai_url,
        "CERTIQ_LLM__MAX_RETRIES": "0",
    }


@pytest.fixture
def deps(tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf) -> Deps:
    """OpenAI answering on the fake, the default verifier, and the policy indexed."""
    settings = Settings(
        home=tmp_path / "home",
        answer=AnswerSettings(providers=["openai"]),
        llm=llm_settings(provider_server),
    )
    deps = build_deps(settings)
    upload = Upload(
        data=make_pdf(POLICY), file_name="policy.pdf", uri="file:///policy.pdf", tenant="default"
    )
    assert ingest(upload, deps).status.value == "INDEXED"
    return deps


@pytest.mark.parametrize("case", list(CASES))
def test_a_statement_is_judged_on_what_it_means_through_the_api(
    case: str, deps: Deps, provider_server: ProviderServer
) -> None:
    # GIVEN a model answering in its own words, citing the passage the sentence is about
    sentence, cited_words, expected = CASES[case]
    provider_server.responder = openai_stating([(sentence, cited_words)])
    # WHEN the question is asked through the API and the state machine
    with contextmanager(running)(deps, []) as api:
        response: dict[str, Any] = api.ask(QUESTION)
    # THEN the sentence ends in the state its meaning earns, judged by the shipped model
    [statement] = response["statements"]
    assert statement["text"] == sentence
    assert (statement["state"], statement["shown"]) == (expected.value, expected is not BLOCKED)
    assert sentence[:-1] not in response["answer"] or expected is not BLOCKED
    if expected is BLOCKED:  # withheld, with the reason and the quote that overruled it
        assert statement["reason"].startswith("the cited evidence contradicts this claim")
        quotes = {c["id"]: c["quote"] for c in response["citations"]}
        assert any(cited_words in quotes[cid] for cid in statement["citation_ids"])
    verdicts = [claim["decision"] for claim in response["claims"]]
    assert all(v["verifier"].startswith("nli:certiq-verifier") for v in verdicts)


def test_certiq_ask_shows_the_paraphrase_and_withholds_the_changed_fact(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN the CLI answering with OpenAI on the fake: one faithful paraphrase, one changed fact
    faithful, _, _ = CASES["paraphrase of a duty"]
    changed, _, _ = CASES["flipped number"]
    provider_server.responder = openai_stating([(faithful, "lost laptop"), (changed, "35 days")])
    pdf = tmp_path / "policy.pdf"
    pdf.write_bytes(make_pdf(POLICY))
    env = openai_env(provider_server, tmp_path / "home")
    assert CliRunner().invoke(main, ["ingest", str(pdf)], env=env).exit_code == 0
    # WHEN a question is asked
    result = CliRunner().invoke(main, ["ask", QUESTION], env=env)
    # THEN the paraphrase is the answer and the changed fact is listed as withheld, with why
    assert result.exit_code == 0, result.output
    answer = result.output.split("Answer:\n", 1)[1].split("\n\n", 1)[0]
    assert faithful[:-1] in answer and changed[:-1] not in answer
    assert "Withheld: 1 statement withheld: its source says otherwise" in result.output
    assert f"BLOCKED: {changed}" in result.output

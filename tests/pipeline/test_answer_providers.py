"""Answering through each provider, in the whole state machine, against the providers' HTTP fake.

The real anthropic and openai SDKs talk to tests/provider_fakes.py's server, which answers in
the documented shapes, computing each reply from the request (the evidence it was sent), as the
services would. Settings point the SDKs at it; certiq.bootstrap builds the chain from settings.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from certiq.adapters.local.orchestrator import LocalRun, LocalRuntime
from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import AnswerProvider, AnswerSettings, Settings
from certiq.deps import Deps
from certiq.ingestion.service import Upload, ingest
from certiq.models import QuestionStatus, RenderState
from certiq.questions import receive
from certiq.trust.certificate import check
from tests.conftest import SCHEDULE_ROWS, MakePdf, build_table_pdf
from tests.provider_fakes import (
    ProviderServer,
    Reply,
    anthropic_citing,
    anthropic_error,
    anthropic_message,
    anthropic_text,
    anthropic_usage,
    by_provider,
    llm_settings,
    openai_citing,
    openai_error,
)

pytestmark = pytest.mark.usefixtures("provider_keys")

FACT = "Backups of customer data are kept for 35 days."
OTHER = "The office is closed on public holidays."
QUESTION = "How long are backups of customer data kept?"
ANSWER_WORDS = "35 days"


claude = anthropic_citing(ANSWER_WORDS, input_tokens=420, output_tokens=35, cache_read=1100)
gpt = openai_citing(
    ANSWER_WORDS, "Backups are kept for 35 days.", prompt_tokens=610, completion_tokens=28
)
by_path = by_provider(claude, gpt)


def local_deps(
    home: Path,
    server: ProviderServer,
    make_pdf: MakePdf,
    providers: list[AnswerProvider],
    **llm: object,
) -> Deps:
    settings = Settings(
        home=home,
        answer=AnswerSettings(providers=providers),
        llm=llm_settings(server, **llm),
    )
    deps = build_deps(settings)
    upload = Upload(
        data=make_pdf([["Retention policy.", FACT, OTHER]]),
        file_name="retention.pdf",
        uri="file:///retention.pdf",
        tenant=settings.tenant,
    )
    assert ingest(upload, deps).status.value == "INDEXED"
    return deps


def ask(deps: Deps, question: str = QUESTION, conversation_id: str | None = None) -> LocalRun:
    state = receive(question, deps, conversation_id=conversation_id)
    return LocalRuntime(deps, sleep=lambda seconds: None).run(state)


@pytest.mark.parametrize("provider", ["anthropic", "openai", "extractive"])
def test_each_answerer_answers_with_quotes_found_verbatim_in_the_cited_chunks(
    provider: AnswerProvider,
    tmp_path: Path,
    provider_server: ProviderServer,
    make_pdf: MakePdf,
) -> None:
    # GIVEN an indexed policy and the chain made of one answerer
    provider_server.responder = by_path
    deps = local_deps(tmp_path, provider_server, make_pdf, [provider])

    # WHEN a question runs through the whole state machine
    run = ask(deps)

    # THEN it completes, answered by that provider, and the fact is shown verified
    assert run.execution.status == "SUCCEEDED"
    record = deps.questions.get(run.state.question_id)
    assert record is not None and record.status is QuestionStatus.COMPLETE
    response = record.response
    assert response is not None and response.answerer == provider
    assert response.provider_failures == []
    assert ANSWER_WORDS in response.answer
    assert any(c.decision and c.decision.state is RenderState.VERIFIED for c in response.claims)
    # AND every rendered citation's quote is found verbatim in its cited chunk, where it says
    assert response.citations
    chunks = deps.index.get_chunks(run.state.tenant, [c.chunk_id for c in response.citations])
    for citation in response.citations:
        chunk_text = chunks[citation.chunk_id].text
        assert citation.quote in chunk_text
        assert chunk_text[citation.start : citation.end] == citation.quote
        assert citation.valid is True
    # AND usage is in the state, the response and the sealed certificate
    usage = run.state.usage
    assert usage is not None and usage.answerer == provider
    assert [call.provider for call in usage.calls] == (
        [] if provider == "extractive" else [provider]
    )
    certificate = deps.certificates.get(response.certificate_id or "")
    assert certificate is not None and certificate.usage == usage == response.usage
    assert check(certificate, deps.signer).valid
    if provider == "anthropic":
        assert (usage.input_tokens, usage.cache_read_input_tokens) == (1520, 1100)
    if provider == "openai":
        assert (usage.input_tokens, usage.output_tokens) == (610, 28)


def test_with_the_primary_failing_every_call_the_fallback_answers_and_the_failure_is_named(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN Claude failing every request with a 500, one SDK retry, then OpenAI, then offline
    provider_server.responder = by_provider(
        lambda request: anthropic_error(500, "api_error", "Internal server error"), gpt
    )
    deps = local_deps(
        tmp_path, provider_server, make_pdf, ["anthropic", "openai", "extractive"], max_retries=1
    )

    # WHEN a question runs
    run = ask(deps)

    # THEN it completes through OpenAI after the SDK tried Claude twice
    assert run.execution.status == "SUCCEEDED"
    assert provider_server.paths() == ["/v1/messages", "/v1/messages", "/v1/chat/completions"]
    assert run.state.answerer == "openai"
    # AND the state and the response name the failure
    [failure] = run.state.provider_failures
    assert (failure.provider, failure.error) == ("anthropic", "TransientError")
    assert "HTTP 500" in failure.message
    record = deps.questions.get(run.state.question_id)
    assert record is not None and record.response is not None
    assert record.response.provider_failures == [failure]
    assert record.response.answerer == "openai" and ANSWER_WORDS in record.response.answer


def test_when_every_provider_fails_the_question_fails_naming_each(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN both providers refusing every request, and no offline answerer in the chain
    provider_server.responder = by_provider(
        lambda request: anthropic_error(401, "authentication_error", "invalid x-api-key"),
        lambda request: openai_error(400, "invalid_request_error", "model not found"),
    )
    deps = local_deps(tmp_path, provider_server, make_pdf, ["anthropic", "openai"])

    # WHEN a question runs
    run = ask(deps)

    # THEN the Catch records FAILED with a reason naming both failures
    assert run.execution.status == "FAILED"
    record = deps.questions.get(run.state.question_id)
    assert record is not None and record.status is QuestionStatus.FAILED
    assert record.reason is not None and record.reason.startswith("ProviderError")
    assert "anthropic ProviderError" in record.reason and "HTTP 401" in record.reason
    assert "openai ProviderError" in record.reason and "HTTP 400" in record.reason


def test_a_spent_token_budget_falls_through_to_the_extractive_answerer(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN a budget smaller than Claude's first (unusable) answer
    provider_server.responder = lambda request: Reply(
        200,
        anthropic_message(
            [anthropic_text("I am not sure.")], usage=anthropic_usage(input_tokens=900)
        ),
    )
    deps = local_deps(tmp_path, provider_server, make_pdf, ["anthropic", "openai"])
    deps = build_deps(
        deps.settings.model_copy(
            update={"answer": AnswerSettings(providers=["anthropic", "openai"], token_budget=500)}
        )
    )

    # WHEN a question runs
    run = ask(deps)

    # THEN OpenAI is never called and the offline answerer answers, the budget named
    assert provider_server.paths() == ["/v1/messages"]
    assert run.state.answerer == "extractive" and ANSWER_WORDS in run.state.answer
    assert [(f.provider, f.error) for f in run.state.provider_failures] == [
        ("anthropic", "UnusableOutput"),
        ("openai", "TokenBudgetExhausted"),
    ]
    assert run.state.usage is not None and run.state.usage.input_tokens == 900


def test_a_follow_up_sends_the_earlier_turn_as_prior_messages(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN a first question answered by OpenAI in a conversation
    provider_server.responder = by_path
    deps = local_deps(tmp_path, provider_server, make_pdf, ["openai"])
    first = ask(deps, QUESTION, conversation_id="conv-7")
    assert first.state.status is QuestionStatus.COMPLETE

    # WHEN a follow-up is asked in the same conversation
    ask(deps, "Are backups of customer data deleted after they expire?", "conv-7")

    # THEN its request carries the first question and its answer, markers removed, before it
    messages = provider_server.requests[-1].body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[1]["content"] == QUESTION
    assert messages[2]["content"] == "Backups are kept for 35 days."


def test_certiq_ask_says_which_provider_answered_and_what_it_cost(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN the CLI configured with Claude (failing every call), then OpenAI, by environment
    provider_server.responder = by_provider(
        lambda request: anthropic_error(529, "overloaded_error", "Overloaded"), gpt
    )
    pdf = tmp_path / "retention.pdf"
    pdf.write_bytes(make_pdf([["Retention policy.", FACT, OTHER]]))
    env = {
        "CERTIQ_HOME": str(tmp_path / "home"),
        "CERTIQ_ANSWER__PROVIDERS": '["anthropic", "openai"]',
        "CERTIQ_LLM__ANTHROPIC_BASE_URL": provider_server.anthropic_url,
        "CERTIQ_LLM__OPENAI_BASE_URL": provider_server.openai_url,
        "CERTIQ_LLM__MAX_RETRIES": "0",
    }
    assert CliRunner().invoke(main, ["ingest", str(pdf)], env=env).exit_code == 0

    # WHEN a question is asked
    result = CliRunner().invoke(main, ["ask", QUESTION], env=env)

    # THEN the output names the fallback, the failure, and the tokens spent
    assert result.exit_code == 0, result.output
    assert "Answered by: openai (fallback)" in result.output
    assert "anthropic did not answer: TransientError: anthropic draft: HTTP 529" in result.output
    assert "Model usage: 610 input tokens (0 from cache), 28 output" in result.output


def test_a_model_citing_a_table_row_is_judged_on_the_row_under_its_header(
    tmp_path: Path, provider_server: ProviderServer
) -> None:
    # GIVEN a retention schedule set as a table, and a model that answers from the CCTV row
    header, *_, cctv = SCHEDULE_ROWS
    provider_server.responder = openai_citing("30 days", "CCTV footage is kept for 30 days.")
    settings = Settings(
        home=tmp_path,
        answer=AnswerSettings(providers=["openai"]),
        llm=llm_settings(provider_server),
    )
    deps = build_deps(settings)
    upload = Upload(
        data=build_table_pdf(),
        file_name="schedule.pdf",
        uri="file:///schedule.pdf",
        tenant=settings.tenant,
    )
    assert ingest(upload, deps).status.value == "INDEXED"
    # WHEN asked how long CCTV footage is kept
    run = ask(deps, "How long is CCTV footage kept?")
    # THEN the model was shown the row with its cells named
    request = provider_server.requests[-1]
    shown = request.body["messages"][-1]["content"]
    assert "a row of a table: Record type: CCTV footage; Retention period: 30 days" in shown
    # AND its statement cites the row, whose cells travel with the citation into the certificate
    record = deps.questions.get(run.state.question_id)
    assert record is not None and record.response is not None
    [citation] = record.response.citations
    assert citation.quote == " ".join(cctv)
    assert citation.cells is not None
    assert [(cell.column, cell.text) for cell in citation.cells] == list(
        zip(header, cctv, strict=True)
    )
    assert citation.read_as.startswith("Record type: CCTV footage. Retention period: 30 days")
    certificate = deps.certificates.get(record.response.certificate_id or "")
    assert certificate is not None and certificate.citations[0].cells == citation.cells
    assert check(certificate, deps.signer).valid


def test_a_statement_citing_a_passage_about_something_else_is_unverified_and_says_why(
    tmp_path: Path, provider_server: ProviderServer, make_pdf: MakePdf
) -> None:
    # GIVEN a model that states the backup rule but cites the passage on public holidays
    provider_server.responder = openai_citing("public holidays", "Backups last 35 days.")
    deps = local_deps(tmp_path, provider_server, make_pdf, ["openai"])
    # WHEN asked, through the whole state machine
    run = ask(deps, "How long are backups kept, and when is the office closed?")
    # THEN the statement is neither verified nor blocked on that passage's say: it is
    # unverified, and the reason says the passage shares no word with it
    record = deps.questions.get(run.state.question_id)
    assert record is not None and record.response is not None
    [statement] = record.response.statements
    assert statement.text == "Backups last 35 days."
    assert statement.state is RenderState.UNVERIFIED
    assert "the evidence shares no word with this claim" in statement.reason

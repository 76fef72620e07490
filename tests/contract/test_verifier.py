"""The Verifier and ClaimSplitter ports, on every adapter: lexical (both shipped models), the
LLM judge over each provider (HTTP fake), the local NLI model (certiq's shipped one on each
runtime, and a generated one), rules and LLM splits."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from certiq.adapters.llm.claim_splitter import LlmClaimSplitter
from certiq.adapters.llm.judge import LlmJudgeVerifier
from certiq.adapters.local.nli import NliVerifier
from certiq.config import PolicySettings
from certiq.models import Claim
from certiq.ports import BatchVerifier, ClaimSplitter, Verifier
from certiq.trust.claims import RuleSplitter
from certiq.trust.policy import decide
from certiq.trust.verifier import HELD_OUT_MODEL_PATH, LexicalVerifier, load_model
from tests.fakes import make_citation
from tests.provider_fakes import (
    ProviderServer,
    Recorded,
    Reply,
    anthropic_message,
    anthropic_tool_use,
    openai_completion,
    structured_model,
)
from tests.unit.test_nli_verifier import write_model

VERDICT = {
    "label": "entail",
    "entail": 0.8,
    "contradict": 0.1,
    "neutral": 0.1,
    "rationale": "stated",
}
CLAIMS = {"claims": ["Backups are encrypted.", "Backups are kept for 35 days."]}


def provider(request: Recorded) -> Reply:
    """Answers whichever tool or schema was asked for, on either API."""
    if request.path.endswith("/messages"):
        tool = request.body["tool_choice"]["name"]
        body = VERDICT if tool == "verdict" else CLAIMS
        return Reply(
            200, anthropic_message([anthropic_tool_use(tool, body)], stop_reason="tool_use")
        )
    name = request.body["response_format"]["json_schema"]["name"]
    return Reply(200, openai_completion(json.dumps(VERDICT if name == "verdict" else CLAIMS)))


VERIFIERS: dict[str, Callable[[Path, ProviderServer], Verifier]] = {
    "lexical": lambda tmp, server: LexicalVerifier(),
    "lexical-held-out": lambda tmp, server: LexicalVerifier(model=load_model(HELD_OUT_MODEL_PATH)),
    "llm-anthropic": lambda tmp, server: LlmJudgeVerifier(structured_model("anthropic", server)),
    "llm-openai": lambda tmp, server: LlmJudgeVerifier(structured_model("openai", server)),
    "nli": lambda tmp, server: NliVerifier(write_model(tmp / "nli")),
    "nli-shipped": lambda tmp, server: NliVerifier(),  # on onnxruntime
    "nli-shipped-numpy": lambda tmp, server: NliVerifier(runtime="numpy"),
}
SPLITTERS: dict[str, Callable[[ProviderServer], ClaimSplitter]] = {
    "rules": lambda server: RuleSplitter(),
    "llm-anthropic": lambda server: LlmClaimSplitter(structured_model("anthropic", server)),
    "llm-openai": lambda server: LlmClaimSplitter(structured_model("openai", server)),
}


@pytest.fixture
def keyed_server(provider_server: ProviderServer, provider_keys: None) -> Iterator[ProviderServer]:
    provider_server.responder = provider
    yield provider_server


@pytest.fixture(params=sorted(VERIFIERS))
def verifier(
    request: pytest.FixtureRequest, tmp_path: Path, keyed_server: ProviderServer
) -> Verifier:
    return VERIFIERS[request.param](tmp_path, keyed_server)


@pytest.fixture(params=sorted(SPLITTERS))
def splitter(request: pytest.FixtureRequest, keyed_server: ProviderServer) -> ClaimSplitter:
    return SPLITTERS[request.param](keyed_server)


def test_support_is_two_probabilities(verifier: Verifier) -> None:
    # GIVEN a claim and evidence / WHEN assessed / THEN entail and contradict lie in [0, 1]
    support = verifier.assess("Backups are kept for 35 days.", ["Backups are kept for 35 days."])
    assert 0.0 <= support.entail <= 1.0 and 0.0 <= support.contradict <= 1.0
    assert verifier.name


def test_nothing_is_entailed_by_no_evidence(verifier: Verifier) -> None:
    # GIVEN no evidence, or an empty claim / THEN entail is 0 whatever the adapter
    assert verifier.assess("Backups are kept for 35 days.", []).entail == 0.0
    assert verifier.assess("   ", ["Backups are kept for 35 days."]).entail == 0.0


def test_each_decision_names_the_verifier_that_made_it(verifier: Verifier) -> None:
    quote = "Backups are kept for 35 days."
    citation = make_citation(quote)
    claim = Claim(id="K1", text=quote, citation_ids=["C1"])
    decision = decide(claim, {"C1": citation}, verifier, PolicySettings())
    assert decision.verifier == verifier.name


def test_a_batch_verifier_answers_each_set_as_alone(verifier: Verifier) -> None:
    # GIVEN a verifier that judges several (claim, evidence set) pairs at once (the others are
    # skipped), and pairs of two claims
    if not isinstance(verifier, BatchVerifier):
        pytest.skip(f"{verifier.name} judges one evidence set at a time")
    backups, logs = "Backups are kept for 35 days.", "Logs are kept for a year."
    pairs = [(backups, [backups]), (backups, []), (logs, [backups]), (backups, [logs]), ("", [])]
    # WHEN asked in one batch / THEN each answer is what asking alone gives
    for (claim, evidence), support in zip(pairs, verifier.assess_batch(pairs), strict=True):
        alone = verifier.assess(claim, evidence)
        assert support.entail == pytest.approx(alone.entail, abs=1e-4)
        assert support.contradict == pytest.approx(alone.contradict, abs=1e-4)


def test_a_split_is_a_list_of_non_empty_sentences(splitter: ClaimSplitter) -> None:
    claims = splitter.split("Backups are encrypted and kept for 35 days.")
    assert claims and all(isinstance(c, str) and c.strip() for c in claims)
    assert splitter.name

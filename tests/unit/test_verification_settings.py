"""bootstrap chooses the verifier and the claim splitter from settings.verification."""

from __future__ import annotations

from pathlib import Path

import pytest

from certiq.adapters.llm.claim_splitter import LlmClaimSplitter
from certiq.adapters.llm.judge import LlmJudgeVerifier
from certiq.adapters.local.nli import NliVerifier
from certiq.bootstrap import build_claim_splitter, build_verifier
from certiq.config import LlmSettings, Settings, VerificationSettings
from certiq.errors import ConfigurationError
from certiq.trust.verifier import LexicalVerifier
from tests.unit.test_nli_verifier import write_model


def test_the_default_is_certiqs_own_verifier_model_and_the_rules(tmp_path: Path) -> None:
    # GIVEN no verification settings / THEN the shipped cross-encoder judges, the rules split
    settings = Settings(home=tmp_path)
    verifier = build_verifier(settings)
    assert isinstance(verifier, NliVerifier)
    assert verifier.name == "nli:certiq-verifier-minilm-v2"
    assert build_claim_splitter(settings) is None


def test_the_lexical_verifier_stays_selectable(tmp_path: Path) -> None:
    chosen = VerificationSettings(verifier="lexical")
    verifier = build_verifier(Settings(home=tmp_path, verification=chosen))
    assert isinstance(verifier, LexicalVerifier) and verifier.name == "lexical"


def test_the_held_out_lexical_model_is_chosen_by_settings(tmp_path: Path) -> None:
    chosen = VerificationSettings(verifier="lexical", lexical_calibration="held_out")
    verifier = build_verifier(Settings(home=tmp_path, verification=chosen))
    assert verifier.name == "lexical:held-out"


@pytest.mark.parametrize(
    ("provider", "name"),
    [("anthropic", "llm-judge:anthropic:claude-sonnet-5"), ("openai", "llm-judge:openai:o-x")],
)
def test_the_llm_judge_is_built_over_the_configured_provider(
    tmp_path: Path, provider_keys: None, provider: str, name: str
) -> None:
    settings = Settings(
        home=tmp_path,
        llm=LlmSettings.model_validate({"provider": provider, "openai_model": "o-x"}),
        verification=VerificationSettings(verifier="llm", claims="llm"),
    )
    verifier = build_verifier(settings)
    assert isinstance(verifier, LlmJudgeVerifier) and verifier.name == name
    assert isinstance(build_claim_splitter(settings), LlmClaimSplitter)


def test_an_llm_choice_without_a_provider_is_a_configuration_error(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, verification=VerificationSettings(verifier="llm"))
    with pytest.raises(ConfigurationError, match="needs CERTIQ_LLM__PROVIDER=anthropic or openai"):
        build_verifier(settings)
    claims = Settings(home=tmp_path, verification=VerificationSettings(claims="llm"))
    with pytest.raises(ConfigurationError, match="CERTIQ_VERIFICATION__CLAIMS=llm needs"):
        build_claim_splitter(claims)


def test_the_nli_verifier_runs_the_model_in_the_folder_settings_name(tmp_path: Path) -> None:
    # GIVEN a folder that is not there / THEN bootstrap refuses, naming the setting
    absent = VerificationSettings(verifier="nli", nli_model_dir=tmp_path / "absent")
    with pytest.raises(ConfigurationError, match="CERTIQ_VERIFICATION__NLI_MODEL_DIR"):
        build_verifier(Settings(home=tmp_path, verification=absent))
    # GIVEN a folder holding a model / THEN the NLI verifier, named after the folder
    folder = write_model(tmp_path / "my-nli")
    chosen = VerificationSettings(verifier="nli", nli_model_dir=folder)
    verifier = build_verifier(Settings(home=tmp_path, verification=chosen))
    assert isinstance(verifier, NliVerifier) and verifier.name == "nli:my-nli"

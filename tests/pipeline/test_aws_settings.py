"""Runtime aws builds what a function's step uses: a setting the step never reaches may be unset,
and one it reaches names itself when missing (template.yaml gives each function only its own)."""

from __future__ import annotations

import pytest
from moto import mock_aws

from certiq.bootstrap import build_deps
from certiq.config import Settings
from certiq.errors import ConfigurationError


@mock_aws
def test_a_function_without_a_table_its_step_never_uses_starts_and_names_it_when_used() -> None:
    # GIVEN the environment Translate question gets: the runtime and the region, no tables
    settings = Settings(runtime="aws", aws={"region": "eu-west-1"})  # type: ignore[arg-type]
    # WHEN its Deps are built THEN nothing is missing yet
    deps = build_deps(settings)
    # AND reaching for the questions table says which setting it needs
    with pytest.raises(ConfigurationError, match="CERTIQ_AWS__QUESTIONS_TABLE"):
        deps.questions.get("q-1")
    with pytest.raises(ConfigurationError, match="CERTIQ_AWS__KMS_KEY_ID"):
        _ = deps.signer.key_id

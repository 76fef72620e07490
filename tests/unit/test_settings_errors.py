"""A wrong setting is named in one line, with the nearest valid name, and the CLI exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from certiq.cli import main
from certiq.config import env_names, load_settings
from certiq.errors import ConfigurationError


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in env_names():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CERTIQ_HOME", str(tmp_path))


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "CERTIQ_RETRIEVAL__MODEE",
            "bm25",
            "unknown setting CERTIQ_RETRIEVAL__MODEE (did you mean CERTIQ_RETRIEVAL__MODE?)",
        ),
        ("CERTIQ_TENNANT", "acme", "unknown setting CERTIQ_TENNANT (did you mean CERTIQ_TENANT?)"),
        (
            "CERTIQ_RETRIEVAL__MODE",
            "fast",
            "CERTIQ_RETRIEVAL__MODE: Input should be 'bm25', 'dense' or 'hybrid'",
        ),
    ],
)
def test_a_wrong_setting_is_named_with_the_nearest_valid_one(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    # GIVEN a misspelled or invalid variable
    monkeypatch.setenv(name, value)
    # WHEN settings are loaded / THEN one message names it
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    assert str(raised.value) == message


def test_the_cli_prints_one_line_and_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a misspelled variable
    monkeypatch.setenv("CERTIQ_RETRIEVAL__TOPK", "5")
    # WHEN any command runs
    result = CliRunner().invoke(main, ["documents"])
    # THEN it stops with one line, no traceback, and exit code 2
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines == [
        "certiq: unknown setting CERTIQ_RETRIEVAL__TOPK (did you mean CERTIQ_RETRIEVAL__TOP_K?)"
    ]


def test_valid_settings_and_whole_groups_as_json_are_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CERTIQ_RETRIEVAL__TOP_K", "7")
    monkeypatch.setenv("CERTIQ_POLICY", '{"unverified": "drop"}')
    settings = load_settings()
    assert settings.retrieval.top_k == 7 and settings.policy.unverified == "drop"


def test_a_list_given_as_plain_text_is_said_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a list setting written as a word, not as JSON
    monkeypatch.setenv("CERTIQ_VALIDATION__PATTERN_LANGUAGES", "en")

    # WHEN the settings load / THEN the error names the group and says to write JSON
    with pytest.raises(ConfigurationError, match=r'field "validation".*as JSON'):
        load_settings()

"""certiq's own verifier model, as it ships: loads without torch, judges in batches, keeps its
promises on the demo's kind of sentences."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from certiq.adapters.local.nli import SHIPPED_MODEL_DIR, NliModelUnavailable, NliVerifier
from certiq.config import PolicySettings
from certiq.models import Claim, RenderState
from certiq.trust.policy import decide
from tests.fakes import make_citation

SENTENCE = "Passwords must be at least 14 characters long and must not be reused across services."
BACKUPS = "Backups of customer data are encrypted and kept for 35 days in the Frankfurt region."


@pytest.fixture(scope="module")
def verifier() -> NliVerifier:
    return NliVerifier()


def state_of(claim: str, quote: str, verifier: NliVerifier) -> RenderState:
    decision = decide(
        Claim(id="K1", text=claim, citation_ids=["C1"]),
        {"C1": make_citation(quote)},
        verifier,
        PolicySettings(),
    )
    return decision.state


def test_the_model_ships_within_its_size_and_with_a_card() -> None:
    weights = SHIPPED_MODEL_DIR / "model.safetensors"
    assert weights.stat().st_size <= 60 * 1024 * 1024
    assert (SHIPPED_MODEL_DIR / "MODEL_CARD.md").is_file()


def test_the_model_loads_and_judges_with_torch_impossible_to_import() -> None:
    # GIVEN a Python in which importing torch fails / WHEN the shipped verifier judges a pair
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from certiq.adapters.local.nli import NliVerifier\n"
        "s = NliVerifier().assess('Backups are kept for 30 days.', ['Backups are kept for 35 "
        "days.'])\n"
        "print(s.entail, 'torch' in sys.modules and sys.modules['torch'] is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    # THEN it runs, does not certify the changed number, and torch was never loaded
    assert done.returncode == 0, done.stderr
    entail, torch_loaded = done.stdout.split()
    assert float(entail) < PolicySettings().tau_entail
    assert torch_loaded == "False"


def test_a_batch_gives_what_one_by_one_gives(verifier: NliVerifier) -> None:
    claim = "Backups are kept for 35 days."
    sets = [[BACKUPS], ["Backups are deleted after a year."], [], [BACKUPS, SENTENCE]]
    pairs = [(claim, evidence) for evidence in sets] + [("Backups are deleted.", [BACKUPS])]
    batched = verifier.assess_batch(pairs)
    for (asked, evidence), support in zip(pairs, batched, strict=True):
        alone = verifier.assess(asked, evidence)
        assert support.entail == pytest.approx(alone.entail, abs=1e-4)
        assert support.contradict == pytest.approx(alone.contradict, abs=1e-4)


def test_each_clause_of_the_password_rule_is_verified(verifier: NliVerifier) -> None:
    for clause in (
        "Passwords must be at least 14 characters long.",
        "Passwords must not be reused across services.",
        SENTENCE,
    ):
        assert state_of(clause, SENTENCE, verifier) is RenderState.VERIFIED


def test_a_changed_fact_is_not_verified(verifier: NliVerifier) -> None:
    for claim in (
        "Passwords must be at least 12 characters long.",  # a number
        "Backups are kept for 90 days.",  # a number
        "Backups are not encrypted.",  # a negation
        "Backups are kept in the Dublin region.",  # an entity
    ):
        quote = SENTENCE if claim.startswith("Passwords") else BACKUPS
        assert state_of(claim, quote, verifier) is not RenderState.VERIFIED, claim


def test_a_paraphrase_the_evidence_states_is_verified(verifier: NliVerifier) -> None:
    assert state_of("Backups are kept for 35 days.", BACKUPS, verifier) is RenderState.VERIFIED


def test_a_denial_of_the_evidence_is_blocked(verifier: NliVerifier) -> None:
    assert state_of("Backups are not encrypted.", BACKUPS, verifier) is RenderState.BLOCKED


def test_the_model_card_names_the_figures_file() -> None:
    card = (SHIPPED_MODEL_DIR / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert "scripts/train_verifier.py" in card and "false-certification" in card
    assert Path(SHIPPED_MODEL_DIR / "config.json").is_file()


def test_a_quoted_claim_is_decided_by_the_rules_without_loading_the_weights(
    tmp_path: Path,
) -> None:
    # GIVEN the shipped model's folder without its weights (a load would fail)
    folder = tmp_path / "verifier_model"
    folder.mkdir()
    for name in ("config.json", "tokenizer.json"):
        (folder / name).write_bytes((SHIPPED_MODEL_DIR / name).read_bytes())
    verifier = NliVerifier(folder)
    # WHEN a claim that is its evidence word for word is judged
    support = verifier.assess(SENTENCE, [SENTENCE])
    # THEN the verbatim rule certifies it, and nothing needed the encoder
    assert support.entail == 1.0
    # AND a claim the rules do not decide does need it
    with pytest.raises(NliModelUnavailable, match=r"lacks model\.safetensors"):
        verifier.assess("Passwords are long.", [SENTENCE])


def test_evidence_about_something_else_neither_states_nor_contradicts_a_claim(
    verifier: NliVerifier,
) -> None:
    # GIVEN claims cited beside sentences about something else: the model alone certifies the
    # first (entail 0.98) and blocks the second (contradict 0.99), as it does to 5% and 70% of
    # FEVER's claims each cited with another claim's evidence
    off_topic = [
        (
            "Jimi Hendrix was a person.",
            "As a form of strategic use of information (disinformation), it overlaps with "
            "psychological warfare.",
        ),
        (
            "Rupert Murdoch never formed BSkyB.",
            "Gray Matter Interactive Studios, Inc. was a computer game developer founded in "
            "1994, and acquired by Activision in January 2002.",
        ),
    ]
    for claim, quote in off_topic:
        # WHEN each is decided
        decision = decide(
            Claim(id="K1", text=claim, citation_ids=["C1"]),
            {"C1": make_citation(quote)},
            verifier,
            PolicySettings(),
        )
        # THEN it is UNVERIFIED, saying its evidence shares no word with it
        assert decision.state is RenderState.UNVERIFIED
        assert "shares no word with this claim" in decision.reason

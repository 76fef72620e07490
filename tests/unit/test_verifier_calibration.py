"""The shipped lexical model: its targets on SciFact and the rules no weight can override."""

from __future__ import annotations

from pathlib import Path

import pytest

from certiq.config import PolicySettings
from certiq.evaluation.verification import read_pairs, score_pairs
from certiq.trust.verifier import HELD_OUT_MODEL_PATH, MODEL_PATH, LexicalVerifier, load_model

# ../shared beside the checkout (main), or beside the worktrees' folder (a helper's worktree).
SCIFACT = next(
    (
        folder / "shared" / "data" / "scifact"
        for folder in Path(__file__).resolve().parents[3:5]
        if (folder / "shared" / "data" / "scifact").is_dir()
    ),
    Path(__file__).resolve().parents[3] / "shared" / "data" / "scifact",
)
VERIFIER = LexicalVerifier()


def test_the_shipped_model_files_are_small() -> None:
    assert MODEL_PATH.stat().st_size < 100_000
    assert HELD_OUT_MODEL_PATH.stat().st_size < 100_000


@pytest.mark.skipif(
    not (SCIFACT / "claims.train.jsonl").exists(), reason="../shared SciFact pairs absent"
)
def test_default_thresholds_rarely_certify_unsupported_claims_on_scifact_train() -> None:
    report = score_pairs(
        read_pairs(SCIFACT / "claims.train.jsonl"), LexicalVerifier(), PolicySettings()
    )
    assert report.false_certification_rate <= 0.05
    assert report.supported_recall >= 0.35


@pytest.mark.skipif(
    not (SCIFACT / "claims.train.jsonl").exists(), reason="../shared SciFact pairs absent"
)
def test_the_held_out_model_certifies_less_and_says_so_in_its_name() -> None:
    # GIVEN the model calibrated on out-of-fold scores (5-fold CV: FCR 0.036, recall 0.168)
    verifier = LexicalVerifier(model=load_model(HELD_OUT_MODEL_PATH))
    # WHEN scored on the train pairs / THEN it stays well within the FCR target, still beats
    # plain word overlap's ~0.11 recall at 5%, and its verdicts say which model gave them
    report = score_pairs(read_pairs(SCIFACT / "claims.train.jsonl"), verifier, PolicySettings())
    assert report.false_certification_rate <= 0.05
    assert report.supported_recall >= 0.12
    assert verifier.name == "lexical:held-out"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Backups are kept for 90 days.", "Backups are retained for 35 days by the provider."),
        ("Mortality fell by 12%.", "Mortality fell sharply in the treated group."),
        ("Backups are kept for 90 days.", "Backups are kept for 35 days."),
    ],
)
def test_a_number_the_evidence_lacks_is_never_certified(claim: str, evidence: str) -> None:
    assert VERIFIER.assess(claim, [evidence]).entail == 0.0


def test_a_one_sided_negation_of_a_quoted_claim_is_blocked() -> None:
    support = VERIFIER.assess("The drug does not lower mortality.", ["The drug lowers mortality."])
    assert support.entail == 0.0 and support.contradict >= PolicySettings().tau_contradict


def test_an_exact_quote_is_certified() -> None:
    quote = "Vitamin D supplementation reduced the incidence of fractures in older adults."
    support = VERIFIER.assess(quote, [quote])
    assert support.entail == 1.0 and support.contradict == 0.0


def test_unrelated_evidence_is_not_certified() -> None:
    support = VERIFIER.assess(
        "Aspirin lowers the risk of stroke.", ["Staff book travel through the agency."]
    )
    assert support.entail < PolicySettings().tau_entail


def test_without_an_embedder_the_verdict_is_labelled_lexical() -> None:
    assert VERIFIER.name == "lexical"

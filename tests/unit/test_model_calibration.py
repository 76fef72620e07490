"""Calibration of certiq's verifier model: thresholds rescaled onto the policy's, and the guards."""

from __future__ import annotations

import pytest

from certiq.trust.calibration import Calibration, rescale, states_verbatim

SENTENCE = "Passwords must be at least 14 characters long and must not be reused across services."


def test_the_models_threshold_lands_on_the_policys_and_order_is_kept() -> None:
    # GIVEN a model whose 5% false-certification point is an entail probability of 0.87
    # WHEN probabilities are rescaled onto the policy's default threshold (0.6)
    # THEN 0.87 maps to 0.6, the ends stay put, and a higher probability never scores lower
    assert rescale(0.87, 0.87, 0.6) == pytest.approx(0.6)
    assert rescale(0.0, 0.87, 0.6) == 0.0 and rescale(1.0, 0.87, 0.6) == pytest.approx(1.0)
    assert rescale(0.86, 0.87, 0.6) < 0.6 <= rescale(0.88, 0.87, 0.6)
    scores = [rescale(p / 100, 0.87, 0.6) for p in range(101)]
    assert scores == sorted(scores)


def test_a_clause_or_sentence_of_the_evidence_is_stated_verbatim() -> None:
    # GIVEN the demo's password sentence as evidence
    # THEN the sentence and each clause the claim compiler makes of it are stated word for word
    assert states_verbatim(SENTENCE, [SENTENCE])
    assert states_verbatim("Passwords must be at least 14 characters long.", [SENTENCE])
    assert states_verbatim("passwords must not be reused across services", ["Intro.", SENTENCE])
    # AND a quote read out of its sentence, or a shortened clause, is not
    unclear = "It is unclear whether the drug is effective."
    assert not states_verbatim("The drug is effective.", [unclear])
    assert not states_verbatim("Passwords must be at least 14 characters.", [SENTENCE])


def test_the_verbatim_rule_certifies_and_never_blocks_whatever_the_model_says() -> None:
    calibration = Calibration(0.87, 0.5, ("number", "verbatim"))
    claim = "Passwords must be at least 14 characters long."
    support = calibration.support(claim, [SENTENCE], entail=0.01, contradict=0.99)
    assert (support.entail, support.contradict) == (1.0, 0.0)
    assert support.rationale == "quoted word for word from the evidence"


def test_a_number_the_evidence_does_not_state_is_never_certified() -> None:
    calibration = Calibration(0.87, 0.5, ("number",))
    claim = "Passwords must be at least 12 characters long."
    support = calibration.support(claim, [SENTENCE], entail=0.99, contradict=0.2)
    assert support.entail == 0.0
    assert support.rationale == "the evidence does not state 12"


def test_without_guards_the_model_alone_decides() -> None:
    calibration = Calibration(0.87, 0.5, ())
    claim = "Passwords must be at least 12 characters long."
    assert calibration.support(claim, [SENTENCE], 0.99, 0.0).entail > 0.9


def test_a_config_without_calibration_keeps_raw_probabilities() -> None:
    raw = Calibration.from_config(None)
    assert raw.support("A claim here.", ["Other words there."], 0.42, 0.33).entail == 0.42


def test_an_unknown_guard_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown verifier guards"):
        Calibration.from_config(
            {"entail_threshold": 0.8, "contradict_threshold": 0.5, "guards": ["vibes"]}
        )


def test_evidence_sharing_no_word_with_the_claim_neither_states_nor_contradicts_it() -> None:
    # GIVEN a model that, shown a claim beside a sentence about something else, says contradict
    calibration = Calibration(0.87, 0.5, ("number", "verbatim", "unrelated"))
    claim = "Backups of customer data are kept for 35 days."
    unrelated = "The DPO must be informed of any suspected breach within 24 hours."
    # WHEN the guards judge the pair
    support = calibration.support(claim, [unrelated], entail=0.95, contradict=0.9)
    # THEN it is neither certified nor blocked, and says why
    assert (support.entail, support.contradict) == (0.0, 0.0)
    assert support.rationale == "the evidence shares no word with this claim"
    # AND one shared word (stemmed: "backup" in "backups") is enough to leave it to the model
    related = "Each backup is encrypted at rest."
    assert calibration.by_rule(claim, [unrelated, related]) is None
    # AND without the guard the model decides
    assert Calibration(0.87, 0.5, ()).support(claim, [unrelated], 0.95, 0.9).contradict > 0.5

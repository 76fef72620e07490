"""The verifier, the render policy and certificates."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.config import PolicySettings
from certiq.models import Certificate, Claim, RenderState, TableCell
from certiq.ports import Support
from certiq.text import content_terms
from certiq.trust.certificate import check, seal_and_sign
from certiq.trust.policy import decide, decide_all, minimal_evidence, render
from certiq.trust.verifier import LexicalVerifier
from tests.fakes import EPOCH, make_citation

POLICY = PolicySettings(tau_entail=0.6, tau_contradict=0.5, unverified="mark")
VERIFIER = LexicalVerifier()


def test_verifier_entails_a_claim_stated_by_its_evidence() -> None:
    support = VERIFIER.assess("Backups are kept for 35 days.", ["Backups are kept for 35 days."])
    assert support.entail == 1.0 and support.contradict == 0.0


def test_verifier_refuses_a_number_the_evidence_does_not_state() -> None:
    support = VERIFIER.assess("Backups are kept for 90 days.", ["Backups are kept for 35 days."])
    assert support.entail == 0.0


def test_verifier_reads_a_one_sided_negation_as_contradiction() -> None:
    support = VERIFIER.assess("Backups are not encrypted.", ["Backups are encrypted."])
    assert support.entail == 0.0 and support.contradict == 1.0


def test_decide_verifies_only_on_valid_citations() -> None:
    # GIVEN a claim whose only citation failed the verbatim check
    claim = Claim(id="K1", text="Backups are kept for 35 days.", citation_ids=["C1"])
    citations = {"C1": make_citation("Backups are kept for 35 days.", valid=False)}
    # WHEN it is decided / THEN it is UNVERIFIED with no evidence, however well the text matches
    decision = decide(claim, citations, VERIFIER, POLICY)
    assert decision.state is RenderState.UNVERIFIED and decision.evidence == []


def test_decide_blocks_a_contradicted_claim_and_render_never_shows_it() -> None:
    claim = Claim(id="K1", text="Backups are not encrypted.", citation_ids=["C1"])
    citations = {"C1": make_citation("Backups are encrypted.")}
    decided = claim.model_copy(update={"decision": decide(claim, citations, VERIFIER, POLICY)})
    assert decided.decision is not None and decided.decision.state is RenderState.BLOCKED
    assert render([decided], POLICY) == ""


def test_minimal_evidence_keeps_the_fewest_citations_that_suffice() -> None:
    chosen = minimal_evidence(
        "Backups are kept for 35 days.",
        [
            make_citation("Logs rotate weekly."),
            make_citation("Backups are kept for 35 days.", cid="C2"),
        ],
        VERIFIER,
        POLICY,
    )
    assert [c.id for c in chosen] == ["C2"]


def test_minimal_evidence_is_padded_to_the_policy_minimum_with_supporting_citations() -> None:
    # GIVEN a claim stated by two citations, next to an unrelated one
    citations = [
        make_citation("Logs rotate weekly."),
        make_citation("Backups are kept for 35 days.", cid="C2"),
        make_citation("Backups of customer data are kept for 35 days.", cid="C3"),
    ]
    claim = "Backups are kept for 35 days."
    # WHEN the policy asks for at least two, or three, citations of evidence
    two = minimal_evidence(
        claim, citations, VERIFIER, POLICY.model_copy(update={"min_evidence": 2})
    )
    three = minimal_evidence(
        claim, citations, VERIFIER, POLICY.model_copy(update={"min_evidence": 3})
    )
    # THEN the second supporting citation pads the greedy choice; the unrelated one never does
    assert [c.id for c in two] == ["C2", "C3"]
    assert [c.id for c in three] == ["C2", "C3"]


def test_padding_never_adds_a_citation_that_contradicts_the_claim() -> None:
    # GIVEN a claim, its evidence, and a citation denying it
    citations = [
        make_citation("Backups are kept for 35 days."),
        make_citation("Backups are not kept for 35 days.", cid="C2"),
    ]
    policy = POLICY.model_copy(update={"min_evidence": 2})
    # WHEN decided with a minimum of two / THEN the denial is left out and the claim verified
    decision = decide(
        Claim(id="K1", text="Backups are kept for 35 days.", citation_ids=["C1", "C2"]),
        {c.id: c for c in citations},
        VERIFIER,
        policy,
    )
    assert decision.evidence == ["C1"] and decision.state is RenderState.VERIFIED


class CountingVerifier:
    """The lexical verifier, counting the evidence sets it is asked about."""

    name = "counting"

    def __init__(self) -> None:
        self.asked: list[tuple[str, ...]] = []

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        self.asked.append(tuple(evidence))
        return VERIFIER.assess(claim, evidence)


def test_decide_asks_the_verifier_once_per_evidence_set() -> None:
    # GIVEN a claim with one valid citation and a verifier that counts its calls
    verifier = CountingVerifier()
    claim = Claim(id="K1", text="Backups are kept for 35 days.", citation_ids=["C1"])
    # WHEN decided (greedy selection, then the final judgement of the same set)
    decide(claim, {"C1": make_citation("Backups are kept for 35 days.")}, verifier, POLICY)
    # THEN the verifier (an LLM judge: one request each) was asked once
    assert verifier.asked == [("Backups are kept for 35 days.",)]


class CoverageVerifier(CountingVerifier):
    """Entail: the share of the claim's content words the evidence holds; counts its asks."""

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        self.asked.append(tuple(evidence))
        terms = set(content_terms(claim))
        held = terms.intersection(content_terms(" ".join(evidence)))
        return Support(entail=len(held) / len(terms), contradict=0.0)


def test_evidence_grows_only_by_a_citation_holding_a_word_of_the_claim_it_lacks() -> None:
    # GIVEN a claim half-stated by one citation, one stating the rest, and two adding none of
    # the claim's words the first lacks (one repeats them, one is about logs)
    verifier = CoverageVerifier()
    citations = [
        make_citation("Backups are kept offsite.", cid="C1"),
        make_citation("Backups are kept.", cid="C2"),
        make_citation("Logs rotate weekly.", cid="C3"),
        make_citation("Retention lasts 35 days.", cid="C4"),
    ]
    # WHEN the fewest citations that suffice are searched for
    chosen = minimal_evidence("Backups are kept for 35 days.", citations, verifier, POLICY)
    # THEN after the first choice only the citation adding "35" and "days" is tried with it
    assert [c.id for c in chosen] == ["C1", "C4"]
    pairs_tried = [asked for asked in verifier.asked if len(asked) == 2]
    assert pairs_tried == [("Backups are kept offsite.", "Retention lasts 35 days.")]


class BatchCountingVerifier(CountingVerifier):
    """The lexical verifier as a batch verifier, counting its batches."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[tuple[str, tuple[str, ...]]]] = []

    def assess_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Support]:
        self.batches.append([(claim, tuple(evidence)) for claim, evidence in pairs])
        return [self.assess(claim, evidence) for claim, evidence in pairs]


def test_decide_all_judges_an_answers_claims_side_by_side_as_decide_does_alone() -> None:
    # GIVEN an answer's claims: one stated, one contradicted, one needing two citations, one
    # with nothing valid to cite, over shared citations
    citations = {
        c.id: c
        for c in [
            make_citation("Backups are kept for 35 days."),
            make_citation("Backups are not encrypted.", cid="C2"),
            make_citation("Logs rotate weekly.", cid="C3"),
            make_citation("Logs are kept for a year.", cid="C4"),
            make_citation("Logs are kept for a year.", cid="C5", valid=False),
        ]
    }
    claims = [
        Claim(id="K1", text="Backups are kept for 35 days.", citation_ids=["C3", "C1", "C2"]),
        Claim(id="K2", text="Backups are encrypted.", citation_ids=["C2"]),
        Claim(
            id="K3", text="Logs rotate weekly and are kept for a year.", citation_ids=["C3", "C4"]
        ),
        Claim(id="K4", text="Logs are kept for a year.", citation_ids=["C5"]),
    ]
    verifier = BatchCountingVerifier()
    # WHEN decided together
    together = decide_all(claims, citations, verifier, POLICY)
    # THEN each decision is the one it gets alone, and every round of the claims' evidence
    # searches went to the verifier as one batch: fewer batches than claims asked about
    assert together == [decide(claim, citations, CountingVerifier(), POLICY) for claim in claims]
    assert [d.state for d in together[:2]] == [RenderState.VERIFIED, RenderState.BLOCKED]
    assert together[3].reason == "no valid citation: nothing supports this claim"
    assert len(verifier.batches) < sum(len(claim.citation_ids) for claim in claims[:3])
    assert len({claim for claim, _ in verifier.batches[0]}) == 3
    asked = [pair for batch in verifier.batches for pair in batch]
    assert len(asked) == len(set(asked))  # each (claim, evidence set) asked once


def test_a_claim_citing_a_table_row_is_judged_on_the_row_under_its_header() -> None:
    # GIVEN a claim citing a table's row, whose bare words do not say which figure is which
    row = make_citation("Finland 5.5 338,424 Helsinki").model_copy(
        update={
            "cells": [
                TableCell(column="Country", text="Finland"),
                TableCell(column="Population (millions)", text="5.5"),
                TableCell(column="Area (km2)", text="338,424"),
                TableCell(column="Capital", text="Helsinki"),
            ]
        }
    )
    claim = Claim(id="K1", text="The capital of Finland is Helsinki.", citation_ids=["C1"])
    verifier = CountingVerifier()
    # WHEN it is decided
    decide(claim, {"C1": row}, verifier, POLICY)
    # THEN the verifier read the row's cells under the header's labels, not the bare row
    assert verifier.asked == [
        ("Country: Finland. Population (millions): 5.5. Area (km2): 338,424. Capital: Helsinki.",)
    ]


def test_a_citation_of_a_sentence_serialises_as_before_tables_were_read() -> None:
    # GIVEN a citation of a sentence, not of a table's row
    citation = make_citation("Backups are kept for 35 days.")
    # WHEN it is serialised, as a certificate seals it
    # THEN it has no cells field: certificates sealed before rows had cells keep their digests
    assert "cells" not in citation.model_dump(mode="json")
    assert citation.read_as == citation.quote


def test_render_marks_unverified_claims_or_drops_them_by_policy() -> None:
    claim = Claim(id="K1", text="Staff may travel.", citation_ids=["C1"])
    citations = {"C1": make_citation("Backups are kept for 35 days.")}
    decided = claim.model_copy(update={"decision": decide(claim, citations, VERIFIER, POLICY)})
    assert render([decided], POLICY).endswith("(unverified)")
    assert render([decided], POLICY.model_copy(update={"unverified": "drop"})) == ""


def unsealed() -> Certificate:
    return Certificate(
        certificate_id="cert-1",
        question_id="q1",
        tenant="t",
        question="How long?",
        answer="Backups are kept for 35 days. [C1]",
        claims=[],
        citations=[],
        documents=[],
        policy=POLICY.model_dump(),
        config_hash="c" * 64,
        created_at=EPOCH,
        field_digests={},
        seal="",
        signature="",
        signing_key_id="",
    )


def test_sealed_certificate_verifies_and_survives_a_json_round_trip(tmp_path: Path) -> None:
    signer = KeyFileSigner(tmp_path / "signing-key.pem")
    sealed = seal_and_sign(unsealed(), signer)
    reloaded = Certificate.model_validate_json(sealed.model_dump_json())
    result = check(reloaded, signer)
    assert result.valid and result.seal_ok and result.signature_ok
    assert result.first_difference is None


def test_check_names_the_field_that_was_changed(tmp_path: Path) -> None:
    # GIVEN a sealed certificate whose answer is rewritten afterwards
    signer = KeyFileSigner(tmp_path / "signing-key.pem")
    tampered = seal_and_sign(unsealed(), signer).model_copy(update={"answer": "Kept forever."})
    # WHEN it is checked / THEN the seal fails and the answer is named
    result = check(tampered, signer)
    assert not result.valid and not result.seal_ok
    assert result.first_difference == "answer"


def test_check_catches_a_rewritten_body_and_seal_by_the_signature(tmp_path: Path) -> None:
    # GIVEN an attacker who rewrites the answer and recomputes digests and seal without the key
    signer = KeyFileSigner(tmp_path / "signing-key.pem")
    forged = seal_and_sign(
        unsealed().model_copy(update={"answer": "Kept forever."}),
        KeyFileSigner(tmp_path / "attacker" / "signing-key.pem"),
    )
    forged = forged.model_copy(update={"signing_key_id": signer.key_id})
    # WHEN checked with the real key / THEN the seal holds but the signature does not
    result = check(forged, signer)
    assert result.seal_ok and not result.signature_ok and not result.valid
    assert result.first_difference == "signature"


def test_canonical_json_writes_numbers_as_rfc_8785() -> None:
    from certiq.trust.certificate import canonical_json, canonical_number

    cases = {
        1.0: "1",
        0.5: "0.5",
        -2.25: "-2.25",
        1e-7: "1e-7",
        1e-6: "0.000001",
        1e21: "1e+21",
        1e20: "100000000000000000000",
        123456.789: "123456.789",
        0.1 + 0.2: "0.30000000000000004",
        5e-324: "5e-324",
    }
    assert {number: canonical_number(number) for number in cases} == cases
    assert canonical_json({"b": [1.0, None, True], "a": "é\n"}) == '{"a":"é\\n","b":[1,null,true]}'

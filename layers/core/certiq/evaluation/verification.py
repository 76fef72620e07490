"""`certiq eval verify`: run claim/evidence pairs through the verifier and the render policy.

Each pair is one claim citing one valid quote; the real policy (`decide`) renders it, and its
state is read as a label: VERIFIED -> entail, BLOCKED -> contradict, UNVERIFIED -> neutral.
A pair labelled not_entail (FEVER's refuted-or-unknown, not told apart) is right when it is not
VERIFIED; balanced accuracy is the mean recall over the labels the file has.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from certiq.config import PolicySettings
from certiq.errors import CertiqError
from certiq.models import Citation, Claim, RenderState
from certiq.ports import Verifier
from certiq.sentences import split_sentences
from certiq.trust.claims import compile_claims
from certiq.trust.policy import decide_all

LABELS = ("entail", "contradict", "neutral", "not_entail")
# Pairs judged side by side in `score_pairs`: as many as the claims of a typical answer, so
# pairs/s is the rate an answer's verification runs at.
ANSWER_CLAIMS = 8
PREDICTED = {
    RenderState.VERIFIED: "entail",
    RenderState.BLOCKED: "contradict",
    RenderState.UNVERIFIED: "neutral",
}


class BadPairsFile(CertiqError):
    """A pairs file line that is not {"claim", "evidence", "label"} with a known label."""


@dataclass(frozen=True)
class Pair:
    claim: str
    evidence: str
    label: str


@dataclass(frozen=True)
class VerificationReport:
    pairs: int
    balanced_accuracy: float
    false_certification_rate: float
    supported_recall: float
    pairs_per_s: float

    def metrics(self) -> dict[str, float]:
        data = asdict(self)
        del data["pairs"]
        return data

    def to_json(self) -> str:
        return json.dumps(self.metrics(), indent=2)


def read_pairs(path: Path) -> list[Pair]:
    pairs: list[Pair] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                pair = Pair(str(row["claim"]), str(row["evidence"]), str(row["label"]))
            except (ValueError, KeyError, TypeError) as error:
                raise BadPairsFile(f"{path}:{number}: not a claim/evidence/label pair") from error
            if pair.label not in LABELS:
                raise BadPairsFile(f"{path}:{number}: label must be one of {', '.join(LABELS)}")
            pairs.append(pair)
    return pairs


def quoting(quote: str, cid: str = "C1") -> Citation:
    """A valid citation of ``quote`` from a document of its own: evidence as the policy takes it."""
    return Citation(
        id=cid,
        chunk_id=f"pair:{cid}",
        doc_id="pair",
        file_name="pair",
        page=1,
        boxes=[],
        quote=quote,
        start=0,
        end=len(quote),
        score=1.0,
        valid=True,
    )


def predict(pair: Pair, verifier: Verifier, policy: PolicySettings) -> str:
    return predict_all([pair], verifier, policy)[0]


def predict_all(pairs: Sequence[Pair], verifier: Verifier, policy: PolicySettings) -> list[str]:
    """``predict`` for each pair, judged side by side as the claims of one answer are."""
    citations = {f"C{n}": quoting(pair.evidence, f"C{n}") for n, pair in enumerate(pairs, 1)}
    claims = [
        Claim(id=f"K{n}", text=pair.claim, citation_ids=[f"C{n}"])
        for n, pair in enumerate(pairs, 1)
    ]
    return [PREDICTED[d.state] for d in decide_all(claims, citations, verifier, policy)]


def threshold_sweep(
    pairs: Sequence[Pair], verifier: Verifier, policy: PolicySettings, thresholds: Sequence[float]
) -> list[tuple[float, float]]:
    """(false-certification rate, supported recall) at each tau_entail in ``thresholds``."""
    points = []
    for tau in thresholds:
        metrics = score_pairs(pairs, verifier, policy.model_copy(update={"tau_entail": tau}))
        points.append((metrics.false_certification_rate, metrics.supported_recall))
    return points


def score_pairs(
    pairs: Sequence[Pair], verifier: Verifier, policy: PolicySettings
) -> VerificationReport:
    started = time.perf_counter()
    predicted = [
        label
        for start in range(0, len(pairs), ANSWER_CLAIMS)
        for label in predict_all(pairs[start : start + ANSWER_CLAIMS], verifier, policy)
    ]
    return _report(pairs, predicted, time.perf_counter() - started)


def _report(pairs: Sequence[Pair], predicted: Sequence[str], elapsed: float) -> VerificationReport:
    recalls = []
    for label in LABELS:
        mine = [guess for pair, guess in zip(pairs, predicted, strict=True) if pair.label == label]
        if mine and label == "not_entail":
            recalls.append(sum(guess != "entail" for guess in mine) / len(mine))
        elif mine:
            recalls.append(sum(guess == label for guess in mine) / len(mine))
    unsupported = [
        guess for pair, guess in zip(pairs, predicted, strict=True) if pair.label != "entail"
    ]
    supported = [
        guess for pair, guess in zip(pairs, predicted, strict=True) if pair.label == "entail"
    ]
    return VerificationReport(
        pairs=len(pairs),
        balanced_accuracy=sum(recalls) / len(recalls) if recalls else 0.0,
        false_certification_rate=(
            sum(guess == "entail" for guess in unsupported) / len(unsupported)
            if unsupported
            else 0.0
        ),
        supported_recall=(
            sum(guess == "entail" for guess in supported) / len(supported) if supported else 0.0
        ),
        pairs_per_s=len(pairs) / elapsed if elapsed > 0 else 0.0,
    )


@dataclass(frozen=True)
class Variant:
    """How a claim/evidence pair is put to the policy, for the report's ablations.

    ``minimal_evidence``: each evidence sentence is a citation of its own and the policy keeps
    the fewest that suffice; off, the whole evidence is one citation. ``normalization``: the
    claim is split into atomic claims and dehedged as answers are; off, it is judged whole.
    """

    name: str
    minimal_evidence: bool
    normalization: bool


VARIANTS = (
    Variant("as answered (minimal evidence, normalization)", True, True),
    Variant("without minimal evidence", False, True),
    Variant("without normalization", True, False),
    Variant("without either", False, False),
)


@dataclass(frozen=True)
class AblationReport:
    variant: str
    report: VerificationReport
    evidence_kept: float  # evidence sentences kept per sentence cited, over judged claims


def predict_as_answered(
    pair: Pair, verifier: Verifier, policy: PolicySettings, variant: Variant
) -> tuple[str, int, int]:
    """The pair's predicted label, and the evidence sentences kept and cited over its claims.

    A claim split in several is entailed only when every part is VERIFIED and contradicted when
    any part is BLOCKED: the pair's label is about the whole claim.
    """
    if variant.minimal_evidence:
        quotes = [pair.evidence[start:end] for start, end in split_sentences(pair.evidence)]
    else:
        quotes = [pair.evidence]
    citations = {f"C{n}": quoting(quote, f"C{n}") for n, quote in enumerate(quotes, start=1)}
    whole = Claim(id="K1", text=pair.claim, citation_ids=list(citations))
    claims = compile_claims([whole]) if variant.normalization else [whole]
    states = []
    kept = 0
    for decision in decide_all(claims, citations, verifier, policy):
        states.append(decision.state)
        kept += len(decision.evidence)
    cited = len(citations) * len(claims)
    if RenderState.BLOCKED in states:
        return "contradict", kept, cited
    if states and all(state is RenderState.VERIFIED for state in states):
        return "entail", kept, cited
    return "neutral", kept, cited


def ablate(
    pairs: Sequence[Pair], verifier: Verifier, policy: PolicySettings, variant: Variant
) -> AblationReport:
    started = time.perf_counter()
    outcomes = [predict_as_answered(pair, verifier, policy, variant) for pair in pairs]
    elapsed = time.perf_counter() - started
    kept = sum(outcome[1] for outcome in outcomes)
    cited = sum(outcome[2] for outcome in outcomes)
    report = _report(pairs, [outcome[0] for outcome in outcomes], elapsed)
    return AblationReport(variant.name, report, kept / cited if cited else 0.0)

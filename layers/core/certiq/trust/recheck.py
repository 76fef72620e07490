"""Re-checking a sealed answer against the documents as they are now: the decision rules.

For each cited quote, given its document's current record and current chunks:

- SOURCE_DELETED: the document is gone (no record, or its DELETED tombstone).
- CURRENT: the document is the certified version (same version and sha256), or the quote is
  still verbatim on the same page of the new version.
- CHANGED: the quote is verbatim on another page (moved), or a sentence of the new version is
  close to it (reworded); the claims citing it are verified again against that sentence and the
  verdicts recorded.
- STALE: neither: the quote is no longer in the document (or the document cannot be read now).

The answer's standing is the worst of its quotes'. The verbatim test is the one reuse and
conversations apply to a cited quote (certiq.retrieval.reuse.cited_evidence: the quote exact in
the indexed text), here over every chunk of the current version rather than the cited one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Final

from certiq.config import PolicySettings
from certiq.models import (
    STANDING_ORDER,
    Certificate,
    Chunk,
    Citation,
    ClaimVerdict,
    DocumentRecord,
    DocumentStatus,
    QuoteFinding,
    RenderState,
    Standing,
)
from certiq.ports import Verifier
from certiq.text import words

# A sentence of the new version at least this close to a quote (word-level similarity) stands
# for it, reworded; below it the quote is taken as removed.
REWORDED_AT_LEAST: Final = 0.6


@dataclass(frozen=True)
class CurrentDocument:
    """A cited document as it is now: its record (None: never known) and its chunks in order."""

    record: DocumentRecord | None
    chunks: Sequence[Chunk]


@dataclass(frozen=True)
class _Place:
    page: int
    text: str
    similarity: float


def worst(standings: Sequence[Standing]) -> Standing:
    """The worst standing among them; CURRENT for none."""
    return max(standings, key=STANDING_ORDER.index, default=Standing.CURRENT)


def recheck_findings(
    certificate: Certificate,
    documents: Mapping[str, CurrentDocument],
    verifier: Verifier,
    policy: PolicySettings,
) -> list[QuoteFinding]:
    """One finding per citation of the certificate, in its order."""
    certified = {doc.doc_id: doc for doc in certificate.documents}
    findings: list[QuoteFinding] = []
    for citation in certificate.citations:
        current = documents.get(citation.doc_id, CurrentDocument(None, []))
        cited = certified.get(citation.doc_id)
        version = (cited.version, cited.sha256) if cited is not None else None
        finding = _finding(citation, current, version)
        if finding.standing is Standing.CHANGED and finding.now_text is not None:
            verdicts = _verify_again(certificate, citation, finding.now_text, verifier, policy)
            finding = finding.model_copy(update={"verdicts": verdicts})
        findings.append(finding)
    return findings


def _finding(
    citation: Citation, current: CurrentDocument, certified: tuple[str, str] | None
) -> QuoteFinding:
    base = QuoteFinding(
        citation_id=citation.id,
        doc_id=citation.doc_id,
        file_name=citation.file_name,
        page=citation.page,
        quote=citation.quote,
        standing=Standing.CURRENT,
        note="",
    )
    record = current.record
    if record is None or record.status is DocumentStatus.DELETED:
        return base.model_copy(
            update={
                "standing": Standing.SOURCE_DELETED,
                "note": f"{citation.file_name} was deleted",
            }
        )
    update: dict[str, object] = {"version": record.version}
    if certified == (record.version, record.sha256) and record.status is DocumentStatus.INDEXED:
        update |= {"now_page": citation.page, "note": f"{record.file_name} is unchanged"}
        return base.model_copy(update=update)
    if record.status is not DocumentStatus.INDEXED:
        update |= {
            "standing": Standing.STALE,
            "note": f"{record.file_name} is {record.status.value}: its text cannot be read now",
        }
        return base.model_copy(update=update)
    verbatim = _verbatim(citation.quote, current.chunks)
    if verbatim and citation.page in verbatim:
        update |= {
            "now_page": citation.page,
            "note": f"still verbatim on page {citation.page} of version {record.version}",
        }
        return base.model_copy(update=update)
    if verbatim:
        page = verbatim[0]
        update |= {
            "standing": Standing.CHANGED,
            "now_page": page,
            "now_text": citation.quote,
            "similarity": 1.0,
            "note": f"moved from page {citation.page} to page {page} of {record.file_name}",
        }
        return base.model_copy(update=update)
    close = _closest(citation.quote, current.chunks)
    if close is not None:
        update |= {
            "standing": Standing.CHANGED,
            "now_page": close.page,
            "now_text": close.text,
            "similarity": round(close.similarity, 4),
            "note": f"reworded in {record.file_name}, page {close.page}",
        }
        return base.model_copy(update=update)
    update |= {"standing": Standing.STALE, "note": f"no longer in {record.file_name}"}
    return base.model_copy(update=update)


def _verbatim(quote: str, chunks: Sequence[Chunk]) -> list[int]:
    """The pages the quote is exact on, in document order (a sentence that holds it)."""
    pages: list[int] = []
    for chunk in chunks:
        for sentence in chunk.sentences:
            if quote in sentence.text and sentence.page not in pages:
                pages.append(sentence.page)
        if quote in chunk.text and not any(quote in s.text for s in chunk.sentences):
            # Across sentences: the page of the first sentence it starts in.
            start = chunk.text.index(quote)
            page = next(
                (s.page for s in chunk.sentences if s.start <= start < s.end), chunk.page_start
            )
            if page not in pages:
                pages.append(page)
    return pages


def _closest(quote: str, chunks: Sequence[Chunk]) -> _Place | None:
    """The sentence of the chunks most like the quote, when it is close enough to stand for it."""
    quoted = words(quote)
    if not quoted:
        return None
    best: _Place | None = None
    for chunk in chunks:
        for sentence in chunk.sentences:
            similarity = SequenceMatcher(None, quoted, words(sentence.text)).ratio()
            if similarity >= REWORDED_AT_LEAST and (best is None or similarity > best.similarity):
                best = _Place(page=sentence.page, text=sentence.text, similarity=similarity)
    return best


def _verify_again(
    certificate: Certificate,
    citation: Citation,
    evidence: str,
    verifier: Verifier,
    policy: PolicySettings,
) -> list[ClaimVerdict]:
    verdicts: list[ClaimVerdict] = []
    for claim in certificate.claims:
        if citation.id not in claim.citation_ids:
            continue
        support = verifier.assess(claim.text, [evidence])
        if support.contradict >= policy.tau_contradict:
            state = RenderState.BLOCKED
        elif support.entail >= policy.tau_entail and support.note is None:
            state = RenderState.VERIFIED
        else:
            state = RenderState.UNVERIFIED
        verdicts.append(
            ClaimVerdict(
                claim_id=claim.id,
                state=state,
                entail=min(1.0, max(0.0, support.entail)),
                contradict=min(1.0, max(0.0, support.contradict)),
                verifier=verifier.name,
            )
        )
    return verdicts


def summary(findings: Sequence[QuoteFinding]) -> str:
    """The standing in words, e.g. "Source changed since this answer: 1 quote no longer in
    data-retention-policy.pdf"."""
    standing = worst([finding.standing for finding in findings])
    if standing is Standing.CURRENT:
        count = len(findings)
        verb = "stands" if count == 1 else "stand"
        return f"No source change affects this answer: {_quotes(count)} still {verb}"
    counts = Counter(
        (finding.standing, finding.file_name)
        for finding in findings
        if finding.standing is not Standing.CURRENT
    )
    parts: list[str] = []
    for (each, file_name), count in sorted(
        counts.items(), key=lambda item: -STANDING_ORDER.index(item[0][0])
    ):
        if each is Standing.SOURCE_DELETED:
            parts.append(f"{file_name} was deleted ({_quotes(count)})")
        elif each is Standing.STALE:
            parts.append(f"{_quotes(count)} no longer in {file_name}")
        else:
            parts.append(f"{_quotes(count)} changed in {file_name}{_reverified(findings)}")
    prefix = "Source deleted" if standing is Standing.SOURCE_DELETED else "Source changed"
    return f"{prefix} since this answer: " + "; ".join(dict.fromkeys(parts))


def _quotes(count: int) -> str:
    return f"{count} quote{'s' if count != 1 else ''}"


def _reverified(findings: Sequence[QuoteFinding]) -> str:
    verdicts = [v for f in findings if f.standing is Standing.CHANGED for v in f.verdicts]
    if not verdicts:
        return ""
    states = Counter(verdict.state.value for verdict in verdicts)
    return " (claims verified again: " + ", ".join(f"{n} {s}" for s, n in states.items()) + ")"

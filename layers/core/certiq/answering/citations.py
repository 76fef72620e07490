"""Turns a draft that cites evidence span ids into numbered citations, claims and answer text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from certiq.models import Citation, Claim, DraftSentence, EvidenceSpan


@dataclass(frozen=True)
class CitedDraft:
    citations: list[Citation]
    claims: list[Claim]
    text: str


def assemble(draft: Sequence[DraftSentence], evidence: Sequence[EvidenceSpan]) -> CitedDraft:
    """Numbers citations C1.. in order of first use; ids that name no evidence are dropped."""
    spans = {span.span_id: span for span in evidence}
    citation_ids: dict[str, str] = {}
    citations: list[Citation] = []
    claims: list[Claim] = []
    for sentence in draft:
        ids: list[str] = []
        for span_id in sentence.citation_ids:
            span = spans.get(span_id)
            if span is None:
                continue
            if span_id not in citation_ids:
                citation_ids[span_id] = f"C{len(citations) + 1}"
                citations.append(_citation(citation_ids[span_id], span))
            if citation_ids[span_id] not in ids:
                ids.append(citation_ids[span_id])
        claims.append(Claim(id=f"K{len(claims) + 1}", text=sentence.text.strip(), citation_ids=ids))
    return CitedDraft(citations=citations, claims=claims, text=render_claims(claims))


def render_claims(claims: Sequence[Claim]) -> str:
    return " ".join(
        claim.text + "".join(f" [{citation_id}]" for citation_id in claim.citation_ids)
        for claim in claims
    )


def _citation(citation_id: str, span: EvidenceSpan) -> Citation:
    return Citation(
        id=citation_id,
        chunk_id=span.chunk_id,
        doc_id=span.doc_id,
        file_name=span.file_name,
        page=span.page,
        boxes=span.boxes,
        quote=span.text,
        start=span.start,
        end=span.end,
        score=span.score,
        cells=span.cells,
        section=span.section,
        answers=span.answers,
    )

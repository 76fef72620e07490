"""Reusing an earlier, fully verified answer to a near-identical question of the same tenant.

Two questions are near-identical when:

- lexically (always): their identifying terms overlap by at least ``min_term_overlap`` (Jaccard;
  the default 1.0 asks for the same terms). Identifying terms are every stemmed word except
  articles, forms of "be" and "do" and "please": question words, negations, prepositions, numbers
  and pronouns all stay, so "when" never matches "why", "before" never "after", "not encrypted"
  never "encrypted", and a capital "A" ("refund window for product A") is a term, not an article;
- semantically (when an embedder is configured): the cosine of their embeddings is at least
  ``min_similarity``.

An earlier answer qualifies only when every claim of its certificate is VERIFIED (an answer with
an UNVERIFIED-marked or a BLOCKED claim is never reused: it would spread an unsupported or
contradicted statement without a fresh look), its certificate still checks, the current render
policy and verifier are the ones it was judged with, every document it cites is INDEXED at the
version and sha256 the certificate records, and each citation's quote is still verbatim at its
place in its chunk.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from certiq.models import (
    Certificate,
    CertifiedDocument,
    Chunk,
    DocumentStatus,
    EvidenceSpan,
    RenderState,
    VerifiedAnswer,
)
from certiq.ports import DocumentStore, Embedder, SearchIndex, embed_query_texts
from certiq.text import stem

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_TOKEN = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*", re.UNICODE)

# Words that never tell two questions apart. Kept deliberately small: a false reuse shows the
# answer to another question, a missed one only costs a fresh answer.
FILLER = frozenset("a an the is are was were be been being am do does did please".split())


def question_terms(text: str) -> frozenset[str]:
    """The stemmed words that identify what a question asks (see the module docstring)."""
    terms: set[str] = set()
    for position, match in enumerate(_TOKEN.finditer(text)):
        word = match.group(0)
        lowered = word.lower()
        if lowered in FILLER and not (word == "A" and position > 0):
            continue
        terms.add(stem(lowered))
    return frozenset(terms)


def terms_key(terms: Iterable[str]) -> str:
    """A short, stable key of a set of terms: questions with the same terms share it."""
    joined = "\n".join(sorted(terms))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:32]


def term_overlap(first: frozenset[str], second: frozenset[str]) -> float:
    """Jaccard similarity of two term sets (two empty sets: 0)."""
    union = first | second
    return len(first & second) / len(union) if union else 0.0


def fully_verified(certificate: Certificate) -> bool:
    """At least one claim, and every claim VERIFIED: the only answers worth reusing."""
    return bool(certificate.claims) and all(
        claim.decision is not None and claim.decision.state is RenderState.VERIFIED
        for claim in certificate.claims
    )


def stale_document(
    tenant: str, documents: Sequence[CertifiedDocument], store: DocumentStore
) -> str | None:
    """Why one of the cited documents is no longer what was cited, or None when none changed."""
    for cited in documents:
        record = store.get(tenant, cited.doc_id)
        if record is None or record.status is DocumentStatus.DELETED:
            return f"{cited.file_name} was deleted"
        if record.status is not DocumentStatus.INDEXED:
            return f"{cited.file_name} is {record.status.value}"
        if (record.version, record.sha256) != (cited.version, cited.sha256):
            return f"{cited.file_name} changed (version {cited.version} -> {record.version})"
    return None


def cited_evidence(
    certificate: Certificate, index: SearchIndex
) -> tuple[list[EvidenceSpan], str | None]:
    """The certificate's citations as evidence spans of the current chunks, re-checked.

    Each quote must still be verbatim at its place in its chunk, which must still hold the
    certified version of its document; otherwise the spans are empty and the reason says why.
    """
    versions = {doc.doc_id: (doc.version, doc.sha256) for doc in certificate.documents}
    chunks = index.get_chunks(
        certificate.tenant, sorted({citation.chunk_id for citation in certificate.citations})
    )
    spans: list[EvidenceSpan] = []
    for citation in certificate.citations:
        chunk = chunks.get(citation.chunk_id)
        if chunk is None:
            return [], f"citation {citation.id}: chunk {citation.chunk_id} is gone"
        source = chunk.source
        if versions.get(chunk.doc_id) != (source.version, source.sha256):
            return [], f"citation {citation.id}: {source.file_name} is another version now"
        if chunk.text[citation.start : citation.end] != citation.quote:
            return [], f"citation {citation.id}: its quote is no longer verbatim in its chunk"
        sentence = _sentence_index(chunk, citation.start, citation.end)
        if sentence is None:
            return [], f"citation {citation.id}: no sentence of its chunk spans its quote"
        spans.append(
            EvidenceSpan(
                span_id=f"{chunk.chunk_id}:{sentence}",
                chunk_id=chunk.chunk_id,
                doc_id=chunk.doc_id,
                file_name=source.file_name,
                source_type=source.type,
                mime_type=source.mime_type,
                version=source.version,
                sha256=source.sha256,
                text=citation.quote,
                start=citation.start,
                end=citation.end,
                page=citation.page,
                boxes=citation.boxes,
                score=citation.score,
                chunk_score=citation.score,
                chunk_ordinal=chunk.ordinal,
                cells=citation.cells,
                section=chunk.sentences[sentence].section,
            )
        )
    return spans, None


def _sentence_index(chunk: Chunk, start: int, end: int) -> int | None:
    for index, sentence in enumerate(chunk.sentences):
        if sentence.start == start and sentence.end == end:
            return index
    return None


@dataclass(frozen=True)
class Match:
    """A candidate whose question is near-identical to the one asked."""

    answer: VerifiedAnswer
    overlap: float
    similarity: float | None


def near_identical(
    query: str,
    candidates: Sequence[VerifiedAnswer],
    *,
    min_term_overlap: float,
    min_similarity: float,
    embedder: Embedder | None,
) -> list[Match]:
    """The candidates asking the same as ``query``, most alike first (then newest first)."""
    terms = question_terms(query)
    if not terms:
        return []
    lexical = [
        (answer, overlap)
        for answer in candidates
        if (overlap := term_overlap(terms, question_terms(answer.question))) >= min_term_overlap
    ]
    if not lexical:
        return []
    if embedder is None:
        matches = [Match(answer, overlap, None) for answer, overlap in lexical]
    else:
        vectors = _vectors(query, [answer for answer, _ in lexical], embedder)
        cosines = vectors[1:] @ vectors[0]
        matches = [
            Match(answer, overlap, round(float(cosine), 6))
            for (answer, overlap), cosine in zip(lexical, cosines, strict=True)
            if float(cosine) >= min_similarity
        ]
    matches.sort(key=lambda match: match.answer.created_at, reverse=True)
    matches.sort(key=lambda match: (match.similarity or 0.0, match.overlap), reverse=True)
    return matches


def _vectors(
    query: str, answers: Sequence[VerifiedAnswer], embedder: Embedder
) -> NDArray[np.float64]:
    """Unit rows: the query's, then each answer's (stored when of this model, else embedded)."""
    # Imported here: numpy would otherwise load on every Lambda function's cold start
    # (certiq.steps imports every step); only an embedder's comparison needs it.
    import numpy as np

    stored = [_stored_vector(answer, embedder) for answer in answers]
    missing = [
        answer.question for answer, vector in zip(answers, stored, strict=True) if not vector
    ]
    # Questions all: compared with one another, as questions.
    fresh = iter(np.asarray(embed_query_texts(embedder, [query, *missing]), dtype=np.float64))
    rows = [next(fresh)]
    rows += [np.asarray(vector, dtype=np.float64) if vector else next(fresh) for vector in stored]
    matrix = np.vstack(rows)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: NDArray[np.float64] = matrix / norms
    return normalised


def _stored_vector(answer: VerifiedAnswer, embedder: Embedder) -> list[float] | None:
    """The answer's stored embedding when the same model made it, else None."""
    vector = answer.embedding
    if vector is None or answer.embedder != embedder.name or len(vector) != embedder.dimension:
        return None
    return vector

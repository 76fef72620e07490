"""Evidence span selection: the sentences of the retrieved chunks that best match the question.

Sentences are ranked with BM25 computed over the candidate sentences themselves, weighted by how
well their chunk ranked, so a strong sentence in a weak chunk can still win.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from certiq.models import EvidenceSpan, SearchHit
from certiq.text import content_terms

K1 = 1.2
B = 0.75
CHUNK_WEIGHT = 0.5


def select_spans(question: str, hits: Sequence[SearchHit], max_spans: int) -> list[EvidenceSpan]:
    query = set(content_terms(question))
    if not query or not hits:
        return []
    candidates = []
    seen: set[tuple[str, int, str]] = set()
    for hit in hits:
        for index, sentence in enumerate(hit.chunk.sentences):
            # Overlapping chunks repeat sentences: keep the first (best-ranked chunk's) copy.
            key = (hit.chunk.doc_id, sentence.page, sentence.text)
            if key in seen:
                continue
            seen.add(key)
            candidates.append((hit, index, Counter(content_terms(sentence.text))))
    if not candidates:
        return []

    document_frequency: Counter[str] = Counter()
    for _, _, terms in candidates:
        document_frequency.update(set(terms) & query)
    total = len(candidates)
    average_length = sum(sum(terms.values()) for _, _, terms in candidates) / total or 1.0
    best_chunk_score = max(hit.score for hit in hits) or 1.0

    scored: list[tuple[float, SearchHit, int]] = []
    for hit, index, terms in candidates:
        length = sum(terms.values())
        score = 0.0
        for term in query & terms.keys():
            idf = math.log(
                1 + (total - document_frequency[term] + 0.5) / (document_frequency[term] + 0.5)
            )
            frequency = terms[term]
            score += (
                idf
                * frequency
                * (K1 + 1)
                / (frequency + K1 * (1 - B + B * length / average_length))
            )
        if score > 0:
            score *= 1 + CHUNK_WEIGHT * max(hit.score, 0.0) / best_chunk_score
            scored.append((score, hit, index))
    scored.sort(key=lambda item: item[0], reverse=True)

    spans = []
    for score, hit, index in scored[:max_spans]:
        chunk = hit.chunk
        sentence = chunk.sentences[index]
        spans.append(
            EvidenceSpan(
                span_id=f"{chunk.chunk_id}:{index}",
                chunk_id=chunk.chunk_id,
                doc_id=chunk.doc_id,
                file_name=chunk.source.file_name,
                source_type=chunk.source.type,
                mime_type=chunk.source.mime_type,
                version=chunk.source.version,
                sha256=chunk.source.sha256,
                text=sentence.text,
                start=sentence.start,
                end=sentence.end,
                page=sentence.page,
                boxes=sentence.boxes,
                score=round(score, 6),
                chunk_score=round(hit.score, 6),
                chunk_ordinal=chunk.ordinal,
            )
        )
    return spans

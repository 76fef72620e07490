"""Evidence span selection: the sentences of the retrieved chunks that best match the question.

Each candidate sentence (every sentence of every retrieved chunk, repeats from overlapping
chunks counted once) is described by what ``candidate_set`` computes:

- lexical: BM25 of the question's content terms (certiq.text.content_terms) over the candidate
  sentences, each credited with the question's terms its document's file name holds
  (rank-bm25's BM25Okapi), divided by the best sentence's, so the best lexical match is 1;
- semantic, when there is an embedder: the cosine of sentence and question, below 0 taken as 0.
  The question and all candidate sentences are embedded in one call (two for a QueryEmbedder);
- chunk: the chunk's retrieval score over the best chunk's.

``span_scorer`` weighted scores each in [0, 1]: relevance = the weighted mean of
lexical and semantic (``span_bm25_weight``, ``span_dense_weight``), times (1 + w x chunk) /
(1 + w) with w ``span_chunk_weight``, so a strong sentence in a weak chunk can still win and
between equals the better chunk's sentence does.
``span_scorer`` model (given a RelevanceScorer: certiq's reader, a cross-encoder) re-ranks the
``span_shortlist`` best by that score: each scores the reader's probability that the sentence,
read with its document's title, its heading and the sentence before it
(certiq.retrieval.reading), answers the question, kept on the span as ``answers``; the offline
answerer shows what the reader says answers, and abstains when nothing does. A sentence whose
hand-set score is below ``span_threshold`` is dropped either way. The best ``max_spans`` are
kept, each with its page, boxes and offsets in its chunk, which is what the answer step cites,
and its cosine as ``similarity``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

from certiq.config import RetrievalSettings
from certiq.models import Chunk, EvidenceSpan, SearchHit, Sentence
from certiq.ports import Embedder, QueryEmbedder, RelevanceScorer
from certiq.retrieval.reading import document_title, reader_passage
from certiq.text import content_terms, file_name_terms, section_terms

K1 = 1.2
B = 0.75
Matrix = NDArray[np.float64]


class SentenceBM25(BM25Okapi):  # type: ignore[misc]
    """BM25Okapi with Lucene's idf, ``log(1 + (N - n + 0.5) / (n + 0.5))``, which is never negative.

    rank-bm25's own idf is negative for a term found in more than half of the corpus, and its
    floor (epsilon x the average idf) is negative as well when the corpus is a handful of
    sentences, as here: sentences holding a question term would score below those holding none.
    """

    def _calc_idf(self, nd: Mapping[str, int]) -> None:
        n = self.corpus_size
        self.idf = {
            word: math.log(1 + (n - freq + 0.5) / (freq + 0.5)) for word, freq in nd.items()
        }
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0


@dataclass(frozen=True)
class _Candidate:
    hit: SearchHit
    index: int
    terms: list[str]


# A candidate with its score, hand-set score and cosine (every candidate, best first), and one
# kept as evidence with its score and cosine.
Ranked = tuple[float, float, _Candidate, float | None]
Kept = tuple[float, _Candidate, float | None]


@dataclass(frozen=True)
class Candidates:
    """What relevance is judged on, one row per candidate sentence."""

    texts: Sequence[str]
    lexical: Matrix  # BM25 over the best candidate's, 0..1
    semantic: Matrix | None  # cosine with the question, negatives as 0; None: no embedder
    chunk: Matrix  # the chunk's retrieval score over the best chunk's, 0..1


def lexical_scores(query: Sequence[str], documents: Sequence[Sequence[str]]) -> NDArray[np.float64]:
    """BM25 of the query over the documents, divided by the best: the best match scores 1."""
    scores = np.zeros(len(documents), dtype=np.float64)
    terms = list(dict.fromkeys(query))
    if not terms or not any(documents):
        return scores
    raw: NDArray[Any] = SentenceBM25([list(doc) for doc in documents], k1=K1, b=B).get_scores(terms)
    best = float(raw.max())
    if best > 0:
        scores = np.asarray(raw, dtype=np.float64) / best
    return scores


def unit_vectors(
    question: str, sentences: Sequence[str], embedder: Embedder
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The question's and the sentences' vectors, normalised; one call to the embedder, two
    when it embeds questions differently (a QueryEmbedder)."""
    if isinstance(embedder, QueryEmbedder):
        rows = [embedder.embed_queries([question]), embedder.embed(sentences)]
        vectors = np.vstack([np.asarray(part, dtype=np.float64) for part in rows])
    else:
        vectors = np.asarray(embedder.embed([question, *sentences]), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    vectors = vectors / norms[:, None]
    return vectors[0], vectors[1:]


def candidate_set(
    question: str,
    hits: Sequence[SearchHit],
    embedder: Embedder | None,
    settings: RetrievalSettings,
) -> tuple[list[_Candidate], Candidates] | None:
    """Every sentence of the hits, with what relevance is judged on; None: nothing to judge."""
    query = content_terms(question)
    if not hits or (not query and embedder is None):
        return None
    candidates = _candidates(hits, frozenset(query))
    if not candidates:
        return None
    texts = [_sentence(candidate).text for candidate in candidates]
    semantic = None
    if embedder is not None and settings.span_dense_weight > 0:
        question_vector, sentence_vectors = unit_vectors(question, texts, embedder)
        semantic = np.clip(sentence_vectors @ question_vector, 0.0, 1.0)
    best_chunk = max(hit.score for hit in hits)
    chunk = np.array(
        [
            max(candidate.hit.score, 0.0) / best_chunk if best_chunk > 0 else 0.0
            for candidate in candidates
        ],
        dtype=np.float64,
    )
    return candidates, Candidates(
        texts=texts,
        lexical=lexical_scores(query, [candidate.terms for candidate in candidates]),
        semantic=semantic,
        chunk=chunk,
    )


def select_spans(
    question: str,
    hits: Sequence[SearchHit],
    max_spans: int,
    *,
    embedder: Embedder | None = None,
    settings: RetrievalSettings | None = None,
    relevance: RelevanceScorer | None = None,
) -> list[EvidenceSpan]:
    """The best ``max_spans`` sentences of the hits; ``relevance`` re-ranks them when given."""
    settings = settings or RetrievalSettings()
    found = candidate_set(question, hits, embedder, settings)
    if found is None:
        return []
    return best_spans(question, *found, max_spans, settings, relevance)


def best_spans(
    question: str,
    candidates: Sequence[_Candidate],
    data: Candidates,
    max_spans: int,
    settings: RetrievalSettings,
    relevance: RelevanceScorer | None = None,
) -> list[EvidenceSpan]:
    """``select_spans`` once ``candidate_set`` has judged the candidates: a sweep of the
    settings (scripts/sweep_span_weights.py) replays it without retrieving or embedding again."""
    weighted = weighted_scores(data, settings)
    hand_set = weighted.tolist()
    scores = (
        model_scores(question, candidates, weighted, relevance, settings)
        if relevance is not None
        else hand_set
    )
    similarities: list[float | None] = (
        data.semantic.tolist() if data.semantic is not None else [None] * len(candidates)
    )
    # What is evidence is the hand-set score's call; the model orders it. A sentence the model
    # finds far from the question stays, last, as what the answer may offer as related reading.
    everything = sorted(
        zip(scores, hand_set, candidates, similarities, strict=True),
        key=lambda item: item[0],
        reverse=True,
    )  # stable: ties keep retrieval order
    scored = [
        (score, candidate, similarity)
        for score, kept, candidate, similarity in everything
        if score > 0 and kept >= settings.span_threshold
    ][:max_spans]
    return [
        sentence_span(
            candidate.hit.chunk,
            candidate.index,
            score,
            candidate.hit.score,
            similarity=similarity,
            answers=score if relevance is not None else None,
        )
        for score, candidate, similarity in scored
    ]


def model_scores(
    question: str,
    candidates: Sequence[_Candidate],
    weighted: Matrix,
    relevance: RelevanceScorer,
    settings: RetrievalSettings,
) -> list[float]:
    """For the ``span_shortlist`` best sentences by the hand-set score (the reader reads each
    with the question, so it is kept to a few): the reader's probability that the sentence,
    read in its context, answers the question; 0 for the others."""
    best = np.argsort(-weighted, kind="stable")[: settings.span_shortlist].tolist()
    scores = [0.0] * len(candidates)
    passages = [_passage(candidates[i]) for i in best]
    for index, probability in zip(best, relevance.relevance(question, passages), strict=True):
        scores[index] = float(probability)
    return scores


def weighted_scores(data: Candidates, settings: RetrievalSettings) -> Matrix:
    """The hand-set score: weighted mean of BM25 and cosine, lifted by the chunk's rank."""
    relevance = data.lexical
    if data.semantic is not None:
        lexical_weight, dense_weight = settings.span_bm25_weight, settings.span_dense_weight
        relevance = (lexical_weight * relevance + dense_weight * data.semantic) / (
            lexical_weight + dense_weight
        )
    chunk_weight = settings.span_chunk_weight
    result: NDArray[np.float64] = relevance * (1 + chunk_weight * data.chunk) / (1 + chunk_weight)
    return result


def _candidates(hits: Sequence[SearchHit], query: frozenset[str]) -> list[_Candidate]:
    candidates: list[_Candidate] = []
    seen: set[tuple[str, int, str]] = set()
    for hit in hits:
        # Read in its document: "Owner: Chief Information Security Officer." in
        # incident-response-plan.pdf holds "incident response plan" when asked who the owner of
        # that plan is. Only the question's words count: the rest of a file name would only
        # make every sentence of the document longer.
        named = file_name_terms(hit.chunk.source.file_name) & query
        in_document = sorted(named)
        for index, sentence in enumerate(hit.chunk.sentences):
            # Overlapping chunks repeat sentences: keep the first (best-ranked chunk's) copy.
            key = (hit.chunk.doc_id, sentence.page, sentence.text)
            if key in seen:
                continue
            seen.add(key)
            # And in its section: "System owners must confirm within 2 business days ..." under
            # "6. Legal hold" is about legal holds.
            in_section = sorted(section_terms(sentence.section, query) - named)
            candidates.append(
                _Candidate(
                    hit,
                    index,
                    [*content_terms(sentence.text), *in_document, *in_section],
                )
            )
    return candidates


def _sentence(candidate: _Candidate) -> Sentence:
    return candidate.hit.chunk.sentences[candidate.index]


def _passage(candidate: _Candidate) -> str:
    """The sentence as the reader reads it: with its document's title, its heading and the
    sentence before it in its chunk."""
    sentences = candidate.hit.chunk.sentences
    previous = sentences[candidate.index - 1].text if candidate.index else None
    return reader_passage(
        _sentence(candidate).text,
        document_title(candidate.hit.chunk.source.file_name),
        _sentence(candidate).section,
        previous,
    )


def sentence_span(
    chunk: Chunk,
    index: int,
    score: float,
    chunk_score: float,
    *,
    similarity: float | None = None,
    answers: float | None = None,
) -> EvidenceSpan:
    """Sentence ``index`` of the chunk as an evidence span (span id chunk_id:index)."""
    sentence = chunk.sentences[index]
    return EvidenceSpan(
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
        chunk_score=round(chunk_score, 6),
        chunk_ordinal=chunk.ordinal,
        similarity=None if similarity is None else round(similarity, 6),
        addresses_assistant=sentence.addresses_assistant,
        cells=sentence.cells,
        section=sentence.section,
        answers=None if answers is None else round(answers, 6),
    )

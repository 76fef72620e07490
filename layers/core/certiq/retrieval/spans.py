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
``span_scorer`` model (given a RelevanceScorer: certiq's relevance cross-encoder) re-ranks the
``span_shortlist`` best by that score: each scores it times the model's probability that the
sentence states the answer, to the power ``span_model_weight`` (the offline answerer abstains
when no sentence scores ``min_relevance``). A sentence whose hand-set score is below
``span_threshold`` is dropped either way. The best ``max_spans`` are kept, each with
its page, boxes and offsets in its chunk, which is what the answer step cites, and its cosine
as ``similarity`` (the offline answerer does not answer with a sentence far from the question).

Two kinds of question keep more than the best ``max_spans``, whatever their sentences score:
asked what a section says or lists, every sentence of that section (up to
``max_section_spans``); asked what a document is about, for or covers, its purpose, scope or
abstract, or else its opening sentences (certiq.answering.sections).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

from certiq.answering.actions import (
    action_asked,
    does_the_action,
)
from certiq.answering.amounts import amounts_named, holds_an_amount_asked
from certiq.answering.answer_types import names_someone
from certiq.answering.antecedents import antecedent
from certiq.answering.sections import (
    choose_document,
    document_asked,
    opens_the_document,
    section_asked,
    section_match,
)
from certiq.config import RetrievalSettings
from certiq.models import Chunk, EvidenceSpan, SearchHit, Sentence
from certiq.ports import Embedder, QueryEmbedder, RelevanceScorer
from certiq.text import content_terms, file_name_terms, section_terms

K1 = 1.2
B = 0.75
# A document's first sentences, which say what it is when no heading does: its title and
# header lines among them (never shown as an answer), then its opening statement.
OPENING_SENTENCES = 12
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
        model_scores(question, data, weighted, relevance, settings)
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
    scored += _listed_section(question, everything, scored, settings)
    scored += _document_opening(question, everything, scored, settings)
    scored += _someone_doing_it(question, everything, scored, settings)
    scored += _in_the_band_asked(question, everything, scored)
    return [
        sentence_span(
            candidate.hit.chunk, candidate.index, score, candidate.hit.score, similarity=similarity
        )
        for score, candidate, similarity in scored
    ]


def _someone_doing_it(
    question: str,
    everything: Sequence[Ranked],
    scored: Sequence[Kept],
    settings: RetrievalSettings,
) -> list[Kept]:
    """Asked who does something, the best sentence in which someone does it is evidence when
    none of the best sentences already ``scored`` is one: "The Data Protection Officer (DPO)
    ... approves exceptions ..." holds one word of "Who can approve a request to keep data
    longer?", and sentences holding more of its words crowd it out."""
    action = action_asked(question)
    if action is None or any(_does_it(action, candidate) for _, candidate, _ in scored):
        return []
    return _beyond_the_best(
        everything,
        scored,
        lambda kept, candidate: kept >= settings.span_threshold and _does_it(action, candidate),
        1,
    )


def _in_the_band_asked(
    question: str, everything: Sequence[Ranked], scored: Sequence[Kept]
) -> list[Kept]:
    """Asked of an amount, the sentences stating a band that holds it are evidence, the best
    two, however they score: "£500,000 and above: the Cabinet Member for Finance ..." shares no
    word with "Who approves spend over half a million?"."""
    if not amounts_named(question):
        return []
    return _beyond_the_best(
        everything,
        scored,
        lambda _, candidate: bool(holds_an_amount_asked(question, _sentence(candidate).text)),
        2,
    )


def _beyond_the_best(
    everything: Sequence[Ranked],
    scored: Sequence[Kept],
    wanted: Callable[[float, _Candidate], bool],
    count: int,
) -> list[Kept]:
    """The best ``count`` candidates not already ``scored`` that ``wanted`` takes (given their
    hand-set score and themselves); one the relevance model did not read (beyond its
    shortlist) keeps its hand-set score."""
    taken = {id(candidate) for _, candidate, _ in scored}
    found = (
        (score or kept, candidate, similarity)
        for score, kept, candidate, similarity in everything
        if id(candidate) not in taken and wanted(kept, candidate)
    )
    return list(itertools.islice(found, count))


def _does_it(action: str, candidate: _Candidate) -> bool:
    text = _sentence(candidate).text
    return does_the_action(action, text) and names_someone(text)


def _listed_section(
    question: str,
    everything: Sequence[Ranked],
    scored: Sequence[Kept],
    settings: RetrievalSettings,
) -> list[Kept]:
    """Asked what a section says or lists, all of it is evidence, beyond the best sentences
    already ``scored`` and whatever each scores: "SEV3: a contained issue ..." answers "What
    are the severity levels?" without its words."""
    asked = section_asked(question)
    if asked is None:
        return []
    taken = {id(candidate) for _, candidate, _ in scored}
    named = [
        (score, candidate, similarity)
        for score, _, candidate, similarity in everything
        if section_match(asked, _sentence(candidate).section) > 0
    ]
    in_section = sum(id(candidate) in taken for _, candidate, _ in named)
    room = max(settings.max_section_spans - in_section, 0)
    return [item for item in named if id(item[1]) not in taken][:room]


def _document_opening(
    question: str,
    everything: Sequence[Ranked],
    scored: Sequence[Kept],
    settings: RetrievalSettings,
) -> list[Kept]:
    """Asked what a document is for, what it says of itself is evidence, beyond the best
    sentences already ``scored``: its purpose, scope or abstract, or, when it has none, its
    opening sentences. The document is the one the question names, or, named only as "this
    policy", the one whose sentences score best (certiq.answering.extractive chooses the same)."""
    document = document_asked(question)
    if document is None:
        return []
    chosen = choose_document(
        document,
        (
            (c.hit.chunk.doc_id, c.hit.chunk.source.file_name, c.terms, score)
            for score, _, c, _ in everything
        ),
    )
    if chosen is None:
        return []
    taken = {id(candidate) for _, candidate, _ in scored}
    opening = [
        (score, candidate, similarity)
        for score, _, candidate, similarity in everything
        if id(candidate) not in taken
        and candidate.hit.chunk.doc_id == chosen
        and (
            opens_the_document(_sentence(candidate).section)
            or (candidate.hit.chunk.ordinal == 0 and candidate.index < OPENING_SENTENCES)
        )
    ]
    return opening[: settings.max_section_spans]


def model_scores(
    question: str,
    data: Candidates,
    weighted: Matrix,
    relevance: RelevanceScorer,
    settings: RetrievalSettings,
) -> list[float]:
    """For the ``span_shortlist`` best sentences by the hand-set score (the model reads each
    with the question, so it is kept to a few): that score times the model's probability to the
    power ``span_model_weight``; 0 for the others. On held-out PolicyQA policies the product
    ranks nearly as well as the probability alone, and it keeps the hand-set score's preference
    for sentences that use the question's words, which the model (trained on privacy policies
    and abstracts) does not always share: alone it answered 40 of the demo's 46 questions."""
    best = np.argsort(-weighted, kind="stable")[: settings.span_shortlist]
    scores = [0.0] * len(data.texts)
    for index, probability in zip(
        best.tolist(), relevance.relevance(question, [data.texts[i] for i in best]), strict=True
    ):
        scores[index] = float(weighted[index]) * probability**settings.span_model_weight
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
            # And with what its opening pronoun stands for: "They are not paid the first aid
            # allowance." after "Mental health first aiders are volunteers ...".
            subject = antecedent(hit.chunk.sentences, index)
            standing_for = content_terms(subject) if subject else []
            candidates.append(
                _Candidate(
                    hit,
                    index,
                    [*content_terms(sentence.text), *standing_for, *in_document, *in_section],
                )
            )
    return candidates


def _sentence(candidate: _Candidate) -> Sentence:
    return candidate.hit.chunk.sentences[candidate.index]


def sentence_span(
    chunk: Chunk,
    index: int,
    score: float,
    chunk_score: float,
    *,
    similarity: float | None = None,
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
        antecedent=antecedent(chunk.sentences, index),
    )

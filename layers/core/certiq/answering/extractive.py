"""The offline answerer: an answer made of the evidence sentences themselves, each citing itself.

It implements the ChatModel port so the Answer state treats it like any provider. It never
writes a word the documents do not contain, so it needs no key and costs no tokens. What it shows
is the reader's choice (certiq's cross-encoder, models/reader/MODEL_CARD.md): for each part of the
question, the sentences the reader finds most likely to answer it, when the best reaches
``min_answer``; the next ones while each scores ``keep_ratio`` of the best, up to
``max_sentences``; shown in the document's order. A part no sentence answers is listed as not
stated, and when none is answered the answer says the documents do not state it.

Without a reader (``span_scorer`` weighted, or its model not found) the hand-set span score
chooses, with ``min_relevance`` as its floor: a plain ranking, which docs/answers.md says is weaker.
"""

from __future__ import annotations

from collections.abc import Sequence

from certiq.answering.parts import question_parts
from certiq.config import AnswerSettings
from certiq.models import ConversationTurn, DraftQuote, DraftSentence, EvidenceSpan
from certiq.ports import ChatDraft, RelevanceScorer
from certiq.retrieval.reading import document_title, reader_passage
from certiq.trust.claims import is_statement


class ExtractiveAnswerer:
    def __init__(self, settings: AnswerSettings, reader: RelevanceScorer | None = None) -> None:
        self._settings = settings
        self._reader = reader

    @property
    def name(self) -> str:
        return "extractive"

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        sentences, unanswered = self.answer_parts(question, evidence)
        return ChatDraft(
            sentences=sentences,
            answerer=self.name,
            unanswered=tuple(unanswered) if sentences else (),
        )

    def select(self, question: str, evidence: Sequence[EvidenceSpan]) -> list[DraftSentence]:
        """The sentences answering the question, part by part, each sentence once."""
        return self.answer_parts(question, evidence)[0]

    def answer_parts(
        self, question: str, evidence: Sequence[EvidenceSpan]
    ) -> tuple[list[DraftSentence], list[str]]:
        """(the sentences answering the question's parts, the parts no sentence answers)."""
        candidates = [span for span in evidence if may_answer(span)]
        parts = question_parts(question)
        chosen: dict[str, EvidenceSpan] = {}
        # A part nothing reaches the floor for, with the sentence that came closest.
        short: list[tuple[str, str | None]] = []
        for part in parts:
            scores, floor = self.scores(part, candidates, whole=len(parts) == 1)
            picked = self.choose(candidates, scores, floor)
            if not picked:
                near = self._settings.keep_ratio * floor
                short.append((part, _closest(candidates, scores, near)))
            for span in picked:
                chosen.setdefault(span.span_id, span)
        # "Not stated" must not contradict the answer: a part whose closest sentence is shown
        # for another part is left for the reader to judge, as every offline answer is.
        unanswered = [part for part, closest in short if closest not in chosen]
        return [_drafted(span) for span in in_document_order(list(chosen.values()))], unanswered

    def scores(
        self, question: str, evidence: Sequence[EvidenceSpan], *, whole: bool = True
    ) -> tuple[list[float], float]:
        """How likely each sentence is to answer ``question``, and the floor an answer must
        reach: the reader's probability from retrieval when the question was read whole; a
        part of it is read again by the reader (with title and heading; the sentence before is
        not carried on a span); ``min_answer`` for either. Without a reader's probabilities, the
        hand-set score and ``min_relevance``."""
        read = any(span.answers is not None for span in evidence)
        if whole and read and all(span.answers is not None for span in evidence):
            return [float(span.answers or 0.0) for span in evidence], self._settings.min_answer
        if self._reader is not None and read:
            passages = [
                reader_passage(span.text, document_title(span.file_name), span.section)
                for span in evidence
            ]
            return self._reader.relevance(question, passages), self._settings.min_answer
        return [span.score for span in evidence], self._settings.min_relevance

    def choose(
        self, evidence: Sequence[EvidenceSpan], scores: Sequence[float], floor: float
    ) -> list[EvidenceSpan]:
        """The best sentence when it reaches ``floor``, then the next while each scores
        ``keep_ratio`` of the best, ``max_sentences`` at most, a repeated text once."""
        if not evidence:
            return []
        ranked = sorted(zip(scores, evidence, strict=True), key=lambda item: -item[0])
        best = ranked[0][0]
        if best < floor:
            return []
        keep = max(floor, self._settings.keep_ratio * best)
        picked: list[EvidenceSpan] = []
        for score, span in ranked:
            if score < keep or len(picked) == self._settings.max_sentences:
                break
            if all(_normalised(span.text) != _normalised(other.text) for other in picked):
                picked.append(span)
        return picked


def _closest(
    candidates: Sequence[EvidenceSpan], scores: Sequence[float], near: float
) -> str | None:
    """The span id of the best sentence when it comes near the floor (``keep_ratio`` of it, as
    a second sentence must of the best); None when none does."""
    ranked = sorted(zip(scores, candidates, strict=True), key=lambda item: -item[0])
    if not ranked or ranked[0][0] < near:
        return None
    return ranked[0][1].span_id


def may_answer(span: EvidenceSpan) -> bool:
    """A statement the documents make: not a title, heading or running header, not a question,
    not a table's row (offered as reading, never stated on its own), not a sentence addressing
    an AI assistant."""
    return (
        is_statement(span.text)
        and not span.text.rstrip().endswith("?")
        and span.cells is None
        and not span.addresses_assistant
    )


def in_document_order(spans: list[EvidenceSpan]) -> list[EvidenceSpan]:
    """The documents in the order their first sentence was chosen, each one's sentences as the
    document has them."""
    first: dict[str, int] = {}
    for rank, span in enumerate(spans):
        first.setdefault(span.doc_id, rank)
    return sorted(
        spans,
        key=lambda span: (first[span.doc_id], span.chunk_ordinal, span.start),
    )


def _normalised(text: str) -> str:
    return " ".join(text.lower().split())


def _drafted(span: EvidenceSpan) -> DraftSentence:
    return DraftSentence(
        text=span.text,
        citation_ids=[span.span_id],
        quotes=[DraftQuote(span_id=span.span_id, text=span.text)],
    )

"""Follow-up questions: a standalone search query from the conversation, and earlier evidence.

A question asked with a conversation_id is read with the conversation's earlier COMPLETE turns
(their redacted questions as searched, and their answers). Two things follow:

- Query rewriting. With a model rewriter (``llm.provider`` set, ``conversation.rewriter`` auto)
  the model writes the standalone query; when it fails the rules stand in and the search metadata
  says why. The rules treat a question as a follow-up when it opens with a connective ("and for
  contractors?", "what about ..."), refers back with a pronoun ("how long is it kept?"), or has at
  most ``followup_max_terms`` content terms; the previous turn's content words that the question
  does not already hold are then appended to it. A question naming its own proper noun ("what about
  it in France?") drops the previous turn's capitalised words, which it most likely replaces.
- Earlier evidence. A rewritten follow-up searches the previous turn's cited chunks again, beside
  the new hits, when each is still indexed at the version its certificate records and every quote
  cited from it is still verbatim there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from certiq.config import ConversationSettings
from certiq.models import (
    Chunk,
    Citation,
    QAResponse,
    QuestionRecord,
    QuestionStatus,
    SearchHit,
    collection_of,
)
from certiq.ports import CertificateStore, QueryRewriter, QuestionStore, SearchIndex, Turn
from certiq.text import STOPWORDS, content_terms, stem, strip_markers, words

_TOKEN = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*", re.UNICODE)
# Words that point back at something an earlier turn named.
REFERRING = frozenset(
    "it its itself they them their theirs themselves this that these those he him his she her"
    " hers same".split()
)
# Openings that continue the previous question rather than ask a new one.
CONNECTIVES = (
    "and",
    "or",
    "but",
    "also",
    "what about",
    "how about",
    "what if",
    "same for",
    "same question for",
    "then",
)
RULES = "rules"


@dataclass(frozen=True)
class EarlierTurn:
    """An earlier COMPLETE turn of the conversation, as its response recorded it."""

    question_id: str
    question: str  # as asked, redacted
    query: str  # what was searched for it: its own rewritten query when it was a follow-up
    answer: str  # as rendered, without its citation markers
    citations: list[Citation]
    certificate_id: str | None


@dataclass(frozen=True)
class Rewrite:
    query: str
    rewriter: str | None = None  # None: searched as asked
    note: str | None = None
    turns: list[EarlierTurn] = field(default_factory=list)

    @property
    def rewritten(self) -> bool:
        return self.rewriter is not None


def earlier_turns(
    questions: QuestionStore,
    tenant: str,
    conversation_id: str,
    question_id: str,
    max_turns: int,
) -> list[EarlierTurn]:
    """The conversation's COMPLETE turns before ``question_id``, the newest ``max_turns``."""
    records: list[QuestionRecord] = []
    for record in questions.conversation(tenant, conversation_id):
        if record.question_id == question_id:
            break  # the list is oldest first: what follows was asked later
        records.append(record)
    turns = [
        _turn(record.question_id, record.response)
        for record in records
        if record.status is QuestionStatus.COMPLETE and record.response is not None
    ]
    return turns[-max_turns:]


def _turn(question_id: str, response: QAResponse) -> EarlierTurn:
    query = response.search.query if response.search is not None else response.question
    return EarlierTurn(
        question_id=question_id,
        question=response.question,
        query=query,
        answer=strip_markers(response.answer),
        citations=response.citations,
        certificate_id=response.certificate_id,
    )


def is_follow_up(question: str, settings: ConversationSettings) -> bool:
    said = words(question)
    if not said:
        return False
    opening = " ".join(said)
    if any(opening == lead or opening.startswith(lead + " ") for lead in CONNECTIVES):
        return True
    if REFERRING.intersection(said):
        return True
    return len(set(content_terms(question))) <= settings.followup_max_terms


def rewrite_by_rules(question: str, previous: str) -> str:
    """The question followed by the previous query's content words it does not hold already."""
    asked = {stem(word) for word in words(question)}
    names_its_own = _proper_nouns(question)
    carried: list[str] = []
    seen: set[str] = set()
    for position, match in enumerate(_TOKEN.finditer(previous)):
        word = match.group(0)
        lowered = word.lower()
        if lowered in STOPWORDS or lowered in REFERRING or stem(lowered) in asked:
            continue
        if names_its_own and position > 0 and word[0].isupper():
            continue  # "what about France?" replaces the previous turn's "Germany"
        if lowered not in seen:
            seen.add(lowered)
            carried.append(word)
    text = question.strip()
    return f"{text} {' '.join(carried)}" if carried else text


def _proper_nouns(text: str) -> bool:
    """Whether a word other than the first is capitalised (and not "I")."""
    return any(
        position > 0 and match.group(0)[0].isupper() and match.group(0) != "I"
        for position, match in enumerate(_TOKEN.finditer(text))
    )


def rewrite_query(
    question: str,
    turns: Sequence[EarlierTurn],
    rewriter: QueryRewriter | None,
    settings: ConversationSettings,
) -> Rewrite:
    """The query to search for ``question`` given the earlier turns (oldest first)."""
    if not turns or settings.rewriter == "none":
        return Rewrite(question)
    note = None
    if rewriter is not None and settings.rewriter == "auto":
        try:
            query = rewriter.rewrite(question, [Turn(t.query, t.answer) for t in turns]).strip()
        except Exception as error:  # any failure: the rules stand in, and the state says why
            note = f"{rewriter.name} could not rewrite the query ({error}); rules were used"
        else:
            if not query:
                note = f"{rewriter.name} returned an empty query; rules were used"
            elif _same(query, question):
                return Rewrite(question, turns=list(turns))
            else:
                return Rewrite(query, rewriter.name, turns=list(turns))
    if is_follow_up(question, settings):
        query = rewrite_by_rules(question, turns[-1].query)
        if not _same(query, question):
            return Rewrite(query, RULES, note, list(turns))
    return Rewrite(question, None, note, list(turns))


def _same(first: str, second: str) -> bool:
    return words(first) == words(second)


def earlier_evidence(
    turn: EarlierTurn,
    tenant: str,
    collection: str | None,
    index: SearchIndex,
    certificates: CertificateStore,
) -> list[Chunk]:
    """The chunks the turn cited that still hold what was cited, in the order first cited."""
    if not turn.citations:
        return []
    certificate = certificates.get(turn.certificate_id) if turn.certificate_id else None
    versions = (
        {doc.doc_id: (doc.version, doc.sha256) for doc in certificate.documents}
        if certificate is not None and certificate.tenant == tenant
        else {}
    )
    chunk_ids = list(dict.fromkeys(citation.chunk_id for citation in turn.citations))
    found = index.get_chunks(tenant, chunk_ids)
    kept: list[Chunk] = []
    for chunk_id in chunk_ids:
        chunk = found.get(chunk_id)
        if chunk is None or (collection is not None and collection_of(chunk) != collection):
            continue
        if versions.get(chunk.doc_id) != (chunk.source.version, chunk.source.sha256):
            continue  # another version now, or no certificate to say which one was cited
        quotes_hold = all(
            chunk.text[citation.start : citation.end] == citation.quote
            for citation in turn.citations
            if citation.chunk_id == chunk_id
        )
        if quotes_hold:
            kept.append(chunk.model_copy(update={"embedding": None}))
    return kept


def merge_hits(hits: Sequence[SearchHit], carried: Sequence[Chunk]) -> tuple[list[SearchHit], int]:
    """The hits, then each carried chunk not among them scored as the weakest hit.

    Returns the merged hits and how many carried chunks were added: they are candidates again,
    and their sentences compete with the new hits' on their own relevance to the query.
    """
    present = {hit.chunk.chunk_id for hit in hits}
    floor = min((hit.score for hit in hits), default=1.0)
    added = [
        SearchHit(chunk=chunk, score=floor) for chunk in carried if chunk.chunk_id not in present
    ]
    return [*hits, *added], len(added)

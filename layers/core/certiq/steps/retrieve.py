"""Retrieve evidence: the chunks that match the question and, within them, the best sentences.

The mode is the question's own (``retrieval_mode``) or the settings'; what ran, and why when it
is not what was asked for, is recorded in ``state.search`` and returned with the answer.

In a conversation, a follow-up is searched as a standalone query rewritten from the earlier turns,
and the previous turn's cited chunks, when unchanged, are candidates again
(certiq.retrieval.conversation); ``state.search`` records the query and the question as asked.
"""

from __future__ import annotations

from typing import Protocol

from certiq.answering.parts import question_parts
from certiq.config import Settings
from certiq.models import EvidenceSpan, QuestionState, QuestionStatus, SearchMetadata
from certiq.ports import (
    CertificateStore,
    Embedder,
    QueryRewriter,
    QuestionStore,
    RelevanceScorer,
    SearchIndex,
)
from certiq.retrieval.conversation import (
    Rewrite,
    earlier_evidence,
    earlier_turns,
    merge_hits,
    rewrite_query,
)
from certiq.retrieval.search import engine_name, hybrid_search


class RetrieveDeps(Protocol):
    """What Retrieve evidence uses: a Deps is one, and the step can reach nothing else."""

    @property
    def settings(self) -> Settings: ...

    @property
    def questions(self) -> QuestionStore: ...

    @property
    def certificates(self) -> CertificateStore: ...

    @property
    def index(self) -> SearchIndex: ...

    @property
    def embedder(self) -> Embedder | None: ...

    @property
    def rewriter(self) -> QueryRewriter | None: ...

    @property
    def relevance(self) -> RelevanceScorer | None: ...


def retrieve(state: QuestionState, deps: RetrieveDeps) -> QuestionState:
    # Imported here: spans load numpy and rank-bm25, which the other functions' cold starts
    # (every function imports certiq.steps) should not pay for.
    from certiq.retrieval.spans import select_spans

    deps.questions.set_status(state.question_id, QuestionStatus.RETRIEVING)
    settings = deps.settings.retrieval
    mode = state.retrieval_mode or settings.mode
    rewrite = _rewrite(state, deps)
    query = rewrite.query
    result = hybrid_search(
        deps.index,
        deps.embedder,
        state.tenant,
        query,
        settings.top_k,
        mode,
        settings,
        collection=state.collection,
    )
    hits, carried = result.hits, 0
    if rewrite.rewritten and rewrite.turns and deps.settings.conversation.carry_evidence:
        chunks = earlier_evidence(
            rewrite.turns[-1], state.tenant, state.collection, deps.index, deps.certificates
        )
        hits, carried = merge_hits(hits, chunks)
    # A question in parts ("How long are invoices kept and who owns the retention policy?")
    # gets each part's best sentences: chosen for the whole, the owner's sentences lost every
    # place to the invoices'.
    chosen: dict[str, EvidenceSpan] = {}
    for part in question_parts(query):
        for span in select_spans(
            part,
            hits,
            settings.max_spans,
            embedder=deps.embedder,
            settings=settings,
            relevance=deps.relevance,
        ):
            if span.span_id not in chosen or chosen[span.span_id].score < span.score:
                chosen[span.span_id] = span
    spans = sorted(chosen.values(), key=lambda span: span.score, reverse=True)
    search = SearchMetadata(
        query=rewrite.query,
        mode=mode,
        mode_used=result.mode_used,
        chunks_searched=len(hits),
        candidates=result.candidates,
        threshold=settings.span_threshold,
        span_scorer=deps.relevance.name if deps.relevance is not None else "weighted",
        engine=engine_name(deps.index),
        embedder=deps.embedder.name if deps.embedder is not None else None,
        collection=state.collection,
        note=result.note,
        original_query=state.question if rewrite.rewritten else None,
        rewriter=rewrite.rewriter,
        rewrite_note=rewrite.note,
        earlier_evidence=carried,
    )
    return state.model_copy(
        update={
            "status": QuestionStatus.RETRIEVING,
            "evidence": spans,
            "chunks_searched": len(hits),
            "search": search,
        }
    )


def _rewrite(state: QuestionState, deps: RetrieveDeps) -> Rewrite:
    """The query to search: the question itself, or a follow-up rewritten from earlier turns."""
    if state.conversation_id is None:
        return Rewrite(state.question)
    settings = deps.settings.conversation
    turns = earlier_turns(
        deps.questions,
        state.tenant,
        state.conversation_id,
        state.question_id,
        settings.max_turns,
    )
    return rewrite_query(state.question, turns, deps.rewriter, settings)

"""Retrieve evidence: the chunks that match the question and, within them, the best sentences.

The mode is the question's own (``retrieval_mode``) or the settings'; what ran, and why when it
is not what was asked for, is recorded in ``state.search`` and returned with the answer.
"""

from __future__ import annotations

from certiq.models import QuestionState, QuestionStatus, SearchMetadata
from certiq.retrieval.search import engine_name, hybrid_search
from certiq.steps.deps import Deps


def retrieve(state: QuestionState, deps: Deps) -> QuestionState:
    # Imported here: spans load numpy and rank-bm25, which the other functions' cold starts
    # (every function imports certiq.steps) should not pay for.
    from certiq.retrieval.spans import select_spans

    deps.questions.set_status(state.question_id, QuestionStatus.RETRIEVING)
    settings = deps.settings.retrieval
    mode = state.retrieval_mode or settings.mode
    result = hybrid_search(
        deps.index,
        deps.embedder,
        state.tenant,
        state.question,
        settings.top_k,
        mode,
        settings,
        collection=state.collection,
    )
    spans = select_spans(
        state.question,
        result.hits,
        settings.max_spans,
        embedder=deps.embedder,
        settings=settings,
    )
    search = SearchMetadata(
        query=state.question,
        mode=mode,
        mode_used=result.mode_used,
        chunks_searched=len(result.hits),
        candidates=result.candidates,
        threshold=settings.span_threshold,
        engine=engine_name(deps.index),
        embedder=deps.embedder.name if deps.embedder is not None else None,
        collection=state.collection,
        note=result.note,
    )
    return state.model_copy(
        update={
            "status": QuestionStatus.RETRIEVING,
            "evidence": spans,
            "chunks_searched": len(result.hits),
            "search": search,
        }
    )

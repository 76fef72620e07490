"""Retrieve evidence: the chunks that match the question and, within them, the best sentences."""

from __future__ import annotations

from certiq.models import QuestionState, QuestionStatus
from certiq.retrieval.spans import select_spans
from certiq.steps.deps import Deps


def retrieve(state: QuestionState, deps: Deps) -> QuestionState:
    deps.questions.set_status(state.question_id, QuestionStatus.RETRIEVING)
    settings = deps.settings.retrieval
    hits = deps.index.search(state.tenant, state.question, settings.top_k)
    spans = select_spans(state.question, hits, settings.max_spans)
    return state.model_copy(
        update={
            "status": QuestionStatus.RETRIEVING,
            "evidence": spans,
            "chunks_searched": len(hits),
        }
    )

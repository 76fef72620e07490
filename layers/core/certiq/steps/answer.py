"""Draft answer: the chat model writes sentences that cite evidence; we number the citations."""

from __future__ import annotations

from certiq.answering.citations import assemble
from certiq.models import QuestionState, QuestionStatus
from certiq.steps.deps import Deps


def answer(state: QuestionState, deps: Deps) -> QuestionState:
    deps.questions.set_status(state.question_id, QuestionStatus.GENERATING_ANSWER)
    draft = deps.chat_model.draft(state.question, state.evidence) if state.evidence else []
    cited = assemble(draft, state.evidence)
    return state.model_copy(
        update={
            "status": QuestionStatus.GENERATING_ANSWER,
            "draft": draft,
            "citations": cited.citations,
            "claims": cited.claims,
            "answer": cited.text,
            "answerer": deps.chat_model.name,
        }
    )

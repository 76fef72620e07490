"""Claude as a ChatModel: evidence as search results with citations on, cited text mapped back.

Each evidence span goes as one ``search_result`` content block (source = our span id, one text
block holding the span's text) with citations enabled. Claude's answer comes back as text
blocks; the cited ones carry ``search_result_location`` citations naming the result (its
``source``, and its ``search_result_index`` among the request's search results) and the
``cited_text``, which must be found verbatim in that span (or it is repaired by fuzzy alignment,
or the citation is dropped: certiq.answering.parsing). Text blocks are joined and split into
sentences; each sentence cites the spans its cited blocks point at. An answer with no native
citation is read as marked prose ([S1] markers, <extract> tags), since a model may ignore the
feature.

The instructions are a fixed system prompt marked ``cache_control: ephemeral``, and so is the
last earlier turn of a conversation, so repeated prefixes are read from Anthropic's prompt cache
(only once a prefix reaches the model's minimum cacheable length; shorter ones are not cached
and report zero cache tokens). Usage is recorded with the cache counters.

The flow around the request (timing, usage, the checks that make a draft usable) is
certiq.adapters.llm.drafting's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from certiq.adapters.llm.drafting import ProviderChat, Reading, earlier_turns
from certiq.answering.parsing import (
    Anchor,
    EvidenceIds,
    anchor_quote,
    parse_marked_text,
    sentences_with_anchors,
)
from certiq.answering.prompts import (
    ANTHROPIC_FORMAT,
    evidence_title,
    question_message,
)
from certiq.models import ConversationTurn, DraftQuote, DraftSentence, EvidenceSpan, ModelCall

if TYPE_CHECKING:
    import anthropic  # noqa: F401 (the client type named in the base class)
    from anthropic.types import Message, MessageParam, SearchResultBlockParam, TextBlockParam

PROVIDER: Final = "anthropic"


class AnthropicChat(ProviderChat["anthropic.Anthropic", "MessageParam", "Message"]):
    """Implements certiq.ports.ChatModel with the Anthropic Messages API and its citations."""

    provider = PROVIDER
    answer_format = ANTHROPIC_FORMAT

    def messages(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> list[MessageParam]:
        """Earlier turns as user/assistant pairs, then the evidence and the question."""
        messages: list[MessageParam] = []
        for position, (earlier_question, earlier_answer) in enumerate(earlier_turns(history)):
            answer: TextBlockParam = {"type": "text", "text": earlier_answer}
            if position == len(history) - 1:
                # The conversation so far is the same prefix when the next question comes.
                answer["cache_control"] = {"type": "ephemeral"}
            messages.append({"role": "user", "content": earlier_question})
            messages.append({"role": "assistant", "content": [answer]})
        results: list[SearchResultBlockParam] = [
            {
                "type": "search_result",
                "source": span.span_id,
                "title": evidence_title(span),
                "content": [{"type": "text", "text": span.text}],
                "citations": {"enabled": True},
            }
            for span in evidence
        ]
        question_block: TextBlockParam = {"type": "text", "text": question_message(question)}
        messages.append({"role": "user", "content": [*results, question_block]})
        return messages

    def _create(self, messages: list[MessageParam]) -> Message:
        return self._client.messages.create(
            model=self._model,
            max_tokens=self._max_output_tokens,
            system=[{"type": "text", "text": self._system, "cache_control": {"type": "ephemeral"}}],
            messages=messages,
        )

    def _read(self, response: Message, ids: EvidenceIds, *, has_usage: bool) -> Reading | str:
        if response.stop_reason == "refusal":
            return "the model refused to answer"
        content = response.content if isinstance(response.content, list) else None
        if content is None or not has_usage:
            return "the response has no content or no usage"
        sentences = read_content(content, ids)
        if response.stop_reason == "max_tokens" and sentences:
            sentences = _without_cut_sentence(sentences)
        return Reading(sentences, f"stop_reason {response.stop_reason}")

    def _call(self, response: Message, latency_ms: float) -> ModelCall | None:
        usage: Any = getattr(response, "usage", None)
        if usage is None or not isinstance(usage.input_tokens, int):
            return None
        cache_read = usage.cache_read_input_tokens or 0
        cache_creation = usage.cache_creation_input_tokens or 0
        return ModelCall(
            provider=PROVIDER,
            model=response.model if isinstance(response.model, str) else self._model,
            # Anthropic's input_tokens leaves out the cached ones: add them for the true size.
            input_tokens=usage.input_tokens + cache_read + cache_creation,
            output_tokens=usage.output_tokens or 0,
            cache_read_input_tokens=cache_read,
            cache_creation_input_tokens=cache_creation,
            latency_ms=latency_ms,
        )


def read_content(content: Sequence[Any], ids: EvidenceIds) -> list[DraftSentence]:
    """Text blocks joined; native citations anchored to the text range of their block."""
    text = ""
    anchors: list[Anchor] = []
    cited = False
    for block in content:
        if getattr(block, "type", None) != "text" or not isinstance(block.text, str):
            continue  # thinking, tool use...: not part of the answer
        start = len(text)
        text += block.text
        for citation in getattr(block, "citations", None) or []:
            cited = True
            quote = _quote(citation, ids)
            if quote is not None:
                anchors.append(Anchor(start=start, end=len(text), quote=quote))
    if not cited:
        return parse_marked_text(text, ids)
    return sentences_with_anchors(text, anchors, ids)


def _quote(citation: Any, ids: EvidenceIds) -> DraftQuote | None:
    """The cited text anchored in the span the citation names, or None (dropped)."""
    cited_text = getattr(citation, "cited_text", None)
    if not isinstance(cited_text, str):
        return None
    span = None
    if getattr(citation, "type", None) == "search_result_location":
        source = getattr(citation, "source", None)
        span = ids.resolve(source) if isinstance(source, str) else None
        index = getattr(citation, "search_result_index", None)
        if span is None and isinstance(index, int) and 0 <= index < len(ids.evidence):
            span = ids.evidence[index]
    # A citation of another kind, or naming no span of ours: only its text can place it.
    candidates = [span] if span is not None else ids.evidence
    return anchor_quote(cited_text, candidates)


def _without_cut_sentence(sentences: list[DraftSentence]) -> list[DraftSentence]:
    """Drops the last sentence of an answer cut at max_tokens when it does not end as one."""
    last = sentences[-1].text.rstrip()
    return sentences if last.endswith((".", "!", "?", "…")) else sentences[:-1]

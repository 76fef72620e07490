"""Ports of the models that read or write language: embedders, the chat model that drafts
answers, and the models that screen, score, rewrite, translate and inspect questions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from certiq.models import (
    ConversationTurn,
    DraftSentence,
    EvidenceSpan,
    ModelCall,
    ProviderFailure,
)

if TYPE_CHECKING:
    # Annotations only: importing numpy would cost every Lambda cold start ~100 ms.
    import numpy as np
    from numpy.typing import NDArray


class InjectionScreen(Protocol):
    """Tells attempts to steer the assistant from questions; the pattern lists run first."""

    @property
    def variant(self) -> str:
        """Which model decides (reported with each refusal)."""
        ...

    def is_attack(self, text: str) -> bool: ...


class RelevanceScorer(Protocol):
    """How likely each sentence is to state the answer to the question (span selection)."""

    @property
    def name(self) -> str: ...

    def relevance(self, question: str, sentences: Sequence[str]) -> list[float]:
        """One probability in [0, 1] per sentence, in order."""
        ...


class Embedder(Protocol):
    """Dense text embeddings (all-MiniLM-L6-v2 locally, OpenAI in the cloud)."""

    @property
    def name(self) -> str:
        """Model name, recorded beside stored vectors so mixed models are never compared."""
        ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One L2-normalised row per text, shape (len(texts), dimension). The texts searched
        (chunks, sentences); questions too unless the embedder is a QueryEmbedder."""
        ...


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An Embedder that embeds questions differently from the passages they search (e5 models
    prefix "query: " and "passage: "). Callers embed questions with ``embed_query_texts``."""

    def embed_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """One L2-normalised row per question, comparable with ``embed``'s rows."""
        ...


def embed_query_texts(embedder: Embedder, texts: Sequence[str]) -> NDArray[np.float32]:
    """Questions' vectors: ``embed_queries`` where the embedder has it, ``embed`` otherwise."""
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_queries(texts)
    return embedder.embed(texts)


@dataclass(frozen=True)
class ChatDraft:
    """What a ChatModel wrote, what it cost, and why it cannot be used when it cannot.

    ``problem`` set means the provider answered but its output is unusable (a refusal, output
    that parses to no cited sentence): a fallback chain asks the next provider. A chain fills
    ``failures`` with the providers it skipped and ``answerer`` with the one that answered.
    """

    sentences: list[DraftSentence]
    calls: tuple[ModelCall, ...] = ()
    problem: str | None = None
    failures: tuple[ProviderFailure, ...] = ()
    answerer: str | None = None
    # Parts of a question in several parts that no sentence answers (the offline answerer
    # answers part by part); empty when every part is answered, or none is (nothing drafted).
    unanswered: tuple[str, ...] = ()


class ChatModel(Protocol):
    """Turns evidence into a draft whose sentences cite it (LLM providers, or extractive)."""

    @property
    def name(self) -> str: ...

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        """Sentences whose citation_ids are span ids of the evidence given, with their quotes.

        ``history`` holds the conversation's earlier turns, oldest first, as prior messages.
        Raises TransientError or ProviderError when the provider fails after its own retries.
        """
        ...


@dataclass(frozen=True)
class Turn:
    """An earlier turn of a conversation: what was searched for it, and what was answered."""

    question: str
    answer: str


class QueryRewriter(Protocol):
    """Rewrites a follow-up into a standalone search query from the earlier turns."""

    @property
    def name(self) -> str: ...

    def rewrite(self, question: str, turns: Sequence[Turn]) -> str:
        """The standalone query; ``turns`` oldest first. Raises on failure (callers fall back)."""
        ...


class LanguageDetector(Protocol):
    def identify(self, text: str) -> tuple[str, float]:
        """An ISO 639-1 code ("und" when the text is too short to tell) and a confidence in
        [0, 1]."""
        ...


class Translator(Protocol):
    """Translates questions to the index language and answers back (a model; none offline)."""

    @property
    def name(self) -> str: ...

    def translate(self, text: str, source: str, target: str) -> str:
        """``text`` in ``target``, with [C1] markers, [EMAIL_1] placeholders, URLs and quotes
        unchanged. Raises TranslationBroken when the model altered them."""
        ...


class NameFinder(Protocol):
    """Spots person names in an already-redacted question (a model; none offline)."""

    @property
    def name(self) -> str: ...

    def find_names(self, text: str) -> list[str]:
        """Names written verbatim in ``text``."""
        ...

"""What the steps need from the outside, as ports. certiq.bootstrap fills it in."""

from __future__ import annotations

from dataclasses import dataclass

from certiq.config import Settings
from certiq.ports import (
    BlobStore,
    CertificateStore,
    ChatModel,
    Clock,
    DocumentStore,
    Embedder,
    LanguageDetector,
    MetricsSink,
    QuestionStore,
    SearchIndex,
    Signer,
    Verifier,
)


@dataclass(frozen=True)
class Deps:
    settings: Settings
    blobs: BlobStore
    documents: DocumentStore
    questions: QuestionStore
    certificates: CertificateStore
    index: SearchIndex
    signer: Signer
    clock: Clock
    chat_model: ChatModel
    verifier: Verifier
    language: LanguageDetector
    metrics: MetricsSink
    embedder: Embedder | None = None  # None: lexical-only, no vectors are computed or searched

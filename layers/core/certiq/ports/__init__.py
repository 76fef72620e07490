"""Ports: what the domain needs from the outside world, as Protocols.

Adapters under certiq.adapters implement them (local/ embedded, aws/ boto3, llm/ providers);
certiq.bootstrap is the only place that chooses which. Every port is importable from here;
each family lives in a module of its own:

- stores: originals, documents, questions, certificates (and their archive), reusable answers;
- search: the chunk index, and the engines that rank or fuse in place;
- language: embedders, the chat model, and the models that screen, score, rewrite, translate
  and inspect questions;
- verification: claim support, verifiers and the claim splitter;
- signing: certificate signatures and presigned uploads;
- operations: the clock, metrics, the orchestrator, the re-check queue and the URL checker;
- ocr: OCR engines and the words they read.
"""

from __future__ import annotations

from certiq.ports.language import (
    ChatDraft,
    ChatModel,
    Embedder,
    InjectionScreen,
    LanguageDetector,
    NameFinder,
    QueryEmbedder,
    QueryRewriter,
    RelevanceScorer,
    Translator,
    Turn,
    embed_query_texts,
)
from certiq.ports.ocr import OcrEngine, OcrRequest, OcrWord
from certiq.ports.operations import (
    Clock,
    MetricsSink,
    MetricUnit,
    Orchestrator,
    RecheckQueue,
    UrlChecker,
    UrlVerdict,
)
from certiq.ports.search import FusingIndex, RankingIndex, SearchIndex
from certiq.ports.signing import Signer, UploadSigner
from certiq.ports.stores import (
    BlobStore,
    CertificateArchive,
    CertificateStore,
    DocumentStore,
    QuestionStore,
    VerifiedAnswerStore,
)
from certiq.ports.verification import BatchVerifier, ClaimSplitter, Support, Verifier

__all__ = [
    "BatchVerifier",
    "BlobStore",
    "CertificateArchive",
    "CertificateStore",
    "ChatDraft",
    "ChatModel",
    "ClaimSplitter",
    "Clock",
    "DocumentStore",
    "Embedder",
    "FusingIndex",
    "InjectionScreen",
    "LanguageDetector",
    "MetricUnit",
    "MetricsSink",
    "NameFinder",
    "OcrEngine",
    "OcrRequest",
    "OcrWord",
    "Orchestrator",
    "QueryEmbedder",
    "QueryRewriter",
    "QuestionStore",
    "RankingIndex",
    "RecheckQueue",
    "RelevanceScorer",
    "SearchIndex",
    "Signer",
    "Support",
    "Translator",
    "Turn",
    "UploadSigner",
    "UrlChecker",
    "UrlVerdict",
    "VerifiedAnswerStore",
    "Verifier",
    "embed_query_texts",
]

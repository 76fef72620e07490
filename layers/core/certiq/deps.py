"""What steps and ingestion need from the outside, as ports. certiq.bootstrap fills it in."""

from __future__ import annotations

from dataclasses import dataclass

from certiq.config import Settings
from certiq.ports import (
    BlobStore,
    CertificateArchive,
    CertificateStore,
    ChatModel,
    ClaimSplitter,
    Clock,
    DocumentStore,
    Embedder,
    InjectionScreen,
    LanguageDetector,
    MetricsSink,
    NameFinder,
    OcrEngine,
    QueryRewriter,
    QuestionStore,
    RecheckQueue,
    RelevanceScorer,
    SearchIndex,
    Signer,
    Translator,
    UrlChecker,
    VerifiedAnswerStore,
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
    claim_splitter: ClaimSplitter | None = None  # None: the rule-based splitter (offline)
    translator: Translator | None = None  # None: no model, questions are searched as written
    name_finder: NameFinder | None = None  # None: names are not looked for
    url_checker: UrlChecker | None = None  # None: URLs are not checked (settings.urls.enabled)
    answers: VerifiedAnswerStore | None = None  # None: no verified answer is reused or kept
    rewriter: QueryRewriter | None = None  # None: follow-ups are rewritten by rules alone
    archive: CertificateArchive | None = None  # None: the store alone keeps certificates (local)
    ocr: OcrEngine | None = None  # None: pages without a text layer are skipped, saying so
    injection: InjectionScreen | None = None  # None: the pattern lists alone refuse attempts
    relevance: RelevanceScorer | None = None  # None: evidence sentences by the hand-set score
    # None: the certificates citing a changed document are re-checked at once, in the process
    # that changed it (local); in AWS a queue carries them to the recheck function.
    rechecks: RecheckQueue | None = None

"""Ports: what the domain needs from the outside world, as Protocols.

Adapters under certiq.adapters implement them (local/ embedded, aws/ boto3, llm/ providers);
certiq.bootstrap is the only place that chooses which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from certiq.models import (
    Certificate,
    Chunk,
    ConversationTurn,
    DocumentRecord,
    DraftSentence,
    EvidenceSpan,
    ModelCall,
    ProviderFailure,
    QAResponse,
    QuestionRecord,
    QuestionState,
    QuestionStatus,
    SearchHit,
    SigningKey,
    UploadTarget,
    VerifiedAnswer,
)

if TYPE_CHECKING:
    # Annotations only: importing numpy would cost every Lambda cold start ~100 ms.
    import numpy as np
    from numpy.typing import NDArray


class BlobStore(Protocol):
    """Originals of ingested files (S3 in the cloud, a folder locally)."""

    def put(self, key: str, data: bytes, content_type: str) -> str:
        """Stores data under key and returns its URI."""
        ...

    def get(self, key: str, version: str | None = None) -> bytes:
        """The current bytes under key, or one version of them (an S3 VersionId).

        Raises NotFound when the key holds nothing, or not that version; a store that keeps no
        versions holds only version None.
        """
        ...

    def exists(self, key: str) -> bool: ...

    def delete(self, key: str) -> None: ...


class DocumentStore(Protocol):
    """The documents table: one record per document with its ingestion status."""

    def put(self, record: DocumentRecord) -> None:
        """Creates or replaces the record of (tenant, doc_id)."""
        ...

    def put_if_sequencer_before(self, record: DocumentRecord, sequencer: str) -> None:
        """Creates or replaces the record only while the stored one is absent, has no sequencer,
        or one earlier than ``sequencer`` (the S3 event being applied), in one atomic step.

        Sequencers compare as AWS says: left-pad the shorter with zeros, the greater is later.
        record.sequencer is what gets stored: the event's own once it is applied, the previous
        one while it is in progress. Raises StaleEvent, leaving the stored record untouched,
        when an event as late or later is recorded; InvalidRequest for a non-hex sequencer.
        """
        ...

    def get(self, tenant: str, doc_id: str) -> DocumentRecord | None: ...

    def list(self, tenant: str) -> list[DocumentRecord]:
        """Every record of the tenant, oldest first."""
        ...


class QuestionStore(Protocol):
    """The questions table: the status the API polls and the response once complete."""

    def create(self, record: QuestionRecord) -> None:
        """Raises AlreadyExists when the question id is taken."""
        ...

    def set_status(
        self, question_id: str, status: QuestionStatus, reason: str | None = None
    ) -> None:
        """Raises NotFound for an unknown question id."""
        ...

    def complete(self, question_id: str, response: QAResponse) -> None:
        """Stores the final response and its status (COMPLETE, REJECTED, ...)."""
        ...

    def get(self, question_id: str) -> QuestionRecord | None: ...

    def conversation(self, tenant: str, conversation_id: str) -> list[QuestionRecord]:
        """The tenant's questions asked in one conversation, oldest first (ties by id)."""
        ...


class CertificateStore(Protocol):
    """Certificates, written once and never replaced."""

    def append(self, tenant: str, seal: Callable[[str | None], Certificate]) -> Certificate:
        """Seals and stores the tenant's next certificate; returns it as stored.

        ``seal`` gets the seal of the tenant's latest certificate where the store keeps a hash
        chain (the local store; None for the first) and None where it does not (DynamoDB, whose
        certificates an Object Lock bucket keeps unrewritable), and returns the certificate
        sealed over it. Appends of one tenant are serialised so the chain never forks. Raises
        AlreadyExists rather than overwrite a stored certificate.
        """
        ...

    def get(self, certificate_id: str) -> Certificate | None: ...

    def history(self, tenant: str) -> Iterator[Certificate]:
        """The tenant's certificates, oldest first: in chain order where there is a chain."""
        ...


class CertificateArchive(Protocol):
    """A write-once copy of every certificate that no one can rewrite or delete before its
    retention ends (S3 Object Lock in compliance mode)."""

    def put(self, certificate: Certificate) -> None:
        """Archives the certificate; archiving the same certificate again changes nothing."""
        ...


class VerifiedAnswerStore(Protocol):
    """Fully verified answers a later near-identical question of the tenant may reuse.

    Similarity is judged by the caller, in memory, over the candidates a store returns: every
    answer with the same terms key, and a bounded number of the newest others.
    """

    def put(self, answer: VerifiedAnswer) -> None:
        """Adds or replaces the answer of (tenant, question_id)."""
        ...

    def candidates(
        self, tenant: str, collection: str | None, terms_key: str, limit: int
    ) -> list[VerifiedAnswer]:
        """The tenant's answers in the collection (None: asked of no collection): up to ``limit``
        with this terms key, then up to ``limit`` of the newest others; newest first, each once.
        """
        ...


class SearchIndex(Protocol):
    """The chunk index (OpenSearch in the cloud, SQLite FTS5 locally)."""

    def index(self, chunks: Sequence[Chunk]) -> int:
        """Adds or replaces chunks by chunk_id; returns how many were written."""
        ...

    def delete_document(self, tenant: str, doc_id: str) -> int:
        """Removes every chunk of a document; returns how many were removed."""
        ...

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        """Lexical (BM25) search within one tenant (and collection when given), best first.

        The filters are part of the engine's query, never applied to its results. Hits carry
        the chunk without its embedding.
        """
        ...

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        """Dense k-NN search by cosine similarity within one tenant (and collection), best first.

        ``vector`` comes from the same Embedder as the indexed chunks' vectors. Filters are
        applied inside the engine before the top k are taken, so up to k hits of the tenant
        come back whatever other tenants hold. Hits carry the chunk without its embedding.
        """
        ...

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of the tenant among chunk_ids; missing ids are absent from the result.

        Whole chunks, with the embedding they were indexed with when the index keeps it.
        """
        ...

    def count(self, tenant: str) -> int: ...


@runtime_checkable
class RankingIndex(SearchIndex, Protocol):
    """A SearchIndex that ranks without reading chunks (the local engine): hybrid search fuses
    its two rankings first and reads the chunks of the fused top k only.

    Keys are the engine's own (row ids locally) and mean nothing outside it. ``search`` is
    ``read(rank(...))``, ``search_vector`` is ``read(rank_vector(...))``.
    """

    def rank(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[tuple[int, float]]:
        """(key, BM25 score) of the k best chunks, as ``search`` ranks them."""
        ...

    def rank_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[tuple[int, float]]:
        """(key, cosine) of the k nearest chunks, as ``search_vector`` ranks them."""
        ...

    def read(self, ranked: Sequence[tuple[int, float]]) -> list[SearchHit]:
        """The ranked chunks as hits with the scores given, in order; keys since deleted are
        left out."""
        ...


@runtime_checkable
class FusingIndex(SearchIndex, Protocol):
    """A SearchIndex that fuses BM25 and k-NN by reciprocal rank in the engine (OpenSearch's
    hybrid query): one request instead of two, and no chunk read twice."""

    def search_hybrid(
        self,
        tenant: str,
        query: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        depth: int,
        rrf_k: int = 60,
        collection: str | None = None,
    ) -> tuple[list[SearchHit], int] | None:
        """(hits, chunks either ranking found): the k best by RRF of both rankings ``depth``
        deep, weighted equally; None when the engine cannot, and the caller fuses."""
        ...


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


class Signer(Protocol):
    """Signs certificate seals with a private key (a KMS ECC key in the cloud, an Ed25519 key
    file otherwise) whose public half anyone may check the signatures with."""

    @property
    def key_id(self) -> str: ...

    def sign(self, message: bytes) -> str:
        """Returns the signature, base64-encoded."""
        ...

    def verify(self, message: bytes, signature: str) -> bool:
        """True when ``signature`` is this key's signature of ``message``; never raises for a
        malformed signature."""
        ...

    def public_key(self) -> SigningKey:
        """The public key, to publish: certificates check with it and nothing else."""
        ...


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware datetime in UTC."""
        ...


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


MetricUnit = Literal["Count", "Milliseconds"]


class MetricsSink(Protocol):
    """Operational metrics (CloudWatch EMF through Powertools in AWS, kept in memory locally)."""

    def add(
        self,
        name: str,
        value: float,
        unit: MetricUnit,
        dimensions: Mapping[str, str] | None = None,
    ) -> None: ...

    def flush(self) -> None:
        """Publishes what was added since the last flush (the Lambda handler calls it)."""
        ...


@dataclass(frozen=True)
class Support:
    """How far evidence supports (entail) or refutes (contradict) a claim, each in [0, 1].

    ``note`` says why a verifier could not judge (a model's refusal or malformed output): such a
    Support has entail 0, so it never renders VERIFIED, and the decision's reason quotes it.
    """

    entail: float
    contradict: float
    note: str | None = None
    rationale: str | None = None  # a judge's one-line reason, kept in the decision


class Verifier(Protocol):
    @property
    def name(self) -> str: ...

    def assess(self, claim: str, evidence: Sequence[str]) -> Support: ...


@runtime_checkable
class BatchVerifier(Verifier, Protocol):
    """A verifier that judges many (claim, evidence set) pairs at once (a model runs them in one
    batch); the render policy uses it when the verifier has it, asking for every evidence set
    that the claims of an answer need judged next."""

    def assess_batch(self, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[Support]:
        """One Support per (claim, evidence set), in order."""
        ...


class ClaimSplitter(Protocol):
    """Splits one draft sentence into the atomic claims it states (rules offline, or an LLM)."""

    @property
    def name(self) -> str: ...

    def split(self, sentence: str) -> list[str]:
        """Standalone sentences, one claim each, in the sentence's own words where possible.

        Raises CertiqError when it cannot (bad model output, refusal, upstream failure): the
        caller falls back to the rule-based splitter and records why.
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


class Orchestrator(Protocol):
    """Runs the answer state machine (Step Functions in the cloud, the local runtime here)."""

    def start(self, state: QuestionState) -> str:
        """Starts an execution for the question and returns its id without waiting."""
        ...


class UploadSigner(Protocol):
    """Lets a client send a file straight to the blob store (a presigned S3 POST in the cloud)."""

    def presign_upload(
        self, key: str, content_type: str, max_bytes: int, expires_seconds: int
    ) -> UploadTarget:
        """A target accepting one object under key, of that type and at most max_bytes."""
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


@dataclass(frozen=True)
class UrlVerdict:
    """Whether a URL may be fetched (the SSRF guard, every hop) and whether it is alive."""

    url: str
    allowed: bool
    reachable: bool
    status: int | None
    final_url: str | None
    reason: str


class UrlChecker(Protocol):
    def check(self, url: str) -> UrlVerdict:
        """Never raises for a bad or dead URL: the verdict says why."""
        ...


@dataclass(frozen=True, slots=True)
class OcrWord:
    """A word an OCR engine read, boxed on the page as displayed, in fractions of its width and
    height (0 at the left and top), so every engine and resolution gives the same boxes."""

    text: str
    left: float
    top: float
    right: float
    bottom: float
    confidence: float  # 0..1, the engine's own
    line: int  # words of one line share it; lines are numbered in reading order
    paragraph: int  # lines of one paragraph (or block) share it


@dataclass(frozen=True)
class OcrRequest:
    """One page to read. An engine that reads images renders it; one that reads whole documents
    where they are stored (Textract on S3) reads the document once and answers page by page."""

    page: int  # 1-based
    render: Callable[[int], NDArray[np.uint8]]  # dpi -> the displayed page, 8-bit grayscale
    uri: str | None = None  # where the original is stored (s3://bucket/key), when it is
    version: str | None = None  # its S3 version id, when the bucket keeps versions


class OcrEngine(Protocol):
    """Reads the words on a page that has no usable text layer (a scan, a broken font)."""

    @property
    def name(self) -> str: ...

    def read(self, request: OcrRequest) -> tuple[OcrWord, ...]:
        """The page's words in reading order (none: no text on it). Raises OcrUnavailable when
        the engine cannot read it (not installed, the job failed); the message says why."""
        ...

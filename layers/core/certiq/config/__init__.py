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

from pydantic import BaseModel, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from certiq.config.answers import (
    AnswerProvider,
    AnswerSettings,
    LlmSettings,
    PolicySettings,
    SigningSettings,
    VerificationSettings,
)
from certiq.config.base import Group
from certiq.config.documents import (
    ChunkingSettings,
    EmbeddingSettings,
    IngestionSettings,
    OcrSettings,
    OpenSearchSettings,
    RetrievalSettings,
    ReuseSettings,
)
from certiq.config.intake import (
    ConversationSettings,
    RedactionSettings,
    TranslationSettings,
    UrlCheckSettings,
    ValidationSettings,
)
from certiq.config.service import ApiSettings, AwsSettings
from certiq.errors import ConfigurationError

# The answer state machine ships inside the package, so an installed certiq runs it as a
# checkout does; template.yaml points Step Functions at the same file.
ASL_FILE = Path(str(resources.files("certiq").joinpath("statemachine", "answer.asl.json")))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="CERTIQ_", env_nested_delimiter="__", extra="forbid"
    )

    home: Path = Field(default=Path.home() / ".certiq", description="local data directory")
    runtime: Literal["local", "aws"] = Field(
        default="local",
        description="local: embedded stores under home; aws: the AWS resources the aws group names",
    )
    tenant: str = Field(
        default="default",
        description="the tenant of documents, questions and certificates, unless a command"
        " names another",
    )
    index_language: str = Field(
        default="en",
        description="the documents' language: questions are translated to it (with a model) and"
        " answers back",
    )
    asl_path: Path = Field(
        default=ASL_FILE, description="the answer state machine the local runtime interprets"
    )
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
        except SettingsError as error:
            # A list or group given as something other than JSON: pydantic-settings' own words
            # name the field ('error parsing value for field "pattern_languages" from source').
            problems = [f'{error}: give lists and groups as JSON, e.g. \'["en", "fr"]\'']
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


__all__ = [
    "ASL_FILE",
    "AnswerProvider",
    "AnswerSettings",
    "ApiSettings",
    "AwsSettings",
    "ChunkingSettings",
    "ConversationSettings",
    "EmbeddingSettings",
    "Group",
    "IngestionSettings",
    "LlmSettings",
    "OcrSettings",
    "OpenSearchSettings",
    "PolicySettings",
    "RedactionSettings",
    "RetrievalSettings",
    "ReuseSettings",
    "Settings",
    "SigningSettings",
    "TranslationSettings",
    "UrlCheckSettings",
    "ValidationSettings",
    "VerificationSettings",
    "env_names",
    "get_settings",
    "load_settings",
]

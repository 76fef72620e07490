"""Settings of a question's way in: validation, redaction, translation, links, follow-ups."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from certiq.config.base import Group


class ValidationSettings(Group):
    """What a question must be before anything else runs: its length, its words, and the
    prompt-injection screen (patterns and the classifier)."""

    min_words: int = Field(
        default=3,
        ge=1,
        description="fewer words ask for clarification, unless the conversation said more before",
    )
    max_chars: int = Field(default=2000, ge=10, description="longer questions are REJECTED")
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
    """Personal data masked in the question before it is searched, stored or sent to a model."""

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

    enabled: bool = Field(default=True, description="false: URLs are not checked")
    timeout_seconds: float = Field(default=10.0, gt=0, le=60, description="per URL, all hops")
    max_redirects: int = Field(default=10, ge=0, le=20, description="redirects followed per URL")
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
    user_agent: str = Field(
        default="certiq-link-check/0.1", description="User-Agent header of the checks' requests"
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

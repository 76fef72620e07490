"""Settings of answering and proving: the answer chain, the policy, signing, the LLM providers
and verification."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from certiq.config.base import Group

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

    tau_entail: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="a claim whose evidence's entailment reaches this is VERIFIED (unless BLOCKED)",
    )
    tau_contradict: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="a claim whose evidence's contradiction reaches this is BLOCKED, never shown",
    )
    unverified: Literal["mark", "drop"] = Field(
        default="mark",
        description="mark: a statement with an UNVERIFIED claim is shown, marked; drop: withheld",
    )
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
    anthropic_model: str = Field(default="claude-sonnet-5", description="the Claude model called")
    openai_model: str = Field(default="gpt-4.1-mini", description="the OpenAI chat model called")
    anthropic_base_url: str = Field(default="", description="empty: the SDK's default endpoint")
    openai_base_url: str = Field(default="", description="empty: the SDK's default endpoint")
    timeout_seconds: float = Field(default=30.0, gt=0, description="per request")
    max_retries: int = Field(
        default=3, ge=0, description="SDK retries (backoff with jitter) on 408/409/429/5xx"
    )
    max_output_tokens: int = Field(default=1024, ge=1, description="per model call, at most")
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

    verifier: Literal["nli", "lexical", "llm"] = Field(
        default="nli", description="who judges claims (above)"
    )
    lexical_calibration: Literal["in_sample", "held_out"] = Field(
        default="in_sample",
        description="held_out: the lexical model whose false-certification rate holds on new "
        "pairs (it certifies fewer claims)",
    )
    claims: Literal["rules", "llm"] = Field(
        default="rules", description="who splits draft sentences into claims (above)"
    )
    nli_model_dir: Path | None = Field(
        default=None,
        description="a BERT sequence-classification NLI model; default: certiq's own, shipped",
    )

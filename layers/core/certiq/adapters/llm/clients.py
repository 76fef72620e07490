"""The providers' SDK clients, built from settings, and what their failures mean to certiq.

Every model adapter (chat, judge, translation, claim decomposition) takes an SDK client in its
constructor and gets it from here, so timeouts, retries and endpoints are set in one place.
The SDKs retry 408, 409, 429 (honouring retry-after) and 5xx with exponential backoff and jitter,
``max_retries`` times; what still fails reaches ``provider_errors``, which turns it into a
TransientError (worth a later retry: the state machine's Retry) or a ProviderError (not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from certiq.config import LlmSettings
from certiq.errors import ConfigurationError, ProviderError, TransientError

if TYPE_CHECKING:
    import anthropic
    import openai

Provider = Literal["anthropic", "openai"]

# Statuses worth retrying later: timeout, conflict, throttling; and every 5xx.
TRANSIENT_STATUSES: Final = frozenset({408, 409, 429})


def anthropic_client(settings: LlmSettings) -> anthropic.Anthropic:
    """The Messages API client; its key comes from llm.api_keys_secret_arn or ANTHROPIC_API_KEY."""
    if settings.api_keys_secret_arn:
        arn = settings.api_keys_secret_arn
        return cast(
            "anthropic.Anthropic",
            BuiltOnFirstUse(lambda: _anthropic(settings, provider_api_key(arn, "anthropic"))),
        )
    client = _anthropic(settings, None)
    if client.api_key is None and client.auth_token is None:
        raise ConfigurationError("the anthropic provider needs ANTHROPIC_API_KEY")
    return client


def openai_client(settings: LlmSettings) -> openai.OpenAI:
    """The OpenAI client; its key comes from llm.api_keys_secret_arn or OPENAI_API_KEY."""
    if settings.api_keys_secret_arn:
        arn = settings.api_keys_secret_arn
        return cast(
            "openai.OpenAI",
            BuiltOnFirstUse(lambda: _openai(settings, provider_api_key(arn, "openai"))),
        )
    return _openai(settings, None)


def _anthropic(settings: LlmSettings, api_key: str | None) -> anthropic.Anthropic:
    import anthropic

    return anthropic.Anthropic(
        api_key=api_key,  # None: the SDK reads ANTHROPIC_API_KEY
        base_url=settings.anthropic_base_url or None,
        timeout=settings.timeout_seconds,
        max_retries=settings.max_retries,
    )


def _openai(settings: LlmSettings, api_key: str | None) -> openai.OpenAI:
    import openai

    try:
        return openai.OpenAI(
            api_key=api_key,  # None: the SDK reads OPENAI_API_KEY
            base_url=settings.openai_base_url or None,
            timeout=settings.timeout_seconds,
            max_retries=settings.max_retries,
        )
    except openai.OpenAIError as error:  # raised when no key is configured
        raise ConfigurationError(f"the openai provider needs OPENAI_API_KEY ({error})") from error


def provider_api_key(secret_arn: str, provider: Provider) -> str:
    """The provider's key from the Secrets Manager secret (read once per process)."""
    # Imported here: boto3 is needed only when keys are kept in Secrets Manager.
    from certiq.adapters.aws.provider_keys import provider_api_key as from_secret

    return from_secret(secret_arn, provider)


class BuiltOnFirstUse:
    """Stands in for an SDK client until its first use, then builds it and delegates to it.

    Every Lambda function builds the same Deps, model clients included, but only the functions
    whose steps call a model may read the keys' secret (least privilege): reading it when the
    client is first used keeps the others from ever asking. A failure to build (a missing or
    unreadable secret) is raised to the caller of that first use, and retried on the next one.
    """

    def __init__(self, build: Callable[[], object]) -> None:
        self._build = build
        self._client: object | None = None

    def __getattr__(self, name: str) -> Any:
        if name in {"_build", "_client"}:  # not set yet (copy, pickle): no recursion
            raise AttributeError(name)
        if self._client is None:
            self._client = self._build()
        return getattr(self._client, name)


@contextmanager
def provider_errors(provider: Provider, action: str) -> Iterator[None]:
    """Re-raises what is left of an SDK failure after its own retries, as certiq errors.

    Connection failures, timeouts, 408/409/429 and 5xx become TransientError; any other refusal
    (400, 401, 403, 404, ...) becomes ProviderError, and so does a body that is not JSON. The
    message names provider, action and status. Keep only the SDK call inside the block.
    """
    import anthropic
    import openai

    try:
        yield
    except (anthropic.APIConnectionError, openai.APIConnectionError) as error:
        # APITimeoutError is an APIConnectionError in both SDKs.
        raise TransientError(f"{provider} {action}: unreachable ({error})") from error
    except (anthropic.APIStatusError, openai.APIStatusError) as error:
        status = error.status_code
        message = f"{provider} {action}: HTTP {status}: {error.message}"
        if status in TRANSIENT_STATUSES or status >= 500:
            raise TransientError(message) from error
        raise ProviderError(message) from error
    except (anthropic.APIResponseValidationError, openai.APIResponseValidationError) as error:
        raise ProviderError(f"{provider} {action}: unexpected response ({error})") from error
    except ValueError as error:
        # The SDKs raise json's ValueError for a body that is not JSON (a proxy's error page).
        raise ProviderError(f"{provider} {action}: unreadable response body ({error})") from error

"""The providers' SDK clients, built from settings, and what their failures mean to certiq.

Every model adapter (chat, judge, translation, claim decomposition) takes an SDK client in its
constructor and gets it from here, so timeouts, retries and endpoints are set in one place.
The SDKs retry 408, 409, 429 (honouring retry-after) and 5xx with exponential backoff and jitter,
``max_retries`` times; what still fails reaches ``provider_errors``, which turns it into a
TransientError (worth a later retry: the state machine's Retry) or a ProviderError (not).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final, Literal

from certiq.config import LlmSettings
from certiq.errors import ConfigurationError, ProviderError, TransientError

if TYPE_CHECKING:
    import anthropic
    import openai

Provider = Literal["anthropic", "openai"]

# Statuses worth retrying later: timeout, conflict, throttling; and every 5xx.
TRANSIENT_STATUSES: Final = frozenset({408, 409, 429})


def anthropic_client(settings: LlmSettings) -> anthropic.Anthropic:
    """The Messages API client; the key comes from ANTHROPIC_API_KEY."""
    import anthropic

    client = anthropic.Anthropic(
        base_url=settings.anthropic_base_url or None,
        timeout=settings.timeout_seconds,
        max_retries=settings.max_retries,
    )
    if client.api_key is None and client.auth_token is None:
        raise ConfigurationError("the anthropic provider needs ANTHROPIC_API_KEY")
    return client


def openai_client(settings: LlmSettings) -> openai.OpenAI:
    """The OpenAI client; the key comes from OPENAI_API_KEY."""
    import openai

    try:
        return openai.OpenAI(
            base_url=settings.openai_base_url or None,
            timeout=settings.timeout_seconds,
            max_retries=settings.max_retries,
        )
    except openai.OpenAIError as error:  # raised when no key is configured
        raise ConfigurationError(f"the openai provider needs OPENAI_API_KEY ({error})") from error


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

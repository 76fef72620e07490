"""OpenAI embeddings (POST /v1/embeddings) as certiq's Embedder, over the official SDK.

The client is injected (an ``openai.OpenAI``), so its key, base URL, timeout and retry count are
the caller's; ``from_settings`` builds it as every OpenAI adapter does (certiq.adapters.llm.clients
.openai_client, from the llm settings): the key comes from the llm.api_keys_secret_arn secret,
read on the first request, or else from OPENAI_API_KEY.
Texts go in batches of ``batch_size``; rows come back in input order (each answer item carries
its ``index``) and are L2-normalised to float32 whatever the model returns.

Errors: throttling (429), server errors (5xx), timeouts and dropped connections reach us only
after the SDK's own retries and are raised as TransientError (the state machine retries those);
other refusals (401, 400, ...) and answers that do not fit the request raise EmbeddingServiceError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import openai
from numpy.typing import NDArray

from certiq.adapters.llm.clients import openai_client
from certiq.config import EmbeddingSettings, LlmSettings
from certiq.errors import CertiqError, TransientError

# The widths the models return when no `dimensions` is asked for.
KNOWN_DIMENSIONS: Final = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}
# The API refuses an empty or blank string inside a batch ("'$.input' is invalid"); such texts
# are sent as this placeholder instead, so every row still gets a unit vector.
BLANK_PLACEHOLDER: Final = "(empty)"
MAX_BATCH: Final = 2048  # the API's limit on inputs per request
# Statuses the SDK itself retries (timeout, lock conflict, throttling); 5xx are retried as well.
_TRANSIENT_STATUSES: Final = frozenset({408, 409, 429})


class EmbeddingServiceError(CertiqError):
    """The embeddings service refused the request or answered something unusable."""


class OpenAIEmbedder:
    """Implements certiq.ports.Embedder with the OpenAI embeddings API."""

    def __init__(
        self,
        client: openai.OpenAI,
        model: str,
        dimensions: int | None = None,
        *,
        batch_size: int = 256,
    ) -> None:
        if dimensions is None and model not in KNOWN_DIMENSIONS:
            raise ValueError(f"say the dimensions of {model!r}: its default width is not known")
        if dimensions is not None and dimensions < 1:
            raise ValueError("dimensions must be at least 1")
        if not 1 <= batch_size <= MAX_BATCH:
            raise ValueError(f"batch_size must be within 1..{MAX_BATCH}")
        self._client = client
        self._model = model
        self._dimensions = dimensions
        self._batch_size = batch_size

    @classmethod
    def from_settings(cls, settings: EmbeddingSettings, llm: LlmSettings) -> OpenAIEmbedder:
        """The model of settings over the OpenAI client of llm (key, endpoint, timeout, retries).

        Raises ConfigurationError when there is neither a keys' secret nor OPENAI_API_KEY; a
        secret that cannot be read or lacks the key is a ConfigurationError on the first embed.
        """
        return cls(
            openai_client(llm),
            settings.openai_model,
            batch_size=min(settings.batch_size, MAX_BATCH),
        )

    @property
    def name(self) -> str:
        # Shortened vectors are not comparable with full ones: the width is part of the name.
        return self._model if self._dimensions is None else f"{self._model}@{self._dimensions}"

    @property
    def dimension(self) -> int:
        return self._dimensions if self._dimensions is not None else KNOWN_DIMENSIONS[self._model]

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            batch = [
                text if text.strip() else BLANK_PLACEHOLDER
                for text in texts[start : start + self._batch_size]
            ]
            out[start : start + len(batch)] = self._embed_batch(batch)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.asarray(out / np.maximum(norms, np.float32(1e-12)), dtype=np.float32)

    def _embed_batch(self, batch: list[str]) -> NDArray[np.float32]:
        try:
            if self._dimensions is None:
                response = self._client.embeddings.create(model=self._model, input=batch)
            else:
                response = self._client.embeddings.create(
                    model=self._model, input=batch, dimensions=self._dimensions
                )
        except (openai.APITimeoutError, openai.APIConnectionError) as exc:
            raise TransientError(f"OpenAI embeddings unreachable: {exc}") from exc
        except openai.APIStatusError as exc:
            if exc.status_code in _TRANSIENT_STATUSES or exc.status_code >= 500:
                raise TransientError(
                    f"OpenAI embeddings answered {exc.status_code}: {exc.message}"
                ) from exc
            raise EmbeddingServiceError(
                f"OpenAI embeddings refused the request ({exc.status_code}): {exc.message}"
            ) from exc
        except (openai.OpenAIError, ValueError) as exc:
            # A body the SDK could not read: not JSON, no data, bad base64 (all ValueErrors).
            raise EmbeddingServiceError(
                f"OpenAI embeddings answered an unreadable body: {exc}"
            ) from exc
        return self._rows(response, len(batch))

    def _rows(self, response: object, expected: int) -> NDArray[np.float32]:
        items = getattr(response, "data", None)
        if not isinstance(items, list) or len(items) != expected:
            got = len(items) if isinstance(items, list) else "no"
            raise EmbeddingServiceError(
                f"OpenAI embeddings sent {got} vectors for {expected} texts"
            )
        rows = np.full((expected, self.dimension), np.nan, dtype=np.float32)
        seen: set[int] = set()
        for item in items:
            index = getattr(item, "index", None)
            vector = getattr(item, "embedding", None)
            if not isinstance(index, int) or not 0 <= index < expected or index in seen:
                raise EmbeddingServiceError(f"OpenAI embeddings sent a bad index: {index!r}")
            try:
                row = np.asarray(vector, dtype=np.float32)
            except (TypeError, ValueError) as exc:
                raise EmbeddingServiceError(f"OpenAI embeddings sent a bad vector: {exc}") from exc
            if row.shape != (self.dimension,) or not np.all(np.isfinite(row)):
                raise EmbeddingServiceError(
                    f"OpenAI embeddings sent a vector of shape {row.shape}, "
                    f"expected ({self.dimension},) of finite numbers"
                )
            rows[index] = row
            seen.add(index)
        return rows

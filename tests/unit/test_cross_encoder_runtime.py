"""The two runtimes of certiq's cross-encoders: onnxruntime over the shipped graph (model.onnx,
whose weights are the folder's model.safetensors) and the numpy BERT. Same scores, so the
verifier's calibrated thresholds hold on either; the choice falls back to numpy, saying why."""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from certiq.adapters.local import cross_encoder
from certiq.adapters.local.cross_encoder import (
    ONNX_FILE,
    REQUIRED_FILES,
    CrossEncoderUnavailable,
    load_cross_encoder,
)
from certiq.adapters.local.nli import SHIPPED_MODEL_DIR as VERIFIER_DIR
from certiq.adapters.local.relevance import SHIPPED_MODEL_DIR as RELEVANCE_DIR

PAIRS = [
    (
        "Passwords must be at least 14 characters long and must not be reused across services.",
        "Passwords must be at least 14 characters long.",
    ),
    ("Backups of customer data are kept for 35 days.", "Backups are kept for a year."),
    ("The DPO must be informed within 24 hours.", "Who must be informed of a breach?"),
    ("Visitors sign in at reception.", "Customer data is encrypted at rest."),
]


def weights_only(source: Path, target: Path) -> Path:
    """A folder holding the model's files but its graph: links, not copies of 45 MB."""
    target.mkdir()
    for name in REQUIRED_FILES:
        (target / name).symlink_to(source / name)
    return target


@pytest.mark.parametrize("folder", [VERIFIER_DIR, RELEVANCE_DIR], ids=["verifier", "relevance"])
def test_both_runtimes_give_the_same_probabilities(folder: Path) -> None:
    # GIVEN a shipped model loaded on each runtime
    on_onnx = load_cross_encoder(folder, "test", runtime="onnxruntime")
    on_numpy = load_cross_encoder(folder, "test", runtime="numpy")
    assert (on_onnx.runtime, on_numpy.runtime) == ("onnxruntime", "numpy")
    # WHEN both score the same pairs THEN the probabilities agree to 1e-4
    difference = np.abs(on_onnx.probabilities(PAIRS) - on_numpy.probabilities(PAIRS))
    assert difference.max() < 1e-4


@pytest.mark.parametrize("folder", [VERIFIER_DIR, RELEVANCE_DIR], ids=["verifier", "relevance"])
def test_the_graph_reads_the_weights_beside_it_rather_than_copying_them(folder: Path) -> None:
    graph = folder / ONNX_FILE
    assert graph.stat().st_size < 200_000
    assert b"model.safetensors" in graph.read_bytes()
    assert load_cross_encoder(folder, "test").runtime == "onnxruntime"  # auto prefers it


def test_without_the_graph_auto_runs_numpy_and_onnxruntime_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # GIVEN the verifier's weights without model.onnx (a model of one's own, say)
    folder = weights_only(VERIFIER_DIR, tmp_path / "model")
    # WHEN loaded with the default runtime THEN numpy runs it, and the log says why
    with caplog.at_level(logging.INFO, logger=cross_encoder.__name__):
        assert load_cross_encoder(folder, "test").runtime == "numpy"
    assert ONNX_FILE in caplog.text
    # AND asking for onnxruntime is an error naming the missing graph
    with pytest.raises(CrossEncoderUnavailable, match=re.escape(ONNX_FILE)):
        load_cross_encoder(folder, "test", runtime="onnxruntime")


def test_without_onnxruntime_installed_auto_runs_numpy(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # GIVEN a Python without onnxruntime (the Lambda layer has none)
    real = cross_encoder.importlib.util.find_spec
    monkeypatch.setattr(
        cross_encoder.importlib.util,
        "find_spec",
        lambda name, *args: None if name == "onnxruntime" else real(name, *args),
    )
    # WHEN the shipped verifier loads THEN numpy runs it, and the log names the package
    with caplog.at_level(logging.INFO, logger=cross_encoder.__name__):
        model = load_cross_encoder(VERIFIER_DIR, "test")
    assert model.runtime == "numpy"
    assert "pip install onnxruntime" in caplog.text


def test_a_damaged_graph_falls_back_to_numpy(tmp_path: Path) -> None:
    # GIVEN a folder whose model.onnx is not a graph
    folder = weights_only(VERIFIER_DIR, tmp_path / "model")
    (folder / ONNX_FILE).write_bytes(b"not a graph")
    # THEN the default runtime is numpy, and asking for onnxruntime names the file
    assert load_cross_encoder(folder, "test").runtime == "numpy"
    with pytest.raises(CrossEncoderUnavailable, match=re.escape("cannot load model.onnx")):
        load_cross_encoder(folder, "test", runtime="onnxruntime")


def test_a_graph_exported_for_weights_laid_out_otherwise_is_not_run(tmp_path: Path) -> None:
    # GIVEN the verifier's weights (three labels) beside the relevance model's graph (two),
    # copied: onnxruntime reads no weights through a link out of the graph's folder
    folder = tmp_path / "model"
    shutil.copytree(VERIFIER_DIR, folder)
    shutil.copy(RELEVANCE_DIR / ONNX_FILE, folder / ONNX_FILE)
    # THEN its offsets are not trusted: numpy runs the model, and onnxruntime is refused
    assert load_cross_encoder(folder, "test").runtime == "numpy"
    with pytest.raises(CrossEncoderUnavailable, match="laid out otherwise"):
        load_cross_encoder(folder, "test", runtime="onnxruntime")

"""The package stands alone: installed from a wheel (not editable), run from another folder, it
finds its state machine and models as package data, ingests and answers.

pip builds the wheel the way a user's `pip install .` does (build isolation, no dependencies: they
are the ones this virtual environment already holds) into a folder of its own, put first on
PYTHONPATH; the checkout is nowhere on the path and not the working directory.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import MakePdf

ROOT = Path(__file__).resolve().parents[2]
FACT = "Backups of customer data are kept for 35 days and then deleted."


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # From a copy of what a source distribution holds: a build inside the checkout would leave
    # build/ behind, and package whatever stale files an earlier build left there.
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "layers" / "core" / "certiq",
        source / "layers" / "core" / "certiq",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return site


def test_an_installed_certiq_ingests_and_answers_from_another_folder(
    installed: Path, tmp_path: Path, make_pdf: MakePdf
) -> None:
    # GIVEN the installed package, a PDF, and a working folder that is not the checkout
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "retention.pdf").write_bytes(make_pdf([[FACT]]))
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("CERTIQ_")},
        "PYTHONPATH": str(installed),
        "CERTIQ_HOME": str(tmp_path / "home"),
        "CERTIQ_EMBEDDING__PROVIDER": "none",
    }

    def certiq(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "certiq.cli", *args],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    # WHEN it is imported, ingests the PDF and is asked a question
    where = subprocess.run(
        [sys.executable, "-c", "import certiq.config as c; print(c.__file__); print(c.ASL_FILE)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    ingested = certiq("ingest", "retention.pdf")
    asked = certiq("ask", "--json", "How long are backups of customer data kept?")

    # THEN the code and the state machine come from the installed copy, not the checkout
    assert all(Path(path).is_relative_to(installed) for path in where), where
    # AND the file is indexed and the question answered, citing it
    assert ingested.returncode == 0, ingested.stderr
    assert asked.returncode == 0, asked.stderr
    response = json.loads(asked.stdout)
    assert response["status"] == "COMPLETE"
    assert response["citations"][0]["quote"] == FACT

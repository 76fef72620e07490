"""Nothing stuck: an ingestion whose process dies is found by its lease, ended FAILED with a
reason that says how to retry, and retried from the kept original under the same id.

The kill is real (SIGKILL to a `certiq ingest` in the middle of a long PDF); the lease running
out is simulated by moving the record's last write back in time, as waiting would.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from certiq.adapters.local.sqlite_db import DB_FILE_NAME
from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import Settings
from certiq.deps import Deps
from certiq.ingestion.leases import end_interrupted, interrupted_reason
from certiq.models import DocumentRecord, DocumentStatus
from tests.conftest import MakePdf
from tests.fakes import EPOCH, FixedClock, make_document

PAGES = 300


def stored_records(home: Path) -> list[DocumentRecord]:
    with sqlite3.connect(home / DB_FILE_NAME) as conn:
        rows = conn.execute("SELECT body FROM documents").fetchall()
    return [DocumentRecord.model_validate_json(body) for (body,) in rows]


def age(home: Path, record: DocumentRecord, seconds: int) -> None:
    """Moves the record's last write back: the lease runs out as if that much time had passed."""
    older = record.model_copy(update={"updated_at": record.updated_at - timedelta(seconds=seconds)})
    with sqlite3.connect(home / DB_FILE_NAME) as conn:
        conn.execute(
            "UPDATE documents SET body = ? WHERE tenant = ? AND doc_id = ?",
            (older.model_dump_json(), record.tenant, record.doc_id),
        )


def test_a_killed_ingest_ends_failed_as_interrupted_and_is_retried(
    tmp_path: Path, make_pdf: MakePdf
) -> None:
    # GIVEN a long PDF being ingested by `certiq ingest`, in small page batches
    home = tmp_path / "home"
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(
        make_pdf(
            [[f"Section {n}: staff keep records of change {n} for audit."] for n in range(PAGES)]
        )
    )
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("CERTIQ_")},
        "CERTIQ_HOME": str(home),
        "CERTIQ_CHUNKING__PAGE_BATCH": "5",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "certiq.cli", "ingest", str(pdf)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # WHEN it is killed once it has written a heartbeat or two, mid-file
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            try:
                records = stored_records(home)
            except sqlite3.OperationalError:  # the file or its schema not created yet
                records = []
            if (
                records
                and records[0].status is DocumentStatus.PROCESSING
                and records[0].pages >= 10
            ):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the ingestion never reported progress")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    [record] = stored_records(home)
    assert record.status is DocumentStatus.PROCESSING and 10 <= record.pages < PAGES

    # THEN within the lease it is left alone: a live worker might still hold it
    runner = CliRunner()
    listed = runner.invoke(main, ["documents", "--json"], env={"CERTIQ_HOME": str(home)})
    assert json.loads(listed.output)[0]["status"] == "PROCESSING"

    # WHEN the lease has run out and the documents are listed
    age(home, record, seconds=120)
    listed = runner.invoke(main, ["documents", "--json"], env={"CERTIQ_HOME": str(home)})

    # THEN it is FAILED, saying it was interrupted and how to retry
    [shown] = json.loads(listed.output)
    assert shown["status"] == "FAILED"
    assert shown["reason"] == interrupted_reason(record.doc_id)

    # WHEN it is retried
    retried = runner.invoke(main, ["retry", record.doc_id], env={"CERTIQ_HOME": str(home)})

    # THEN the kept original is ingested again, whole, under the same id
    assert retried.exit_code == 0, retried.output
    assert retried.output.startswith("INDEXED")
    [final] = stored_records(home)
    assert (final.doc_id, final.status, final.pages) == (
        record.doc_id,
        DocumentStatus.INDEXED,
        PAGES,
    )


@pytest.fixture
def deps(tmp_path: Path) -> Deps:
    return build_deps(Settings(home=tmp_path, embedding={"provider": "none"}))  # type: ignore[arg-type]


def test_only_unfinished_records_past_their_lease_and_not_busy_are_ended(deps: Deps) -> None:
    # GIVEN records of every kind, the clock 61 s after the oldest writes (lease: 60 s)
    clock = FixedClock(EPOCH + timedelta(seconds=61))
    deps = dataclasses.replace(deps, clock=clock)
    stale = {"updated_at": EPOCH}
    fresh = {"updated_at": EPOCH + timedelta(seconds=30)}
    cases = {
        "processing-stale": (DocumentStatus.PROCESSING, stale),
        "queued-stale": (DocumentStatus.QUEUED, stale),
        "processing-fresh": (DocumentStatus.PROCESSING, fresh),
        "queued-busy": (DocumentStatus.QUEUED, stale),
        "indexed-old": (DocumentStatus.INDEXED, stale),
    }
    for doc_id, (status, update) in cases.items():
        deps.documents.put(make_document(doc_id, status=status).model_copy(update=update))

    # WHEN the sweep runs, with one queued document still this process's
    ended = end_interrupted("tenant-a", deps, busy={"queued-busy"})

    # THEN only the stale, unfinished, not busy ones are FAILED, as interrupted
    assert sorted(record.doc_id for record in ended) == ["processing-stale", "queued-stale"]
    statuses = {record.doc_id: record.status for record in deps.documents.list("tenant-a")}
    assert statuses == {
        "processing-stale": DocumentStatus.FAILED,
        "queued-stale": DocumentStatus.FAILED,
        "processing-fresh": DocumentStatus.PROCESSING,
        "queued-busy": DocumentStatus.QUEUED,
        "indexed-old": DocumentStatus.INDEXED,
    }

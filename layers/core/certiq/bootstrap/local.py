"""The local world: SQLite stores, a folder of originals and a key file under settings.home."""

from __future__ import annotations

from certiq.adapters.local.clock import SystemClock
from certiq.adapters.local.metrics import RecordingMetrics
from certiq.bootstrap.aws import opensearch_index
from certiq.bootstrap.models import build_embedder, model_adapters
from certiq.config import Settings
from certiq.deps import Deps


def local_deps(settings: Settings) -> Deps:
    """The embedded stores under settings.home; the index in OpenSearch when
    settings.opensearch.endpoint is set (the self-hosted mode)."""
    # Imported here: the SQLite index loads numpy, which a Lambda cold start should not pay for.
    from certiq.adapters.local.blob_folder import FolderBlobStore
    from certiq.adapters.local.fts_index import SqliteSearchIndex
    from certiq.adapters.local.key_file_signer import KeyFileSigner
    from certiq.adapters.local.sqlite_db import SqliteDatabase
    from certiq.adapters.local.sqlite_stores import (
        SqliteCertificateStore,
        SqliteDocumentStore,
        SqliteQuestionStore,
    )
    from certiq.adapters.local.verified_answers import SqliteVerifiedAnswerStore

    settings.home.mkdir(parents=True, exist_ok=True)
    db = SqliteDatabase(settings.home)
    clock = SystemClock()
    embedder = build_embedder(settings, db)
    return Deps(
        settings=settings,
        blobs=FolderBlobStore(settings.home / "originals"),
        documents=SqliteDocumentStore(db),
        questions=SqliteQuestionStore(db, clock),
        certificates=SqliteCertificateStore(db),
        # The self-hosted mode: an OpenSearch cluster holds the index, the rest stays here.
        # Locally, vectors are stored and searched under the embedder's name: models never mix.
        index=(
            opensearch_index(settings, embedder.dimension if embedder else None)
            if settings.opensearch.endpoint
            else SqliteSearchIndex(db, vector_model=embedder.name if embedder else None)
        ),
        signer=KeyFileSigner(settings.signing.key_path(settings.home)),
        clock=clock,
        metrics=RecordingMetrics(),
        embedder=embedder,
        answers=SqliteVerifiedAnswerStore(db) if settings.reuse.enabled else None,
        **model_adapters(settings, embedder),
    )

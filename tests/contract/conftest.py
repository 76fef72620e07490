"""Fixtures yielding every adapter of each port: local ones on tmp_path, AWS ones under moto.

A contract suite asks for ``blob_store``, ``document_store``, ... and runs once per adapter.
AWS runs inside ``moto.mock_aws()`` with fake credentials and every AWS_* variable of the real
environment removed, so nothing can reach a real account.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from moto import mock_aws

from certiq.adapters.aws.dynamodb_stores import (
    DynamoCertificateStore,
    DynamoDocumentStore,
    DynamoQuestionStore,
)
from certiq.adapters.aws.kms_signer import KmsSigner
from certiq.adapters.aws.s3_blobs import S3BlobStore
from certiq.adapters.aws.tables import TABLE_KEYS, create_table_args
from certiq.adapters.aws.verified_answers import DynamoVerifiedAnswerStore
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
from certiq.ports import (
    BlobStore,
    CertificateStore,
    DocumentStore,
    QuestionStore,
    SearchIndex,
    Signer,
    VerifiedAnswerStore,
)
from tests.fakes import FixedClock

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_kms import KMSClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_stepfunctions import SFNClient
    from opensearchpy import OpenSearch

    from certiq.adapters.aws.opensearch_index import OpenSearchIndex

REGION = "us-east-1"
# The DynamoDB question store writes expires_at (TTL) this many days after each question.
RETENTION_DAYS = 90
BUCKET = "certiq-contract-blobs"


@dataclass
class Aws:
    """Clients bound to moto, and the resources created for a test."""

    s3: S3Client
    dynamodb: DynamoDBClient
    kms: KMSClient
    sfn: SFNClient
    bucket: str
    tables: dict[str, str]

    def signing_key(self) -> str:
        """A new KMS ECC signing key, as template.yaml's CertificateKey; returns its id."""
        key = self.kms.create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY")
        return key["KeyMetadata"]["KeyId"]


FAKE_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_SECURITY_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
}


def _fake_aws_environment(monkeypatch: pytest.MonkeyPatch, scratch: Path) -> None:
    """Removes every AWS_* variable (profiles, endpoints, real keys) and sets fake ones."""
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    for name, value in FAKE_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(scratch / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(scratch / "no-aws-credentials"))


@pytest.fixture(scope="session")
def boto_session(tmp_path_factory: pytest.TempPathFactory) -> boto3.session.Session:
    """One boto3 session for the run: creating clients from it is ~10x faster than anew.

    Its credentials are fake and explicit; it is only used inside mock_aws() (fixture aws).
    """
    with pytest.MonkeyPatch.context() as monkeypatch:
        _fake_aws_environment(monkeypatch, tmp_path_factory.mktemp("aws"))
        return boto3.session.Session(
            aws_access_key_id=FAKE_ENV["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=FAKE_ENV["AWS_SECRET_ACCESS_KEY"],
            aws_session_token=FAKE_ENV["AWS_SESSION_TOKEN"],
            region_name=REGION,
        )


@pytest.fixture
def aws(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, boto_session: boto3.session.Session
) -> Iterator[Aws]:
    _fake_aws_environment(monkeypatch, tmp_path)
    with mock_aws():
        world = Aws(
            s3=boto_session.client("s3"),
            dynamodb=boto_session.client("dynamodb"),
            kms=boto_session.client("kms"),
            sfn=boto_session.client("stepfunctions"),
            bucket=BUCKET,
            tables={logical: f"certiq-{logical}" for logical in TABLE_KEYS},
        )
        world.s3.create_bucket(Bucket=BUCKET)
        for logical, table_name in world.tables.items():
            world.dynamodb.create_table(**create_table_args(logical, table_name))
        yield world


@pytest.fixture
def db(tmp_path: Path) -> Iterator[SqliteDatabase]:
    database = SqliteDatabase(tmp_path / "home")
    yield database
    database.close()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture(params=["folder", "s3"])
def blob_store(request: pytest.FixtureRequest, tmp_path: Path) -> BlobStore:
    if request.param == "folder":
        return FolderBlobStore(tmp_path / "blobs")
    aws: Aws = request.getfixturevalue("aws")
    return S3BlobStore(aws.s3, aws.bucket)


@pytest.fixture(params=["sqlite", "dynamodb"])
def document_store(request: pytest.FixtureRequest) -> DocumentStore:
    if request.param == "sqlite":
        return SqliteDocumentStore(request.getfixturevalue("db"))
    aws: Aws = request.getfixturevalue("aws")
    return DynamoDocumentStore(aws.dynamodb, aws.tables["documents"])


@pytest.fixture(params=["sqlite", "dynamodb"])
def question_store(request: pytest.FixtureRequest, clock: FixedClock) -> QuestionStore:
    if request.param == "sqlite":
        return SqliteQuestionStore(request.getfixturevalue("db"), clock=clock)
    aws: Aws = request.getfixturevalue("aws")
    return DynamoQuestionStore(
        aws.dynamodb, aws.tables["questions"], clock=clock, retention_days=RETENTION_DAYS
    )


@pytest.fixture(params=["sqlite", "dynamodb"])
def certificate_store(request: pytest.FixtureRequest) -> CertificateStore:
    if request.param == "sqlite":
        return SqliteCertificateStore(request.getfixturevalue("db"))
    aws: Aws = request.getfixturevalue("aws")
    return DynamoCertificateStore(aws.dynamodb, aws.tables["certificates"])


@pytest.fixture(params=["sqlite", "dynamodb"])
def verified_answer_store(request: pytest.FixtureRequest) -> VerifiedAnswerStore:
    if request.param == "sqlite":
        return SqliteVerifiedAnswerStore(request.getfixturevalue("db"))
    aws: Aws = request.getfixturevalue("aws")
    return DynamoVerifiedAnswerStore(aws.dynamodb, aws.tables["answers"])


@dataclass
class OpenSearchWorld:
    """The run's OpenSearch node, emptied for one test, and a client bound to it."""

    url: str
    client: OpenSearch

    def index(self, name: str = "certiq-chunks", **options: Any) -> OpenSearchIndex:
        from certiq.adapters.aws.opensearch_index import OpenSearchIndex

        settings: dict[str, Any] = {
            "dimension": OPENSEARCH_DIMENSION,
            "bulk_batch": 2,
            "max_retries": 2,
            "refresh": True,
            "sleep": lambda seconds: None,
        }
        settings.update(options)
        return OpenSearchIndex(self.client, name, **settings)


# The vector dimension of the contract suite's OpenSearch index: small, but a real knn_vector
# field searched by the k-NN plugin's lucene HNSW.
OPENSEARCH_DIMENSION = 4


@pytest.fixture
def opensearch(opensearch_url: str) -> Iterator[OpenSearchWorld]:
    pytest.importorskip("opensearchpy", reason="opensearch-py is not installed")
    from certiq.adapters.aws.opensearch_client import make_client
    from certiq.config import OpenSearchSettings

    client = make_client(OpenSearchSettings(endpoint=opensearch_url), REGION)
    yield OpenSearchWorld(url=opensearch_url, client=client)
    client.close()


@pytest.fixture(params=["sqlite-fts5", "opensearch"])
def search_index(request: pytest.FixtureRequest) -> SearchIndex:
    if request.param == "sqlite-fts5":
        return SqliteSearchIndex(request.getfixturevalue("db"))
    world: OpenSearchWorld = request.getfixturevalue("opensearch")
    index = world.index()
    index.ensure_index()
    return index


@dataclass
class SignerKeys:
    """Makes signers: ``same()`` a fresh instance over the one key, ``other()`` over another."""

    same: Callable[[], Signer]
    other: Callable[[], Signer]


@pytest.fixture(params=["key-file", "kms"])
def signer_keys(request: pytest.FixtureRequest, tmp_path: Path) -> SignerKeys:
    if request.param == "key-file":
        return SignerKeys(
            same=lambda: KeyFileSigner(tmp_path / "keys" / "signing-key.pem"),
            other=lambda: KeyFileSigner(tmp_path / "other-keys" / "signing-key.pem"),
        )
    aws: Aws = request.getfixturevalue("aws")
    key_id, other_key_id = aws.signing_key(), aws.signing_key()
    return SignerKeys(
        same=lambda: KmsSigner(aws.kms, key_id),
        other=lambda: KmsSigner(aws.kms, other_key_id),
    )


@pytest.fixture
def signer(signer_keys: SignerKeys) -> Signer:
    return signer_keys.same()

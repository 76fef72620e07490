"""The AWS world: S3, DynamoDB, KMS and the OpenSearch domain, by boto3 and opensearch-py.

Each adapter is built on first use (certiq.lazy): a function pays for what its step touches, and
its environment names only the tables and buckets its step uses (template.yaml); a missing one
is a ConfigurationError naming it when the adapter is first used.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from certiq.adapters.local.clock import SystemClock
from certiq.bootstrap.models import build_embedder, model_adapters
from certiq.config import AwsSettings, Settings
from certiq.deps import Deps
from certiq.errors import ConfigurationError
from certiq.lazy import lazy
from certiq.ports import CertificateArchive, RecheckQueue, SearchIndex, VerifiedAnswerStore

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _certificate_archive(aws: AwsSettings) -> CertificateArchive | None:
    if not aws.certificate_archive_bucket:
        return None
    import boto3

    from certiq.adapters.aws.s3_certificate_archive import S3CertificateArchive

    return lazy(
        lambda: S3CertificateArchive(
            boto3.client("s3", region_name=aws.region), aws.certificate_archive_bucket
        )
    )


def _recheck_queue(aws: AwsSettings) -> RecheckQueue:
    import boto3

    from certiq.adapters.aws.sqs_rechecks import SqsRecheckQueue

    return lazy(
        lambda: SqsRecheckQueue(
            boto3.client("sqs", region_name=aws.region),
            _needed(aws.recheck_queue_url, "RECHECK_QUEUE_URL"),
        )
    )


def aws_deps(settings: Settings) -> Deps:
    """boto3 clients to the stack's resources named in settings.aws, each built on first use."""
    # Imported here so the local default never needs boto3.
    import boto3

    from certiq.adapters.aws.dynamodb_stores import (
        DynamoCertificateStore,
        DynamoDocumentStore,
        DynamoQuestionStore,
    )
    from certiq.adapters.aws.kms_signer import KmsSigner
    from certiq.adapters.aws.metrics import PowertoolsMetrics
    from certiq.adapters.aws.s3_blobs import S3BlobStore

    aws = settings.aws

    @cache
    def dynamodb() -> DynamoDBClient:
        # One client for the tables, made when a step first reaches one (Translate never does).
        return boto3.client("dynamodb", region_name=aws.region)

    clock = SystemClock()
    embedder = build_embedder(settings)
    # Built on first use (certiq.lazy): each function pays for what its step touches, and its
    # environment names only the tables and buckets its step uses (template.yaml): a missing
    # one is a ConfigurationError naming it when the adapter is first used.
    return Deps(
        settings=settings,
        blobs=lazy(
            lambda: S3BlobStore(
                boto3.client("s3", region_name=aws.region), _needed(aws.bucket, "BUCKET")
            )
        ),
        documents=lazy(
            lambda: DynamoDocumentStore(dynamodb(), _needed(aws.documents_table, "DOCUMENTS_TABLE"))
        ),
        questions=lazy(
            lambda: DynamoQuestionStore(
                dynamodb(),
                _needed(aws.questions_table, "QUESTIONS_TABLE"),
                clock,
                retention_days=aws.question_retention_days,
            )
        ),
        certificates=lazy(
            lambda: DynamoCertificateStore(
                dynamodb(), _needed(aws.certificates_table, "CERTIFICATES_TABLE")
            )
        ),
        index=lazy(lambda: opensearch_index(settings, embedder.dimension if embedder else None)),
        signer=lazy(
            lambda: KmsSigner(
                boto3.client("kms", region_name=aws.region), _needed(aws.kms_key_id, "KMS_KEY_ID")
            )
        ),
        archive=_certificate_archive(aws),
        # A changed document's certificates are re-checked by the recheck function, one queued
        # message each, never inside the ingest or API function that changed it.
        rechecks=_recheck_queue(aws),
        clock=clock,
        metrics=PowertoolsMetrics(),
        embedder=embedder,
        # Without the table (CERTIQ_AWS__ANSWERS_TABLE) nothing is reused, and each question's
        # reuse note says so.
        answers=(
            lazy(lambda: _verified_answers(dynamodb(), aws.answers_table))
            if settings.reuse.enabled and aws.answers_table
            else None
        ),
        **model_adapters(settings, embedder),
    )


def _needed(value: str | None, name: str) -> str:
    """An AWS setting the adapter being built cannot do without."""
    if not value:
        raise ConfigurationError(f"runtime aws needs CERTIQ_AWS__{name}")
    return value


def _verified_answers(dynamodb: DynamoDBClient, table: str) -> VerifiedAnswerStore:
    # Imported here: it compares embeddings with numpy, which only two steps need.
    from certiq.adapters.aws.verified_answers import DynamoVerifiedAnswerStore

    return DynamoVerifiedAnswerStore(dynamodb, table)


def opensearch_index(settings: Settings, dimension: int | None = None) -> SearchIndex:
    """The OpenSearch index (AWS, or the local runtime's self-hosted mode); ``dimension`` is
    the embedder's (None: lexical-only index).

    No request is sent here: the index is created by the first write (OpenSearchIndex.index).
    """
    try:
        from certiq.adapters.aws.opensearch_client import make_client
        from certiq.adapters.aws.opensearch_index import OpenSearchIndex
    except ImportError as error:
        raise ConfigurationError(
            "CERTIQ_OPENSEARCH__ENDPOINT is set but opensearch-py is not installed:"
            " pip install 'certiq[aws]'"
        ) from error

    opensearch = settings.opensearch
    if not opensearch.endpoint:
        raise ConfigurationError("runtime aws needs CERTIQ_OPENSEARCH__ENDPOINT")
    try:
        client = make_client(opensearch, settings.aws.region)
    except ValueError as error:
        raise ConfigurationError(f"CERTIQ_OPENSEARCH__ENDPOINT: {error}") from error
    return OpenSearchIndex(
        client,
        opensearch.index,
        dimension=dimension,
        bulk_batch=opensearch.bulk_batch,
        max_retries=opensearch.max_retries,
        refresh="wait_for" if opensearch.refresh == "wait_for" else False,
    )

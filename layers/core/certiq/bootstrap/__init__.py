"""The composition root: the only place that chooses adapters.

runtime "local" (the default) wires the embedded stores under settings.home (certiq.bootstrap.local,
the index in OpenSearch in the self-hosted mode); runtime "aws" wires boto3 clients to the
stack's resources named in settings.aws (certiq.bootstrap.aws); the models both use are wired
once (certiq.bootstrap.models).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from certiq.bootstrap.aws import aws_deps
from certiq.bootstrap.local import local_deps
from certiq.bootstrap.models import (
    build_chat_model,
    build_claim_splitter,
    build_embedder,
    build_ocr,
    build_relevance,
    build_rewriter,
    build_verifier,
    guard_adapters,
)
from certiq.config import Settings
from certiq.deps import Deps
from certiq.errors import ConfigurationError
from certiq.ports import Orchestrator, UploadSigner

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency.persistence.base import BasePersistenceLayer

__all__ = [
    "build_chat_model",
    "build_claim_splitter",
    "build_deps",
    "build_embedder",
    "build_idempotency_store",
    "build_ocr",
    "build_orchestrator",
    "build_relevance",
    "build_rewriter",
    "build_upload_signer",
    "build_verifier",
    "guard_adapters",
]


def build_deps(settings: Settings) -> Deps:
    if settings.runtime == "aws":
        return aws_deps(settings)
    return local_deps(settings)


def build_orchestrator(deps: Deps) -> Orchestrator:
    settings = deps.settings
    if settings.runtime == "aws":
        import boto3

        from certiq.adapters.aws.sfn_orchestrator import StepFunctionsOrchestrator

        if not settings.aws.state_machine_arn:
            raise ConfigurationError("CERTIQ_AWS__STATE_MACHINE_ARN is not set")
        client = boto3.client("stepfunctions", region_name=settings.aws.region)
        return StepFunctionsOrchestrator(client, settings.aws.state_machine_arn)
    from certiq.adapters.local.orchestrator import LocalRuntime

    return LocalRuntime(deps)


def build_upload_signer(settings: Settings) -> UploadSigner | None:
    """Presigned uploads to the documents bucket (aws); None locally, where the API ingests."""
    if settings.runtime != "aws":
        return None
    if not settings.aws.bucket:
        raise ConfigurationError("CERTIQ_AWS__BUCKET is not set")
    import boto3

    from certiq.adapters.aws.s3_upload_signer import S3UploadSigner

    return S3UploadSigner(boto3.client("s3", region_name=settings.aws.region), settings.aws.bucket)


def build_idempotency_store(settings: Settings) -> BasePersistenceLayer:
    """The ingest function's exactly-once store: Powertools idempotency on DynamoDB (aws only)."""
    if settings.runtime != "aws":
        raise ConfigurationError("the idempotency store exists only in runtime aws")
    if not settings.aws.idempotency_table:
        raise ConfigurationError("CERTIQ_AWS__IDEMPOTENCY_TABLE is not set")
    import boto3

    from certiq.adapters.aws.idempotency import dynamodb_idempotency_store

    client = boto3.client("dynamodb", region_name=settings.aws.region)
    return dynamodb_idempotency_store(settings.aws.idempotency_table, client)

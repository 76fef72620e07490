"""The composition root: the only place that chooses adapters.

runtime "local" (the default) wires the embedded stores under settings.home; runtime "aws" wires
boto3 clients to the stack's resources named in settings.aws.
"""

from __future__ import annotations

from certiq.adapters.local.blob_folder import FolderBlobStore
from certiq.adapters.local.clock import SystemClock
from certiq.adapters.local.fts_index import SqliteSearchIndex
from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.adapters.local.sqlite_db import SqliteDatabase
from certiq.adapters.local.sqlite_stores import (
    SqliteCertificateStore,
    SqliteDocumentStore,
    SqliteQuestionStore,
)
from certiq.answering.extractive import ExtractiveAnswerer
from certiq.config import Settings
from certiq.errors import CertiqError
from certiq.guardrails.language import FunctionWordDetector
from certiq.ports import Orchestrator, SearchIndex
from certiq.steps.deps import Deps
from certiq.trust.verifier import LexicalVerifier


class ConfigurationError(CertiqError):
    pass


def build_deps(settings: Settings) -> Deps:
    if settings.runtime == "aws":
        return _aws_deps(settings)
    return _local_deps(settings)


def build_orchestrator(deps: Deps) -> Orchestrator:
    settings = deps.settings
    if settings.runtime == "aws":
        import boto3

        from certiq.adapters.aws.sfn_orchestrator import StepFunctionsOrchestrator

        if not settings.aws.state_machine_arn:
            raise ConfigurationError("CERTIQ_AWS__STATE_MACHINE_ARN is not set")
        client = boto3.client("stepfunctions", region_name=settings.aws.region)
        return StepFunctionsOrchestrator(client, settings.aws.state_machine_arn)
    from certiq.runtime.local import LocalRuntime

    return LocalRuntime(deps)


def _local_deps(settings: Settings) -> Deps:
    settings.home.mkdir(parents=True, exist_ok=True)
    db = SqliteDatabase(settings.home)
    clock = SystemClock()
    return Deps(
        settings=settings,
        blobs=FolderBlobStore(settings.home / "originals"),
        documents=SqliteDocumentStore(db),
        questions=SqliteQuestionStore(db, clock),
        certificates=SqliteCertificateStore(db),
        index=SqliteSearchIndex(db),
        signer=KeyFileSigner(settings.home / "signing.key"),
        clock=clock,
        chat_model=ExtractiveAnswerer(settings.answer),
        verifier=LexicalVerifier(),
        language=FunctionWordDetector(),
    )


def _aws_deps(settings: Settings) -> Deps:
    # Imported here so the local default never needs boto3.
    import boto3

    from certiq.adapters.aws.dynamodb_stores import (
        DynamoCertificateStore,
        DynamoDocumentStore,
        DynamoQuestionStore,
    )
    from certiq.adapters.aws.kms_signer import KmsSigner
    from certiq.adapters.aws.s3_blobs import S3BlobStore

    aws = settings.aws
    missing = [
        name
        for name in (
            "bucket",
            "documents_table",
            "questions_table",
            "certificates_table",
            "kms_key_id",
        )
        if not getattr(aws, name)
    ]
    if missing:
        names = ", ".join(f"CERTIQ_AWS__{name.upper()}" for name in missing)
        raise ConfigurationError(f"runtime aws needs {names}")
    dynamodb = boto3.client("dynamodb", region_name=aws.region)
    clock = SystemClock()
    return Deps(
        settings=settings,
        blobs=S3BlobStore(boto3.client("s3", region_name=aws.region), aws.bucket),
        documents=DynamoDocumentStore(dynamodb, aws.documents_table),
        questions=DynamoQuestionStore(dynamodb, aws.questions_table, clock),
        certificates=DynamoCertificateStore(dynamodb, aws.certificates_table),
        index=_search_index(settings),
        signer=KmsSigner(boto3.client("kms", region_name=aws.region), aws.kms_key_id),
        clock=clock,
        chat_model=ExtractiveAnswerer(settings.answer),
        verifier=LexicalVerifier(),
        language=FunctionWordDetector(),
    )


def _search_index(settings: Settings) -> SearchIndex:
    # The OpenSearch adapter is its own piece of work; until it lands the cloud runtime says so
    # plainly rather than searching an index that is not there.
    raise ConfigurationError(
        "runtime aws has no search index adapter yet: the OpenSearch adapter is not built"
    )

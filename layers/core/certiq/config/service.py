"""Settings of the service around certiq: the HTTPS API and page, and the AWS resources."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from certiq.config.base import Group


class ApiSettings(Group):
    """The HTTPS API and the web page it serves (functions/api and `certiq serve`)."""

    max_body_bytes: int = Field(
        default=20 * 1024 * 1024,
        ge=1024,
        description="larger request bodies get 413; Lambda itself caps a request near 6 MB",
    )
    wait_seconds: float = Field(
        default=25.0, gt=0, le=28, description="?wait=true bound: API Gateway ends at 29 s"
    )
    page_dpi: int = Field(default=144, ge=36, le=300, description="page images' resolution")
    page_cache_dir: Path | None = Field(
        default=None, description="rendered pages; default: <home>/page-cache (/tmp in Lambda)"
    )
    static_dir: Path | None = Field(
        default=None, description="the web page's files; default: the packaged certiq/web/static"
    )
    upload_expires_seconds: int = Field(
        default=900, ge=60, le=7 * 24 * 3600, description="life of a presigned S3 upload"
    )
    upload_prefix: str = Field(
        default="uploads/", description="S3 key prefix of files uploaded through the API"
    )
    cors_allow_origin: str = Field(
        default="",
        pattern=r"^$|^\*$|^https?://[A-Za-z0-9.-]+(:[0-9]+)?$",
        description="the origin whose pages may read the API's responses (* any); empty: "
        "none but the API's own",
    )


class AwsSettings(Group):
    """The stack's resources in runtime aws: template.yaml sets each function's own."""

    region: str = Field(default="us-east-1", description="region of every AWS client")
    bucket: str = Field(default="", description="S3 bucket of the documents' originals")
    documents_table: str = Field(default="", description="DynamoDB table of document records")
    questions_table: str = Field(default="", description="DynamoDB table of questions")
    certificates_table: str = Field(default="", description="DynamoDB table of certificates")
    state_machine_arn: str = Field(
        default="", description="the Step Functions answer state machine the API starts"
    )
    kms_key_id: str = Field(default="", description="KMS key that signs certificates")
    idempotency_table: str = Field(
        default="", description="DynamoDB table of the ingest function's idempotency records"
    )
    answers_table: str = Field(default="", description="verified answers a question may reuse")
    recheck_queue_url: str = Field(
        default="",
        description="SQS queue of certificate re-checks: a document indexed anew or deleted"
        " queues one message per certificate citing it, which the recheck function runs",
    )
    certificate_archive_bucket: str = Field(
        default="",
        description="S3 bucket with Object Lock (compliance mode) that keeps a copy of every"
        " certificate; unset: the certificates table alone",
    )
    question_retention_days: int = Field(
        default=90,
        ge=0,
        description="questions table items expire (TTL on expires_at) this long after they were "
        "asked; 0: kept forever",
    )

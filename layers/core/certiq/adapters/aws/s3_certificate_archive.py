"""Certificates archived in an S3 bucket with Object Lock in compliance mode.

The bucket's default retention (template.yaml, parameter CertificateRetentionDays) locks every
object version as it is written: in compliance mode no user, the account's root included, can
overwrite or delete a locked version or shorten its retention until it expires. The put is
conditional (If-None-Match: *), so an archived certificate is never followed by a second version
under its key, and a retried Persist finds its first write and leaves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors
from certiq.models import Certificate

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

ALREADY_THERE: Final = frozenset({"PreconditionFailed", "ConditionalRequestConflict"})


def archive_key(certificate: Certificate) -> str:
    return f"certificates/{certificate.tenant}/{certificate.certificate_id}.json"


class S3CertificateArchive:
    """Implements certiq.ports.CertificateArchive over ``bucket`` (Object Lock enabled)."""

    def __init__(self, client: S3Client, bucket: str) -> None:
        self._s3 = client
        self.bucket = bucket

    def put(self, certificate: Certificate) -> None:
        with transient_errors("S3 PutObject"):
            try:
                # Object Lock needs an integrity checksum on every put: SHA-256, sent by boto3.
                self._s3.put_object(
                    Bucket=self.bucket,
                    Key=archive_key(certificate),
                    Body=certificate.model_dump_json(indent=2).encode("utf-8"),
                    ContentType="application/json",
                    ChecksumAlgorithm="SHA256",
                    IfNoneMatch="*",
                )
            except ClientError as error:
                if error_code(error) in ALREADY_THERE:
                    return
                raise

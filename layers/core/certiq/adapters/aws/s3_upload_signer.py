"""Presigned S3 POSTs: a client uploads a file to the documents bucket without the API in between.

API Gateway and Lambda cap a request near 6-10 MB, so large files go to S3 directly; the bucket's
ObjectCreated notification then ingests them like any other upload.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from certiq.adapters.aws.s3_blobs import check_key
from certiq.models import UploadTarget

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


class S3UploadSigner:
    """Implements certiq.ports.UploadSigner for ``bucket``; signing is local, no request is sent."""

    def __init__(self, client: S3Client, bucket: str) -> None:
        self._s3 = client
        self.bucket = bucket

    def presign_upload(
        self, key: str, content_type: str, max_bytes: int, expires_seconds: int
    ) -> UploadTarget:
        # The policy pins the key, the type and the size: the form cannot be reused for anything
        # else, however the client fills it in.
        post = self._s3.generate_presigned_post(
            Bucket=self.bucket,
            Key=check_key(key),
            Fields={"Content-Type": content_type},
            Conditions=[{"Content-Type": content_type}, ["content-length-range", 1, max_bytes]],
            ExpiresIn=expires_seconds,
        )
        return UploadTarget(
            url=post["url"],
            fields={name: str(value) for name, value in post["fields"].items()},
            max_bytes=max_bytes,
            expires_in=expires_seconds,
        )

"""Blobs in an S3 bucket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors
from certiq.errors import InvalidRequest, NotFound

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_MISSING = frozenset({"NoSuchKey", "404", "NotFound"})
_NO_VERSION = frozenset({"NoSuchVersion", "InvalidArgument"})


def check_key(key: str) -> str:
    """Keys are relative "/"-separated paths without "." or ".." segments, as in FolderBlobStore.

    S3 itself would take any string; refusing the same keys as the local store keeps code
    written against the BlobStore port portable between the two.
    """
    parts = key.split("/")
    if not key or "\\" in key or "\x00" in key or any(p in ("", ".", "..") for p in parts):
        raise InvalidRequest("key", f"not a valid blob key: {key!r}")
    return key


class S3BlobStore:
    """Implements certiq.ports.BlobStore over ``bucket``; the client is created by the caller."""

    def __init__(self, client: S3Client, bucket: str) -> None:
        self._s3 = client
        self.bucket = bucket

    def put(self, key: str, data: bytes, content_type: str) -> str:
        with transient_errors("S3 PutObject"):
            self._s3.put_object(
                Bucket=self.bucket, Key=check_key(key), Body=data, ContentType=content_type
            )
        return f"s3://{self.bucket}/{key}"

    def get(self, key: str, version: str | None = None) -> bytes:
        with transient_errors("S3 GetObject"):
            try:
                if version is None:
                    response = self._s3.get_object(Bucket=self.bucket, Key=check_key(key))
                else:
                    response = self._s3.get_object(
                        Bucket=self.bucket, Key=check_key(key), VersionId=version
                    )
            except ClientError as error:
                code = error_code(error)
                # S3 answers a version id it never issued with 400 InvalidArgument.
                if code in _MISSING or (version is not None and code in _NO_VERSION):
                    what = f"{key!r}" if version is None else f"{key!r} version {version!r}"
                    raise NotFound(f"no blob under {what}") from error
                raise
            return response["Body"].read()

    def exists(self, key: str) -> bool:
        with transient_errors("S3 HeadObject"):
            try:
                self._s3.head_object(Bucket=self.bucket, Key=check_key(key))
            except ClientError as error:
                if error_code(error) in _MISSING:
                    return False
                raise
            return True

    def delete(self, key: str) -> None:
        with transient_errors("S3 DeleteObject"):
            self._s3.delete_object(Bucket=self.bucket, Key=check_key(key))

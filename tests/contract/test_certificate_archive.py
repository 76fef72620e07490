"""Contract of certiq.ports.CertificateArchive, run on S3CertificateArchive (Object Lock under
moto, as template.yaml's CertificateArchiveBucket declares it)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from certiq.adapters.aws.s3_certificate_archive import S3CertificateArchive, archive_key
from certiq.models import Certificate
from tests.contract.conftest import Aws
from tests.fakes import make_certificate

ARCHIVE = "certiq-contract-archive"


@pytest.fixture
def archive(aws: Aws) -> S3CertificateArchive:
    aws.s3.create_bucket(Bucket=ARCHIVE, ObjectLockEnabledForBucket=True)
    aws.s3.put_object_lock_configuration(
        Bucket=ARCHIVE,
        ObjectLockConfiguration={
            "ObjectLockEnabled": "Enabled",
            "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Days": 30}},
        },
    )
    return S3CertificateArchive(aws.s3, ARCHIVE)


def test_an_archived_certificate_is_kept_whole_and_locked(
    archive: S3CertificateArchive, aws: Aws
) -> None:
    # GIVEN a certificate archived
    certificate = make_certificate("cert-1")
    archive.put(certificate)

    # WHEN it is read back / THEN it is the same certificate, locked in compliance mode
    stored = aws.s3.get_object(Bucket=ARCHIVE, Key=archive_key(certificate))
    assert Certificate.model_validate_json(stored["Body"].read()) == certificate
    assert stored["ObjectLockMode"] == "COMPLIANCE"
    # AND its version cannot be deleted
    with pytest.raises(ClientError, match="AccessDenied"):
        aws.s3.delete_object(
            Bucket=ARCHIVE, Key=archive_key(certificate), VersionId=stored["VersionId"]
        )


def test_archiving_again_keeps_the_first_copy_and_adds_no_version(
    archive: S3CertificateArchive, aws: Aws
) -> None:
    # GIVEN a certificate archived
    first = make_certificate("cert-1", answer="The original answer.")
    archive.put(first)

    # WHEN a certificate of the same id is archived again (a retried step, or a forgery)
    archive.put(make_certificate("cert-1", answer="A forged answer."))

    # THEN the first copy is the only version
    key = archive_key(first)
    versions = aws.s3.list_object_versions(Bucket=ARCHIVE, Prefix=key)["Versions"]
    assert len(versions) == 1
    body = aws.s3.get_object(Bucket=ARCHIVE, Key=key)["Body"].read()
    assert Certificate.model_validate_json(body) == first

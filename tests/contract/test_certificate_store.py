"""Contract of certiq.ports.CertificateStore, run on SQLite and DynamoDB."""

from __future__ import annotations

import pytest

from certiq.errors import AlreadyExists
from certiq.ports import CertificateStore
from tests.fakes import make_certificate

pytestmark = pytest.mark.contract


def test_put_once_then_get_returns_an_equal_certificate(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN a stored certificate
    certificate = make_certificate("cert-1")
    certificate_store.put_once(certificate)

    # WHEN it is read back / THEN every field round-trips
    assert certificate_store.get("cert-1") == certificate


def test_get_of_an_unknown_certificate_is_none(certificate_store: CertificateStore) -> None:
    assert certificate_store.get("cert-unknown") is None


def test_a_certificate_is_never_overwritten(certificate_store: CertificateStore) -> None:
    # GIVEN a stored certificate
    first = make_certificate("cert-1", answer="The original answer.")
    certificate_store.put_once(first)

    # WHEN a different certificate with the same id is put
    with pytest.raises(AlreadyExists):
        certificate_store.put_once(make_certificate("cert-1", answer="A forged answer."))

    # THEN the first one stays
    assert certificate_store.get("cert-1") == first


def test_certificates_with_different_ids_coexist(certificate_store: CertificateStore) -> None:
    # GIVEN / WHEN two certificates
    certificate_store.put_once(make_certificate("cert-1", answer="one"))
    certificate_store.put_once(make_certificate("cert-2", answer="two"))

    # THEN each is kept under its own id
    one, two = certificate_store.get("cert-1"), certificate_store.get("cert-2")
    assert one is not None and one.answer == "one"
    assert two is not None and two.answer == "two"

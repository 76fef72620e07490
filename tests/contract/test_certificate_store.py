"""Contract of certiq.ports.CertificateStore, run on SQLite and DynamoDB."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from certiq.errors import AlreadyExists
from certiq.models import Certificate
from certiq.ports import CertificateStore
from tests.fakes import EPOCH, make_certificate


def store(certificate_store: CertificateStore, certificate: Certificate) -> Certificate:
    return certificate_store.append(certificate.tenant, lambda _previous: certificate)


def test_append_then_get_returns_an_equal_certificate(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN a stored certificate
    certificate = make_certificate("cert-1")
    stored = store(certificate_store, certificate)

    # WHEN it is read back / THEN every field round-trips
    assert stored == certificate
    assert certificate_store.get("cert-1") == certificate


def test_get_of_an_unknown_certificate_is_none(certificate_store: CertificateStore) -> None:
    assert certificate_store.get("cert-unknown") is None


def test_a_certificate_is_never_overwritten(certificate_store: CertificateStore) -> None:
    # GIVEN a stored certificate
    first = make_certificate("cert-1", answer="The original answer.")
    store(certificate_store, first)

    # WHEN a different certificate with the same id is appended
    with pytest.raises(AlreadyExists):
        store(certificate_store, make_certificate("cert-1", answer="A forged answer."))

    # THEN the first one stays
    assert certificate_store.get("cert-1") == first


def test_certificates_with_different_ids_coexist(certificate_store: CertificateStore) -> None:
    # GIVEN / WHEN two certificates
    store(certificate_store, make_certificate("cert-1", answer="one"))
    store(certificate_store, make_certificate("cert-2", answer="two"))

    # THEN each is kept under its own id
    one, two = certificate_store.get("cert-1"), certificate_store.get("cert-2")
    assert one is not None and one.answer == "one"
    assert two is not None and two.answer == "two"


def test_history_lists_a_tenants_certificates_oldest_first(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN three certificates of one tenant, sealed in order, and one of another tenant
    for n in range(3):
        certificate = make_certificate(f"cert-{n}").model_copy(
            update={"created_at": EPOCH + timedelta(seconds=n)}
        )
        store(certificate_store, certificate)
    store(certificate_store, make_certificate("cert-x").model_copy(update={"tenant": "other"}))

    # WHEN the tenant's history is read / THEN it holds its own, oldest first
    history = [c.certificate_id for c in certificate_store.history("tenant-a")]
    assert history == ["cert-0", "cert-1", "cert-2"]
    assert [c.certificate_id for c in certificate_store.history("other")] == ["cert-x"]


def test_the_chain_head_given_to_the_sealer_is_the_previous_seal_or_none(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN a first certificate appended
    seen: list[str | None] = []

    def sealer(certificate_id: str, seal: str):  # type: ignore[no-untyped-def]
        def seal_over(previous: str | None) -> Certificate:
            seen.append(previous)
            return make_certificate(certificate_id).model_copy(
                update={"seal": seal, "previous_seal": previous}
            )

        return seal_over

    certificate_store.append("tenant-a", sealer("cert-1", "a" * 64))
    # WHEN a second one is appended
    second = certificate_store.append("tenant-a", sealer("cert-2", "b" * 64))

    # THEN the first had no predecessor, and the second got the first's seal where the store
    # keeps a chain, None where it does not
    assert seen[0] is None
    assert seen[1] in ("a" * 64, None)
    assert second.previous_seal == seen[1]


def test_concurrent_appends_never_fork_a_chain(certificate_store: CertificateStore) -> None:
    # GIVEN eight threads appending at once, each sealing over the head it is given
    heads: dict[str, str | None] = {}

    def append(n: int) -> None:
        def seal_over(previous: str | None) -> Certificate:
            heads[f"cert-{n}"] = previous
            return make_certificate(f"cert-{n}").model_copy(
                update={"seal": f"{n:064d}", "previous_seal": previous}
            )

        certificate_store.append("tenant-a", seal_over)

    threads = [threading.Thread(target=append, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN where there is a chain no two certificates seal the same predecessor
    chained = [head for head in heads.values() if head is not None]
    assert len(chained) == len(set(chained))
    assert len(heads) == 8

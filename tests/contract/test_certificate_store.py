"""Contract of certiq.ports.CertificateStore, run on SQLite and DynamoDB."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any, cast

import pytest

from certiq.adapters.aws.dynamodb_stores import DynamoCertificateStore
from certiq.errors import AlreadyExists
from certiq.models import Certificate, CertifiedDocument, Recheck, Standing
from certiq.ports import CertificateStore
from tests.contract.conftest import Aws
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


# --- re-checks and the certificates citing a document ----------------------------------------


def make_recheck(certificate_id: str, previous: Recheck | None, standing: Standing) -> Recheck:
    sequence = 1 if previous is None else previous.sequence + 1
    return Recheck(
        certificate_id=certificate_id,
        tenant="tenant-a",
        sequence=sequence,
        checked_at=EPOCH + timedelta(seconds=sequence),
        standing=standing,
        summary=f"re-check {sequence}",
        findings=[],
        previous_digest="d" * 64 if previous is None else previous.digest,
        digest=f"{sequence:064d}",
        signature="c2lnbmF0dXJl",
        signing_key_id="local-ed25519:0123456789abcdef",
    )


def test_rechecks_are_appended_in_a_chain_and_read_back_oldest_first(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN a stored certificate, never re-checked
    store(certificate_store, make_certificate("cert-1"))
    assert certificate_store.rechecks("cert-1") == []
    seen: list[Recheck | None] = []

    def sealer(standing: Standing) -> Callable[[Recheck | None], Recheck]:
        def seal(previous: Recheck | None) -> Recheck:
            seen.append(previous)
            return make_recheck("cert-1", previous, standing)

        return seal

    # WHEN it is re-checked twice
    first = certificate_store.append_recheck("tenant-a", "cert-1", sealer(Standing.CURRENT))
    second = certificate_store.append_recheck("tenant-a", "cert-1", sealer(Standing.STALE))

    # THEN each sealer got the re-check before it (None for the first)
    assert seen == [None, first]
    # AND both are read back oldest first, the certificate untouched and alone in the history
    assert certificate_store.rechecks("cert-1") == [first, second]
    assert certificate_store.get("cert-1") == make_certificate("cert-1")
    assert [c.certificate_id for c in certificate_store.history("tenant-a")] == ["cert-1"]


def test_a_recheck_is_never_overwritten(certificate_store: CertificateStore) -> None:
    # GIVEN a certificate re-checked once
    store(certificate_store, make_certificate("cert-1"))
    first = certificate_store.append_recheck(
        "tenant-a", "cert-1", lambda previous: make_recheck("cert-1", previous, Standing.CURRENT)
    )
    # WHEN a second re-check claims the same place in the chain
    with pytest.raises(AlreadyExists):
        certificate_store.append_recheck(
            "tenant-a", "cert-1", lambda _previous: make_recheck("cert-1", None, Standing.STALE)
        )
    # THEN the first stays, alone
    assert certificate_store.rechecks("cert-1") == [first]


def test_citing_lists_the_tenants_certificates_that_cite_a_document(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN two certificates citing doc-1, one citing doc-2 and another tenant's citing doc-1
    for n, doc_id in enumerate(["doc-1", "doc-2", "doc-1"]):
        certificate = make_certificate(f"cert-{n}").model_copy(
            update={
                "created_at": EPOCH + timedelta(seconds=n),
                "documents": [
                    CertifiedDocument(
                        doc_id=doc_id, file_name=f"{doc_id}.pdf", sha256="a" * 64, version="v1"
                    )
                ],
            }
        )
        store(certificate_store, certificate)
    store(certificate_store, make_certificate("cert-x").model_copy(update={"tenant": "other"}))
    certificate_store.append_recheck(
        "tenant-a", "cert-0", lambda previous: make_recheck("cert-0", previous, Standing.CURRENT)
    )

    # WHEN the certificates citing doc-1 are asked for / THEN they are the tenant's, oldest first
    assert certificate_store.citing("tenant-a", "doc-1") == ["cert-0", "cert-2"]
    assert certificate_store.citing("tenant-a", "doc-2") == ["cert-1"]
    assert certificate_store.citing("tenant-a", "doc-9") == []
    assert certificate_store.citing("other", "doc-1") == ["cert-x"]


def test_a_certificate_citing_several_documents_is_listed_under_each(
    certificate_store: CertificateStore,
) -> None:
    # GIVEN a certificate citing doc-1 and doc-2 (doc-1 twice, in two versions), and another
    # tenant's certificate citing the same documents
    def citing_both(certificate_id: str, tenant: str) -> Certificate:
        documents = [
            CertifiedDocument(doc_id=d, file_name=f"{d}.pdf", sha256="a" * 64, version=v)
            for d, v in [("doc-1", "v1"), ("doc-2", "v1"), ("doc-1", "v2")]
        ]
        return make_certificate(certificate_id).model_copy(
            update={"tenant": tenant, "documents": documents}
        )

    stored = store(certificate_store, citing_both("cert-1", "tenant-a"))
    store(certificate_store, citing_both("cert-x", "other"))

    # WHEN the certificates citing each document are asked for / THEN the certificate is listed
    # under each, once, and the other tenant's only under that tenant
    assert certificate_store.citing("tenant-a", "doc-1") == ["cert-1"]
    assert certificate_store.citing("tenant-a", "doc-2") == ["cert-1"]
    assert certificate_store.citing("other", "doc-2") == ["cert-x"]
    # AND what records the citations is never mistaken for a certificate or a re-check
    assert certificate_store.get("cert-1") == stored
    assert certificate_store.get("cert-1#cites#doc-1") is None
    assert certificate_store.rechecks("cert-1") == []
    assert [c.certificate_id for c in certificate_store.history("tenant-a")] == ["cert-1"]


def test_a_refused_duplicate_adds_no_citations(certificate_store: CertificateStore) -> None:
    # GIVEN a stored certificate citing doc-1
    store(certificate_store, make_certificate("cert-1"))
    cited = make_certificate("cert-1").documents[0].doc_id
    forged = make_certificate("cert-1").model_copy(
        update={
            "documents": [
                CertifiedDocument(doc_id="doc-9", file_name="d.pdf", sha256="b" * 64, version="v1")
            ]
        }
    )
    # WHEN a certificate with the same id but other documents is appended / THEN it is refused
    with pytest.raises(AlreadyExists):
        store(certificate_store, forged)
    # AND the citations are the first one's
    assert certificate_store.citing("tenant-a", cited) == ["cert-1"]
    assert certificate_store.citing("tenant-a", "doc-9") == []


def test_dynamodb_citing_queries_the_citation_index_and_never_scans(aws: Aws) -> None:
    # GIVEN the DynamoDB store over a client that records its calls
    calls: list[str] = []

    class Recording:
        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            return getattr(aws.dynamodb, name)

    certificates = DynamoCertificateStore(cast(Any, Recording()), aws.tables["certificates"])
    store(certificates, make_certificate("cert-1"))
    cited = make_certificate("cert-1").documents[0].doc_id
    calls.clear()

    # WHEN the certificates citing a document are listed / THEN one query answers, no scan
    assert certificates.citing("tenant-a", cited) == ["cert-1"]
    assert calls == ["query"]

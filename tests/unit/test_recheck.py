"""Re-checking a sealed answer: the rules for each quote, the standing in words, the chain."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.config import PolicySettings
from certiq.errors import AlreadyExists
from certiq.models import (
    Certificate,
    Chunk,
    DocumentRecord,
    DocumentStatus,
    Recheck,
    RenderState,
    Standing,
)
from certiq.ports import Support
from certiq.trust.recheck import CurrentDocument, recheck_findings, summary, worst
from certiq.trust.rechecks import check_rechecks, check_rechecks_with_public_key, recheck
from certiq.trust.signatures import load_public_key
from tests.fakes import FixedClock, make_certificate, make_chunk, make_document

QUOTE = "Refunds are accepted within 30 days"


class TableVerifier:
    """A Verifier that answers from a table of evidence -> (entail, contradict); keeps calls."""

    name = "table-verifier"

    def __init__(self, table: dict[str, tuple[float, float]] | None = None) -> None:
        self.table = dict(table or {})
        self.calls: list[tuple[str, list[str]]] = []

    def assess(self, claim: str, evidence: Sequence[str]) -> Support:
        self.calls.append((claim, list(evidence)))
        entail, contradict = self.table.get(" ".join(evidence), (1.0, 0.0))
        return Support(entail=entail, contradict=contradict)


def new_version(*pages: str, status: DocumentStatus = DocumentStatus.INDEXED) -> CurrentDocument:
    """doc-1 as version v2, one chunk per page."""
    record = make_document("doc-1", status=status, chunks=len(pages)).model_copy(
        update={"version": "v2", "sha256": "b" * 64}
    )
    chunks = [make_chunk(text, ordinal=n, page=n + 1) for n, text in enumerate(pages)]
    return CurrentDocument(record=record, chunks=chunks)


def findings_for(current: CurrentDocument, verifier: TableVerifier | None = None) -> list[Standing]:
    found = recheck_findings(
        make_certificate(), {"doc-1": current}, verifier or TableVerifier(), PolicySettings()
    )
    return [finding.standing for finding in found]


def test_an_unchanged_document_keeps_its_quotes_current() -> None:
    # GIVEN the certified version itself (same version and sha256), whatever its chunks say
    current = CurrentDocument(record=make_document("doc-1"), chunks=[])
    # WHEN re-checked / THEN the quote is CURRENT
    assert findings_for(current) == [Standing.CURRENT]


def test_a_quote_verbatim_on_the_same_page_of_a_new_version_is_current() -> None:
    # GIVEN a new version whose page 1 still holds the quote
    current = new_version(f"A new preface. {QUOTE}. Contact us.")
    # WHEN re-checked / THEN it is CURRENT, and nothing was verified again
    verifier = TableVerifier()
    assert findings_for(current, verifier) == [Standing.CURRENT]
    assert verifier.calls == []


def test_a_quote_moved_to_another_page_is_changed_and_verified_again() -> None:
    # GIVEN a new version with the quote on page 2 only
    current = new_version("A new first page.", f"{QUOTE}. Contact us.")
    # WHEN re-checked
    [finding] = recheck_findings(
        make_certificate(), {"doc-1": current}, TableVerifier(), PolicySettings()
    )
    # THEN it is CHANGED, on page 2, with its claim verified again
    assert finding.standing is Standing.CHANGED
    assert finding.now_page == 2 and "moved from page 1 to page 2" in finding.note
    assert [v.state for v in finding.verdicts] == [RenderState.VERIFIED]


def test_a_reworded_quote_is_changed_and_its_claim_judged_on_the_new_words() -> None:
    # GIVEN a new version whose sentence now says 14 days, which the verifier finds contradicts
    reworded = "Refunds are accepted within 14 days"
    current = new_version(f"{reworded}. Contact us.")
    verifier = TableVerifier({reworded: (0.1, 0.9)})
    # WHEN re-checked
    [finding] = recheck_findings(make_certificate(), {"doc-1": current}, verifier, PolicySettings())
    # THEN it is CHANGED, pointing at the new sentence, and the claim is BLOCKED by it
    assert finding.standing is Standing.CHANGED
    assert finding.now_text == reworded and finding.similarity is not None
    assert verifier.calls == [("Refunds are accepted within 30 days.", [reworded])]
    [verdict] = finding.verdicts
    assert (verdict.claim_id, verdict.state) == ("S1", RenderState.BLOCKED)


def test_a_quote_with_nothing_close_left_is_stale() -> None:
    # GIVEN a new version that no longer speaks of refunds
    current = new_version("Shipping takes five working days. Returns are not accepted")
    # WHEN re-checked / THEN the quote is STALE
    assert findings_for(current) == [Standing.STALE]


@pytest.mark.parametrize(
    "record",
    [None, make_document("doc-1", status=DocumentStatus.DELETED, chunks=0)],
    ids=["no record", "tombstone"],
)
def test_a_deleted_document_leaves_its_quotes_source_deleted(
    record: DocumentRecord | None,
) -> None:
    # GIVEN the cited document deleted (its tombstone) or never known
    current = CurrentDocument(record=record, chunks=[])
    # WHEN re-checked / THEN the quote is SOURCE_DELETED
    assert findings_for(current) == [Standing.SOURCE_DELETED]


def test_a_document_that_failed_to_ingest_again_leaves_its_quotes_stale() -> None:
    # GIVEN a new version that FAILED (no chunks)
    current = new_version(status=DocumentStatus.FAILED)
    # WHEN re-checked / THEN the quote cannot be found: STALE, saying why
    [finding] = recheck_findings(
        make_certificate(), {"doc-1": current}, TableVerifier(), PolicySettings()
    )
    assert finding.standing is Standing.STALE and "FAILED" in finding.note


def test_the_answer_stands_as_its_worst_quote() -> None:
    # GIVEN quotes of every standing / THEN the worst wins; none at all is CURRENT
    assert worst([Standing.CURRENT, Standing.STALE, Standing.CHANGED]) is Standing.STALE
    assert worst([Standing.SOURCE_DELETED, Standing.STALE]) is Standing.SOURCE_DELETED
    assert worst([]) is Standing.CURRENT


def test_the_standing_is_worded_for_people() -> None:
    # GIVEN a stale quote of data-retention-policy.pdf
    certificate = make_certificate()
    citation = certificate.citations[0].model_copy(
        update={"file_name": "data-retention-policy.pdf"}
    )
    certificate = certificate.model_copy(update={"citations": [citation]})
    current = new_version("Nothing of the kind here")
    findings = recheck_findings(certificate, {"doc-1": current}, TableVerifier(), PolicySettings())
    # WHEN worded / THEN it says what changed and where
    assert summary(findings) == (
        "Source changed since this answer: 1 quote no longer in data-retention-policy.pdf"
    )
    # AND an answer whose quotes all stand says so
    unchanged = recheck_findings(
        certificate,
        {"doc-1": CurrentDocument(make_document("doc-1"), [])},
        TableVerifier(),
        PolicySettings(),
    )
    assert summary(unchanged) == "No source change affects this answer: 1 quote still stands"


class MemoryRechecks:
    """The re-check half of a CertificateStore, in memory."""

    def __init__(self) -> None:
        self.stored: dict[str, list[Recheck]] = {}

    def append_recheck(
        self, tenant: str, certificate_id: str, seal: Callable[[Recheck | None], Recheck]
    ) -> Recheck:
        chain = self.stored.setdefault(certificate_id, [])
        recheck = seal(chain[-1] if chain else None)
        if recheck.sequence != len(chain) + 1:
            raise AlreadyExists("taken")
        chain.append(recheck)
        return recheck

    def rechecks(self, certificate_id: str) -> list[Recheck]:
        return list(self.stored.get(certificate_id, []))


class MemoryDocuments:
    def __init__(self, record: DocumentRecord | None) -> None:
        self.record = record

    def get(self, tenant: str, doc_id: str) -> DocumentRecord | None:
        return self.record


class MemoryIndex:
    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = {chunk.chunk_id: chunk for chunk in chunks}

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        return {each: self.chunks[each] for each in chunk_ids if each in self.chunks}


@pytest.fixture
def signer(tmp_path: Path) -> Iterator[KeyFileSigner]:
    yield KeyFileSigner(tmp_path / "signing-key.pem")


def run_recheck(
    certificate: Certificate, store: MemoryRechecks, signer: KeyFileSigner, record: DocumentRecord
) -> Recheck:
    return recheck(
        certificate,
        certificates=cast(Any, store),
        documents=cast(Any, MemoryDocuments(record)),
        index=cast(Any, MemoryIndex([])),
        verifier=TableVerifier(),
        signer=signer,
        clock=FixedClock(),
        policy=PolicySettings(),
    )


def test_rechecks_chain_from_the_certificate_seal_and_check_with_the_public_key(
    signer: KeyFileSigner,
) -> None:
    # GIVEN a certificate re-checked twice: unchanged, then after its document was deleted
    certificate = make_certificate()
    store = MemoryRechecks()
    first = run_recheck(certificate, store, signer, make_document("doc-1"))
    deleted = make_document("doc-1", status=DocumentStatus.DELETED)
    second = run_recheck(certificate, store, signer, deleted)
    # THEN the first links to the certificate's seal and the second to the first
    assert (first.sequence, first.previous_digest) == (1, certificate.seal)
    assert (second.sequence, second.previous_digest) == (2, first.digest)
    assert (first.standing, second.standing) == (Standing.CURRENT, Standing.SOURCE_DELETED)
    # AND the chain checks with the signer and with the public key alone
    key = load_public_key(signer.public_key().public_key_pem)
    assert all(c.valid for c in check_rechecks(certificate, [first, second], signer))
    assert all(c.valid for c in check_rechecks_with_public_key(certificate, [first, second], key))


def test_a_rewritten_or_removed_recheck_breaks_the_chain(signer: KeyFileSigner) -> None:
    # GIVEN two re-checks of a certificate
    certificate = make_certificate()
    store = MemoryRechecks()
    first = run_recheck(certificate, store, signer, make_document("doc-1"))
    second = run_recheck(certificate, store, signer, make_document("doc-1"))
    key = load_public_key(signer.public_key().public_key_pem)
    # WHEN the first one's standing is rewritten / THEN its digest no longer holds
    forged = first.model_copy(update={"standing": Standing.STALE})
    [check] = check_rechecks_with_public_key(certificate, [forged], key)
    assert not check.valid and not check.digest_ok
    # AND WHEN the first is removed / THEN the second no longer links
    [check] = check_rechecks_with_public_key(certificate, [second], key)
    assert not check.valid and not check.linked

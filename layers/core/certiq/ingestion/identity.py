"""Deterministic identifiers of a document and of one version of its content.

The doc_id depends on where the document lives (tenant and uri), not on its bytes, so a new
upload of the same file replaces the old chunks; the version depends only on the bytes, so a
re-delivered S3 event for unchanged content is recognised and skipped.
"""

from __future__ import annotations

import hashlib

__all__ = ["doc_id_for", "document_ids"]


def doc_id_for(tenant: str, uri: str) -> str:
    """ "d" + the first 16 hex digits of sha256(f"{tenant}\\n{uri}")."""
    return "d" + hashlib.sha256(f"{tenant}\n{uri}".encode()).hexdigest()[:16]


def document_ids(tenant: str, uri: str, data: bytes) -> tuple[str, str, str]:
    """Return (doc_id, sha256 hex of data, version); version is the sha256's first 16 hex."""
    sha256 = hashlib.sha256(data).hexdigest()
    return doc_id_for(tenant, uri), sha256, sha256[:16]

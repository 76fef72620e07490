"""Ingestion of text corpora (JSONL of {"_id", "title", "text"}), beside PDFs.

A text document has no pages or boxes: its sentences are on page 1 with no boxes, and its source
type says so (text or web), so a viewer shows the quote rather than a highlighted page. Documents
are chunked, embedded and indexed in groups, which is what makes a corpus of thousands fast.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from certiq.deps import Deps
from certiq.errors import InvalidRequest
from certiq.ingestion.chunking import Chunker
from certiq.ingestion.identity import document_ids
from certiq.ingestion.service import already_indexed, embed_chunks
from certiq.models import Chunk, DocumentRecord, DocumentStatus, SourceRef, SourceType
from certiq.sentences import split_sentences

TEXT_MIME = "text/plain"
GROUP = 256  # documents chunked, embedded and indexed together


@dataclass(frozen=True)
class TextDocument:
    key: str  # the corpus's own id (_id)
    title: str
    text: str


def read_jsonl(path: Path) -> Iterator[TextDocument]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record = json.loads(line)
            if not isinstance(record, dict) or "_id" not in record or "text" not in record:
                raise InvalidRequest(f"{path}:{number}", 'each line needs "_id" and "text"')
            yield TextDocument(
                str(record["_id"]), str(record.get("title") or ""), str(record["text"])
            )


def document_uri(corpus_uri: str, key: str) -> str:
    """Where a corpus document comes from: the corpus file and the document's own id."""
    return f"{corpus_uri}#{key}"


def document_key(uri: str) -> str:
    """The corpus's own id of a document ingested from it (the inverse of document_uri)."""
    return uri.rsplit("#", 1)[-1]


def ingest_texts(
    documents: Iterable[TextDocument],
    deps: Deps,
    *,
    corpus_uri: str,
    tenant: str,
    source_type: SourceType = "text",
    collection: str | None = None,
    again: bool = False,
) -> list[DocumentRecord]:
    """Ingests every document; the same content ingested again changes nothing, unless
    ``again``: an index emptied since (a new search cluster) is filled once more."""
    records: list[DocumentRecord] = []
    group: list[TextDocument] = []
    for document in documents:
        group.append(document)
        if len(group) == GROUP:
            records += _ingest_group(
                group, deps, corpus_uri, tenant, source_type, collection, again
            )
            group = []
    if group:
        records += _ingest_group(group, deps, corpus_uri, tenant, source_type, collection, again)
    return records


def _ingest_group(
    documents: list[TextDocument],
    deps: Deps,
    corpus_uri: str,
    tenant: str,
    source_type: SourceType,
    collection: str | None,
    again: bool,
) -> list[DocumentRecord]:
    now = deps.clock.now()
    records: list[DocumentRecord] = []
    chunks: list[Chunk] = []
    for document in documents:
        uri = document_uri(corpus_uri, document.key)
        body = f"{document.title}\n\n{document.text}" if document.title else document.text
        doc_id, sha256, version = document_ids(tenant, uri, body.encode("utf-8"))
        existing = deps.documents.get(tenant, doc_id)
        if already_indexed(existing, sha256) and not again:
            records.append(existing)
            continue
        file_name = document.title or document.key
        source = SourceRef(
            type=source_type,
            uri=uri,
            file_name=file_name,
            mime_type=TEXT_MIME,
            sha256=sha256,
            version=version,
        )
        chunker = Chunker(
            doc_id=doc_id, tenant=tenant, source=source, settings=deps.settings.chunking
        )
        sentences = (
            (" ".join(body[start:end].split()), 1, (), None) for start, end in split_sentences(body)
        )
        made = chunker.add_sentences(s for s in sentences if s[0]) + chunker.finish()
        deps.index.delete_document(tenant, doc_id)
        chunks += made
        status = DocumentStatus.INDEXED if made else DocumentStatus.FAILED
        records.append(
            DocumentRecord(
                doc_id=doc_id,
                tenant=tenant,
                file_name=file_name,
                uri=uri,
                mime_type=TEXT_MIME,
                sha256=sha256,
                version=version,
                status=status,
                reason=None if made else "no text: the document holds no sentence",
                pages=1,
                chunks=len(made),
                created_at=existing.created_at if existing else now,
                updated_at=now,
            )
        )
    if chunks:
        if deps.embedder is not None:
            embed_chunks(chunks, deps.embedder, deps.settings.embedding.batch_size)
        deps.index.index(chunks)
    for record in records:
        deps.documents.put(record)
    return records

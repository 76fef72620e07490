"""Fakes and small factories shared by the test suites: real objects, no mocks."""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from numpy.typing import NDArray

from certiq.ingestion.pdf import ParsedDocument
from certiq.models import (
    Box,
    Certificate,
    CertifiedDocument,
    Chunk,
    Citation,
    Claim,
    ConversationTurn,
    Decision,
    DocumentRecord,
    DocumentStatus,
    DraftSentence,
    EvidenceSpan,
    QAResponse,
    QuestionRecord,
    QuestionState,
    QuestionStatus,
    RenderState,
    SearchHit,
    Sentence,
    SourceRef,
)
from certiq.ports import ChatDraft, SearchIndex, UrlVerdict
from certiq.retrieval.spans import sentence_span
from certiq.text import content_terms

EPOCH = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


class FixedClock:
    """A Clock that says what it is told: ``now()`` moves only by ``advance()``."""

    def __init__(self, at: datetime = EPOCH) -> None:
        if at.tzinfo is None:
            raise ValueError("FixedClock needs an aware datetime")
        self._at = at

    def now(self) -> datetime:
        return self._at

    def advance(self, seconds: float = 1.0) -> datetime:
        self._at += timedelta(seconds=seconds)
        return self._at


class HashingEmbedder:
    """A deterministic Embedder: bag of content terms hashed into ``dimension`` buckets, normalised.

    Texts sharing stemmed content words are close, texts sharing none are orthogonal (barring
    hash collisions), and a text with no content word is the zero vector. ``pinned`` maps exact
    texts to chosen vectors, so a test can make two texts near without a shared word. ``calls``
    records each embed() call's texts.
    """

    def __init__(
        self,
        dimension: int = 64,
        name: str = "hashing-test-embedder",
        pinned: dict[str, Sequence[float]] | None = None,
    ) -> None:
        self.name = name
        self.dimension = dimension
        self.pinned = dict(pinned or {})
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        return self.vectors(texts)

    def vectors(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """What embed() returns, without recording a call."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            if text in self.pinned:
                out[row] = np.asarray(self.pinned[text], dtype=np.float32)
                continue
            for term in content_terms(text):
                digest = hashlib.sha256(term.encode("utf-8")).digest()
                out[row, int.from_bytes(digest[:4], "little") % self.dimension] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out


class PinnedRelevance:
    """A RelevanceScorer: the probability pinned for a sentence, ``default`` for the others;
    records every passage it was asked about (the sentence with its context, as
    certiq.retrieval.reading writes it) and every question."""

    name = "pinned-relevance"

    def __init__(self, pinned: dict[str, float] | None = None, default: float = 0.1) -> None:
        self.pinned = pinned or {}
        self.default = default
        self.asked: list[str] = []
        self.questions: list[str] = []

    def relevance(self, question: str, sentences: Sequence[str]) -> list[float]:
        self.asked.extend(sentences)
        self.questions.append(question)
        return [self.pinned.get(passage.split(" | ", 1)[0], self.default) for passage in sentences]


class QueryHashingEmbedder(HashingEmbedder):
    """A HashingEmbedder that is a QueryEmbedder: questions come through embed_queries (recorded
    in ``query_calls``, not ``calls``) and get the vectors embed() would give, so only the route
    a caller takes differs, as e5's "query: " and "passage: " would."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.query_calls: list[list[str]] = []

    def embed_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.query_calls.append(list(texts))
        return self.vectors(texts)


class DelegatingIndex:
    """A SearchIndex that passes every call to a real one; test fakes override what they alter."""

    def __init__(self, inner: SearchIndex) -> None:
        self.inner = inner

    def index(self, chunks: Sequence[Chunk]) -> int:
        return self.inner.index(chunks)

    def delete_document(self, tenant: str, doc_id: str) -> int:
        return self.inner.delete_document(tenant, doc_id)

    def search(
        self, tenant: str, query: str, k: int, collection: str | None = None
    ) -> list[SearchHit]:
        return self.inner.search(tenant, query, k, collection=collection)

    def search_vector(
        self,
        tenant: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        collection: str | None = None,
    ) -> list[SearchHit]:
        return self.inner.search_vector(tenant, vector, k, collection=collection)

    def get_chunks(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        return self.inner.get_chunks(tenant, chunk_ids)

    def count(self, tenant: str) -> int:
        return self.inner.count(tenant)


def make_box(page: int = 1) -> Box:
    return Box(page=page, x0=72, y0=100, x1=540, y1=112, page_width=612, page_height=792)


def make_chunk(
    text: str,
    *,
    doc_id: str = "doc-1",
    ordinal: int = 0,
    tenant: str = "tenant-a",
    page: int = 1,
    file_name: str | None = None,
    collection: str | None = None,
    embedding: Sequence[float] | None = None,
) -> Chunk:
    """A chunk whose sentences split ``text`` on ". " with exact offsets."""
    sentences: list[Sentence] = []
    start = 0
    for piece in text.split(". "):
        end = start + len(piece)
        if piece:
            sentences.append(
                Sentence(text=piece, start=start, end=end, page=page, boxes=[make_box(page)])
            )
        start = end + 2
    return Chunk(
        chunk_id=f"{doc_id}:{ordinal}",
        doc_id=doc_id,
        tenant=tenant,
        ordinal=ordinal,
        source=SourceRef(
            uri=f"file:///data/{doc_id}.pdf",
            file_name=file_name or f"{doc_id}.pdf",
            sha256="0" * 64,
            version="1",
        ),
        text=text,
        sentences=sentences,
        page_start=page,
        page_end=page,
        collection=collection,
        embedding=None if embedding is None else [float(value) for value in embedding],
    )


def make_document(
    doc_id: str = "doc-1",
    *,
    tenant: str = "tenant-a",
    status: DocumentStatus = DocumentStatus.INDEXED,
    created_at: datetime = EPOCH,
    chunks: int = 3,
) -> DocumentRecord:
    return DocumentRecord(
        doc_id=doc_id,
        tenant=tenant,
        file_name=f"{doc_id}.pdf",
        uri=f"s3://bucket/{tenant}/{doc_id}.pdf",
        sha256="a" * 64,
        version="v1",
        status=status,
        pages=2,
        chunks=chunks,
        created_at=created_at,
        updated_at=created_at,
    )


def make_question(
    question_id: str = "q-1",
    *,
    tenant: str = "tenant-a",
    status: QuestionStatus = QuestionStatus.RECEIVED,
    at: datetime = EPOCH,
    conversation_id: str | None = "conv-1",
) -> QuestionRecord:
    return QuestionRecord(
        question_id=question_id,
        tenant=tenant,
        status=status,
        created_at=at,
        updated_at=at,
        conversation_id=conversation_id,
    )


def make_state(
    question_id: str = "q-1", question: str = "What is the refund window?"
) -> QuestionState:
    return QuestionState(question_id=question_id, question=question, received_at=EPOCH)


def make_citation(
    quote: str = "Refunds are accepted within 30 days", *, cid: str = "C1", valid: bool = True
) -> Citation:
    """A citation quoting the start of doc-1's first chunk."""
    return Citation(
        id=cid,
        chunk_id="doc-1:0",
        doc_id="doc-1",
        file_name="doc-1.pdf",
        page=1,
        boxes=[make_box()],
        quote=quote,
        start=0,
        end=len(quote),
        score=0.9,
        valid=valid,
    )


def make_claim() -> Claim:
    return Claim(
        id="S1",
        text="Refunds are accepted within 30 days.",
        citation_ids=["C1"],
        decision=Decision(
            state=RenderState.VERIFIED,
            entail=0.9,
            contradict=0.0,
            evidence=["C1"],
            verifier="lexical",
            reason="supported",
        ),
    )


def make_response(
    question_id: str = "q-1", status: QuestionStatus = QuestionStatus.COMPLETE
) -> QAResponse:
    return QAResponse(
        question_id=question_id,
        status=status,
        question="What is the refund window?",
        language="en",
        answer="Refunds are accepted within 30 days. [C1]",
        claims=[make_claim()],
        citations=[make_citation()],
        sources=[],
        certificate_id="cert-1",
        timings_ms={"retrieve": 1.5},
    )


def make_certificate(
    certificate_id: str = "cert-1", *, answer: str = "Refunds: 30 days."
) -> Certificate:
    return Certificate(
        certificate_id=certificate_id,
        question_id="q-1",
        tenant="tenant-a",
        question="What is the refund window?",
        answer=answer,
        claims=[make_claim()],
        citations=[make_citation()],
        documents=[
            CertifiedDocument(doc_id="doc-1", file_name="doc-1.pdf", sha256="a" * 64, version="v1")
        ],
        policy={"tau_entail": 0.6, "tau_contradict": 0.5, "unverified": "mark"},
        config_hash="c" * 64,
        created_at=EPOCH,
        field_digests={"question": "1" * 64, "answer": "2" * 64},
        seal="d" * 64,
        signature="c2lnbmF0dXJl",
        signing_key_id="local-ed25519:0123456789abcdef",
    )


class RecordingTranslator:
    """A Translator that keeps what it was sent; it translates with a word table, token-safe.

    ``break_markers`` makes it drop every protected token, as a careless model would.
    """

    name = "recording-translator"

    def __init__(self, table: dict[str, str] | None = None, break_markers: bool = False) -> None:
        self.table = dict(table or {})
        self.break_markers = break_markers
        self.calls: list[tuple[str, str, str]] = []

    def translate(self, text: str, source: str, target: str) -> str:
        from certiq.guardrails.translation import protect, restore

        self.calls.append((text, source, target))
        protected = protect(text)
        out = protected.text
        for before, after in self.table.items():
            out = out.replace(before, after)
        if self.break_markers:
            out = re.sub(r"⟦\d+⟧", "", out)
        return restore(out, protected)


class RecordingNameFinder:
    """A NameFinder that returns the given names found in the text and keeps what it was sent."""

    name = "recording-name-finder"

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.calls: list[str] = []

    def find_names(self, text: str) -> list[str]:
        self.calls.append(text)
        return [name for name in self.names if name in text]


class FakeUrlChecker:
    """A UrlChecker over a table of verdicts (url -> reachable); unknown URLs are dead."""

    def __init__(self, reachable: dict[str, bool] | None = None) -> None:
        self.reachable = dict(reachable or {})
        self.checked: list[str] = []

    def check(self, url: str) -> UrlVerdict:
        self.checked.append(url)
        alive = self.reachable.get(url, False)
        return UrlVerdict(
            url=url,
            allowed=True,
            reachable=alive,
            status=200 if alive else 404,
            final_url=url,
            reason="HEAD answered HTTP 200" if alive else "GET answered HTTP 404",
        )


def make_evidence(*chunks: Chunk) -> list[EvidenceSpan]:
    """Every sentence of the chunks as an evidence span, best first (scores 1, 0.99, ...)."""
    sentences = [(chunk, index) for chunk in chunks for index in range(len(chunk.sentences))]
    return [
        sentence_span(chunk, index, score=1.0 - rank / 100, chunk_score=1.0)
        for rank, (chunk, index) in enumerate(sentences)
    ]


# A policy of two sentences, logs then backups, as evidence: what the chat adapters draft from.
BACKUP_QUESTION = "How long are backups of customer data kept?"
LOGS_RULE = "Logs are rotated weekly"
BACKUP_RULE = "Backups of customer data are kept for 35 days"
BACKUP_EVIDENCE = make_evidence(make_chunk(f"{LOGS_RULE}. {BACKUP_RULE}", doc_id="policy"))


DENIAL = "Backups of customer data are not kept for 35 days."


class DenyingModel:
    """A chat model that states the best evidence sentence, then denies it (DENIAL), citing it
    both times: the denial is contradicted by the evidence it cites and must be BLOCKED."""

    name = "denying-fake"

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        best = evidence[0]
        return ChatDraft(
            sentences=[
                DraftSentence(text=best.text, citation_ids=[best.span_id]),
                DraftSentence(text=DENIAL, citation_ids=[best.span_id]),
            ]
        )


def textract_blocks(parsed: ParsedDocument, confidence: float = 99.1) -> list[dict[str, Any]]:
    """What Textract's text detection returns for a document whose words are those of `parsed`
    (a text-layer parse with words=True): PAGE, LINE and WORD blocks, boxes as page fractions.

    moto's Textract returns whatever blocks a test gives it; these are shaped as the real API's.
    """
    blocks: list[dict[str, Any]] = []

    def geometry(box: Box) -> dict[str, Any]:
        return {
            "BoundingBox": {
                "Left": box.x0 / box.page_width,
                "Top": box.y0 / box.page_height,
                "Width": (box.x1 - box.x0) / box.page_width,
                "Height": (box.y1 - box.y0) / box.page_height,
            }
        }

    for page in parsed.pages:
        line_ids: list[str] = []
        page_block: dict[str, Any] = {"BlockType": "PAGE", "Id": f"p{page.number}"}
        page_block["Page"] = page.number
        blocks.append(page_block)
        for index, line in enumerate(page.lines):
            ids = []
            for number, word in enumerate(w for w in page.words if w.line == index):
                word_id = f"w{page.number}.{index}.{number}"
                ids.append(word_id)
                blocks.append(
                    {
                        "BlockType": "WORD",
                        "Id": word_id,
                        "Page": page.number,
                        "Text": word.text,
                        "TextType": "PRINTED",
                        "Confidence": confidence,
                        "Geometry": geometry(word.box),
                    }
                )
            line_id = f"l{page.number}.{index}"
            line_ids.append(line_id)
            blocks.append(
                {
                    "BlockType": "LINE",
                    "Id": line_id,
                    "Page": page.number,
                    "Text": page.text[line.start : line.end],
                    "Confidence": confidence,
                    "Geometry": geometry(line.box),
                    "Relationships": [{"Type": "CHILD", "Ids": ids}],
                }
            )
        page_block["Relationships"] = [{"Type": "CHILD", "Ids": line_ids}]
    return blocks


def api_gateway_event(
    method: str,
    path: str,
    *,
    headers: dict[str, str],
    body: str | None = None,
    binary: bool = False,
    query: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An API Gateway REST proxy event for the /v1/{proxy+} route, shaped as API Gateway sends it
    (a binary body base64-encoded by the caller, with ``binary``)."""
    return {
        "resource": "/v1/{proxy+}",
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "queryStringParameters": query,
        "multiValueQueryStringParameters": (
            {name: [value] for name, value in query.items()} if query else None
        ),
        "pathParameters": {"proxy": path.removeprefix("/v1/")},
        "stageVariables": None,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "a1b2c3d4e5",
            "resourcePath": "/v1/{proxy+}",
            "httpMethod": method,
            "path": f"/Prod{path}",
            "stage": "Prod",
            "requestId": str(uuid.uuid4()),
            "requestTimeEpoch": 1_790_000_000_000,
            "protocol": "HTTP/1.1",
            "identity": {"sourceIp": "203.0.113.9", "userArn": None, "caller": None},
        },
        "body": body,
        "isBase64Encoded": binary,
    }

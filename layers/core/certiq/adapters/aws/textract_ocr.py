"""OCR with Amazon Textract: asynchronous text detection on the original in S3.

Textract reads a multi-page PDF only asynchronously, from S3: StartDocumentTextDetection, then
GetDocumentTextDetection until the job ends, following NextToken through the blocks. The first
page asked for starts the job for the whole document; the other pages are answered from its
result. Its WORD blocks carry boxes as fractions of the page, as OcrWord does; DetectDocumentText
has no paragraphs, so a gap between lines taller than most of a line starts one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from certiq.errors import OcrUnavailable, TransientError
from certiq.ports import OcrRequest, OcrWord

if TYPE_CHECKING:
    from mypy_boto3_textract import TextractClient

# Worth retrying: the ingestion is retried whole (its records are idempotent).
_TRANSIENT = frozenset(
    {
        "ThrottlingException",
        "ProvisionedThroughputExceededException",
        "LimitExceededException",
        "InternalServerError",
        "ServiceUnavailableException",
    }
)

_PARAGRAPH_GAP = 0.75  # of the line's height


class TextractOcr:
    """certiq.ports.OcrEngine on Amazon Textract (runtime aws)."""

    name = "textract"

    def __init__(
        self,
        client: TextractClient,
        *,
        max_wait_seconds: float = 600.0,
        poll_seconds: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._max_wait = max_wait_seconds
        self._poll = poll_seconds
        self._sleep = sleep
        self._clock = clock
        # The last document read: its pages' words (one document is ingested at a time).
        self._document: tuple[str, str | None] | None = None
        self._pages: dict[int, tuple[OcrWord, ...]] = {}

    def read(self, request: OcrRequest) -> tuple[OcrWord, ...]:
        uri = request.uri or ""
        if not uri.startswith("s3://"):
            raise OcrUnavailable("Textract reads only documents stored in S3")
        document = (uri, request.version)
        if document != self._document:
            bucket, _, key = uri.removeprefix("s3://").partition("/")
            self._pages = self._detect(bucket, key, request.version)
            self._document = document
        return self._pages.get(request.page, ())

    def _detect(self, bucket: str, key: str, version: str | None) -> dict[int, tuple[OcrWord, ...]]:
        s3_object: dict[str, str] = {"Bucket": bucket, "Name": key}
        if version:
            s3_object["Version"] = version
        job = self._call("start_document_text_detection", DocumentLocation={"S3Object": s3_object})[
            "JobId"
        ]
        deadline = self._clock() + self._max_wait
        blocks: list[dict[str, Any]] = []
        token: str | None = None
        while True:
            arguments: dict[str, Any] = {"JobId": job, "MaxResults": 1000}
            if token:
                arguments["NextToken"] = token
            response = self._call("get_document_text_detection", **arguments)
            status = response["JobStatus"]
            if status == "IN_PROGRESS":
                if self._clock() >= deadline:
                    raise OcrUnavailable(f"Textract did not finish within {self._max_wait:g} s")
                self._sleep(self._poll)
                continue
            if status == "FAILED":
                message = response.get("StatusMessage") or "no reason given"
                raise OcrUnavailable(f"Textract failed: {message}")
            blocks += response.get("Blocks", [])
            token = response.get("NextToken")
            if not token:
                return words_by_page(blocks)

    def _call(self, operation: str, **arguments: Any) -> Any:
        try:
            return getattr(self._client, operation)(**arguments)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code in _TRANSIENT:
                raise TransientError(f"Textract {operation}: {code}") from error
            raise OcrUnavailable(f"Textract could not read it ({code})") from error
        except BotoCoreError as error:  # connection and read timeouts
            raise TransientError(f"Textract {operation}: {type(error).__name__}") from error


def words_by_page(blocks: list[dict[str, Any]]) -> dict[int, tuple[OcrWord, ...]]:
    """Textract's blocks as each page's OcrWords, line by line in Textract's order."""
    by_id = {block["Id"]: block for block in blocks if "Id" in block}
    pages: dict[int, list[OcrWord]] = {}
    line_number = paragraph = 0
    last_bottom: dict[int, float] = {}
    for block in blocks:
        if block.get("BlockType") != "LINE":
            continue
        page = int(block.get("Page", 1))
        box = block["Geometry"]["BoundingBox"]
        top, height = float(box["Top"]), float(box["Height"])
        previous = last_bottom.get(page)
        if previous is None or top - previous > _PARAGRAPH_GAP * height:
            paragraph += 1
        last_bottom[page] = top + height
        line_number += 1
        for word_id in _children(block):
            word = by_id.get(word_id)
            if word is None or word.get("BlockType") != "WORD" or not word.get("Text"):
                continue
            geometry = word["Geometry"]["BoundingBox"]
            left, word_top = float(geometry["Left"]), float(geometry["Top"])
            pages.setdefault(page, []).append(
                OcrWord(
                    text=str(word["Text"]),
                    left=left,
                    top=word_top,
                    right=left + float(geometry["Width"]),
                    bottom=word_top + float(geometry["Height"]),
                    confidence=min(float(word.get("Confidence", 0.0)) / 100, 1.0),
                    line=line_number,
                    paragraph=paragraph,
                )
            )
    return {page: tuple(words) for page, words in pages.items()}


def _children(block: dict[str, Any]) -> list[str]:
    return [
        child
        for relation in block.get("Relationships", [])
        if relation.get("Type") == "CHILD"
        for child in relation.get("Ids", [])
    ]

"""The OcrEngine port: every adapter reads a scanned page into words, in reading order, with
boxes on the words (fractions of the page) and confidences.

Tesseract runs for real on scans the tests make (text rendered, turned a little, speckled,
embedded as an image-only PDF). Textract runs under moto, which answers a job with the blocks a
test gives it: here the blocks Textract returns for the original's words.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto.textract.models import TextractBackend

from certiq.adapters.aws.textract_ocr import TextractOcr, words_by_page
from certiq.adapters.local.tesseract_ocr import TesseractOcr
from certiq.errors import OcrUnavailable, TransientError
from certiq.evaluation.scans import scanned_copy
from certiq.ingestion.pdf import ParsedDocument, open_pdf, parse_pdf
from certiq.ingestion.text_quality import word_agreement
from certiq.ports import OcrEngine, OcrRequest, OcrWord
from tests.conftest import build_pdf
from tests.contract.conftest import Aws
from tests.fakes import textract_blocks

PAGES = [
    [
        "Passwords must be at least 14 characters long and must not be reused.",
        "Backups of customer data are kept for 35 days, then deleted.",
    ],
    ["Incidents of severity one are reported to the regulator within 4 hours."],
]
KEY = "default/scan.pdf"


@pytest.fixture(scope="module")
def original() -> ParsedDocument:
    return parse_pdf(build_pdf(PAGES), words=True)


@pytest.fixture(scope="module")
def scan() -> bytes:
    return scanned_copy(build_pdf(PAGES), dpi=200, skew_degrees=0.6, noise=8.0, seed=7)


@pytest.fixture
def textract_result(original: ParsedDocument) -> Iterator[None]:
    saved = TextractBackend.BLOCKS, TextractBackend.JOB_STATUS
    TextractBackend.BLOCKS = textract_blocks(original)
    TextractBackend.JOB_STATUS = "SUCCEEDED"
    yield
    TextractBackend.BLOCKS, TextractBackend.JOB_STATUS = saved


@pytest.fixture(params=["tesseract", "textract"])
def ocr_engine(request: pytest.FixtureRequest, scan: bytes) -> tuple[OcrEngine, str | None]:
    """An engine, and the URI the scan is stored at for it (Textract reads it from S3)."""
    if request.param == "tesseract":
        if shutil.which("tesseract") is None:
            pytest.skip("Tesseract is not installed (`make test` installs it with apt-get)")
        return TesseractOcr(["eng"], dpi=300), None
    aws: Aws = request.getfixturevalue("aws")
    request.getfixturevalue("textract_result")
    aws.s3.put_object(Bucket=aws.bucket, Key=KEY, Body=scan)
    client = boto3.client("textract", region_name="us-east-1")
    return TextractOcr(client, poll_seconds=0), f"s3://{aws.bucket}/{KEY}"


def read_pages(engine: OcrEngine, data: bytes, uri: str | None) -> dict[int, tuple[OcrWord, ...]]:
    """Each page of `data` read by `engine`, the last page first (an engine must not care)."""
    read: dict[int, tuple[OcrWord, ...]] = {}
    with open_pdf(data) as pdf:
        for number in reversed(range(1, pdf.page_count + 1)):
            reader = pdf._reader(number)
            read[number] = engine.read(OcrRequest(number, reader.render_gray, uri=uri))
    return read


def test_each_page_is_read_into_its_words_in_reading_order(
    ocr_engine: tuple[OcrEngine, str | None], scan: bytes, original: ParsedDocument
) -> None:
    engine, uri = ocr_engine
    # WHEN every page of the scan is read
    read = read_pages(engine, scan, uri)

    for page in original.pages:
        found = read[page.number]
        # THEN nearly every word of the original comes back, in order
        text = " ".join(word.text for word in found)
        assert word_agreement(page.text, text) >= 0.9, text
        # AND each box is a real box inside the page, confidences are shares
        for word in found:
            assert 0 <= word.left < word.right <= 1 and 0 <= word.top < word.bottom <= 1
            assert 0 <= word.confidence <= 1
        # AND lines come in reading order, top to bottom
        tops = {}
        for word in found:
            tops.setdefault(word.line, word.top)
        ordered = [tops[line] for line in sorted(tops)]
        assert ordered == sorted(ordered)


def test_the_boxes_sit_on_the_words(
    ocr_engine: tuple[OcrEngine, str | None], scan: bytes, original: ParsedDocument
) -> None:
    engine, uri = ocr_engine
    read = read_pages(engine, scan, uri)
    for page in original.pages:
        # Words written once on the page, so each is matched to its own box.
        texts = [word.text.strip(".,") for word in page.words]
        found = {word.text.strip(".,"): word for word in read[page.number]}
        unique = [
            word for word, text in zip(page.words, texts, strict=True) if texts.count(text) == 1
        ]
        matched = 0
        for word in unique:
            seen = found.get(word.text.strip(".,"))
            if seen is None:
                continue
            matched += 1
            # The scan is turned by under a degree: a box may shift by a few points, no more.
            box = word.box
            assert abs(seen.left * box.page_width - box.x0) < 8, word.text
            assert abs(seen.top * box.page_height - box.y0) < 8, word.text
            assert abs(seen.right * box.page_width - box.x1) < 8, word.text
        assert matched >= 0.8 * len(unique)


# --- Tesseract ---------------------------------------------------------------------------------


def test_a_missing_tesseract_names_the_packages_to_install(scan: bytes) -> None:
    engine = TesseractOcr(["eng", "fra"], command="certiq-no-such-tesseract")
    with pytest.raises(OcrUnavailable) as raised:
        read_pages(engine, scan, None)
    assert str(raised.value) == (
        "Tesseract is not installed: apt-get install tesseract-ocr"
        " tesseract-ocr-eng tesseract-ocr-fra (or set CERTIQ_OCR__ENGINE=none)"
    )


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")
def test_missing_language_data_names_its_package(scan: bytes) -> None:
    engine = TesseractOcr(["eng", "xqz"])
    with pytest.raises(OcrUnavailable, match=r"lacks the language data: .*tesseract-ocr-xqz\b"):
        read_pages(engine, scan, None)


# --- Textract ----------------------------------------------------------------------------------


class ScriptedTextract:
    """A Textract client answering from a script: the job's statuses, then pages of blocks."""

    def __init__(self, statuses: list[str], pages: list[list[dict[str, Any]]]) -> None:
        self.statuses = statuses
        self.pages = pages
        self.started: list[dict[str, Any]] = []
        self.gets: list[dict[str, Any]] = []

    def start_document_text_detection(self, **arguments: Any) -> dict[str, Any]:
        self.started.append(arguments)
        return {"JobId": "job-1"}

    def get_document_text_detection(self, **arguments: Any) -> dict[str, Any]:
        self.gets.append(arguments)
        status = self.statuses.pop(0) if self.statuses else "SUCCEEDED"
        if status != "SUCCEEDED":
            return {"JobStatus": status, "StatusMessage": "unsupported document format"}
        index = int(arguments.get("NextToken", "0"))
        response: dict[str, Any] = {"JobStatus": "SUCCEEDED", "Blocks": self.pages[index]}
        if index + 1 < len(self.pages):
            response["NextToken"] = str(index + 1)
        return response


def no_render(dpi: int) -> Any:
    raise AssertionError("Textract reads the stored document, never a rendered page")


def test_textract_runs_one_job_per_document_and_follows_next_token(
    original: ParsedDocument,
) -> None:
    # GIVEN a job that runs a while, then returns its blocks over three responses
    blocks = textract_blocks(original)
    thirds = [blocks[: len(blocks) // 3], blocks[len(blocks) // 3 : 2 * len(blocks) // 3]]
    client = ScriptedTextract(
        ["IN_PROGRESS", "IN_PROGRESS"], [*thirds, blocks[2 * len(blocks) // 3 :]]
    )
    sleeps: list[float] = []
    engine = TextractOcr(client, poll_seconds=1.5, sleep=sleeps.append)  # type: ignore[arg-type]

    # WHEN both pages of a versioned object are read
    uri = "s3://docs/default/scan.pdf"
    first = engine.read(OcrRequest(1, no_render, uri=uri, version="v7"))
    second = engine.read(OcrRequest(2, no_render, uri=uri, version="v7"))

    # THEN one job read that version, waiting between polls, and every token was followed
    assert client.started == [
        {
            "DocumentLocation": {
                "S3Object": {"Bucket": "docs", "Name": "default/scan.pdf", "Version": "v7"}
            }
        }
    ]
    assert sleeps == [1.5, 1.5]
    assert [get.get("NextToken") for get in client.gets] == [None, None, None, "1", "2"]
    assert first == words_by_page(blocks)[1] and second == words_by_page(blocks)[2]
    assert " ".join(word.text for word in second) == original.pages[1].text


def test_a_failed_job_and_one_that_never_ends_are_reasons_not_crashes() -> None:
    failed = TextractOcr(ScriptedTextract(["FAILED"], [[]]), poll_seconds=0)  # type: ignore[arg-type]
    with pytest.raises(OcrUnavailable, match=r"^Textract failed: unsupported"):
        failed.read(OcrRequest(1, no_render, uri="s3://docs/scan.pdf"))

    now = [0.0]

    def tick(seconds: float) -> None:
        now[0] += 30

    stuck = TextractOcr(
        ScriptedTextract(["IN_PROGRESS"] * 100, [[]]),  # type: ignore[arg-type]
        max_wait_seconds=60,
        sleep=tick,
        clock=lambda: now[0],
    )
    with pytest.raises(OcrUnavailable, match="did not finish within 60 s"):
        stuck.read(OcrRequest(1, no_render, uri="s3://docs/scan.pdf"))


def test_throttling_is_transient_and_a_local_file_is_refused(aws: Aws) -> None:
    from botocore.exceptions import ClientError

    class Throttled:
        def start_document_text_detection(self, **arguments: Any) -> Any:
            raise ClientError(
                {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "slow"}},
                "StartDocumentTextDetection",
            )

    engine = TextractOcr(Throttled(), poll_seconds=0)  # type: ignore[arg-type]
    with pytest.raises(TransientError):
        engine.read(OcrRequest(1, no_render, uri="s3://docs/scan.pdf"))
    with pytest.raises(OcrUnavailable, match="only documents stored in S3"):
        engine.read(OcrRequest(1, no_render, uri="file:///tmp/scan.pdf"))

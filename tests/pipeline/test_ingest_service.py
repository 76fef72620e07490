"""ingest() on the local stores: page batches, embeddings, bad input, and what FAILED leaves.

Every file in the bad-input matrix ends FAILED with a reason a user can act on, or INDEXED when
it is merely unusual; the original is kept either way, and a folder of them never stops
`certiq ingest`.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from numpy.typing import NDArray
from reportlab.pdfgen.canvas import Canvas

from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import ChunkingSettings, EmbeddingSettings, Settings
from certiq.deps import Deps
from certiq.errors import DuplicateContent
from certiq.ingestion.service import Upload, ingest, remove
from certiq.ingestion.text_quality import garbage_reason, unlikely_reason
from certiq.models import Chunk, DocumentStatus
from certiq.ports import SearchIndex
from tests.conftest import break_page, build_pdf, needs_tesseract, wrong_cmap_pdf
from tests.fakes import DelegatingIndex

TENANT = "default"
TEAMS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]
PAGES = [
    [f"Rule {n}: records of kind {n} are kept for {n + 10} days. Team {team} reviews them."]
    for n, team in enumerate(TEAMS, start=1)
]


OWN_HOME: dict[str, object] = {"source": {"uri"}}  # where each run's home keeps the original


def local_deps(tmp_path: Path, **chunking: int) -> Deps:
    settings = Settings(
        home=tmp_path / "home",
        embedding=EmbeddingSettings(provider="none"),
        chunking=ChunkingSettings(**chunking),
    )
    return build_deps(settings)


def upload(data: bytes, name: str = "policy.pdf") -> Upload:
    return Upload(data=data, file_name=name, uri=f"file:///in/{name}", tenant=TENANT)


class RecordingIndex(DelegatingIndex):
    """The real index, recording each index() call; fails on call number `fail_on`."""

    def __init__(self, inner: SearchIndex, fail_on: int | None = None) -> None:
        super().__init__(inner)
        self.calls: list[list[Chunk]] = []
        self.fail_on = fail_on

    def index(self, chunks: Sequence[Chunk]) -> int:
        self.calls.append(list(chunks))
        if self.fail_on == len(self.calls):
            raise ConnectionError("index went away")
        return self.inner.index(chunks)


class FakeEmbedder:
    """A deterministic Embedder: one L2-normalised row per text, recording its calls."""

    name = "fake-embedder"
    dimension = 4

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(len(texts))
        rows = np.array(
            [[len(text), text.count(" ") + 1, text.count("."), 1.0] for text in texts],
            dtype=np.float32,
        ).reshape(len(texts), self.dimension)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


# --- page batches ----------------------------------------------------------------------------


def test_a_long_document_is_indexed_batch_by_batch_with_single_pass_ids(tmp_path: Path) -> None:
    # GIVEN a 7-page PDF, ingested once 2 pages at a time and once in a single batch
    data = build_pdf(PAGES)
    results = {}
    for page_batch in (2, 50):
        deps = local_deps(tmp_path / str(page_batch), target_chars=100, page_batch=page_batch)
        index = RecordingIndex(deps.index)
        record = ingest(upload(data), dataclasses.replace(deps, index=index))
        results[page_batch] = (record, index.calls)

    # THEN batching wrote to the index several times, each time only what the batch completed
    (batched, batched_calls), (single, single_calls) = results[2], results[50]
    assert len(batched_calls) >= 4 > len(single_calls)
    # AND the document's chunks, and its record, are the same either way
    flat = [c.model_dump(exclude=OWN_HOME) for call in batched_calls for c in call]
    assert flat == [c.model_dump(exclude=OWN_HOME) for call in single_calls for c in call]
    assert (batched.status, batched.pages, batched.chunks) == (DocumentStatus.INDEXED, 7, len(flat))
    assert (single.pages, single.chunks) == (batched.pages, batched.chunks)


def test_a_failure_in_a_later_batch_leaves_no_chunks_and_a_failed_record(tmp_path: Path) -> None:
    # GIVEN an index that fails on the second write, when the first batch is indexed already
    deps = local_deps(tmp_path, target_chars=100, page_batch=2)
    index = RecordingIndex(deps.index, fail_on=2)

    # WHEN the document is ingested / THEN the error surfaces (so a Lambda retries it)
    with pytest.raises(ConnectionError):
        ingest(upload(build_pdf(PAGES)), dataclasses.replace(deps, index=index))

    # AND the record is FAILED with the reason, and no half-indexed chunk is left
    (record,) = deps.documents.list(TENANT)
    assert record.status is DocumentStatus.FAILED
    assert record.reason is not None and "index went away" in record.reason
    assert deps.index.count(TENANT) == 0 and record.chunks == 0


def test_a_shorter_new_version_leaves_no_chunk_of_the_old_one(tmp_path: Path) -> None:
    # GIVEN a 7-page document, indexed
    deps = local_deps(tmp_path, target_chars=100)
    first = ingest(upload(build_pdf(PAGES)), deps)

    # WHEN a one-page version of the same file is ingested
    second = ingest(upload(build_pdf(PAGES[:1])), deps)

    # THEN only the new chunks remain
    assert first.chunks > second.chunks >= 1
    assert deps.index.count(TENANT) == second.chunks
    assert deps.index.search(TENANT, "golf", 5) == []
    assert len(deps.index.search(TENANT, "alpha", 5)) == 1


# --- embeddings --------------------------------------------------------------------------------


def test_with_an_embedder_every_chunk_is_indexed_with_its_vector(tmp_path: Path) -> None:
    # GIVEN an embedder taking at most 2 texts per call
    deps = local_deps(tmp_path, target_chars=100)
    deps = dataclasses.replace(
        deps,
        embedder=FakeEmbedder(),
        settings=deps.settings.model_copy(
            update={"embedding": EmbeddingSettings(provider="none", batch_size=2)}
        ),
    )
    index = RecordingIndex(deps.index)

    # WHEN a document is ingested
    record = ingest(upload(build_pdf(PAGES)), dataclasses.replace(deps, index=index))

    # THEN every chunk reached the index with the embedder's vector for its text
    chunks = [chunk for call in index.calls for chunk in call]
    assert len(chunks) == record.chunks > 2
    embedder = deps.embedder
    assert isinstance(embedder, FakeEmbedder)
    for chunk in chunks:
        assert chunk.embedding is not None
        assert chunk.embedding == pytest.approx(embedder.embed([chunk.text])[0].tolist())
    assert max(embedder.calls[: -len(chunks)]) <= 2  # batches of at most batch_size texts
    # AND the stored chunks keep them
    stored = deps.index.get_chunks(TENANT, [chunks[0].chunk_id])[chunks[0].chunk_id]
    assert stored.embedding == pytest.approx(chunks[0].embedding)


def test_without_an_embedder_chunks_have_no_vector(tmp_path: Path) -> None:
    deps = local_deps(tmp_path, target_chars=100)
    index = RecordingIndex(deps.index)
    ingest(upload(build_pdf(PAGES)), dataclasses.replace(deps, index=index, embedder=None))
    assert all(chunk.embedding is None for call in index.calls for chunk in call)


# --- deletion ------------------------------------------------------------------------------------


def test_remove_leaves_a_tombstone_naming_the_file_and_its_version(tmp_path: Path) -> None:
    deps = local_deps(tmp_path)
    indexed = ingest(upload(build_pdf(PAGES)), deps)

    tombstone = remove(TENANT, indexed.doc_id, deps)

    assert tombstone is not None and tombstone.status is DocumentStatus.DELETED
    assert (tombstone.file_name, tombstone.version, tombstone.sha256, tombstone.uri) == (
        indexed.file_name,
        indexed.version,
        indexed.sha256,
        indexed.uri,
    )
    assert deps.index.count(TENANT) == 0
    assert remove(TENANT, indexed.doc_id, deps) == tombstone  # a repeated delete changes nothing


# --- the bad-input matrix ------------------------------------------------------------------------


def huge_page_pdf() -> bytes:
    """One 14400 x 14400 pt page (PDF's maximum, 200 inches square), text near its far corner."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(14400, 14400), invariant=1)
    canvas.setFont("Helvetica", 12)
    canvas.drawString(14000, 200, "Backups of customer data are kept for 35 days.")
    canvas.drawString(100, 14300, "The vault is checked every Monday.")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def dense_page_pdf() -> bytes:
    """One page crammed with 20,000 words in 2 pt type: an extreme text layer, not a bad one."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792), invariant=1)
    canvas.setFont("Helvetica", 2)
    line = "Retention rule applies to ledger entry number " * 3
    for row in range(350):
        canvas.drawString(10, 790 - row * 2.2, f"{line}{row}.")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.fixture(scope="module")
def bad_inputs(
    encrypted_pdf_bytes: bytes, image_only_pdf_bytes: bytes
) -> dict[str, tuple[bytes, str]]:
    """file name -> (bytes, what the record must say): a reason prefix, or INDEXED."""
    whole = build_pdf([["This document was cut short in transfer. " * 20] * 3])
    return {
        "empty.pdf": (b"", "not a readable PDF: the file is empty"),
        "truncated.pdf": (whole[: len(whole) // 3], "not a readable PDF: "),
        "notes.pdf": (b"Minutes of the meeting, not a PDF at all.\n" * 50, "not a readable PDF: "),
        "image.pdf": (b"\x89PNG\r\n\x1a\n" + bytes(200), "not a readable PDF: "),
        "locked.pdf": (encrypted_pdf_bytes, "encrypted: a password is required"),
        # Read by OCR when Tesseract is installed, which finds nothing in a grey rectangle.
        "scan.pdf": (image_only_pdf_bytes, "no text"),
        "huge-page.pdf": (huge_page_pdf(), "INDEXED"),
        "dense-page.pdf": (dense_page_pdf(), "INDEXED"),
    }


@pytest.fixture(scope="module")
def encrypted_pdf_bytes() -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1, encrypt="secret")
    canvas.drawString(72, 700, "Only for those who know the password.")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.fixture(scope="module")
def image_only_pdf_bytes() -> bytes:
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    canvas.drawImage(ImageReader(Image.new("L", (40, 20), color=200)), 72, 500, 400, 200)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_every_bad_input_ends_failed_with_its_reason_and_the_original_kept(
    tmp_path: Path, bad_inputs: dict[str, tuple[bytes, str]]
) -> None:
    deps = local_deps(tmp_path)
    for name, (data, expected) in bad_inputs.items():
        # WHEN each file is ingested
        record = ingest(upload(data, name), deps)

        # THEN it ends as expected, with the reason a user can act on
        if expected == "INDEXED":
            assert record.status is DocumentStatus.INDEXED, (name, record.reason)
            assert record.chunks >= 1
        else:
            assert record.status is DocumentStatus.FAILED, name
            assert record.reason is not None and record.reason.startswith(expected), (name, record)
            assert record.chunks == 0
        # AND the original is kept byte for byte, whatever happened
        assert deps.blobs.get(f"{TENANT}/{record.doc_id}/{name}") == data, name
    # AND only the readable ones have chunks
    indexed = {r.doc_id for r in deps.documents.list(TENANT) if r.status is DocumentStatus.INDEXED}
    assert {hit.chunk.doc_id for hit in deps.index.search(TENANT, "backups retention", 50)} <= (
        indexed
    )


@needs_tesseract
def test_a_picture_without_words_ends_failed_as_no_text_even_by_ocr(
    tmp_path: Path, image_only_pdf_bytes: bytes
) -> None:
    record = ingest(upload(image_only_pdf_bytes, "scan.pdf"), local_deps(tmp_path))
    assert record.status is DocumentStatus.FAILED
    assert record.reason == "no text found, even by OCR"


def test_an_image_only_pdf_with_ocr_off_says_so(
    tmp_path: Path, image_only_pdf_bytes: bytes
) -> None:
    deps = dataclasses.replace(local_deps(tmp_path), ocr=None)
    record = ingest(upload(image_only_pdf_bytes, "scan.pdf"), deps)
    assert record.status is DocumentStatus.FAILED
    assert record.reason == (
        "no text layer: the page is an image, and OCR is off (CERTIQ_OCR__ENGINE=none)"
    )


def test_a_huge_page_keeps_its_boxes_on_the_page(tmp_path: Path) -> None:
    deps = local_deps(tmp_path)
    record = ingest(upload(huge_page_pdf(), "huge.pdf"), deps)
    (hit,) = deps.index.search(TENANT, "backups customer data", 1)
    (box,) = hit.chunk.sentences[0].boxes
    assert (box.page_width, box.page_height) == (14400, 14400)
    assert 13990 <= box.x0 < box.x1 <= 14400
    assert 14400 - 200 - 12 <= box.y0 < box.y1 <= 14400 - 200 + 4  # near the bottom edge
    assert record.pages == 1


def test_a_folder_of_bad_inputs_never_stops_the_cli(
    tmp_path: Path, bad_inputs: dict[str, tuple[bytes, str]]
) -> None:
    # GIVEN a folder holding every bad input and one good policy
    folder = tmp_path / "inbox"
    folder.mkdir()
    for name, (data, _) in bad_inputs.items():
        (folder / name).write_bytes(data)
    (folder / "good.pdf").write_bytes(build_pdf(PAGES))

    # WHEN `certiq ingest FOLDER` runs
    result = CliRunner().invoke(
        main,
        ["ingest", str(folder)],
        env={"CERTIQ_HOME": str(tmp_path / "home"), "CERTIQ_EMBEDDING__PROVIDER": "none"},
    )

    # THEN it finishes, naming each file's outcome, and says how many were indexed
    assert result.exit_code == 0, result.output
    lines = {line.split()[1]: line for line in result.output.splitlines() if "  (" in line}
    for name, (_, expected) in bad_inputs.items():
        status = "INDEXED" if expected == "INDEXED" else "FAILED"
        assert lines[str(folder / name)].startswith(status), lines
        if status == "FAILED":
            assert expected in lines[str(folder / name)]
    assert lines[str(folder / "good.pdf")].startswith("INDEXED")
    assert "3 of 9 files indexed." in result.output


# --- the same content under another name -----------------------------------------------------


def test_the_same_bytes_under_another_name_are_recognised_not_indexed_twice(
    tmp_path: Path,
) -> None:
    # GIVEN an indexed policy
    deps = local_deps(tmp_path)
    data = build_pdf([["Backups of customer data are kept for 35 days."]])
    first = ingest(upload(data, "policy.pdf"), deps)
    assert first.status is DocumentStatus.INDEXED

    # WHEN the same bytes come again as another file
    with pytest.raises(DuplicateContent) as raised:
        ingest(upload(data, "policy (copy).pdf"), deps)

    # THEN it names the document that holds them, and nothing new is stored or indexed
    assert (raised.value.doc_id, raised.value.file_name) == (first.doc_id, "policy.pdf")
    assert [record.doc_id for record in deps.documents.list(TENANT)] == [first.doc_id]

    # AND in another collection the same bytes are a document of their own
    elsewhere = dataclasses.replace(upload(data, "policy (copy).pdf"), collection="archive")
    assert ingest(elsewhere, deps).status is DocumentStatus.INDEXED
    # AND once the first is deleted, the bytes may come back under a new name
    remove(TENANT, first.doc_id, deps)
    assert ingest(upload(data, "policy (new).pdf"), deps).status is DocumentStatus.INDEXED


def test_cli_ingest_says_a_file_is_already_there_under_another_name(tmp_path: Path) -> None:
    # GIVEN two files with the same bytes
    data = build_pdf([["Backups of customer data are kept for 35 days."]])
    (tmp_path / "a.pdf").write_bytes(data)
    (tmp_path / "b.pdf").write_bytes(data)
    # WHEN both are ingested
    result = CliRunner().invoke(
        main,
        ["ingest", str(tmp_path / "a.pdf"), str(tmp_path / "b.pdf")],
        env={"CERTIQ_HOME": str(tmp_path / "home")},
    )
    # THEN the second is reported as the same content as the first, and it is not a failure
    assert result.exit_code == 0, result.output
    assert "INDEXED" in result.output
    assert "SAME" in result.output and "(a.pdf): not indexed twice" in result.output
    assert "1 of 2 files indexed; 1 already there under another name." in result.output


# --- a page that cannot be loaded --------------------------------------------------------------


def test_an_unloadable_page_is_skipped_and_named_and_the_others_are_indexed(
    tmp_path: Path,
) -> None:
    # GIVEN a three-page PDF whose second page pdfium cannot load
    data = break_page(
        build_pdf(
            [
                ["Backups of customer data are kept for 35 days."],
                ["This page is damaged."],
                ["Access logs are kept for one year."],
            ]
        ),
        1,
    )
    deps = local_deps(tmp_path)

    # WHEN it is ingested
    record = ingest(upload(data), deps)

    # THEN it is INDEXED, naming the page it left out and why, and the other pages answer
    assert record.status is DocumentStatus.INDEXED
    assert [(s.page, s.reason) for s in record.skipped_pages] == [(2, "cannot be loaded")]
    texts = " ".join(hit.chunk.text for hit in deps.index.search(TENANT, "kept", 10))
    assert "35 days" in texts and "one year" in texts and "damaged" not in texts
    # AND the CLI says so beside the file
    result = CliRunner().invoke(main, ["documents"], env={"CERTIQ_HOME": str(tmp_path / "home")})
    assert "page 2 skipped: cannot be loaded" in result.output


def test_the_cli_counts_one_page_and_one_chunk_in_the_singular(tmp_path: Path) -> None:
    # GIVEN a one-page PDF of one short paragraph, ingested
    record = ingest(upload(build_pdf([["Backups are kept for 35 days."]])), local_deps(tmp_path))
    assert (record.pages, record.chunks) == (1, 1)
    # WHEN the CLI lists the documents THEN it says "1 page, 1 chunk"
    result = CliRunner().invoke(main, ["documents"], env={"CERTIQ_HOME": str(tmp_path / "home")})
    assert "(1 page, 1 chunk)" in result.output


def test_a_pdf_none_of_whose_pages_loads_ends_failed_saying_so(tmp_path: Path) -> None:
    data = build_pdf([["Only page."]])
    record = ingest(upload(break_page(data, 0)), local_deps(tmp_path))
    assert record.status is DocumentStatus.FAILED
    assert record.reason == "not a readable PDF: no page can be loaded"


def test_a_pdf_compressed_with_an_unsupported_filter_says_which(tmp_path: Path) -> None:
    # GIVEN a PDF whose page content is marked /BrotliDecode, a filter pdfium cannot decode
    data = build_pdf([["Backups of customer data are kept for 35 days."]])
    brotli = data.replace(b"/FlateDecode ]", b"/BrotliDecode ]", 1)
    assert brotli != data
    # WHEN it is ingested / THEN it fails naming the filter, not "no text" or "no pages"
    record = ingest(upload(brotli), local_deps(tmp_path))
    assert record.status is DocumentStatus.FAILED
    assert record.reason is not None
    assert record.reason.startswith("unsupported compression: the PDF's streams use /BrotliDecode")


def test_a_page_whose_text_layer_is_garbage_is_left_out_with_the_reason(tmp_path: Path) -> None:
    # GIVEN a PDF whose second page's "text" is symbol soup, as a broken character map gives
    soup = "§¶†‡•… ‰‹›€™ ¤¦¨©ª «¬®¯° ±²³´µ ·¸¹º» ¼½¾¿ " * 4
    data = build_pdf(
        [["Backups of customer data are kept for 35 days."], [soup], ["Logs are kept a year."]]
    )
    deps = local_deps(tmp_path)

    # WHEN it is ingested
    record = ingest(upload(data), deps)

    # THEN the readable pages are indexed and the garbage page is named, never indexed
    assert record.status is DocumentStatus.INDEXED
    [(page, reason)] = [(s.page, s.reason) for s in record.skipped_pages]
    assert page == 2 and reason.startswith("its text layer is unreadable")
    assert all("§" not in hit.chunk.text for hit in deps.index.search(TENANT, "kept", 10))


@pytest.mark.parametrize(
    "text",
    [
        "Backups of customer data are kept for 35 days and then deleted, as the policy says.",
        "Ταξινόμηση δεδομένων: τα αντίγραφα ασφαλείας διατηρούνται για τριάντα πέντε ημέρες.",
        "النسخ الاحتياطية لبيانات العملاء تحفظ لمدة خمسة وثلاثين يوما ثم تحذف نهائيا.",
        "| 2021 | 35 | 12.5% | 1,024 | 2022 | 36 | 13.1% | 2,048 | 2023 | 40 | 14.0% |",
    ],
)
def test_ordinary_text_in_any_script_is_not_taken_for_garbage(text: str) -> None:
    assert garbage_reason(text) is None


def test_private_use_characters_are_taken_for_garbage() -> None:
    assert garbage_reason("\ue000\ue001\ue002 " * 20) is not None


WRONG_MAP_LINES = [
    "Backups of customer data are kept for 35 days and then deleted from the",
    "primary site and from the replica in the other region. The team that owns",
    "the service checks each month that the copies can be restored, and it writes",
    "down what it found in the register of the data protection officer, who reads",
    "it and signs it. When a copy cannot be restored the incident process starts.",
]


@needs_tesseract
def test_a_text_layer_that_spells_nothing_is_replaced_by_what_ocr_reads(tmp_path: Path) -> None:
    # GIVEN a page whose font maps every letter wrongly: it shows prose, its text layer is not
    data = wrong_cmap_pdf(WRONG_MAP_LINES)
    deps = local_deps(tmp_path)

    # WHEN it is ingested
    record = ingest(upload(data), deps)

    # THEN the page was read by OCR, and what it says can be found and quoted
    assert record.status is DocumentStatus.INDEXED and record.skipped_pages == []
    assert [page.page for page in record.ocr_pages] == [1]
    (hit,) = deps.index.search(TENANT, "backups customer data", 1)
    assert hit.chunk.text.startswith("Backups of customer data are kept for 35 days")
    assert hit.chunk.ocr_confidence is not None and hit.chunk.ocr_confidence > 0.8


def test_without_ocr_a_text_layer_that_spells_nothing_is_kept_and_named_doubtful(
    tmp_path: Path,
) -> None:
    # GIVEN no OCR to check a page whose words are no language's (a wrong map, or a table)
    deps = dataclasses.replace(local_deps(tmp_path), ocr=None)

    record = ingest(upload(wrong_cmap_pdf(WRONG_MAP_LINES)), deps)

    # THEN it is indexed as it is (a table of names must not be lost), and the record says so
    assert record.status is DocumentStatus.INDEXED
    (doubtful,) = record.doubtful_pages
    assert doubtful.page == 1
    assert doubtful.reason.startswith("its text layer spells no words (only 2 of its 69 words")
    assert doubtful.reason.endswith("; indexed as it is: OCR is off (CERTIQ_OCR__ENGINE=none)")


@needs_tesseract
def test_a_table_of_names_that_ocr_confirms_keeps_its_text_layer(tmp_path: Path) -> None:
    # GIVEN a page of names and codes, no prose: no common word, but a right text layer
    rows = [f"Nakamura Okonkwo Delacroix Haddad Lindqvist {n:03d} Ferreira" for n in range(12)]
    deps = local_deps(tmp_path)

    record = ingest(upload(build_pdf([rows])), deps)

    # THEN OCR read the same words, so the page is indexed from its text layer, not by OCR
    assert record.status is DocumentStatus.INDEXED and record.ocr_pages == []
    assert deps.index.search(TENANT, "Lindqvist", 1)[0].chunk.ocr_confidence is None


@pytest.mark.parametrize(
    "text",
    [
        " ".join(WRONG_MAP_LINES),
        "Les copies de sauvegarde des données des clients sont conservées pendant 35 jours. " * 6,
        "Die Sicherungskopien der Kundendaten werden 35 Tage lang aufbewahrt und dann gelöscht. "
        * 6,
    ],
)
def test_prose_in_languages_written_in_latin_script_is_not_suspected(text: str) -> None:
    assert unlikely_reason(text) is None

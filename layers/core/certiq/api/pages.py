"""Page images for the viewer: a PDF page rendered with pypdfium2, encoded as PNG, cached on disk.

Boxes travel in PDF points with the page's size (certiq.models.Box), so the viewer scales them to
whatever size the image is shown at; the image's own resolution is settings.api.page_dpi.
The PNG encoder is the few lines the format needs (zlib and CRC32), so the Lambda layer carries
no imaging library.
"""

from __future__ import annotations

import contextlib
import os
import struct
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from numpy.typing import NDArray

from certiq.ingestion.pdf import open_pdf
from certiq.ingestion.pdf_page import uncrop_if_empty
from certiq.ingestion.service import original_key, original_version
from certiq.models import DocumentRecord
from certiq.ports import BlobStore

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
POINTS_PER_INCH = 72


class PageOutOfRange(LookupError):
    """The page number is not one of the document's pages."""


def encode_png(rgb: NDArray[np.uint8]) -> bytes:
    """An 8-bit RGB PNG of a (height, width, 3) array: every row unfiltered, then deflated."""
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"expected (height, width, 3) RGB pixels, got shape {rgb.shape}")
    height, width, _ = rgb.shape
    rows = np.zeros((height, width * 3 + 1), dtype=np.uint8)  # first byte of a row: filter 0
    rows[:, 1:] = rgb.reshape(height, width * 3)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour
    return b"".join(
        (
            PNG_SIGNATURE,
            _png_chunk(b"IHDR", header),
            _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)),
            _png_chunk(b"IEND", b""),
        )
    )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def render_page(data: bytes, number: int, dpi: int) -> bytes:
    """Page ``number`` (1-based) of the PDF as PNG bytes at ``dpi``, rotation applied.

    Raises PageOutOfRange for a page the document lacks and IngestionError for bytes that are
    not a readable PDF.
    """
    # open_pdf holds the process's pdfium lock (pdfium is not thread-safe) until the block ends;
    # the second handle is pypdfium2's, for its renderer.
    with open_pdf(data) as pdf:
        if not 1 <= number <= pdf.page_count:
            raise PageOutOfRange(f"page {number} is not in 1..{pdf.page_count}")
        document = pdfium.PdfDocument(data)
        try:
            page = document[number - 1]
            try:
                uncrop_if_empty(page.raw)  # as ingestion read it: boxes and image must agree
                bitmap = page.render(scale=dpi / POINTS_PER_INCH, rev_byteorder=True)
                try:
                    pixels = np.ascontiguousarray(bitmap.to_numpy()[:, :, :3], dtype=np.uint8)
                finally:
                    bitmap.close()
            finally:
                page.close()
        finally:
            document.close()
    return encode_png(pixels)


class PageImages:
    """Rendered pages of indexed documents, cached under ``cache_dir`` by content and DPI."""

    def __init__(self, blobs: BlobStore, cache_dir: Path, dpi: int) -> None:
        self._blobs = blobs
        self._cache_dir = cache_dir
        self.dpi = dpi

    def png(self, record: DocumentRecord, number: int) -> bytes:
        """The page as PNG; the cache is keyed by the content's sha256, so a new version of the
        file never shows an old rendering."""
        if not 1 <= number <= max(record.pages, 1):
            raise PageOutOfRange(f"page {number} is not in 1..{record.pages}")
        cached = self._cache_dir / record.sha256[:32] / f"p{number}-{self.dpi}dpi.png"
        with contextlib.suppress(FileNotFoundError):
            return cached.read_bytes()
        data = self._blobs.get(original_key(record), version=original_version(record))
        image = render_page(data, number, self.dpi)
        _write_atomically(cached, image)
        return image


def _write_atomically(path: Path, data: bytes) -> None:
    """Two requests rendering the same page never leave a half-written file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".render-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


__all__ = [
    "PageImages",
    "PageOutOfRange",
    "encode_png",
    "render_page",
]

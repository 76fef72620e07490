"""Ports of OCR: the words an engine reads on a page with no usable text layer, boxed on the
page, and the request for one page to read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    # Annotations only: importing numpy would cost every Lambda cold start ~100 ms.
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class OcrWord:
    """A word an OCR engine read, boxed on the page as displayed, in fractions of its width and
    height (0 at the left and top), so every engine and resolution gives the same boxes."""

    text: str
    left: float
    top: float
    right: float
    bottom: float
    confidence: float  # 0..1, the engine's own
    line: int  # words of one line share it; lines are numbered in reading order
    paragraph: int  # lines of one paragraph (or block) share it


@dataclass(frozen=True)
class OcrRequest:
    """One page to read. An engine that reads images renders it; one that reads whole documents
    where they are stored (Textract on S3) reads the document once and answers page by page."""

    page: int  # 1-based
    render: Callable[[int], NDArray[np.uint8]]  # dpi -> the displayed page, 8-bit grayscale
    uri: str | None = None  # where the original is stored (s3://bucket/key), when it is
    version: str | None = None  # its S3 version id, when the bucket keeps versions


class OcrEngine(Protocol):
    """Reads the words on a page that has no usable text layer (a scan, a broken font)."""

    @property
    def name(self) -> str: ...

    def read(self, request: OcrRequest) -> tuple[OcrWord, ...]:
        """The page's words in reading order (none: no text on it). Raises OcrUnavailable when
        the engine cannot read it (not installed, the job failed); the message says why."""
        ...

"""OCR with Tesseract (Debian's tesseract-ocr), through pytesseract: the offline engine.

Tesseract reads the page image and reports every word with its box and confidence, grouped in
blocks, paragraphs and lines; the boxes come back as fractions of the page, so they land on the
displayed page whatever the resolution.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Sequence
from typing import Any

from certiq.errors import OcrUnavailable
from certiq.ports import OcrRequest, OcrWord

log = logging.getLogger(__name__)

INSTALL_HINT = "apt-get install tesseract-ocr {packages} (or set CERTIQ_OCR__ENGINE=none)"

_WORD_LEVEL = 5  # image_to_data's levels: page, block, paragraph, line, word


class TesseractOcr:
    """certiq.ports.OcrEngine on the local Tesseract binary."""

    name = "tesseract"

    def __init__(
        self,
        languages: Sequence[str],
        *,
        dpi: int = 300,
        timeout_seconds: float = 120.0,
        command: str = "tesseract",
    ) -> None:
        self._languages = list(languages)
        self._dpi = dpi
        self._timeout = timeout_seconds
        self._command = command
        self._checked: str | None = None  # "" once the binary and its languages were found

    def read(self, request: OcrRequest) -> tuple[OcrWord, ...]:
        import pytesseract

        self._check()
        image = request.render(self._dpi)
        height, width = image.shape[:2]
        try:
            data = pytesseract.image_to_data(
                image,
                lang="+".join(self._languages),
                config="--psm 3",  # automatic page segmentation: columns, blocks, paragraphs
                output_type=pytesseract.Output.DICT,
                timeout=self._timeout,
            )
        except RuntimeError as error:  # pytesseract's timeout
            raise OcrUnavailable(f"OCR did not finish within {self._timeout:g} s") from error
        except pytesseract.TesseractError as error:
            # The detail names files on this machine: logged, not recorded for users.
            log.warning("tesseract failed on page %d: %s", request.page, error)
            raise OcrUnavailable(f"OCR failed (Tesseract exit status {error.status})") from error
        return words_from_data(data, width, height)

    def _check(self) -> None:
        """Fails with the packages to install when the binary or a language is missing."""
        if self._checked is None:
            self._checked = self._problem()
            # Tesseract's OpenMP threads spin against each other: unlimited, a page took 5x
            # longer on 2 cores (scripts/bench_ocr.py). pytesseract passes the environment on;
            # an operator's own limit is kept.
            os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        if self._checked:
            raise OcrUnavailable(self._checked)

    def _problem(self) -> str:
        import pytesseract

        packages = " ".join(f"tesseract-ocr-{language}" for language in self._languages)
        if shutil.which(self._command) is None:
            return "Tesseract is not installed: " + INSTALL_HINT.format(packages=packages)
        pytesseract.pytesseract.tesseract_cmd = self._command
        installed = set(pytesseract.get_languages())
        missing = [language for language in self._languages if language not in installed]
        if missing:
            return "Tesseract lacks the language data: " + INSTALL_HINT.format(
                packages=" ".join(f"tesseract-ocr-{language}" for language in missing)
            )
        return ""


def words_from_data(data: dict[str, list[Any]], width: int, height: int) -> tuple[OcrWord, ...]:
    """Tesseract's image_to_data table as OcrWords, in its reading order."""
    lines: dict[tuple[int, int, int], int] = {}
    paragraphs: dict[tuple[int, int], int] = {}
    words: list[OcrWord] = []
    for index, text in enumerate(data["text"]):
        confidence = float(data["conf"][index])
        if int(data["level"][index]) != _WORD_LEVEL or confidence < 0 or not str(text).strip():
            continue
        block, paragraph = int(data["block_num"][index]), int(data["par_num"][index])
        line_key = (block, paragraph, int(data["line_num"][index]))
        left, top = int(data["left"][index]), int(data["top"][index])
        words.append(
            OcrWord(
                text=str(text),
                left=left / width,
                top=top / height,
                right=(left + int(data["width"][index])) / width,
                bottom=(top + int(data["height"][index])) / height,
                confidence=min(confidence / 100, 1.0),
                line=lines.setdefault(line_key, len(lines)),
                paragraph=paragraphs.setdefault((block, paragraph), len(paragraphs)),
            )
        )
    return tuple(words)

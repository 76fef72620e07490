"""Text that lives only in a PDF's form fields (AcroForm values) becomes text of its page.

pdfium's text page holds what the page's content stream draws, not the values typed into form
fields, so a filled-in form reads as its blank labels. Each filled field is read here as one
line, "<label>: <value>", boxed where the field is drawn, and added after the page's own text as
a paragraph of its own; the label is the field's tooltip (what a viewer shows) or else its name.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pypdfium2.raw as pdfium_c

from certiq.ingestion.pdf_lines import ParsedPage, Rect, SentenceSpan, _box
from certiq.ingestion.sentences import sentence_spans

# Field types whose value is text a person wrote or chose (pdfium's FPDF_FORMFIELD_*).
_TEXT_TYPES = frozenset({4, 5, 6})  # combo box, list box, text field
_CHOICE_TYPES = frozenset({2, 3})  # check box, radio button: read only when checked
_WIDGET = 20  # FPDF_ANNOT_WIDGET

_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True, slots=True)
class FieldLine:
    text: str
    rect: Rect  # on the displayed page


class FormReader:
    """The document's form environment: open while pages are read, closed with the document."""

    def __init__(self, document: Any) -> None:
        self._info = pdfium_c.FPDF_FORMFILLINFO()  # must outlive the environment
        self._info.version = 2
        self._handle = pdfium_c.FPDFDOC_InitFormFillEnvironment(document, self._info)

    def close(self) -> None:
        if self._handle:
            pdfium_c.FPDFDOC_ExitFormFillEnvironment(self._handle)
            self._handle = None

    def lines(
        self, page: Any, to_page: Callable[[float, float, float, float], Rect]
    ) -> list[FieldLine]:
        """The filled fields of one page, top to bottom, as "<label>: <value>" lines."""
        if not self._handle:
            return []
        found: list[FieldLine] = []
        rect = pdfium_c.FS_RECTF()
        # The form must know the page is loaded for check boxes to report their state.
        pdfium_c.FORM_OnAfterLoadPage(page, self._handle)
        try:
            for index in range(pdfium_c.FPDFPage_GetAnnotCount(page)):
                annot = pdfium_c.FPDFPage_GetAnnot(page, index)
                if not annot:
                    continue
                try:
                    field = self._field(annot, rect, to_page)
                finally:
                    pdfium_c.FPDFPage_CloseAnnot(annot)
                if field is not None:
                    found.append(field)
        finally:
            pdfium_c.FORM_OnBeforeClosePage(page, self._handle)
        return sorted(found, key=lambda line: (line.rect[1], line.rect[0]))

    def _field(
        self, annot: Any, rect: Any, to_page: Callable[[float, float, float, float], Rect]
    ) -> FieldLine | None:
        if pdfium_c.FPDFAnnot_GetSubtype(annot) != _WIDGET:
            return None
        line = self._line(annot)
        if not line or not pdfium_c.FPDFAnnot_GetRect(annot, rect):
            return None
        bottom, top = sorted((rect.bottom, rect.top))
        left, right = sorted((rect.left, rect.right))
        if right <= left or top <= bottom:
            return None  # a field with no area shows nothing
        return FieldLine(line, to_page(left, bottom, right, top))

    def _line(self, annot: Any) -> str | None:
        kind = pdfium_c.FPDFAnnot_GetFormFieldType(self._handle, annot)
        if kind in _CHOICE_TYPES and not pdfium_c.FPDFAnnot_IsChecked(self._handle, annot):
            return None
        if kind not in _TEXT_TYPES | _CHOICE_TYPES:
            return None  # push buttons, signatures: nothing written
        value = " ".join(self._text(pdfium_c.FPDFAnnot_GetFormFieldValue, annot).split())
        if not value or (kind in _CHOICE_TYPES and value.lower() in ("off", "")):
            return None
        label = " ".join(self._text(pdfium_c.FPDFAnnot_GetFormFieldAlternateName, annot).split())
        if not label:
            name = self._text(pdfium_c.FPDFAnnot_GetFormFieldName, annot)
            label = _INDEX.sub("", name.rsplit(".", 1)[-1]).replace("_", " ").strip()
        return f"{label}: {value}" if label else value

    def _text(self, getter: Callable[..., int], annot: Any) -> str:
        size = int(getter(self._handle, annot, None, 0))
        if size <= 2:
            return ""
        buffer = ctypes.create_string_buffer(size)
        getter(self._handle, annot, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
        return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")


def with_field_lines(
    page: ParsedPage, fields: Sequence[FieldLine], max_sentence_chars: int | None
) -> ParsedPage:
    """The page with each field's line added after its text, a paragraph each."""
    if not fields:
        return page
    text = page.text
    line_spans = list(page.line_spans)
    sentences = list(page.sentences)
    for field in fields:
        start = len(text) + 2 if text else 0
        text = f"{text}\n\n{field.text}" if text else field.text
        x0, y0, x1, y1 = (round(value, 2) for value in field.rect)
        x0, y0 = max(x0, 0.0), max(y0, 0.0)
        x1, y1 = min(x1, page.width), min(y1, page.height)
        line_spans.append((start, len(text), x0, y0, x1, y1))
        box = _box(page.number, page.width, page.height, x0, y0, x1, y1)
        for low, high in sentence_spans(field.text, (0,), max_sentence_chars):
            sentences.append(SentenceSpan(start + low, start + high, field.text[low:high], (box,)))
    return ParsedPage(
        number=page.number,
        width=page.width,
        height=page.height,
        rotation=page.rotation,
        text=text,
        line_spans=tuple(line_spans),
        sentences=tuple(sentences),
        words=page.words,
        ocr_confidence=page.ocr_confidence,
    )

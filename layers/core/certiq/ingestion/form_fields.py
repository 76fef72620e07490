"""Text that lives only in a PDF's form fields (AcroForm values) becomes text of its page.

pdfium's text page holds what the page's content stream draws, not the values typed into form
fields, so a filled-in form reads as its blank labels. Each filled field is read here as one
line, "<label>: <value>", boxed where the field is drawn, and added after the page's own text as
a paragraph of its own. The label is what a reader sees beside the field: the text printed just
left of it on its line, else the field's tooltip (what a viewer shows on hover), else its name.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pypdfium2.raw as pdfium_c

from certiq.ingestion.pdf_lines import ParsedPage, Rect, SentenceSpan, _box
from certiq.sentences import sentence_spans

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
        self,
        page: Any,
        to_page: Callable[[float, float, float, float], Rect],
        printed: Sequence[tuple[str, Rect]] = (),
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
                    field = self._field(annot, rect, to_page, printed)
                finally:
                    pdfium_c.FPDFPage_CloseAnnot(annot)
                if field is not None:
                    found.append(field)
        finally:
            pdfium_c.FORM_OnBeforeClosePage(page, self._handle)
        return sorted(found, key=lambda line: (line.rect[1], line.rect[0]))

    def _field(
        self,
        annot: Any,
        rect: Any,
        to_page: Callable[[float, float, float, float], Rect],
        printed: Sequence[tuple[str, Rect]],
    ) -> FieldLine | None:
        if pdfium_c.FPDFAnnot_GetSubtype(annot) != _WIDGET:
            return None
        value = self._value(annot)
        if not value or not pdfium_c.FPDFAnnot_GetRect(annot, rect):
            return None
        bottom, top = sorted((rect.bottom, rect.top))
        left, right = sorted((rect.left, rect.right))
        if right <= left or top <= bottom:
            return None  # a field with no area shows nothing
        box = to_page(left, bottom, right, top)
        label = _printed_label(box, printed) or self._label(annot)
        return FieldLine(f"{label}: {value}" if label else value, box)

    def _value(self, annot: Any) -> str | None:
        kind = pdfium_c.FPDFAnnot_GetFormFieldType(self._handle, annot)
        if kind in _CHOICE_TYPES and not pdfium_c.FPDFAnnot_IsChecked(self._handle, annot):
            return None
        if kind not in _TEXT_TYPES | _CHOICE_TYPES:
            return None  # push buttons, signatures: nothing written
        value = " ".join(self._text(pdfium_c.FPDFAnnot_GetFormFieldValue, annot).split())
        if not value or (kind in _CHOICE_TYPES and value.lower() in ("off", "")):
            return None
        return value

    def _label(self, annot: Any) -> str:
        label = " ".join(self._text(pdfium_c.FPDFAnnot_GetFormFieldAlternateName, annot).split())
        if not label:
            name = self._text(pdfium_c.FPDFAnnot_GetFormFieldName, annot)
            label = _INDEX.sub("", name.rsplit(".", 1)[-1]).replace("_", " ").strip()
        return label

    def _text(self, getter: Callable[..., int], annot: Any) -> str:
        size = int(getter(self._handle, annot, None, 0))
        if size <= 2:
            return ""
        buffer = ctypes.create_string_buffer(size)
        getter(self._handle, annot, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
        return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")


def _printed_label(box: Rect, printed: Sequence[tuple[str, Rect]]) -> str:
    """The printed line nearest left of the field whose middle lies within the field's height
    ("Start date:" before its box), without its closing colon."""
    x0, y0, _, y1 = box
    beside = [
        (x0 - line[2], text)
        for text, line in printed
        if y0 <= (line[1] + line[3]) / 2 <= y1 and line[2] <= x0 + 1
    ]
    if not beside:
        return ""
    return min(beside)[1].rstrip().rstrip(":").strip()


def with_field_lines(
    page: ParsedPage, fields: Sequence[FieldLine], max_sentence_chars: int | None
) -> ParsedPage:
    """The page with its fields added after its text as one paragraph, a line per field.

    The lines end in ";" and the last in ".", so the fields read as one sentence ("Employee
    name: Jane Smith; Start date: 2026-01-05."): a question about one field by another's value
    finds both in one quote, boxed field by field.
    """
    if not fields:
        return page
    offset = len(page.text) + 2 if page.text else 0
    block_parts: list[str] = []
    starts: list[int] = []
    spans: list[tuple[int, int, float, float, float, float]] = []
    position = 0
    for index, field in enumerate(fields):
        line = field.text.rstrip(".;") + ("." if index == len(fields) - 1 else ";")
        x0, y0, x1, y1 = (round(value, 2) for value in field.rect)
        x0, y0 = max(x0, 0.0), max(y0, 0.0)
        x1, y1 = min(x1, page.width), min(y1, page.height)
        starts.append(position)
        spans.append((offset + position, offset + position + len(line), x0, y0, x1, y1))
        block_parts.append(line)
        position += len(line) + 1
    block = "\n".join(block_parts)
    text = f"{page.text}\n\n{block}" if page.text else block
    boxes = [_box(page.number, page.width, page.height, *span[2:]) for span in spans]
    sentences = list(page.sentences)
    for low, high in sentence_spans(block, starts, max_sentence_chars):
        covered = tuple(
            box
            for box, line_start, line in zip(boxes, starts, block_parts, strict=True)
            if line_start < high and line_start + len(line) > low
        )
        sentences.append(
            SentenceSpan(offset + low, offset + high, block[low:high].replace("\n", " "), covered)
        )
    return ParsedPage(
        number=page.number,
        width=page.width,
        height=page.height,
        rotation=page.rotation,
        text=text,
        line_spans=(*page.line_spans, *spans),
        sentences=tuple(sentences),
        words=page.words,
        ocr_confidence=page.ocr_confidence,
    )

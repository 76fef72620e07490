"""Parsed pages -> sentences with boxes -> chunks made of whole sentences.

A chunk is what the index stores and retrieval returns; a sentence is what an answer cites. So
each Sentence keeps its exact offsets in Chunk.text (chunk.text[start:end] == sentence.text, the
invariant citation checking relies on), its page, and one box per line it covers.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from certiq.config import ChunkingSettings
from certiq.ingestion.pdf import ParsedDocument, ParsedPage, Word
from certiq.ingestion.sentences import split_sentences
from certiq.models import Box, Chunk, Sentence, SourceRef

__all__ = ["PageSentence", "chunk_document", "page_sentences"]


@dataclass(frozen=True, slots=True)
class PageSentence:
    """A sentence of one page: whitespace-normalised text, page number, one box per line."""

    text: str
    page: int
    boxes: tuple[Box, ...]


def chunk_document(
    parsed: ParsedDocument,
    *,
    doc_id: str,
    tenant: str,
    source: SourceRef,
    settings: ChunkingSettings,
) -> list[Chunk]:
    """Group the document's sentences into chunks of about settings.target_chars characters.

    Sentences are appended until the chunk's text reaches target_chars; the next chunk starts
    with the last settings.overlap_sentences sentences again, so a fact near a boundary is found
    with its context. Chunk ids are f"{doc_id}:{ordinal:05d}": the same bytes give the same
    chunks, which makes re-ingesting a document idempotent.
    """
    target = settings.target_chars
    chunks: list[Chunk] = []
    current: list[PageSentence] = []
    length = 0  # len(" ".join(current))
    fresh = 0  # sentences of `current` not repeated from the previous chunk
    for sentence in (s for page in parsed.pages for s in page_sentences(page, max_chars=target)):
        length += len(sentence.text) + (1 if current else 0)
        current.append(sentence)
        fresh += 1
        if length >= target:
            chunks.append(_chunk(current, len(chunks), doc_id, tenant, source))
            # Never carry a whole chunk over: every chunk must bring at least one new sentence.
            carry = min(settings.overlap_sentences, len(current) - 1)
            current = current[len(current) - carry :] if carry > 0 else []
            length = len(" ".join(s.text for s in current))
            fresh = 0
    if fresh:
        chunks.append(_chunk(current, len(chunks), doc_id, tenant, source))
    return chunks


def page_sentences(page: ParsedPage, *, max_chars: int | None = None) -> list[PageSentence]:
    """The sentences of one page, in order, each with one box per line it covers.

    A "sentence" longer than max_chars (a table or a list without punctuation) is cut at line
    ends, or at word ends for a single overlong line, so no citation quotes a whole page.
    """
    starts = [word.start for word in page.words]
    sentences: list[PageSentence] = []
    for start, end in split_sentences(page.text):
        # Words overlapping [start, end): the sentence boundaries fall between words.
        first = max(bisect.bisect_right(starts, start) - 1, 0)
        last = bisect.bisect_left(starts, end)
        words = [w for w in page.words[first:last] if w.end > start and w.start < end]
        if not words:
            continue
        for piece in _pieces(words, max_chars):
            text = " ".join(page.text[piece[0].start : piece[-1].end].split())
            if text:
                sentences.append(PageSentence(text, page.number, _line_boxes(piece)))
    return sentences


def _pieces(words: Sequence[Word], max_chars: int | None) -> Iterable[Sequence[Word]]:
    """Cut a sentence's words into runs of about max_chars characters: at the last line end when
    that leaves the run at least half full, else between words (never inside a hyphenated word).
    """
    if max_chars is None or words[-1].end - words[0].start <= max_chars:
        yield words
        return
    start = 0
    line_cut = 0  # index of the latest word of the run that starts a line; 0: none yet
    for index in range(1, len(words)):
        previous, word = words[index - 1], words[index]
        if word.start == previous.end:
            continue  # the rest of a hyphenated word
        new_line = word.line != previous.line
        if word.end - words[start].start <= max_chars:
            line_cut = index if new_line else line_cut
            continue
        cut = index
        if line_cut > start and words[line_cut - 1].end - words[start].start >= max_chars // 2:
            cut = line_cut
        yield words[start:cut]
        start = cut
        line_cut = index if new_line and cut < index else 0
    yield words[start:]


def _line_boxes(words: Sequence[Word]) -> tuple[Box, ...]:
    """One box per line: the union of the sentence's word boxes on that line."""
    boxes: list[Box] = []
    for _line, group in itertools.groupby(words, key=lambda word: word.line):
        line_boxes = [word.box for word in group]
        first = line_boxes[0]
        if len(line_boxes) == 1:
            boxes.append(first)
            continue
        boxes.append(
            Box(
                page=first.page,
                x0=min(box.x0 for box in line_boxes),
                y0=min(box.y0 for box in line_boxes),
                x1=max(box.x1 for box in line_boxes),
                y1=max(box.y1 for box in line_boxes),
                page_width=first.page_width,
                page_height=first.page_height,
            )
        )
    return tuple(boxes)


def _chunk(
    sentences: Sequence[PageSentence], ordinal: int, doc_id: str, tenant: str, source: SourceRef
) -> Chunk:
    placed: list[Sentence] = []
    offset = 0
    for sentence in sentences:
        end = offset + len(sentence.text)
        placed.append(
            Sentence(
                text=sentence.text,
                start=offset,
                end=end,
                page=sentence.page,
                boxes=list(sentence.boxes),
            )
        )
        offset = end + 1  # the single space that joins sentences
    return Chunk(
        chunk_id=f"{doc_id}:{ordinal:05d}",
        doc_id=doc_id,
        tenant=tenant,
        ordinal=ordinal,
        source=source,
        text=" ".join(sentence.text for sentence in sentences),
        sentences=placed,
        page_start=min(sentence.page for sentence in sentences),
        page_end=max(sentence.page for sentence in sentences),
    )

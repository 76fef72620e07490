"""Reading model output that cites evidence: native citations, [S1] markers, <extract> tags.

A model is shown its evidence as S1..Sn (short labels, not our span ids). Whatever it writes, a
citation survives only when it names evidence the model was given (unknown ids are dropped),
and a quote only when it is found in the evidence it cites: verbatim, verbatim up to
whitespace, or repaired by fuzzy alignment to the nearest evidence sentence (difflib's
SequenceMatcher: rapidfuzz is not installed here). A quote that aligns with no evidence
sentence closely enough is dropped, with the citation it was the reason for; never kept as
written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Final

from certiq.models import DraftQuote, DraftSentence, EvidenceSpan
from certiq.sentences import split_sentences
from certiq.text import CITATION_LABEL, CITATION_MARKER, MARKER_TOKENS, tidy_spacing

# A quote is repaired to an evidence sentence when this share of it aligns with the sentence
# (and it covers at least MIN_SHARE of the sentence: a fragment is not mistaken for the whole).
REPAIR_THRESHOLD: Final = 0.85
MIN_SHARE: Final = 0.5

_EXTRACT = re.compile(
    r"<extract\s+ids\s*=\s*[\"']([^\"']*)[\"']\s*>(.*?)</extract\s*>", re.IGNORECASE | re.DOTALL
)
_STRAY_TAG = re.compile(r"</?extract\b[^>]*>", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_CODE_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_WORD_CHARACTER = re.compile(r"\w")


def evidence_label(index: int) -> str:
    """The label the model sees for evidence[index]: S1, S2, ..."""
    return f"S{index + 1}"


class EvidenceIds:
    """Resolves what a model wrote to cite evidence: a label (S3, or C3), or a span id."""

    def __init__(self, evidence: Sequence[EvidenceSpan]) -> None:
        self.evidence = list(evidence)
        self._by_id = {span.span_id: span for span in self.evidence}

    def resolve(self, token: str) -> EvidenceSpan | None:
        token = token.strip()
        if token in self._by_id:
            return self._by_id[token]
        match = CITATION_LABEL.fullmatch(token)
        if match and int(match.group(1)) <= len(self.evidence):
            return self.evidence[int(match.group(1)) - 1]
        return None

    def quote_whole(self, span_id: str) -> DraftQuote:
        """The span's whole text as the quote: evidence spans are single sentences."""
        return DraftQuote(span_id=span_id, text=self._by_id[span_id].text)

    def looks_like_citation(self, token: str) -> bool:
        """True for any label-shaped token (known or not) and for known span ids."""
        return bool(CITATION_LABEL.fullmatch(token.strip())) or token.strip() in self._by_id


@dataclass(frozen=True)
class Anchor:
    """A citation attached to a range of the output text, with the quote it rests on."""

    start: int
    end: int
    quote: DraftQuote


def anchor_quote(quote: str, spans: Sequence[EvidenceSpan]) -> DraftQuote | None:
    """The quote as it stands in one of ``spans``, or None when no span holds it.

    Verbatim first, then verbatim up to whitespace (the exact text of the span is returned),
    then fuzzy: the span sentence the quote aligns with best, when at least REPAIR_THRESHOLD of
    the quote aligns with it; the repaired quote is that whole sentence, exactly as indexed.
    """
    wanted = quote.strip()
    if not wanted or not spans:
        return None
    for span in spans:
        if wanted in span.text:
            return DraftQuote(span_id=span.span_id, text=wanted)
    pattern = re.compile(r"\s+".join(re.escape(word) for word in wanted.split()))
    for span in spans:
        found = pattern.search(span.text)
        if found:
            return DraftQuote(span_id=span.span_id, text=found.group(0))
    score, best = max(((alignment(wanted, span.text), span) for span in spans), key=_first)
    if score >= REPAIR_THRESHOLD:
        return DraftQuote(span_id=best.span_id, text=best.text)
    return None


def alignment(quote: str, sentence: str) -> float:
    """How much of ``quote`` aligns, in order, with ``sentence`` (case and spacing ignored).

    Matched characters over the quote's length, or over MIN_SHARE of the sentence's length when
    the quote is shorter than that, so a fragment that matches never passes for the sentence.
    """
    left = _SPACES.sub(" ", quote).strip().casefold()
    right = _SPACES.sub(" ", sentence).strip().casefold()
    if not left or not right:
        return 0.0
    matcher = SequenceMatcher(None, left, right, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return matched / max(len(left), MIN_SHARE * len(right))


def sentences_with_anchors(
    text: str, anchors: Sequence[Anchor], ids: EvidenceIds
) -> list[DraftSentence]:
    """Splits output text into sentences, each citing the anchors it overlaps and its markers.

    Markers ([S1], [S1, S3], [C2], [span id]) are removed from the text; unknown ids in them
    are dropped. A marker before a sentence's first word (``... kept. [S1] Next``) belongs to
    the sentence before it. A cited span without an anchored quote is quoted whole: evidence
    spans are sentences.
    """
    pieces: list[tuple[str, list[str], dict[str, DraftQuote]]] = []
    for start, end in split_sentences(text):
        cited: list[str] = []
        quotes: dict[str, DraftQuote] = {}
        for anchor in anchors:
            if anchor.start < end and anchor.end > start:
                _cite(cited, anchor.quote.span_id)
                quotes.setdefault(anchor.quote.span_id, anchor.quote)
        sentence = text[start:end]
        leading: list[str] = []
        words_seen = False
        kept: list[str] = []
        position = 0
        for marker in CITATION_MARKER.finditer(sentence):
            tokens = [token for token in MARKER_TOKENS.split(marker.group(1)) if token]
            if not tokens or not all(ids.looks_like_citation(token) for token in tokens):
                continue
            before = sentence[position : marker.start()]
            kept.append(before)
            words_seen = words_seen or bool(_WORD_CHARACTER.search(before))
            resolved = [span.span_id for token in tokens if (span := ids.resolve(token))]
            for span_id in resolved:
                _cite(cited if words_seen else leading, span_id)
            position = marker.end()
        kept.append(sentence[position:])
        clean = tidy_spacing("".join(kept))
        if leading and pieces:
            for span_id in leading:
                _cite(pieces[-1][1], span_id)
        elif leading:
            cited = [*leading, *(span_id for span_id in cited if span_id not in leading)]
        if clean and _WORD_CHARACTER.search(clean):
            pieces.append((clean, cited, quotes))
    return [
        DraftSentence(
            text=clean,
            citation_ids=cited,
            quotes=[quotes.get(span_id) or ids.quote_whole(span_id) for span_id in cited],
        )
        for clean, cited, quotes in pieces
    ]


def parse_marked_text(text: str, ids: EvidenceIds) -> list[DraftSentence]:
    """Prose that cites with [S1]-style markers and <extract ids="S1,S2">quote</extract> tags.

    An extract's quote is anchored in the evidence its ids name (verbatim, or repaired to the
    nearest evidence sentence, whose exact text then replaces the model's); an extract that
    aligns with none of them keeps its words uncited, so it can never render as verified.
    """
    out: list[str] = []
    anchors: list[Anchor] = []
    length = 0
    position = 0
    for match in _EXTRACT.finditer(text):
        prefix = _STRAY_TAG.sub("", text[position : match.start()])
        out.append(prefix)
        length += len(prefix)
        tokens = [token for token in MARKER_TOKENS.split(match.group(1)) if token]
        spans = [span for token in tokens if (span := ids.resolve(token))]
        quote = anchor_quote(match.group(2), spans)
        body = quote.text if quote else match.group(2).strip()
        if quote is not None:
            anchors.append(Anchor(start=length, end=length + len(body), quote=quote))
        out.append(body)
        length += len(body)
        position = match.end()
    out.append(_STRAY_TAG.sub("", text[position:]))
    return sentences_with_anchors("".join(out), anchors, ids)


def parse_json_sentences(raw: str, ids: EvidenceIds) -> list[DraftSentence] | None:
    """{"sentences": [{"text", "citation_ids"}]} (code fences tolerated), or None if not that.

    Ids are labels or span ids; unknown ones are dropped. Markers left in a sentence's text
    are read and removed as in prose.
    """
    fenced = _CODE_FENCE.match(raw)
    try:
        payload: Any = json.loads(fenced.group(1) if fenced else raw)
    except ValueError:
        return None
    items = payload.get("sentences") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        return None
    sentences: list[DraftSentence] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            return None
        listed = item.get("citation_ids", [])
        if not isinstance(listed, list):
            return None
        cited: list[str] = []
        for token in listed:
            span = ids.resolve(token) if isinstance(token, str) else None
            if span is not None:
                _cite(cited, span.span_id)
        # An item that holds more than one sentence cites its ids in each of them.
        for sentence in sentences_with_anchors(item["text"], [], ids):
            merged = list(cited)
            for span_id in sentence.citation_ids:
                _cite(merged, span_id)
            sentences.append(
                DraftSentence(
                    text=sentence.text,
                    citation_ids=merged,
                    quotes=[ids.quote_whole(span_id) for span_id in merged],
                )
            )
    return sentences


def parse_model_text(raw: str, ids: EvidenceIds) -> list[DraftSentence]:
    """Whatever a model wrote: the JSON format when it is that, otherwise marked prose."""
    parsed = parse_json_sentences(raw, ids)
    return parsed if parsed is not None else parse_marked_text(raw, ids)


def _cite(cited: list[str], span_id: str) -> None:
    if span_id not in cited:
        cited.append(span_id)


def _first(pair: tuple[float, EvidenceSpan]) -> float:
    return pair[0]

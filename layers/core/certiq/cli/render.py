"""An answer as `certiq ask` prints it: the words, the states, the citations."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from certiq.models import (
        QAResponse,
        Statement,
    )


# Offline, every shown sentence is quoted: VERIFIED says the document states it, and only the
# reader (then certiq's reader, per statement) can say whether it answers the question.
QUOTED_OFFLINE = (
    "Quoted offline: VERIFIED means each sentence is the documents' own words."
    " Whether it answers your question is for you to judge."
)
# certiq's judgement, not a proof: the closest passages, none of which it found to answer.
RELATED_READING = "Related reading (closest passages; none was found to state the answer):"
# NOT_FOUND_AS_WRITTEN: the question was searched untranslated, so nothing was checked against it.
UNCHECKED_READING = (
    "Closest passages, in the documents' language (not checked against the question:"
    " it was not translated):"
)


def readable(response: QAResponse) -> str:
    from certiq.models.documents import named_cells

    lines = [f"Question: {response.question}", f"Status:   {response.status.value}"]
    if response.outcome is not None:
        lines.append(f"Outcome:  {response.outcome.value}")
    refusal = response.validation
    if refusal is not None and not refusal.ok and refusal.reason_code:
        refused_by = f" (refused by {refusal.detector})" if refusal.detector else ""
        lines.append(f"Reason:   {refusal.reason_code}{refused_by}")
    if response.answer:
        lines += ["", "Answer:", f"  {response.answer}"]
        if response.answerer == "extractive" and any(s.shown for s in response.statements):
            lines.append(f"  ({QUOTED_OFFLINE})")
        if judged := [s for s in response.statements if s.shown and s.answers_question is not None]:
            lines.append("  certiq's reader, how likely each sentence answers your question:")
            lines += [f"    {s.answers_question:.2f}  {s.text[:60]}" for s in judged]
    if response.message:
        lines += ["", f"Note: {response.message}"]
    if response.related:
        unchecked = response.outcome == "NOT_FOUND_AS_WRITTEN"
        lines += ["", UNCHECKED_READING if unchecked else RELATED_READING]
        for passage in response.related:
            lines.append(f'  {passage.file_name}, page {passage.page}: "{passage.text}"')
            if passage.cells and any(cell.column for cell in passage.cells):
                lines.append(f"    a table's row: {named_cells(passage.cells)}")
    if response.search is not None and response.search.note:
        lines += ["", f"Search: {response.search.note}"]
    if response.search is not None and response.search.original_query is not None:
        lines += ["", f"Searched as: {response.search.query}  ({response.search.rewriter})"]
    if (reused := response.reused_from) is not None:
        lines += [
            "",
            f"Reused: the verified answer to {reused.question!r}, certificate"
            f" {reused.certificate_id} (its documents are unchanged)",
        ]
    withheld = [statement for statement in response.statements if not statement.shown]
    if withheld:
        lines += ["", f"Withheld: {_withheld_summary(withheld)}"]
        for statement in withheld:
            cited = "".join(f" [{cid}]" for cid in statement.citation_ids)
            lines.append(f"  {statement.state.value}: {statement.text}{cited}")
            lines.append(f"    why: {statement.reason}")
    if response.claims:
        lines += ["", "Claims:"]
        for claim in response.claims:
            decision = claim.decision
            if decision is not None:
                lines.append(
                    f"  {claim.id} {decision.state.value} ({decision.verifier}, "
                    f"entail {decision.entail:.2f}): {decision.reason}"
                )
    if response.citations:
        lines += ["", "Citations:"]
        for citation in response.citations:
            # A wrapped sentence has a box per line: the region they cover on the first page.
            on_first = [b for b in citation.boxes if b.page == citation.boxes[0].page]
            where = (
                f"box ({min(b.x0 for b in on_first):.1f}, {min(b.y0 for b in on_first):.1f})-"
                f"({max(b.x1 for b in on_first):.1f}, {max(b.y1 for b in on_first):.1f}) pt"
                f" of {on_first[0].page_width:.0f}x{on_first[0].page_height:.0f}"
                + (f", {len(on_first)} lines" if len(on_first) > 1 else "")
                if on_first
                else "no box"
            )
            # A sentence a page break cut is cited on both pages: "pages 1-2", the first's box.
            last = max((b.page for b in citation.boxes), default=citation.page)
            pages = (
                f"pages {citation.page}-{last}" if last > citation.page else f"page {citation.page}"
            )
            under = f', under "{citation.section}"' if citation.section else ""
            lines.append(f"  [{citation.id}] {citation.file_name}, {pages}{under}, {where}")
            lines.append(f'       "{citation.quote}"')
    lines += _answered_by(response)
    if response.certificate_id:
        lines += [
            "",
            f"Certificate: {response.certificate_id}  (certiq verify {response.certificate_id})",
        ]
    return "\n".join(lines)


def _withheld_summary(withheld: list[Statement]) -> str:
    """The count and why, as the page says it: "1 statement withheld: its source says otherwise"."""
    from certiq.models import RenderState

    one = len(withheld) == 1
    count = f"{len(withheld)} statement{'' if one else 's'} withheld"
    if all(statement.state is RenderState.BLOCKED for statement in withheld):
        return f"{count}: {'its source says' if one else 'their sources say'} otherwise"
    if all(statement.state is RenderState.UNVERIFIED for statement in withheld):
        return f"{count}: {'its source does' if one else 'their sources do'} not state it"
    return f"{count}: their sources say otherwise or do not state them"


def _answered_by(response: QAResponse) -> list[str]:
    """Who drafted the answer, which providers failed first, and what the model calls cost."""
    lines: list[str] = []
    if response.provider_failures:
        lines += ["", f"Answered by: {response.answerer} (fallback)"]
        lines += [
            f"  {failure.provider} did not answer: {failure.error}: {failure.message}"
            for failure in response.provider_failures
        ]
    usage = response.usage
    if usage is not None and usage.calls:
        lines += [
            "",
            f"Model usage: {usage.input_tokens} input tokens ({usage.cache_read_input_tokens}"
            f" from cache), {usage.output_tokens} output, {usage.latency_ms:.0f} ms in"
            f" {len(usage.calls)} call(s)",
        ]
    return lines

"""Guard answer: after Verify, decides what the user is shown.

The verified answer (index language) stays in ``state.answer`` and is what the certificate
seals as ``answer``; what is shown goes to ``state.shown`` (also sealed in the certificate):
the answer translated back to the question's language when a model is configured, and the
verdict on every URL it cites or contains, dead links replaced by the configured fallback URL.
A translation that altered a [C1] marker, a quote or a URL is not used (fail closed): the
verified answer is shown, with a note.
"""

from __future__ import annotations

from typing import Protocol

from certiq.config import Settings
from certiq.guardrails.language import UNDETERMINED
from certiq.guardrails.translation import TranslationBroken
from certiq.models import LinkCheck, QuestionState, ShownAnswer
from certiq.ports import DocumentStore, Translator, UrlChecker
from certiq.text import urls_in
from certiq.trust.policy import shown_claims


class GuardDeps(Protocol):
    """What Guard answer uses: a Deps is one, and the step can reach nothing else."""

    @property
    def settings(self) -> Settings: ...

    @property
    def documents(self) -> DocumentStore: ...

    @property
    def translator(self) -> Translator | None: ...

    @property
    def url_checker(self) -> UrlChecker | None: ...


def guard_answer(state: QuestionState, deps: GuardDeps) -> QuestionState:
    target = deps.settings.index_language
    wanted = answer_language(state, target)
    shown_text, translated, note = state.answer, False, None
    if wanted != target and state.answer:
        if deps.translator is None:
            note = (
                f"Translation to '{wanted}' was unavailable (no translation model is "
                f"configured): the answer is in '{target}'."
            )
        else:
            try:
                shown_text = deps.translator.translate(state.answer, target, wanted)
                translated = True
            except TranslationBroken as error:
                note = (
                    f"The answer is shown in '{target}': its translation to '{wanted}' was "
                    f"refused ({error})."
                )
    links = check_links(state, deps, shown_text)
    for link in links:
        if link.replacement and link.origin == "answer":
            shown_text = shown_text.replace(link.url, link.replacement)
    shown = ShownAnswer(
        language=wanted if translated else target,
        answer=shown_text,
        translated=translated,
        translator=deps.translator.name if translated and deps.translator else None,
        note=note,
        links=links,
    )
    return state.model_copy(update={"shown": shown})


def answer_language(state: QuestionState, target: str) -> str:
    """The language asked for, else the question's own, else the index language."""
    if state.requested_language:
        return state.requested_language
    if state.translation is not None and state.translation.detected != UNDETERMINED:
        return state.translation.detected
    return target


def web_address(uri: str) -> str | None:
    """The http(s) address of a web source: its URI, or the corpus id when that is a URL."""
    # Imported here: certiq.ingestion loads pypdfium2, which every function would otherwise
    # import (certiq.steps imports every step) on its cold start.
    from certiq.ingestion.text import document_key

    for candidate in (uri, document_key(uri)):
        if candidate.lower().startswith(("http://", "https://")):
            return candidate
    return None


def check_links(state: QuestionState, deps: GuardDeps, text: str) -> list[LinkCheck]:
    """The verdict on each web source the shown claims cite and each URL of the shown text."""
    if deps.url_checker is None:
        return []
    fallback = deps.settings.urls.fallback_url or None
    shown = {
        cid
        for claim in shown_claims(state.claims, deps.settings.policy)
        if claim.decision
        for cid in claim.decision.evidence
    }
    cited_chunks = {c.chunk_id for c in state.citations if c.id in shown}
    web_docs = sorted(
        {s.doc_id for s in state.evidence if s.source_type == "web" and s.chunk_id in cited_chunks}
    )
    targets: list[tuple[str, str]] = []
    for doc_id in web_docs:
        record = deps.documents.get(state.tenant, doc_id)
        address = web_address(record.uri) if record else None
        if address is None:
            reason = "no http(s) address recorded for this web source"
            uri = record.uri if record else doc_id
            targets.append((uri, reason))
        else:
            targets.append((address, ""))
    targets += [(url, "") for url in urls_in(text)]
    links: list[LinkCheck] = []
    seen: set[str] = set()
    for index, (url, refusal) in enumerate(targets):
        if url in seen:
            continue
        seen.add(url)
        origin = "citation" if index < len(web_docs) else "answer"
        if refusal:
            links.append(
                LinkCheck(url=url, origin=origin, allowed=False, reachable=False, reason=refusal)
            )
            continue
        verdict = deps.url_checker.check(url)
        links.append(
            LinkCheck(
                url=url,
                origin=origin,
                allowed=verdict.allowed,
                reachable=verdict.reachable,
                status=verdict.status,
                final_url=verdict.final_url,
                reason=verdict.reason,
                replacement=None if verdict.reachable else fallback,
            )
        )
    return links

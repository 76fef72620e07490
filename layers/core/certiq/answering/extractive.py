"""The offline answerer: an answer made of the evidence sentences themselves, each citing itself.

It implements the ChatModel port so the Answer state treats it like any provider. It never
writes a word the documents do not contain, which is why it needs no model and no key; it
ignores the conversation's earlier turns and calls nothing, so it costs no tokens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from certiq.answering.actions import (
    action_asked,
    names_the_action,
    with_the_action,
)
from certiq.answering.amounts import terms_with_amounts
from certiq.answering.another import about_another, coordinated_terms
from certiq.answering.answer_types import (
    answers_when,
    answers_where,
    asks_for_a_quantity,
    asks_who,
    can_answer,
    counted_kind,
    defined_term,
    names_someone,
    states_a_count_of,
    states_a_quantity,
)
from certiq.answering.antecedents import its_document, standing_for
from certiq.answering.fields import (
    asks_about_label,
    definition_answering,
    field_answering,
    held_terms,
    not_another_field,
)
from certiq.answering.instructions import (
    asks_what_to_do,
    states_an_obligation,
    tells_what_follows,
)
from certiq.answering.listed import (
    document_answering,
    may_answer,
    names_an_absent_document,
    section_answering,
)
from certiq.answering.parts import asks_only, own_words, parts_written_and_read
from certiq.answering.permissions import (
    activity_asked,
    activity_done,
    does_the_activity,
    method_asked,
    permits_the_activity,
    told_apart_by,
)
from certiq.answering.sections import named_document, says_what_it_is
from certiq.answering.spelling import corrected
from certiq.answering.topic import condition_aside, does_what_is_measured, topic
from certiq.answering.who import (
    acted_on,
    asks_after_its_case,
    does_it,
    identifies,
    names_what_is_acted_on,
    parties_told,
    role_asked,
    tells_one_of,
)
from certiq.config import AnswerSettings
from certiq.models import ConversationTurn, DraftQuote, DraftSentence, EvidenceSpan
from certiq.ports import ChatDraft
from certiq.text import (
    content_terms,
    file_name_terms,
    heading_terms,
    stem,
    words,
    written_words,
)
from certiq.trust.claims import field_labels

NEAR_DUPLICATE = 0.7
_ABOUT_THE_DOCUMENT = re.compile(
    r"(?:It|This (?:policy|plan|agreement|document|notice|standard|procedure))\b"
)
# A quantity answers "how many X" or "how often is X done" only in a sentence about X: one
# holding more than half the terms of what is asked about ("How often is access reviewed?" is
# not answered by "This policy is reviewed every 12 months"). Hand-set: PolicyQA has 9 such
# questions in 3,809, too few to fit it on.
QUANTITY_OVERLAP = 0.5
_KEEP: Final = stem("keep")
# What ends keeping a thing.
_ENDED: Final = "deleted destroyed erased purged anonymised anonymized overwritten shredded"
# Deleted, destroyed or overwritten after or within a period: not "suspends deletion".
_ENDS_KEEPING: Final = re.compile(
    rf"\b(?:{'|'.join(_ENDED.split())})\s+(?:[\w-]+\s+){{0,3}}?(?:after|within|\d)",
    re.IGNORECASE,
)


# What keeping a thing, or ending it, is written as (content terms meet "retain" and "store"
# with "keep", and a verb with its past).
_KEEPING: Final = frozenset(content_terms(f"keep hold archive dispose remove shred {_ENDED}"))


class ExtractiveAnswerer:
    def __init__(self, settings: AnswerSettings) -> None:
        self._settings = settings

    @property
    def name(self) -> str:
        return "extractive"

    def draft(
        self,
        question: str,
        evidence: Sequence[EvidenceSpan],
        history: Sequence[ConversationTurn] = (),
    ) -> ChatDraft:
        sentences, unanswered = self.answer_parts(question, evidence)
        return ChatDraft(
            sentences=sentences,
            answerer=self.name,
            unanswered=tuple(unanswered) if sentences else (),
        )

    def select(self, question: str, evidence: Sequence[EvidenceSpan]) -> list[DraftSentence]:
        """The sentences answering each part of the question (``question_parts``: "What is the
        cap and which insurance ...?" is two), part by part, each sentence once. See
        ``answer_part`` for how one part is answered."""
        return self.answer_parts(question, evidence)[0]

    def answer_parts(
        self, question: str, evidence: Sequence[EvidenceSpan]
    ) -> tuple[list[DraftSentence], list[str]]:
        """(the sentences answering the question's parts, the parts no sentence answers)."""
        sentences: list[DraftSentence] = []
        unanswered: list[str] = []
        seen: set[str] = set()
        texts = [span.text for span in evidence]
        for written, read in parts_written_and_read(question):
            # "investigaton", "hrs": the part read in the evidence's words, its own words too
            own = own_words(corrected(written, texts), corrected(read, texts))
            read = corrected(read, texts)
            # A part asking only how fast (long, often) asks it of the parts before: "who do I
            # tell and how fast?" is answered by the sentence saying whom, if it says how fast.
            answer = [s for s in sentences if can_answer(read, s.text)] if asks_only(read) else []
            answer = answer or self.answer_part(read, evidence)
            if own:  # "is it taxed?" of the first aid allowance: taxing, not paying, answers
                answer = [s for s in answer if not own.isdisjoint(content_terms(s.text))]
            if not answer:
                unanswered.append(written)
            for sentence in answer:
                if sentence.citation_ids[0] not in seen:
                    seen.add(sentence.citation_ids[0])
                    sentences.append(sentence)
        return sentences, unanswered

    def _close_enough(self, span: EvidenceSpan, terms: set[str], query: set[str]) -> bool:
        """Near the question in meaning (cosine at least min_similarity), or holding more than
        half of its terms in its own words: "SEV1: ... or a full outage of the production
        platform" answers "What is the severity of a full outage?" though MiniLM reads "SEV1"
        poorly (cosine 0.28). The document's file name counts here only for a sentence about
        the document itself ("It covers every employee and contractor ...") or one holding half
        of the question's terms, the name the rest: in data-retention-policy.pdf, "... can leave
        us unable to meet legal obligations" is no answer to "What is the parental leave
        policy?"."""
        if span.similarity is None or span.similarity >= self._settings.min_similarity:
            return True
        # A header field states what its label names: "Version 1.4." answers "What version of
        # the acceptable use policy is current?" though a line that short is far from any
        # question in MiniLM's space (cosine 0.23).
        if any(asks_about_label(label, query) for label in field_labels(span.text)):
            return True
        # A line defining what is asked about ("SEV2: suspected breach, ..." for "What is a
        # SEV2 incident?") is as far from a question in MiniLM's space as a field.
        term = defined_term(span.text)
        if term and set(content_terms(term)) <= query:
            return True
        # A sentence about the document itself ("It covers every system ...", "This policy
        # applies ...") is read with its file name's words, as held_terms reads every sentence.
        if _ABOUT_THE_DOCUMENT.match(span.text):
            terms = terms | file_name_terms(span.file_name)
        # Half of them are enough when its file name holds the rest: in supplier-agreement.pdf,
        # "Fabrikam Storage GmbH provides encrypted off-site backup storage ..." (cosine 0.06)
        # says what the supplier provides.
        named = file_name_terms(span.file_name)
        if len(terms & query) == len(query) / 2 and query <= terms | named:
            return True
        return len(terms & query) > len(query) / 2

    @staticmethod
    def _about_the_quantity(
        asked: str,
        span: EvidenceSpan,
        terms: set[str],
        held: set[str],
        query: set[str],
        alternatives: set[str],
        counted: str | None,
    ) -> bool:
        """Asked for a quantity, the sentence is about what is asked: more than half of its
        terms (or a count of the thing ``counted`` and another of them), nothing another of its
        kind ("How long are visitor logs kept?" is not answered by how long application logs
        are), and a term beyond the document's name, which says what it is about, not what is
        done with it ("How often is the acceptable use policy reviewed?" is not answered, in
        acceptable-use-policy.pdf, by how often employees confirm they have read it). Asked a
        quantity of the document itself, the sentence speaks of it: "How long is the supplier
        agreement?" is answered by "This agreement runs for 3 years.", not by how long the
        supplier has to delete data after it ends. Of things asked about together, one stands
        for all: "Which is longer, invoices or backups?" is answered by each one's period."""
        if held & alternatives:
            held = held | alternatives
        # Deleting after a period says how long a thing is kept: "Personal data of job
        # applicants is deleted 6 months after ..." for how long applicants' CVs are kept.
        if _KEEP in query and _ENDS_KEEPING.search(span.text):
            held = held | {_KEEP}
        elif _KEEP in query and terms.isdisjoint(_KEEPING):
            # how long a thing is kept is not how soon it is made: "an accident report form
            # completed within 24 hours" does not say how long the forms are kept
            return False
        core = set(content_terms(condition_aside(asked))) & query or query  # "when I'm out"
        # A count of the thing counted, with more of the question, is about it: "are issued
        # with five tunics" for how many tunics a new hygienist gets.
        counts_it = (
            counted in held and len(held & core) > 1 and states_a_count_of(counted, span.text)
        )
        if (len(held & core) / len(core) <= QUANTITY_OVERLAP and not counts_it) or about_another(
            asked, span.text, alternatives=frozenset(alternatives)
        ):
            return False
        if not does_what_is_measured(asked, terms):
            return False
        beyond_name = query - file_name_terms(span.file_name)
        done_to_it = {stem(word) for word in words(asked) if word.endswith("ed")}
        if not beyond_name or (
            beyond_name <= done_to_it and query & file_name_terms(span.file_name)
        ):
            # asked of the document, or only what is done to it: "How often is the BYOD policy
            # reviewed?" is not answered by how often an exception to it is reviewed
            return bool(_ABOUT_THE_DOCUMENT.match(span.text)) or query <= terms
        return bool(held & beyond_name)

    def answer_part(self, question: str, evidence: Sequence[EvidenceSpan]) -> list[DraftSentence]:
        """The best evidence sentences sharing question terms, most relevant first: the best one
        when it scores min_relevance, then the next while each scores keep_ratio of the best and
        holds as many of the question's terms as the first (the question is answered; more
        would be padding), near-duplicates merged. A sentence holding less than min_overlap of
        the question's terms (half or less of what it is about, when it asks for a quantity;
        none of what is asked about, when it asks whether something is allowed) is passed over,
        and so is one whose cosine with the question is below min_similarity unless its own words
        hold more than half of the question's: "What is the dress code in the office?" is not
        answered by "CCTV footage from the Leeds office is overwritten after 30
        days" (cosine 0.12).
        Titles, headings and running headers (not statements) are never an answer, nor is a
        question, a pointer elsewhere ("See ..."), a sentence that addresses an AI assistant
        (flagged at ingestion), or one that states no quantity when the question asks for one
        or does not name the kind of thing a "which X" (or "what X does") question asks for; a
        "who" question is answered by sentences naming someone when any does, and only by them
        when it asks who does something (certiq.answering.answer_types). None: abstain.
        """
        if names_an_absent_document(question, evidence):
            # "What is the company's parental leave policy?": no document at hand is it, and
            # "Keeping it for too short a time can leave us unable ..." says nothing of it.
            return []
        listed = section_answering(question, evidence) or document_answering(question, evidence)
        if listed:
            return [_drafted(span) for span in listed]
        quantity = asks_for_a_quantity(question)
        asked = topic(question) if quantity else question
        query = set(content_terms(asked))
        if not query:
            return []
        activity = activity_asked(question)
        other_documents = _other_documents(question, evidence)
        method = method_asked(question)
        action = action_asked(question)
        # Each sentence with its content terms, computed once, the action asked of among them
        # when it names it in other words ("approved" for "Who signs off ...?"). Asked how to
        # do something, a sentence doing it is near enough whatever else it says: "To
        # unsubscribe from our newsletters, click on the link ..." for "How do I opt out of the
        # company's service?" (cosine 0.23).
        statements = [
            (span, terms)
            for span in evidence
            if may_answer(span)
            and can_answer(question, span.text, span.section, span.antecedent)
            and span.doc_id not in other_documents
            and not_another_field(span.text, query)
            and (
                method
                in (
                    terms := with_the_action(
                        action, terms_with_amounts(question, span.text) | standing_for(span)
                    )
                )
                or self._close_enough(span, terms, query)
            )
        ]
        doers: set[str] = set()  # span ids
        if asks_who(question):
            # Who does it: a sentence naming no one is not the answer when another names someone,
            # nor at all when the question asks who does something ("Who can declare an
            # incident?" is not answered by "Every incident is given a severity when it is
            # declared").
            naming = [(span, terms) for span, terms in statements if names_someone(span.text)]
            statements = naming if naming or action else statements
            # Nor one doing it to something else: "The DPO ... approves exceptions" says
            # nothing of who approves access to production systems. What the sentence is
            # about is read with its document's name and its section's heading ("Owner: Head
            # of IT Operations." of acceptable-use-policy.pdf owns that policy).
            # Asked who holds a role, a sentence about what the role does is no answer: "The
            # Data Protection Officer (DPO) owns this policy ..." does not say who the DPO is.
            role = role_asked(question)
            if role is not None:
                statements = [item for item in statements if identifies(role, item[0].text)]
            if action is not None:
                # Someone doing it before the thing or the title: "... reviewed by the CISO"
                # before "The review records ..." for who reviews the plan.
                doing_it = [item for item in statements if does_it(action, item[0].text)]
                acting = [item for item in doing_it if does_it(action, item[0].text, done=True)]
                statements = acting or doing_it or statements
                # Asked after its case ("I forgot a claim ... - who approves it?"), a doer answers.
                if asks_after_its_case(question):
                    doers = {span.span_id for span, _ in doing_it}
            done_to = acted_on(question)
            if done_to:
                statements = [
                    (span, terms)
                    for span, terms in statements
                    if names_what_is_acted_on(
                        done_to,
                        terms
                        | file_name_terms(span.file_name)
                        | (heading_terms(span.section) if span.section else frozenset()),
                    )
                ]
        if method is not None:
            # Asked how to do something, the sentences saying how it is done come first:
            # "To unsubscribe from our newsletters, click on the link ..." for how to opt out
            # of marketing emails, before a sentence on who sends the e-mails.
            statements = [
                item for item in statements if names_the_action(method, item[1])
            ] or statements
        if asks_what_to_do(question):
            # Asked what to do, the rules saying what must be done answer, unless a sentence
            # stating none holds more than half of the question's words and more than they do:
            # "Paper records containing personal data are shredded on site ..." says what to do
            # with them, "Each system owner must keep ... records ..." does not.
            counted = [(item, len(held_terms(*item, query))) for item in statements]
            obliging = [(item, n) for item, n in counted if states_an_obligation(item[0].text)]
            best = max((n for _, n in counted), default=0)
            if best <= len(query) / 2 or max((n for _, n in obliging), default=0) >= best:
                statements = [item for item, _ in obliging] or statements
        done = activity_done(question)
        beyond_the_verb = told_apart_by(activity, done)
        # May it be done: a sentence about where it would be done ("Removable USB storage is
        # blocked on all company laptops" for installing software on one) is not the answer when
        # another speaks of doing it, and one saying it may be done comes before the others.
        # "It" in a sentence may be its document: "Either party may terminate it ..." of the
        # supplier agreement terminates the agreement.
        doing = []
        if done is not None:
            doing = [
                (span, terms)
                for span, terms in statements
                if does_the_activity(done, terms | its_document(span))
            ]
            doing = [it for it in doing if permits_the_activity(done, it[0].text)] or doing
            # What it is done to, or how, that no sentence doing it names is asked of the one
            # that names it: "Can I report a concern anonymously?" is answered by "... the
            # hotline run by SafeCall ... allows you to remain anonymous", not where else.
            named = [terms | its_document(span) for span, terms in doing]
            unnamed = set(done[1]).difference(*named) if doing else set()
            doing = [it for it in statements if unnamed & it[1]] or doing
        # Nor is one telling another party than the one asked of: "The DPO must be informed
        # within 24 hours" for how quickly the regulator is told.
        told = parties_told(question)
        statements = doing or [it for it in statements if tells_one_of(told, it[1])] or statements
        ranked = sorted(statements, key=lambda item: item[0].score, reverse=True)
        if not ranked or ranked[0][0].score < self._settings.min_relevance:
            return []
        field = field_answering(ranked, query)
        if field is not None:
            return [_drafted(field)]
        # A field that is not the answer is not part of it: "Owner: Head of IT Operations." says
        # nothing of what system owners must do.
        ranked = [item for item in ranked if not field_labels(item[0].text)] or ranked
        definition = definition_answering(question, ranked, query)
        if definition is not None:
            return [_drafted(definition)]
        floor = max(self._settings.min_relevance, self._settings.keep_ratio * ranked[0][0].score)
        # Asked what happens when something is done, what that thing does is the answer, and
        # the first one chosen: later ones must hold as many of the question's terms as it.
        ranked.sort(
            key=lambda item: item[0].score >= floor and tells_what_follows(question, item[0].text),
            reverse=True,
        )
        min_overlap = self._settings.min_overlap
        close_second = 0.95 * ranked[0][0].score
        only_in_one = {term for term in query if sum(term in terms for _, terms in statements) == 1}
        everywhere = _in_every_document(question, evidence)
        chosen: list[tuple[EvidenceSpan, set[str]]] = []
        first_held: set[str] = set()
        alternatives = coordinated_terms(asked) | coordinated_terms(question)
        # Asked for a quantity, or whether one holds ("Is it true that backups are kept for 90
        # days?"), a later sentence is about the same thing: not how long account data is kept.
        exact = quantity or states_a_quantity(question)
        counted_thing = counted_kind(question)
        follows = False  # the first chosen tells what follows what the question asks about
        for span, terms in ranked:
            if span.score < floor and not (quantity and alternatives):
                break
            held = held_terms(span, terms, query)
            if (len(held) / len(query) < min_overlap and span.span_id not in doers) or (
                bool(held) and held <= everywhere
            ):
                continue
            # Of things asked about together, each one's quantity answers, however it scores:
            # "Are backups kept longer than support tickets?" needs the backups' 35 days too.
            covered = {term for _, kept in chosen for term in kept}
            if span.score < floor and not held & alternatives - covered:
                continue
            if quantity and not self._about_the_quantity(
                asked, span, terms, held, query, alternatives, counted_thing
            ):
                continue
            # Asked whether something may be done, the answer is about doing it: a sentence
            # holding none of what is asked about ("bringing pets to the office") is no answer,
            # whatever it allows, nor one holding the verb alone ("... does not interfere with
            # work" says nothing of working from abroad).
            if activity and not held & (beyond_the_verb or activity):
                continue
            # A later sentence holding fewer of the question's terms than the first is about
            # something else: padding, not more of the answer. Asked for a quantity, or whether
            # one holds, it must hold the first one's terms: "How quickly must a SEV1 incident
            # be acknowledged?" is not answered further by how often SEV1 status updates are
            # posted. (Asked whether something is allowed, the same rule withheld 14 of
            # PolicyQA's gold spans.)
            # Its section's words count here only asked for a quantity, where the heading may name
            # the thing measured ("6. Legal hold" over "System owners must confirm within 2
            # business days ..."); otherwise every sentence under "4. Retention periods" would
            # hold as much of what must happen when a retention period ends as the one saying it.
            # Nor is one of another document sharing none of the first one's words of the
            # question: "Limited personal use of company devices ..." says nothing more of a
            # limit on the supplier's liability than the agreement's cap sentence says.
            compared = held if exact else held_terms(span, terms, query, in_section=False)
            if chosen and (
                len(compared) < len(first_held)
                or (exact and not held >= first_held)
                or (span.doc_id != chosen[0][0].doc_id and not compared & first_held)
            ):
                # Unless it is the quantity of another of the things asked about together: "How
                # long are invoices and backups kept?" is answered by both periods.
                swapped = held & alternatives - covered
                # Or it alone holds a word of the question: "Can I store customer information
                # on a USB stick?" is answered by "Removable USB storage is blocked ...", after
                # a rule on storing customer data that holds more of the question's words.
                if not (
                    (quantity and swapped and held >= first_held - alternatives)
                    or (not exact and compared & only_in_one and span.score >= close_second)
                ):
                    continue
            if any(_jaccard(terms, kept) >= NEAR_DUPLICATE for _, kept in chosen):
                continue
            # What a legal hold does answers what happens when one is placed; when one may be
            # placed is more about it, not more of the answer.
            tells = tells_what_follows(question, span.text)
            if chosen and follows and not tells:
                continue
            follows = follows or tells
            first_held = first_held or compared
            chosen.append((span, terms))
            if len(chosen) == self._settings.max_sentences:
                break
        if exact:
            chosen = _without_partial_answers(chosen, query)
        # Asked when, and answered with a time, a sentence stating none is padding: "SEV2:
        # suspected breach, ..." beside the 48 hours within which customers are told.
        timed = [item for item in chosen if answers_when(question, item[0].text)]
        chosen = timed or chosen
        # Asked what is not allowed, a sentence allowing something is no part of the answer:
        # "Limited personal use of company devices is allowed ..." beside "... sharing
        # accounts or passwords is not allowed".
        if _NOT_ALLOWED.search(question):
            chosen = [it for it in chosen if not _ALLOWED.search(it[0].text)] or chosen
        if chosen and _a_row_answers_more_nearly(evidence, chosen, query):
            return []  # said not stated, with the row offered: the table may hold the answer
        # The sentence holding most of the question's terms is shown first: "Does the retention
        # policy apply to contractors?" shows "It applies to all employees, contractors and ..."
        # before "The following retention periods apply ...", which scores higher without the
        # word asked about; between equals, asked when, one stating a time, and asked where,
        # one stating a place. (Stable: ties keep the score's order. Choosing by it as well, not
        # only ordering, dropped gold spans on PolicyQA: 0.274 -> 0.265.)
        chosen.sort(
            key=lambda item: (
                tells_what_follows(question, item[0].text),
                len(held_terms(item[0], item[1], query)),
                answers_when(question, item[0].text),
                answers_where(question, item[0].text),
            ),
            reverse=True,
        )
        return [_drafted(span) for span, _ in chosen]


def _a_row_answers_more_nearly(
    evidence: Sequence[EvidenceSpan],
    chosen: Sequence[tuple[EvidenceSpan, set[str]]],
    query: set[str],
) -> bool:
    """Is a table's row about what is asked more nearly than the sentences chosen?

    It is when, read with its header's labels, it holds as many of the question's terms as the
    best of them, and its cells hold one that none of them does: "Who reviews access to the
    CRM?" is not answered by "Access to production systems is reviewed on the schedule below."
    when the schedule's row for the CRM names its reviewer. A row's labels alone ("Retention
    period") never outweigh a sentence stating the fact ("Invoices are kept for seven years.").
    """
    stated = {term for span, terms in chosen for term in held_terms(span, terms, query)}
    most = max(len(held_terms(span, terms, query)) for span, terms in chosen)
    for span in evidence:
        if not span.cells or span.addresses_assistant:
            continue
        cells = set(content_terms(" ".join(cell.text for cell in span.cells))) & query
        labels = set(content_terms(" ".join(cell.column for cell in span.cells))) & query
        if len(cells | labels) >= most and cells - stated:
            return True
    return False


def _other_documents(question: str, evidence: Sequence[EvidenceSpan]) -> set[str]:
    """The documents that are another of the kind the question names: asked of "the password
    policy", data-retention-policy.pdf is a policy whose name says nothing of passwords and
    whose passages retrieved never speak of them, so "The DPO owns this policy, approves
    exceptions ..." there is no answer, and nor is anything else it says read with its name.
    A document of another kind is another too: asked when the visitor and site access
    procedure is next reviewed, hybrid-working-policy.pdf's "This policy will next be reviewed
    in January 2027." is no answer. One word of the name in common keeps a document ("the full
    retention policy"), and a document whose name does not say what it is (PolicyQA's
    ted-com.pdf) is never another."""
    terms = named_document(question)
    if terms is None:
        return set()
    speaking = {span.doc_id for span in evidence if terms & set(content_terms(span.text))}
    return {
        span.doc_id
        for span in evidence
        if says_what_it_is(span.file_name)
        and not terms & file_name_terms(span.file_name)
        and span.doc_id not in speaking
    }


def _without_partial_answers(
    chosen: list[tuple[EvidenceSpan, set[str]]], query: set[str]
) -> list[tuple[EvidenceSpan, set[str]]]:
    """Asked for a quantity, the chosen sentences but those holding only part of what another
    holds of the question's terms, or as much only with their section's words: asked how long
    there is to confirm a legal hold, "A legal hold suspends deletion ... until the General
    Counsel lifts it" is about something near "System owners must confirm within 2 business days
    ..." under "6. Legal hold". (Asked anything, the same rule withheld 26 of PolicyQA's gold
    spans and found 1: its vague questions find them in what a narrower sentence leaves out.)"""
    held = [
        (held_terms(span, terms, query), held_terms(span, terms, query, in_section=False))
        for span, terms in chosen
    ]
    return [
        item
        for item, (mine, stated) in zip(chosen, held, strict=True)
        if not any(
            mine < other or (mine == other and stated < other_stated)
            for other, other_stated in held
        )
    ]


def _in_every_document(question: str, evidence: Sequence[EvidenceSpan]) -> set[str]:
    """The names the question writes (capitalised after its first word) that the evidence of
    every document holds, when it is from three or more: the company's name tells no sentence
    apart ("Does Northwind have cyber insurance?" is not answered by "This plan describes how
    Northwind Analytics ...")."""
    names = set(
        content_terms(" ".join(word for word in written_words(question)[1:] if word[:1].isupper()))
    )
    held: dict[str, set[str]] = {}
    for span in evidence:
        held.setdefault(span.doc_id, set()).update(names.intersection(content_terms(span.text)))
    return set.intersection(*held.values()) if len(held) >= _MANY_DOCUMENTS else set()


_MANY_DOCUMENTS: Final = 3


_NOT_ALLOWED: Final = re.compile(
    r"\b(?:not\s+(?:allowed|permitted)|prohibited|forbidden|banned)\b", re.IGNORECASE
)
_ALLOWED: Final = re.compile(r"\b(?:is|are)\s+(?:allowed|permitted)\b", re.IGNORECASE)


def _drafted(span: EvidenceSpan) -> DraftSentence:
    return DraftSentence(
        text=span.text,
        citation_ids=[span.span_id],
        quotes=[DraftQuote(span_id=span.span_id, text=span.text)],
    )


def _jaccard(left: set[str], right: set[str]) -> float:
    union = left | right
    return len(left & right) / len(union) if union else 1.0

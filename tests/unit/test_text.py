"""Words and stems: what every term comparison (spans, answers, follow-ups, reuse) rests on."""

from __future__ import annotations

import pytest

from certiq.text import content_terms, section_terms, stem


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("backups", "backup"),
        # irregular past forms meet their verb
        ("kept", "keep"),
        ("keeping", "keep"),
        ("held", "hold"),
        ("made", stem("make")),
        ("paid", "pay"),
        # keeping is retaining and storing
        ("retained", "keep"),
        ("stored", "keep"),
        # unsubscribing is opting out
        ("unsubscribe", stem("opt")),
        # one's family are relatives, and a daughter is a child
        ("mum", stem("relative")),
        ("husband", stem("relatives")),
        ("daughter", stem("child")),
        # a contract is an agreement, and it ends by termination
        ("termination", "end"),
        ("agreement", "contract"),
        # a noun in -ment meets its verb, but for words whose -ment is no suffix
        ("acknowledgement", stem("acknowledged")),
        ("payments", "pay"),
        ("implement", stem("implemented")),
        ("document", stem("documents")),
        # -ied and -ies meet their verb; a verb ending in -ply is no adverb
        ("notified", "notify"),
        ("applied", "apply"),
        ("applies", stem("apply")),
        ("supplies", stem("supply")),
        # and so does a noun in -ification
        ("notification", "notify"),
        ("notifications", "notify"),
        ("classification", stem("classified")),
        # and a noun in -ability its adjective
        ("liability", stem("liable")),
        ("availability", stem("available")),
        # a control field's role meets the verb readers ask with
        ("owner", stem("owns")),
        ("approver", stem("approves")),
        # a consonant doubled before -ed or -ing is one letter of the word
        ("capped", "cap"),
        ("shipped", "ship"),
        ("transferring", "transfer"),
        # a plural in -ings meets its -ing form and the verb
        ("recordings", stem("recorded")),
        ("settings", stem("setting")),
        # CCTV footage is its recordings
        ("footage", stem("recordings")),
        # an e-mail is an email
        ("e-mail", stem("email")),
        ("e-mails", stem("emails")),
        # a motorbike is a motorcycle, extra is additional
        ("extra", stem("additional")),
        ("motorbike", stem("motorcycles")),
        # a crash or a collision is an accident
        ("crash", stem("accidents")),
        ("collision", stem("accident")),
        # a quote is a quotation
        ("quotations", stem("quotes")),
        # a possessive is its noun
        ("guardian's", stem("guardian")),
        ("company\u2019s", stem("company")),
        # a Saturday is a weekend, wine is alcohol
        ("saturday", stem("weekends")),
        ("wine", stem("alcohol")),
        # a fake claim is a false one
        ("fake", stem("false")),
        # a loss is what is lost, a theft what is stolen
        ("loss", stem("lost")),
        ("theft", stem("stolen")),
        # and Wi-Fi is wifi
        ("wi-fi", stem("wifi")),
        # a word in -us or -is is no plural: it meets its adverb
        ("anonymous", stem("anonymously")),
        ("status", "status"),
        ("basis", "basis"),
        # but d, l, s and z stay double, as in the words themselves
        ("added", "add"),
        ("called", "call"),
        ("passed", "pass"),
    ],
)
def test_a_word_and_its_inflections_share_a_stem(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


@pytest.mark.parametrize(
    "forms",
    [
        # a base word ending in e meets its forms that lost the e with -ed, -es or -ing
        ("acknowledge", "acknowledged", "acknowledges"),
        ("minute", "minutes"),
        ("agree", "agreed"),
        ("employee", "employees"),
        ("store", "stored", "storing", "stores"),
        ("delete", "deleted", "deletes"),
        # a noun in -tion or -sion meets its verb
        ("violation", "violations", "violated", "violate"),
        ("encryption", "encrypted", "encrypts"),
        ("deletion", "deleted"),
        ("discussion", "discussed"),
    ],
)
def test_a_word_ending_in_e_shares_its_stem_with_its_inflections(forms: tuple[str, ...]) -> None:
    assert len({stem(form) for form in forms}) == 1, [stem(form) for form in forms]


@pytest.mark.parametrize("word", ["action", "version", "mention", "session", "option"])
def test_a_short_word_in_ion_keeps_it(word: str) -> None:
    assert stem(word) == word


def test_a_contraction_of_a_stopword_is_no_content_term() -> None:
    assert content_terms("What's the deadline? It's whats left") == ["deadlin", "left"]


def test_personal_information_is_personal_data() -> None:
    asked = set(content_terms("How long will you keep my data?"))
    assert asked <= set(content_terms("We keep personal information as long as necessary."))


def test_a_hyphenated_compound_of_words_meets_the_same_words_written_apart() -> None:
    # GIVEN questions writing apart what policies write with a hyphen, and the other way round
    assert set(content_terms("third parties")) <= set(content_terms("third-party vendors"))
    assert set(content_terms("an opt-out choice")) >= set(content_terms("to opt out of it"))
    # AND words whose parts are no words of their own stay whole (an e-mail is an email)
    assert content_terms("e-mail COVID-19 NIST 800-88") == ["email", "covid-19", "nist", "800-88"]
    assert content_terms("Public Wi-Fi") == ["public", "wifi"]


def test_a_leaked_or_compromised_password_is_an_exposed_one() -> None:
    assert stem("leaked") == stem("compromised") == stem("exposed")


def test_a_regulator_is_an_authority() -> None:
    asked = set(content_terms("When must the regulator be told?"))
    assert stem("authority") in asked


def test_chars_are_characters() -> None:
    assert stem("chars") == stem("characters")


def test_telling_or_informing_someone_is_notifying_them() -> None:
    assert stem("told") == stem("tell") == stem("informed") == stem("notified")
    # AND information is data, not informing
    assert stem("information") != stem("notified")


def test_a_question_and_the_sentence_answering_it_share_their_terms() -> None:
    # GIVEN the demo's liability question and the clause that answers it
    asked = set(content_terms("What is the liability cap?"))
    stated = set(content_terms("The liability of each party is capped at the fees paid."))
    # THEN both of the question's terms are in the answer
    assert asked <= stated


def test_a_heading_gives_its_terms_only_to_a_question_asking_of_all_of_them() -> None:
    # GIVEN a question on confirming a legal hold
    asked = set(content_terms("How long do we have to confirm a legal hold?"))
    # THEN the heading naming a legal hold gives its terms, its number aside
    assert section_terms("6. Legal hold", asked) == set(content_terms("legal hold"))
    # AND a heading naming more than is asked gives none, nor does no heading
    assert section_terms("6. Legal hold and litigation", asked) == frozenset()
    assert section_terms(None, asked) == frozenset()

"""What kind of answer a question asks for, and which sentences can be one."""

from __future__ import annotations

import pytest

from certiq.answering.actions import (
    action_asked,
    does_the_action,
)
from certiq.answering.another import about_another, coordinated_terms
from certiq.answering.answer_types import (
    answers_when,
    answers_where,
    asks_for_amount,
    asks_what_it_is,
    can_answer,
    defined_term,
    kind_asked,
    names_someone,
)
from certiq.answering.instructions import tells_what_follows
from certiq.answering.permissions import activity_asked, activity_done, method_asked
from certiq.answering.sections import named_document
from certiq.answering.topic import condition_aside, topic
from certiq.text import content_terms


@pytest.mark.parametrize(
    ("question", "sentence", "answers"),
    [
        # An amount is a number, written in digits or in words
        ("How many characters must a password have?", "Passwords need 14 characters.", True),
        ("How many characters must a password have?", "Passwords need fourteen characters.", True),
        ("How many characters must a password have?", "Passwords must not be shared.", False),
        ("What is the maximum fine for sharing passwords?", "Sharing is not allowed.", False),
        ("How much does the plan cost?", "The plan costs EUR 1,200 a year.", True),
        # a count is of the thing asked about, and a fine is an amount
        ("How many employees does Northwind have?", "Northwind has 240 employees.", True),
        ("How many employees does Northwind have?", "Northwind is told within 24 hours.", False),
        # a compound counts its last noun: swaps, not shifts
        ("how many shift swaps am i allowed", "Each member may make 4 swaps a month.", True),
        ("how many shift swaps am i allowed", "No shift is shorter than 4 hours.", False),
        # a temperature is named by its value, not the word
        ("what temperature should a fridge be", "Fridges must run at 5°C or below.", True),
        ("what temperature should the fridge be", "Temperatures are checked twice a day.", False),
        ("How much notice is needed to end it?", "It ends with 90 days' written notice.", True),
        ("What is the fine for breaking the GDPR?", "Breaking the GDPR is serious.", False),
        # whether there is one: money, for what is asked of
        ("Is there a fee for exceptions?", "Approved exceptions are valid for 12 months.", False),
        ("Is there a fee for exceptions?", "Liability is capped at the fees paid.", False),
        ("Is there a fee for exceptions?", "Each exception costs a fee of 50 EUR.", True),
        # asked whether there is a thing, a sentence naming none is no answer; asked whether
        # there is a value, one about something else is none
        ("Is there a cycle to work scheme?", "Staff work two days in the office.", False),
        ("Is there a cycle to work scheme?", "A cycle to work scheme is offered.", True),
        ("Is there a rate for electric scooters?", "The mileage rates change yearly.", False),
        # and asked what a value is for someone, one not naming them is none
        (
            "whats the hourly rate for a room attendant",
            "Hours worked beyond 40 are paid at 1.25 times the basic hourly rate.",
            False,
        ),
        ("whats the hourly rate for a room attendant", "Room attendants earn £12 an hour.", True),
        ("Is there a limit on how long exceptions last?", "Exceptions last 12 months.", True),
        ("Is there a way to opt out of emails?", "You can unsubscribe from emails.", True),
        # an amount of time is no amount of money
        ("How much are the supplier's fees?", "It is capped at the fees paid in 12 months.", False),
        ("How much are the supplier's fees?", "The fees are 1,200 a year.", True),
        # a penalty need not be an amount: it is named by the sanction
        ("What is the penalty for a violation?", "It may lead to dismissal.", True),
        ("What is the penalty for a violation?", "Breaches lead to disciplinary action.", True),
        ("What is the penalty for a violation?", "The policy is reviewed yearly.", False),
        ("What is the penalty for a false claim?", "They are treated as gross misconduct.", True),
        # A duration or frequency may be stated without digits
        ("How long are backups kept?", "Backups are kept for 35 days.", True),
        ("How long are backups kept?", "Backups are kept until the contract ends.", True),
        ("How long are backups kept?", "Backups are kept as long as the account is open.", True),
        ("How often are keys rotated?", "Keys are rotated monthly.", True),
        ("How long are backups kept?", "Backups are encrypted at rest.", False),
        # a number alone is no duration, nor is how often something is done
        ("How long is my information kept?", "We collect it from children under 13.", False),
        ("How long do exceptions last?", "The DPO reports exceptions every quarter.", False),
        ("How long are logs kept?", "Logs are kept for 13 months and reviewed monthly.", True),
        # how often asks for a frequency: a duration, or "each" and "every" of things, is not one
        ("How often is the policy reviewed?", "It is reviewed every 12 months.", True),
        ("How often must lone workers check in?", "They check in every two hours.", True),
        ("How often is the suite deep cleaned?", "At the end of every operating day.", True),
        # a number word alone is no duration
        ("How long is the audit log kept?", "Ten hand washes are observed each quarter.", False),
        ("How long is the audit log kept?", "The audit log is kept for ten years.", True),
        # asked when it is next reviewed, a date answers, not what else is reviewed
        ("When is the procedure next due for review?", "It is next reviewed in May 2026.", True),
        ("When is the procedure next due for review?", "Access is reviewed by owners.", False),
        ("When is the policy due for review?", "Give 21 days' notice of leave.", False),
        ("When is the policy due for review?", "The next review is due in January 2027.", True),
        ("How often is the plan tested?", "The plan is tested twice a year.", True),
        ("How often do deletion jobs run?", "Deletion jobs run every night.", True),
        ("How often is the policy updated?", "We update it from time to time.", True),
        ("How often is the policy reviewed?", "Data is deleted within 30 days.", False),
        ("How often is the policy reviewed?", "Each system owner keeps a record.", False),
        ("How often is the policy reviewed?", "Every record has an owner.", False),
        # "how many times" counts occurrences, which a frequency states
        ("How many times a year is the plan tested?", "It is tested twice a year.", True),
        ("How many times a year is the plan tested?", "It is tested by the CISO.", False),
        # "Which X" is answered only by a sentence that names an X
        ("Which cloud provider hosts the database?", "MFA is required for the cloud.", False),
        ("Which cloud provider hosts the database?", "Our provider is Hetzner.", True),
        ("Which insurance must the supplier hold?", "The supplier holds cyber insurance.", True),
        ("Which type of data is shared?", "Usage data is shared with partners.", True),
        ("Which type of data is shared?", "Your email address is shared.", False),
        # nor a sentence naming another place than the one asked of
        (
            "How long is CCTV in Manchester kept?",
            "CCTV from the Leeds office is kept 30 days.",
            False,
        ),
        ("How long is CCTV in Leeds kept?", "CCTV from the Leeds office is kept 30 days.", True),
        # and asked of abroad, places at home are another place
        ("What is the hotel limit abroad?", "It is £150 in London and £95 elsewhere.", False),
        ("What is the hotel limit abroad?", "It is £150 in London and £200 abroad.", True),
        ("What is the hotel limit abroad?", "Hotels are limited to £150 a night.", True),
        # Asked what a document says about something, a sentence not naming it says nothing
        ("Does the plan say anything about ransomware?", "This plan covers incidents.", False),
        ("Does the plan say anything about ransomware?", "Ransomware is a SEV1 incident.", True),
        ("Does the induction cover asbestos?", "The induction is valid for one year.", False),
        ("Does the induction cover asbestos?", "It covers asbestos and fire safety.", True),
        # asked for a phone number, an e-mail address or a website, one must be given
        ("What is the hotline's phone number?", "The hotline is open 24 hours a day.", False),
        ("What is the hotline's phone number?", "Call the hotline on 0161 555 0192.", True),
        ("What is the email address of the DPO?", "Write to dpo@example.org.", True),
        ("What is the email address of the DPO?", "The DPO answers e-mails.", False),
        ("What is the website of the regulator?", "See www.ico.org.uk for details.", True),
        # a number to ring is a phone number, and a question may be the thing asked for alone
        ("What number do I ring after a crash?", "Report every accident the same day.", False),
        ("What number do I ring after a crash?", "Ring the accident line on 0800 612 4470.", True),
        # and a phone number is no amount: the line's number answers, not a count
        ("What number do I ring after a crash?", "Report it on 0800 612 4470.", True),
        ("HR email address for leave questions?", "Adopters must tell HR within 7 days.", False),
        ("HR email address for leave questions?", "Write to people@example.org.", True),
        # the e-mail for someone is their address; e-mail as a service is no contact asked for
        ("What's the email for the Research Data Service?", "It answers in 10 days.", False),
        ("What's the email for the Research Data Service?", "Write to rdm@example.org.", True),
        ("Which services need MFA besides email?", "MFA is required for the VPN.", True),
        # a number of things is no phone number, nor is an address collected one asked for
        ("What is the number of days allowed?", "Up to 10 days are allowed.", True),
        ("What email address do you collect?", "We collect your name.", True),
        # a website named, not asked for
        ("Can I install software from any website?", "Do not install unknown software.", True),
        ("What information does the website collect?", "We collect your name.", True),
        # nor by one naming another of its kind
        (
            "What's the encryption standard for laptops?",
            "Returned laptops are wiped to NIST 800-88 standard.",
            False,
        ),
        ("Which disk encryption do laptops use?", "Laptops use full-disk encryption.", True),
        ("Which standard is used to wipe disks?", "Disks are wiped to NIST 800-88 standard.", True),
        ("Which do you prefer?", "Either will do.", True),
        # a temperature is named by its degrees
        ("What temperature are galleries heated to?", "Heating is set to 18 degrees.", True),
        ("What temperature are galleries heated to?", "Heating is switched off at 6pm.", False),
        # "What is the X" too, unless X is a word answers do not repeat
        ("What is the budget for security training?", "Security training is annual.", False),
        ("What is the liability cap?", "Liability is capped at the fees paid.", True),
        ("What is the purpose of the logs?", "Logs support investigations.", True),
        ("What is the retention period for invoices?", "Invoices are kept for 7 years.", True),
        # "what is the X period" asks for a duration
        ("What is the notice period?", "Either party may end it with 90 days' notice.", True),
        ("What is the notice period?", "Notice periods run from the date of the notice.", False),
        # "what is the X date" asks for a date
        ("What is the effective date of the policy?", "Effective 1 March 2024.", True),
        ("What is the start date of the contract?", "It starts on 2024-01-01.", True),
        ("What is the effective date of the policy?", "Periods run from the date.", False),
        ("When did the plan take effect?", "Effective 15 January 2024.", True),
        ("When did the plan take effect?", "The plan takes effect once approved.", False),
        ("When was the agreement signed?", "Signed on 15 January 2024.", True),
        ("When was the agreement signed?", "This agreement runs for 3 years.", False),
        # a word beginning as a month does, or the modal "may", states no date
        ("When was the policy reviewed?", "Employees may use devices for work.", False),
        ("When was the breach declared?", "The DPO decides on marketing to separate lists.", False),
        ("When was the policy reviewed?", "It was last reviewed in May 2023.", True),
        ("When was the policy reviewed?", "It was reviewed on 3 Sept. 2023.", True),
        # "what time" asks for a time of day
        ("What time do deletion jobs start?", "Deletion jobs start at 02:00 UTC.", True),
        ("What time do deletion jobs start?", "Deletion jobs run every night.", False),
        # opening hours are when a place is open, not any number of hours
        ("What are their opening hours?", "Parties check in every 24 hours.", False),
        ("What are their opening hours?", "The desk is open 9am to 5pm.", True),
        ("What are the office hours of HR?", "HR is staffed Monday to Friday.", True),
        ("Is travel outside working hours paid?", "Travel time is paid at the usual rate.", True),
        # "for what time period" asks how long, in any words that state a duration
        ("For what time period is my data kept?", "We keep it as long as necessary.", True),
        ("For what time period is my data kept?", "We may store it indefinitely.", True),
        ("For what period are logs kept?", "Logs are kept for 13 months.", True),
        ("Within what time frame is it confirmed?", "It is confirmed within 2 days.", True),
        ("Within what time frame is it confirmed?", "It is confirmed by the owner.", False),
        ("For what time period is my data kept?", "We keep data about your visits.", False),
        # "what is a X" asks for a definition, which need not repeat X's kind
        ("What is a SEV2 incident?", "SEV2: suspected breach, or degradation.", True),
        # a sentence naming another of what the question names is no answer
        ("Who manages the Manchester office?", "The Leeds office is run by Ann.", False),
        ("Who manages the Leeds office?", "The Leeds office is run by Ann.", True),
        # an organisation's name, told by its legal form, names a supplier, a vendor, a company
        (
            "Which supplier stores the off-site backups?",
            "Fabrikam Storage GmbH provides encrypted off-site backup storage.",
            True,
        ),
        ("Which vendor is used for payments?", "Payments are processed by Acme, Inc.", True),
        ("Which supplier stores the off-site backups?", "Backups are stored off-site.", False),
        ("Which insurance must the supplier hold?", "Fabrikam GmbH holds a policy.", False),
        # Other questions ask for no particular kind
        ("Who approves a legal hold?", "The General Counsel approves it.", True),
        ("Where is customer data stored?", "Customer data is stored in Frankfurt.", True),
        ("Combien de caractères faut-il ?", "Les mots de passe sont partagés.", True),
    ],
)
def test_a_sentence_can_answer_only_with_the_kind_of_answer_asked_for(
    question: str, sentence: str, answers: bool
) -> None:
    assert can_answer(question, sentence) is answers


@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("How often must access rights be reviewed?", "must access rights be reviewed"),
        ("What is the maximum fine for sharing passwords?", "fine for sharing passwords"),
        ("Hi, I am [NAME_1] ([EMAIL_1]): how long are backups kept?", "are backups kept"),
        ("Who approves a legal hold?", "Who approves a legal hold?"),
        ("For what time period will you store my information?", "will you store my information"),
        # the verb that asks for the duration is not what the answer is about
        ("Is there a limit on how long exceptions last?", "exceptions"),
        ("How long does a restore take?", "does a restore"),
        # nor is taking it, or a light verb after it: the answer is about the records
        ("How long does it take to get my records?", "my records"),
        (
            "How long will it take for a SEV1 page to be acknowledged?",
            "a SEV1 page to be acknowledged",
        ),
        # nor is a word naming the quantity: the answer is about passwords
        ("What is the minimum password length?", "password"),
        ("What is the maximum number of login attempts?", "of login attempts"),
        ("What is the notice period for ending the agreement?", "notice for ending the agreement"),
        # a deadline asks for a time, written with or without the apostrophe
        ("Whats the deadline for telling the regulator", "for telling the regulator"),
        ("What's the deadline for installing updates?", "for installing updates"),
        # nor is the verb asking for money: the answer is about lunch
        ("How much can I spend on lunch?", "lunch"),
        ("How much can staff claim for a desk?", "a desk"),
        # and so does being charged: what it is asked of is the case it is charged in
        (
            "How much could I be charged if I damage a van?",
            "if I damage a van",
        ),
        # how long or large the thing is is said of it, not asked of it
        ("How often should I stop on a long drive?", "should I stop on drive"),
        # "have I got to" asks what must be done, as "must I" does: getting is no part of it
        (
            "How long have I got to install security updates on my phone?",
            "install security updates on my phone",
        ),
    ],
)
def test_the_topic_of_a_question_leaves_out_the_words_asking_for_a_quantity(
    question: str, about: str
) -> None:
    assert " ".join(topic(question).split()) == about


def test_a_quantity_is_asked_of_the_topic_without_its_condition() -> None:
    # GIVEN a topic ending in the condition it is asked under
    asked = topic("How much can I spend on lunch when I'm out on visits all day?")
    # THEN the condition is set aside, and a topic without one is whole
    assert condition_aside(asked).strip() == "lunch"
    assert condition_aside(" records kept") == " records kept"
    # so is what happens after, and who would be needed
    asked = topic("how long do we need someone on fire watch after welding")
    assert " ".join(condition_aside(asked).split()) == "do we on fire watch"


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which cloud provider hosts the production database?", "provider"),
        ("Which insurance must the supplier hold?", "insuranc"),
        ("Which types of cookies are used?", "cooky"),
        ("Which third parties receive my data?", "party"),
        ("Which do you prefer?", None),
        ("Which law governs the supplier agreement?", "law"),  # "governs" is the verb
        ("Which court settles disputes?", "court"),  # a plural after it: "settles" is the verb
        ("Which vendor processes payments?", "vendor"),
        ("Which cloud providers host the data?", "provider"),
        # A plural is the kind, the word after it its verb; a generic kind asks for a list
        # answers need not call by it ("... required for e-mail, source code hosting ...")
        ("Which services need MFA besides email?", None),
        ("Which systems require multi-factor authentication?", None),
        ("Which team handles incidents?", "team"),
        # "What X" before a verb asks for an X, unless X is a word answers do not repeat
        ("What uptime does the supplier guarantee?", "uptim"),
        ("What insurance must the supplier hold?", "insuranc"),
        ("What data do you collect?", None),
        ("What service does the supplier provide?", None),
        ("What products do you sell?", None),
        ("For what purpose do you use my data?", None),
        ("What type of personal info is shared with third parties?", None),
        # "what is the X" asks for an X too, but not for a word answers do not repeat
        ("What is the liability cap?", "cap"),
        ("What is the SLA for restoring backups?", None),  # a time says it, not the word
        ("What's the liability cap?", "cap"),
        ("What is the encryption standard for laptops?", "standard"),
        ("What is the budget for security training?", "budget"),
        ("What is the purpose behind retaining my data?", None),
        ("What are the ways third parties obtain our information?", None),
        ("What is the company's policy towards children?", None),
        ("What does the policy cover?", None),
        # "who is the X" asks for the one who is an X
        ("Who is the CEO of Northwind Analytics?", "ceo"),
        # a title written in capitals is the name, whole
        ("Who is the Speaking Up Guardian?", "guardian"),
        ("Who is the Chief Information Security Officer?", "officer"),
        ("Who is the contact for privacy questions?", None),
    ],
)
def test_a_which_question_names_the_kind_of_thing_it_asks_for(
    question: str, kind: str | None
) -> None:
    assert kind_asked(question) == kind


@pytest.mark.parametrize(
    ("sentence", "names"),
    [
        ("The General Counsel may place a legal hold on relevant records.", True),
        ("We share your data with advertisers.", True),
        ("The on-call engineer must acknowledge a page within 15 minutes.", True),
        ("A lost device must be reported to the IT service desk within 1 hour.", True),
        ("The following retention periods apply unless a legal hold is in place.", False),
        ("Backups are encrypted at rest.", False),
        # "individual" is someone as a noun, not before the things it counts one by one
        ("An individual may ask for a copy of their data.", True),
        ("Approval limits apply to the whole contract value, not to individual invoices.", False),
    ],
)
def test_a_sentence_names_someone_by_a_role_a_party_or_a_capitalised_name(
    sentence: str, names: bool
) -> None:
    assert names_someone(sentence) is names


@pytest.mark.parametrize(
    ("question", "sentence", "answers"),
    [
        ("When must customers be told?", "Customers are told within 48 hours.", True),
        ("When must customers be told?", "SEV2: a suspected breach of customer data.", False),
        ("By when is the review held?", "It is held by 1 March 2024.", True),
        # "what happens when" asks what, not when
        ("What happens when a hold is placed?", "A hold lasts 30 days.", False),
    ],
)
def test_a_when_question_is_answered_by_a_sentence_stating_a_time(
    question: str, sentence: str, answers: bool
) -> None:
    assert answers_when(question, sentence) is answers


@pytest.mark.parametrize(
    ("question", "activity"),
    [
        ("Is working from abroad allowed?", "working abroad"),
        ("Does the policy allow bringing pets to the office?", "bringing pets office"),
        ("Can I use ChatGPT with customer data?", "use ChatGPT customer data"),
        ("Am I allowed to share my password?", "share password"),
        # whether someone must do it: the activity, not who would do it
        ("Does the supplier have to carry cyber insurance?", "carry cyber insurance"),
        ("Is the supplier required to delete data?", "delete data"),
        # "take away" is a verb, not a place
        ("Can the association take away my arrangement?", "association take arrangement"),
        # not a yes/no question, or not one about permission
        ("Where can I send questions about the policy?", ""),
        ("Does the retention policy apply to contractors?", ""),
    ],
)
def test_a_permission_question_asks_about_an_activity(question: str, activity: str) -> None:
    assert activity_asked(question) == set(content_terms(activity))


@pytest.mark.parametrize(
    ("asked", "sentence", "another"),
    [
        ("are visitor logs kept", "Application and security logs are retained.", True),
        ("are application logs kept", "Application and security logs are retained.", False),
        ("do we keep logs", "Application and security logs are retained.", False),
        ("is customer data kept", "Backups of customer data are kept for 35 days.", False),
        ("do we keep job applicants' data", "Personal data of job applicants is deleted.", False),
        # a verb after its subject names no kind of the noun after it
        (
            "do we keep data about job applicants",
            "Personal data of job applicants is deleted.",
            False,
        ),
        # a word before the noun that is no word of a name ("this plan") names nothing else
        ("is the incident response plan tested", "This plan is tested twice a year.", False),
        # a letter is no word naming a kind ("r" for "are")
        ("r logs kept", "Application and security logs are retained.", False),
        # an acronym before a plural names its kind, as any word does
        ("are HR records kept", "Invoices and accounting records are kept for 7 years.", True),
        ("are accounting records kept", "Invoices and accounting records are kept.", False),
        # a participle says what state a thing is in, not which kind it is, unless the
        # question names a state too
        ("is cctv footage kept", "Recorded footage is kept for 31 days.", False),
        ("are archived emails kept", "Deleted emails are kept for 30 days.", True),
        ("are encrypted backups kept", "Unencrypted backups are destroyed.", True),
        # a number says how many, not which kind
        ("shift swaps am i allowed", "Each member may make no more than 4 swaps a month.", False),
        # "get paid" is a passive: "Fair Payment" is no other kind of paying
        (
            "do small subcontractors get paid",
            "Under our Fair Payment Charter, subcontractors are paid within 21 days.",
            False,
        ),
    ],
)
def test_a_sentence_about_another_of_the_thing_asked_about(
    asked: str, sentence: str, another: bool
) -> None:
    assert about_another(asked, sentence) is another


def test_only_a_capitalised_word_names_another_when_names_only() -> None:
    leeds = "CCTV footage from the Leeds office is overwritten after 30 days."
    assert about_another("Who runs the Manchester office?", leeds, names_only=True)
    # a list is no modification: in "Dental nurses, hygienists and therapists" nurses are no
    # kind of hygienist
    listed = "Dental nurses, hygienists and therapists are issued with five tunics."
    assert not about_another("tunics does a new hygienist get", listed)
    assert about_another("tunics does a new hygienist get", "Dental hygienists get two.")
    assert not about_another("Who runs the main office?", leeds, names_only=True)
    assert about_another("Who runs the main office?", leeds)
    # a capitalised subject before its verb is no name of a kind of thing
    tracking = "We use technologies to track use of the site, including cookies."
    assert not about_another("Does TED use cookies?", tracking, names_only=True)
    assert not about_another("How long does TED keep my data?", "We store your name.")


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What is SEV1?", True),
        ("What is a SEV2 incident?", True),
        ("What counts as a SEV1 incident?", True),
        ("What does SEV3 mean?", True),
        ("What is the SEV1 acknowledgement time?", False),
        ("What is the retention period for invoices?", False),
    ],
)
def test_a_question_asks_what_something_is(question: str, asks: bool) -> None:
    assert asks_what_it_is(question) is asks


def test_a_definition_line_names_the_term_it_defines() -> None:
    assert defined_term("SEV1: confirmed breach of customer data.") == "SEV1"
    assert defined_term("Backups are kept for 35 days.") is None


def test_a_where_question_is_answered_by_a_sentence_stating_a_place() -> None:
    question = "Where must customer data not be stored?"
    assert answers_where(question, "Do not store customer data in personal cloud storage.")
    assert not answers_where(question, "Customer data is kept for 35 days and then deleted.")
    assert not answers_where("How long is data kept?", "Data is kept in Frankfurt.")


@pytest.mark.parametrize(
    ("question", "action"),
    [
        ("Who must approve access to production systems?", "approv"),
        ("Who audits the supplier's security?", "audit"),
        ("Who is notified of a breach?", "notify"),  # a passive asks the action too
        ("Who is responsible for backups?", None),  # a role, not an action
        ("Who is the owner of the plan?", None),
        ("Who should I contact about a breach?", None),  # a subject first: not read
        ("Does the website name the third parties, who gets my data?", None),  # not opening
        ("Who must promptly report a breach?", "report"),  # an adverb before the verb
        ("Who must comply with the policy?", "comply"),  # a verb in -ly is the verb
        ("Who can apply for an exception?", "apply"),
        # a role, unless responsible for doing something
        ("Who is responsible for checking the defibrillators?", "check"),
        # after the case it is asked of: a dash, or a clause of condition
        ("I forgot a claim from May - who can approve it now?", "approv"),
        ("If the CEO is away, who signs off a statement?", "sign"),
        # or a comma; and after "has to", "needs to", "is allowed to"
        ("I want 40 days of consultancy this year, who has to agree?", "agre"),
        ("Who needs to sign the form?", "sign"),
        ("Who is allowed to approve refunds?", "approv"),
    ],
)
def test_a_who_question_asks_the_doer_of_an_action(question: str, action: str | None) -> None:
    assert action_asked(question) == action


@pytest.mark.parametrize(
    ("question", "sentence", "answers"),
    [
        ("Who can talk to journalists?", "Nobody else may speak to the press.", True),
        ("Who must approve access?", "The CISO gives approval for access.", True),
        ("Who must approve access?", "Every employee with access must be trained.", False),
        ("Who receives my data?", "We share your data with our partners.", True),
        ("Who can set up a new account?", "Only the Communications Team may open one.", True),
        (
            "Who is responsible for checking the defibrillators?",
            "Anyone may use a defibrillator in an emergency.",
            False,
        ),
    ],
)
def test_a_who_question_is_answered_by_a_sentence_naming_the_action(
    question: str, sentence: str, answers: bool
) -> None:
    assert can_answer(question, sentence) is answers


def test_what_follows_a_thing_is_told_by_a_sentence_opening_with_it() -> None:
    question = "What happens when a legal hold is placed?"
    assert tells_what_follows(question, "A legal hold suspends deletion.")
    assert not tells_what_follows(question, "The General Counsel may place a legal hold.")
    assert not tells_what_follows("When is a legal hold placed?", "A legal hold suspends deletion.")


@pytest.mark.parametrize(
    ("sentence", "answers"),
    [
        (
            "Where this policy and a customer contract disagree, the stricter of the two applies.",
            False,
        ),
        ("A fine of EUR 500 applies to each shared password.", True),
        ("Sharing a password is fined at one day's pay.", True),
        ("Regulators may fine up to 4% of annual turnover.", True),
    ],
)
def test_asked_what_fine_applies_an_answer_names_a_fine_or_states_money(
    sentence: str, answers: bool
) -> None:
    assert asks_for_amount("What fine applies?")
    assert can_answer("What fine applies?", sentence) is answers


def test_a_number_to_ring_is_no_amount() -> None:
    # GIVEN a question asking for a number to ring, and one asking for a number of things
    # THEN the first asks for a phone number, not an amount; the second asks for an amount
    assert not asks_for_amount("What number do I ring after a crash in a company car?")
    assert asks_for_amount("What number of days is allowed?")


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Who approves exceptions to the password policy?", {"password"}),
        ("What does our incident response plan require?", {"incident", "respons"}),
        ("Who owns the acceptable use policy?", {"acceptabl", "use"}),
        ("When is the visitor and site access procedure next due?", {"visitor", "sit", "access"}),
        # The kind alone names no document in particular, nor does a question naming none
        ("Who approves exceptions to the policy?", None),
        ("How long are backups kept?", None),
    ],
)
def test_the_document_a_question_names_is_read_as_its_terms(
    question: str, named: set[str] | None
) -> None:
    assert named_document(question) == (None if named is None else frozenset(named))


@pytest.mark.parametrize(
    ("question", "activity"),
    [
        ("Is it allowed to install software on a company laptop?", ("install", {"softwar"})),
        ("May contractors access customer data?", ("access", {"customer", "data"})),
        ("Can I work from abroad?", ("work", set())),
        ("Is working from abroad allowed?", ("work", set())),
        ("Does the policy allow bringing pets to the office?", ("bring", {"pet"})),
        # Asking someone to do it asks whether it may be done
        ("Can I ask the company to delete my data?", ("delet", {"data"})),
        # A light verb says nothing of what is done; a question asking no permission has none,
        # nor one asking what the company can do
        ("Am I allowed to make changes in my account data?", None),
        ("How long are backups kept?", None),
        ("Can you identify me via my data?", None),
    ],
)
def test_what_a_permission_question_asks_may_be_done(
    question: str, activity: tuple[str, set[str]] | None
) -> None:
    found = activity_done(question)
    assert (found if found is None else (found[0], set(found[1]))) == activity


def test_being_reported_to_is_being_told() -> None:
    # GIVEN a question asking who must be informed, and a rule on whom a loss is reported to
    rule = "A lost or stolen device must be reported to the IT service desk within 1 hour."
    # THEN the rule names the action asked of, as notifying and telling would
    assert does_the_action("inform", rule)
    assert not does_the_action("inform", "Lost devices are wiped remotely.")


def test_drafting_a_statement_is_writing_it() -> None:
    # GIVEN who writes the press statement, and the rule naming who drafts public statements
    action = action_asked("Who writes the press statement?")
    rule = "The Communications Lead drafts all customer and public statements."
    # THEN drafting is the writing asked of, and a sentence doing neither is not
    assert action is not None
    assert does_the_action(action, rule)
    assert not does_the_action(action, "Nobody else may speak to the press about an incident.")


def test_holding_a_register_is_keeping_it() -> None:
    # GIVEN who keeps the gifts register, and the rule naming who holds it
    action = action_asked("Who keeps the gifts and hospitality register?")
    rule = "The register is held by Legal and Democratic Services."
    # THEN holding (or maintaining) it is the keeping asked of
    assert action is not None
    assert does_the_action(action, rule)
    assert does_the_action(action, "The Civic Office maintains the register.")
    assert not does_the_action(action, "Gifts worth £25 or more are entered in the register.")


def test_a_word_beginning_as_an_action_does_is_not_doing_it() -> None:
    # GIVEN who signs off, and a purpose naming regulators (an "authority" to the stemmer)
    purpose = "This plan describes how we notify customers and regulators."
    # THEN naming an authority is no authorising, nor information informing
    assert not does_the_action("sign", purpose)
    assert not does_the_action("inform", "Information is kept for 13 months.")
    assert does_the_action("sign", "Changes are authorised by the CISO.")


@pytest.mark.parametrize(
    ("action", "sentence"),
    [
        # its words as written: "agreement" is a contract to the stemmer, and agreeing here
        ("agre", "More than 30 days a year needs the agreement of the Provost."),
        # and actions policies write in other words
        ("okay", "Hospitality must be approved by your Head of Service."),
        ("deal", "Complaints about a Practice Manager are handled by the Regional Manager."),
        ("log", "The supervisor records the accident in SafeHub."),
    ],
)
def test_an_action_is_named_in_the_words_policies_write_for_it(action: str, sentence: str) -> None:
    assert does_the_action(action, sentence)


def test_a_participle_before_its_noun_does_nothing() -> None:
    # GIVEN a rule naming "an approved supplier", and one in which someone approves
    supplier = "Failed disks are destroyed by an approved supplier, who gives a certificate."
    # THEN only the second approves
    assert not does_the_action("approv", supplier)
    assert does_the_action("approv", "The DPO approves exceptions.")
    assert does_the_action("approv", "It is approved by the board.")


def test_things_asked_about_together_are_read_as_alternatives() -> None:
    assert coordinated_terms("How long are invoices and backups kept?") == {"invoic", "backup"}
    # words with digits, after a determiner, are things too
    asked = "Which is longer: the SEV1 or the SEV2 acknowledgement window?"
    assert coordinated_terms(asked) == {"sev1", "sev2"}
    # and what follows a colon is what is asked about
    assert topic(asked) == "the SEV1 or the SEV2 acknowledgement window"
    assert coordinated_terms("How long are logs or backups kept?") == {"log", "backup"}
    # a stopword on either side joins no two things
    assert coordinated_terms("How long are backups kept and why?") == set()


def test_a_verb_in_ly_is_what_a_permission_question_asks_may_be_done() -> None:
    # GIVEN a permission question whose verb ends in -ly / WHEN its activity is read
    # THEN the verb is the activity, not an adverb before "for"
    assert activity_done("Can I apply for an exception to the policy?") == ("apply", frozenset())
    assert activity_done("Can I quickly install software?") == (
        "install",
        frozenset(content_terms("software")),
    )


@pytest.mark.parametrize(
    ("question", "method"),
    [
        ("How can I opt out of marketing emails?", "opt"),
        ("How do I delete my account?", "delet"),
        ("How can users quickly access their data?", "access"),
        ("How do I get my data?", None),  # too light a verb to say what is done
        ("How do you inform users of changes?", None),  # asked of the organisation
        ("How long are backups kept?", None),
    ],
)
def test_a_how_to_question_asks_how_its_verb_is_done(question: str, method: str | None) -> None:
    assert method_asked(question) == method


def test_the_most_one_may_spend_is_an_amount() -> None:
    # GIVEN the most the asker can spend, the maximum written short, and the most of a kind
    # THEN the first two ask for an amount, the last for no amount
    assert asks_for_amount("whats the most i can spend on the fuel card in one go")
    assert asks_for_amount("what's the max fee for a late return")
    assert not asks_for_amount("what is the most important rule")


@pytest.mark.parametrize(
    ("question", "sentence", "answers"),
    [
        # whether something is liable: a sentence naming liability, not one on breaches
        (
            "is the supplier liable for data breaches",
            "The DPO must be informed of any suspected personal data breach within 24 hours.",
            False,
        ),
        (
            "is the supplier liable for data breaches",
            "The liability of each party is capped at the fees paid in the 12 months.",
            True,
        ),
        # "refundable" is named by refunds
        ("Is the deposit refundable?", "Deposits are refunded less a £100 fee.", True),
        # an adjective before its noun is no predicate
        ("Are visible tattoos OK for clinical staff?", "Tattoos must be covered.", True),
    ],
)
def test_whether_something_is_liable_is_answered_by_a_sentence_naming_it(
    question: str, sentence: str, answers: bool
) -> None:
    assert can_answer(question, sentence) is answers

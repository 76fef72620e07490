"""Eleventh held-out document set: four policies of a fictional UK law firm, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_k_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Ashcombe & Fell LLP"

CONFIDENTIALITY = SampleDocument(
    file_name="client-confidentiality-and-file-retention-policy.pdf",
    title="Client Confidentiality and File Retention Policy",
    version="4.1",
    effective="1 May 2024",
    owner="Compliance Officer for Legal Practice",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains how Ashcombe & Fell LLP protects the confidential "
                "information of its clients and how long client files are kept once a matter has "
                "closed. It applies to all partners, solicitors, trainees, paralegals, "
                "secretaries, consultants and agency staff working at the firm's offices in "
                "Bristol and Bath.",
                "The duty of confidentiality continues after a matter ends and after the death of "
                "the client. It is separate from legal professional privilege, which protects "
                "certain communications from disclosure in legal proceedings.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Confidential information is any information about a client or a client's "
                "affairs that the firm learns in the course of acting, whatever its source and "
                "whether or not it is marked as confidential.",
                "A matter file is the complete record of a matter, whether held in the case "
                "management system, in e-mail or on paper.",
                "The supervising partner is the partner named on the matter opening form as "
                "responsible for the matter.",
                "The closure date is the date on which the matter is closed on the case "
                "management system after the final bill has been paid.",
            ),
        ),
        Section(
            "3. Keeping information confidential",
            (
                "Client matters must not be discussed in lifts, trains, restaurants or any other "
                "public place, and clients must not be named on social media, even where the "
                "matter has been reported in the press. Client names may be given to a third "
                "party only with the client's written consent or where the law requires it.",
                "Documents may be sent by e-mail to a client's personal address only after the "
                "client has confirmed that address in writing. Documents containing special "
                "category data or bank details must be sent through the firm's secure portal, AF "
                "Share, and not as ordinary e-mail attachments.",
            ),
            (
                "Screens must be locked whenever a desk is left, even for a moment.",
                "Paper files must be kept in locked cabinets overnight under the clear desk rule.",
                "Visitors must sign in at reception and be accompanied at all times beyond the "
                "ground floor meeting rooms.",
            ),
        ),
        Section(
            "4. Working away from the office",
            (
                "Staff may work on client matters at home using a firm laptop connected through "
                "the VPN. Printing client documents at home is not permitted. Paper files may be "
                "taken home only with the approval of the supervising partner and must be "
                "returned to the office within five working days.",
                "Client calls must not be made where they can be overheard, and smart speakers in "
                "the room must be switched off during calls.",
            ),
        ),
        Section(
            "5. Information barriers and disclosure",
            (
                "Where the firm acts for two clients whose interests may conflict, the "
                "Compliance Officer for Legal Practice may set up an information barrier between "
                "the two teams. Staff behind an information barrier must not discuss the matter "
                "with, or give file access to, anyone on the other side of it, and a breach of a "
                "barrier is always treated as gross misconduct.",
                "Requests from the police, HMRC or other authorities for client information must "
                "be passed at once to the Compliance Officer for Legal Practice and must not be "
                "answered by the fee earner. Where a request is made under a court order or "
                "production order, the firm will comply but will tell the client unless the law "
                "forbids it.",
                "Requests from a client for a copy of their own file are dealt with by the fee "
                "earner within 28 days. A first copy is provided free of charge; further paper "
                "copies are charged at 25p per page plus VAT.",
            ),
        ),
        Section(
            "6. File retention periods",
            (
                "Retention periods run from the closure date. At the end of the period, files are "
                "reviewed and then destroyed unless the supervising partner records a reason to "
                "keep them longer. Files on which a complaint or claim has been notified to the "
                "firm's insurers are kept for at least 15 years.",
            ),
            (
                "Residential and commercial conveyancing, including leases and remortgages: 15 "
                "years.",
                "Probate, estate administration and trusts: 12 years.",
                "Personal injury and clinical negligence: 15 years, or until the client reaches "
                "the age of 25 where the client was a child when the matter closed, if that is "
                "later.",
                "Family matters, including divorce and children cases: 7 years.",
                "Employment and general civil litigation: 6 years.",
                "Corporate and commercial matters: 7 years.",
                "Anti-money laundering records: 5 years from the end of the business relationship.",
            ),
        ),
        Section(
            "7. Destruction of files and storage of deeds",
            (
                "Paper files are destroyed by confidential shredding through the firm's "
                "contractor, Shredsafe Ltd, which provides a certificate of destruction for each "
                "collection. Electronic files are deleted from the case management system, and "
                "copies in the backups roll off after 90 days.",
                "Original deeds, wills and share certificates are never destroyed. They are kept "
                "in the strong room at the Bristol office and released only against a signed "
                "receipt. Clients may store up to five original documents in the strong room "
                "free of charge. A storage fee of £30 plus VAT a year applies where a client "
                "stores more than five documents.",
            ),
        ),
        Section(
            "8. Breaches, contacts and review",
            (
                "Any actual or suspected loss of client information, including a misdirected "
                "e-mail, must be reported to the Compliance Officer for Legal Practice within one "
                "hour of discovery. The Data Protection Officer decides whether the Information "
                "Commissioner's Office must be notified, which must be done within 72 hours where "
                "it applies.",
                "The Compliance Officer for Legal Practice is Helen Marsh, who can be reached on "
                "01632 960 214 or at colp@ashcombefell.co.uk. The Data Protection Officer can be "
                "contacted at dpo@ashcombefell.co.uk or on 01632 960 218.",
                "This policy is reviewed every year by the Risk Committee, and next in April 2025.",
            ),
        ),
    ),
)

ONBOARDING = SampleDocument(
    file_name="client-onboarding-and-conflicts-policy.pdf",
    title="Client Onboarding and Conflicts of Interest Policy",
    version="5.0",
    effective="1 September 2024",
    owner="Money Laundering Reporting Officer",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out the checks Ashcombe & Fell LLP carries out before it agrees "
                "to act for a new client or on a new matter. It covers conflict searches, "
                "identity verification and the anti-money laundering controls required by the "
                "Money Laundering Regulations 2017 and the SRA Code of Conduct.",
                "No work may be done on a matter, other than urgent work approved in writing by a "
                "partner, until the matter has been opened on the case management system and all "
                "checks in this policy are complete.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Client due diligence (CDD) means identifying a client, verifying that identity "
                "and understanding the purpose of the instruction.",
                "A beneficial owner is any individual who owns or controls more than 25% of the "
                "shares or voting rights of a client company.",
                "A politically exposed person (PEP) is someone who holds, or has held in the last "
                "12 months, a prominent public function, together with their family members and "
                "known close associates.",
                "Source of funds is where the money for a particular transaction comes from; "
                "source of wealth is how the client came to have their overall assets.",
            ),
        ),
        Section(
            "3. Conflict checks",
            (
                "A conflict search must be run against all parties to a matter, including the "
                "other side and any guarantors, before the matter is opened. The search is "
                "carried out by the Business Acceptance Team, who aim to clear routine searches "
                "within four working hours.",
                "Where a search shows a possible conflict, the fee earner must refer it to the "
                "Conflicts Partner, who decides whether the firm may act. The firm will not act "
                "for two clients in the same matter where there is a conflict between them, "
                "except where the clients have a substantially common interest or are competing "
                "for the same asset and both give informed written consent.",
                "A former client conflict arises where the firm holds confidential information "
                "about a former client that is relevant to the new matter. In that case the firm "
                "may act only if an information barrier is approved by the Compliance Officer "
                "for Legal Practice.",
            ),
        ),
        Section(
            "4. Identity verification",
            (
                "Every new client must be identified before the firm acts. For individuals, the "
                "firm carries out an electronic check through SmartVerify and also obtains a "
                "certified copy of a passport or photocard driving licence. Where the electronic "
                "check fails, two documents are needed: one photographic identity document and "
                "one proof of address dated within the last three months.",
                "For companies, the Business Acceptance Team obtains a Companies House extract "
                "and identifies every beneficial owner. Existing clients are re-verified every "
                "three years, or sooner if their details change.",
            ),
            (
                "Copies must be certified by a solicitor, accountant or bank official, and not by "
                "a family member.",
                "Clients who cannot attend the office must have a video call with the fee earner, "
                "during which they show their original identity document to the camera.",
            ),
        ),
        Section(
            "5. Enhanced due diligence",
            (
                "Enhanced due diligence is required where the client is a PEP, where the client "
                "or transaction is connected with a high-risk third country on the government's "
                "list, or where the client has not been met in person and the matter is a "
                "property purchase.",
                "Enhanced due diligence must be approved by the Money Laundering Reporting "
                "Officer before any work starts, and acting for a PEP also needs the approval of "
                "the Managing Partner.",
            ),
        ),
        Section(
            "6. Source of funds and cash",
            (
                "For every property purchase and for any transaction above £50,000, the fee "
                "earner must obtain evidence of the source of funds, such as six months of bank "
                "statements showing how the money built up. Gifts from family members towards a "
                "purchase need a signed gift letter and identity checks on the person making the "
                "gift.",
                "The firm does not accept cash payments above £500 from any client. Where a "
                "client tries to pay more than £500 in cash, or pays cash into the firm's bank "
                "account without warning, the payment must be reported to the Money Laundering "
                "Reporting Officer on the same day.",
                "Payments from third parties, other than a spouse or civil partner of the client, "
                "are not accepted without the written approval of the Money Laundering Reporting "
                "Officer.",
            ),
        ),
        Section(
            "7. Suspicious activity",
            (
                "Any member of staff who knows or suspects that a client or transaction involves "
                "money laundering must make an internal report to the Money Laundering Reporting "
                "Officer using the form on the intranet. Staff must not tell the client or any "
                "other person that a report has been made, as this may amount to the criminal "
                "offence of tipping off.",
                "The Money Laundering Reporting Officer decides whether to make a suspicious "
                "activity report to the National Crime Agency. Where consent is requested from "
                "the National Crime Agency, the matter must not proceed for seven working days "
                "unless consent is given sooner.",
            ),
        ),
        Section(
            "8. Records, training and contacts",
            (
                "Identity documents and the record of all checks are kept for five years from the "
                "end of the client relationship. All staff complete anti-money laundering "
                "training when they join and every 12 months after that, and trainees also attend "
                "a half-day workshop in their first month.",
                "The Money Laundering Reporting Officer is Daniel Okafor, who can be reached on "
                "01632 960 327 or at mlro@ashcombefell.co.uk. The Business Acceptance Team can be "
                "contacted at newmatters@ashcombefell.co.uk or on 01632 960 330.",
                "The Money Laundering Reporting Officer reviews this policy every year.",
            ),
        ),
    ),
)

BILLING = SampleDocument(
    file_name="billing-time-recording-and-client-money-policy.pdf",
    title="Billing, Time Recording and Client Money Policy",
    version="2.3",
    effective="1 January 2025",
    owner="Compliance Officer for Finance and Administration",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out how fee earners at Ashcombe & Fell LLP record their time, "
                "how clients are billed, how unpaid bills are chased and how money held for "
                "clients is handled under the SRA Accounts Rules. It applies to all fee earners, "
                "secretaries and members of the Finance Team, and is overseen by the Compliance "
                "Officer for Finance and Administration (COFA).",
            ),
        ),
        Section(
            "2. Time recording",
            (
                "All fee earners must record their time in six-minute units on the time "
                "recording system, Timekeeper, by the end of each working day. Time not recorded "
                "within two working days is flagged to the supervising partner, and time more "
                "than a month old may only be added with the approval of the Finance Director.",
                "Annual chargeable hours targets are 1,350 hours for solicitors and 1,100 hours "
                "for trainees and paralegals. Partners set their own targets with the Managing "
                "Partner.",
            ),
            (
                "Pro bono work is recorded against the pro bono matter code and counts towards "
                "the chargeable hours target up to a maximum of 50 hours a year.",
                "Time spent correcting the firm's own mistakes must be recorded as non-chargeable.",
                "Travel time is charged at half the normal hourly rate unless the client care "
                "letter says otherwise.",
            ),
        ),
        Section(
            "3. Hourly rates and estimates",
            (
                "Hourly rates are reviewed every April. The standard rates are £395 an hour for "
                "partners, £300 for senior associates, £250 for associates and solicitors, £160 "
                "for trainees and £130 for paralegals, plus VAT.",
                "Every client must receive a written estimate of costs in the client care letter "
                "at the start of the matter. If it becomes likely that the estimate will be "
                "exceeded by more than 10%, the fee earner must write to the client with a "
                "revised estimate before doing further work.",
            ),
        ),
        Section(
            "4. Bills and payment",
            (
                "Interim bills are sent monthly on matters where unbilled time exceeds £3,000, "
                "unless the client care letter provides otherwise. All bills must be approved by "
                "the supervising partner before they are sent out, and bills above £25,000 also "
                "need the approval of the head of department.",
                "Bills are payable within 30 days of the date of the bill. Clients may pay by "
                "bank transfer or debit card, and payments by credit card are accepted only up to "
                "£2,000 and carry no surcharge. Cash is accepted only in line with the Client "
                "Onboarding and Conflicts of Interest Policy.",
            ),
        ),
        Section(
            "5. Late payment and interest",
            (
                "Where a bill is unpaid 30 days after the date of the bill, the Finance Team "
                "sends a reminder. After 45 days the fee earner telephones the client, and after "
                "60 days the matter is referred to the Credit Control Manager, who may stop work "
                "on the client's other matters.",
                "Interest is charged on unpaid bills at 4% a year above the Bank of England base "
                "rate from the 31st day after the date of the bill. Interest below £50 on any one "
                "bill is not charged.",
                "Proceedings to recover unpaid fees may only be issued with the approval of the "
                "Managing Partner.",
            ),
        ),
        Section(
            "6. Write-offs and discounts",
            (
                "A write-off is a reduction in the value of recorded time or of an unpaid bill "
                "that will not be charged to or recovered from the client. Write-offs and "
                "discounts must be approved according to the total amount involved on the "
                "matter, as follows.",
            ),
            (
                "Up to £500: the fee earner's supervising partner.",
                "Over £500 and up to £5,000: the head of department.",
                "Over £5,000 and up to £20,000: the Finance Director.",
                "Above £20,000: the Managing Partner, who reports each approval to the "
                "Partnership Board.",
            ),
        ),
        Section(
            "7. Client money",
            (
                "Client money is money held for a client or a third party, including money for "
                "disbursements not yet paid and money paid on account of costs. It must be paid "
                "into the client account at Lloyds Bank promptly, and no later than the next "
                "working day after it is received.",
                "Client money is returned promptly once there is no longer a reason to hold it. "
                "Interest is paid to clients on money held in the client account where the "
                "interest calculated at the Lloyds Bank instant access rate would be more than "
                "£25.",
                "Residual balances of £500 or less that cannot be returned after reasonable "
                "efforts to trace the client may be paid to a registered charity with the "
                "approval of the COFA. Balances above £500 may be paid away only with the "
                "permission of the SRA.",
            ),
            (
                "Client account bank details are never changed by e-mail, and clients are told "
                "this in the client care letter.",
                "Before sending money to a new bank account, the Finance Team must confirm the "
                "details by telephone using a number already held on file.",
                "Client account reconciliations are carried out at least every five weeks and "
                "signed off by the COFA.",
            ),
        ),
        Section(
            "8. Contacts and review",
            (
                "The Finance Team can be contacted at finance@ashcombefell.co.uk or on 01632 960 "
                "402. The COFA is Priya Nandra, who can be reached on 01632 960 405 or at "
                "cofa@ashcombefell.co.uk.",
                "This policy is reviewed every year by the Finance Director.",
            ),
        ),
    ),
)

PEOPLE = SampleDocument(
    file_name="flexible-working-leave-and-development-policy.pdf",
    title="Flexible Working, Leave and Professional Development Policy",
    version="3.1",
    effective="6 April 2024",
    owner="Head of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy covers how staff at Ashcombe & Fell LLP can ask to work flexibly, "
                "how much leave they receive, and how the firm supports professional development "
                "and study. It applies to all employees. Partners are covered by the members' "
                "agreement instead, except for the rules on professional development in section "
                "5.",
            ),
        ),
        Section(
            "2. Flexible and hybrid working",
            (
                "All employees may make a statutory flexible working request from their first "
                "day of employment, up to two requests in any 12-month period. Requests are made "
                "to the line manager on the form on the intranet, and the firm gives a decision "
                "within two months of receiving the request, including any appeal.",
                "Under the hybrid working scheme, staff may work from home for up to two days a "
                "week once they have passed their probation period. Trainees must be in the "
                "office at least four days a week during their first seat.",
                "Core hours are 10am to 4pm, and staff on flexitime may start at any time "
                "between 7.30am and 10am.",
            ),
        ),
        Section(
            "3. Annual leave",
            (
                "Full-time staff receive 25 days' annual leave a year plus bank holidays, rising "
                "to 27 days after five years' service and 28 days after ten years' service. The "
                "leave year runs from 1 January to 31 December.",
                "Up to five days of unused leave may be carried over into the following year, "
                "and must be taken by 31 March. Leave requests of more than two weeks at a time "
                "need the approval of the head of department.",
                "The office closes between Christmas and New Year, and staff must keep three "
                "days of their allowance for that closure.",
            ),
            (
                "Staff may buy up to five extra days of leave a year through salary sacrifice, "
                "applying during the November benefits window.",
                "Part-time staff receive a pro rata allowance based on their contracted hours.",
            ),
        ),
        Section(
            "4. Family and other leave",
            (
                "Employees with at least 26 weeks' service receive enhanced maternity and "
                "adoption pay of 16 weeks at full pay followed by 10 weeks at half pay, then "
                "statutory pay. Enhanced paternity leave is two weeks at full pay.",
                "Compassionate leave of up to five days at full pay is given on the death of a "
                "close family member, and up to two days for other bereavements. Staff may also "
                "take up to two days of paid leave a year for volunteering with a registered "
                "charity.",
            ),
            (
                "Jury service: full pay, less any loss of earnings allowance claimed from the "
                "court.",
                "Time off for dependants in an emergency: up to two days on full pay on each "
                "occasion.",
            ),
        ),
        Section(
            "5. Continuing professional development",
            (
                "Solicitors and chartered legal executives must reflect on their practice and "
                "address their learning needs each year, as their regulators require, and record "
                "their development in the firm's learning system, Elevate. The firm expects "
                "every fee earner to complete at least 16 hours of recorded development each "
                "year, including at least 3 hours on risk and compliance.",
                "The firm pays for external courses up to £1,200 per person per year with the "
                "line manager's approval, and courses above that amount need the approval of the "
                "Head of People.",
                "Each department holds a lunchtime know-how session every month, and attendance "
                "counts towards the 16-hour expectation.",
            ),
        ),
        Section(
            "6. Study and exam leave",
            (
                "Staff studying for a qualification supported by the firm, such as CILEx "
                "qualifications or a professional diploma, receive up to 10 days' paid study "
                "leave a year. Paralegals taking SQE1 or SQE2 under the firm's sponsorship "
                "instead receive 15 days' study leave before each assessment.",
                "One day of exam leave is given for each examination day, and the firm pays the "
                "exam fee for the first attempt. Resits are paid for by the employee, unless the "
                "Head of People agrees otherwise.",
                "Where the firm pays more than £2,000 towards a qualification, the employee must "
                "repay a share of the fees if they leave within two years of completing it.",
            ),
            (
                "Leaving within 12 months of completion: 100% of the fees.",
                "Leaving between 12 and 24 months after completion: 50% of the fees.",
            ),
        ),
        Section(
            "7. Sabbaticals",
            (
                "Employees with ten years' continuous service may apply for an unpaid sabbatical "
                "of between one and three months. Applications must be made at least six months "
                "in advance to the head of department and are approved by the Head of People.",
                "Only one person from each team may be on sabbatical at a time, and a further "
                "sabbatical may not be taken within five years. Pension contributions and "
                "private medical insurance continue during a sabbatical, but annual leave does "
                "not build up.",
            ),
        ),
        Section(
            "8. Contacts and review",
            (
                "Questions about this policy should be sent to the People Team at "
                "people@ashcombefell.co.uk or on 01632 960 510. The Learning and Development "
                "Manager, Sarah Whitlock, can be reached on 01632 960 515 for questions about "
                "CPD and study support.",
                "The Head of People reviews this policy every two years, and next in March 2026.",
            ),
        ),
    ),
)

DOCUMENTS = (CONFIDENTIALITY, ONBOARDING, BILLING, PEOPLE)

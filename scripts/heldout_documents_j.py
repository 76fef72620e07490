"""Tenth held-out document set: four policies of a fictional UK software company, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_j_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Tidewell Software Ltd"

INFOSEC = SampleDocument(
    file_name="information-security-policy.pdf",
    title="Information Security Policy",
    version="5.1",
    effective="1 February 2025",
    owner="Chief Information Security Officer",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out the security rules that protect the Tidewell platform, its "
                "customers' data and the company's own corporate systems. It applies to all "
                "employees, contractors and agency staff, and to third parties who are given "
                "access to Tidewell systems, whether they work from the Bristol or Leeds offices "
                "or remotely.",
            ),
        ),
        Section(
            "2. Access control",
            (
                "Access is granted on the principle of least privilege. Requests are raised in "
                "ServiceDesk and approved by the system owner. New joiners receive production "
                "access only after completing the secure engineering induction, which normally "
                "takes place in their second week.",
                "Line managers review the access of their direct reports every quarter. "
                "Privileged access to production is reviewed every month by the Head of Platform "
                "Engineering, and any account that has not been used for 60 days is removed.",
                "Leavers' accounts are disabled by the end of their last working day, or within "
                "one hour of HR's notification where employment ends without notice. Shared "
                "accounts are not permitted, apart from break-glass administrator accounts kept "
                "in the password vault; each use of a break-glass account must be reported to "
                "Security Operations within 24 hours.",
            ),
        ),
        Section(
            "3. Authentication",
            (
                "Multi-factor authentication (MFA) is required for every corporate system that "
                "supports it and for all access to production. Staff with privileged access must "
                "use a hardware security key issued by IT, and codes sent by SMS are not accepted "
                "as a second factor for any Tidewell system.",
                "Passwords must be at least 14 characters long and kept in the company password "
                "manager. They do not have to be changed on a schedule, but must be changed at "
                "once if there is any reason to think they have been exposed. An account is "
                "locked for 30 minutes after 10 failed sign-in attempts.",
            ),
        ),
        Section(
            "4. Patching deadlines",
            (
                "Security patches must be applied within the following deadlines, which depend on "
                "the CVSS base score of the vulnerability and are counted from the day the vendor "
                "publishes a fix:",
            ),
            (
                "Critical (9.0 or above): within 72 hours on production systems and within 7 days "
                "on all other systems.",
                "High (7.0 to 8.9): within 14 days, whichever system is affected.",
                "Medium (4.0 to 6.9): within 30 days, whichever system is affected.",
                "Low (below 4.0): within 90 days, or at the next planned maintenance if that is "
                "sooner.",
            ),
        ),
        Section(
            "5. Vulnerability testing and patch exceptions",
            (
                "Where a deadline cannot be met, the system owner may ask the Chief Information "
                "Security Officer (CISO) for an exception of up to 90 days. Every exception is "
                "recorded in the risk register together with the compensating control that "
                "reduces the risk in the meantime.",
                "Security Operations scans all internet-facing systems for vulnerabilities every "
                "week. An independent CREST-accredited firm carries out a penetration test of the "
                "platform once a year and after any major change to its architecture.",
            ),
        ),
        Section(
            "6. Encryption and logging",
            (
                "Customer data are encrypted at rest with AES-256 and in transit with TLS 1.2 or "
                "higher, and older protocols are switched off on every public endpoint. "
                "Encryption keys are held in AWS Key Management Service and rotated every year.",
                "Company laptops have full-disk encryption turned on before they are handed to "
                "staff. Customer data must never be copied to USB drives or other removable "
                "media, or to personal cloud storage.",
                "Security logs from production and from corporate identity systems are sent to "
                "the central security monitoring platform and kept for 13 months. The most recent "
                "90 days can be searched directly; older logs are archived and can be restored by "
                "Security Operations within two working days.",
                "Application debug logs are kept for 30 days. Logs must never contain passwords, "
                "authentication tokens or full payment card numbers.",
            ),
        ),
        Section(
            "7. Incidents, disclosure and review",
            (
                "Suspected security incidents must be reported straight away to "
                "security@tidewell.io, or out of hours by calling the security line on "
                "01632 960 411. A lost or stolen laptop, phone or security key must be reported "
                "within 4 hours of the loss being noticed.",
                "Security researchers outside the company can report vulnerabilities to "
                "security@tidewell.io under the disclosure policy published at "
                "tidewell.io/security. Tidewell acknowledges reports within 3 working days and "
                "aims to fix valid issues and agree a disclosure date within 90 days. Tidewell "
                "does not run a paid bug bounty programme, but researchers may be thanked "
                "publicly with their consent.",
                "Breaches of this policy may lead to disciplinary action, up to and including "
                "dismissal. The CISO reviews the policy every year and the Executive Committee "
                "approves it; the next review is due in January 2026.",
            ),
        ),
    ),
)

CHANGE = SampleDocument(
    file_name="change-and-release-management-procedure.pdf",
    title="Change and Release Management Procedure",
    version="2.4",
    effective="3 March 2025",
    owner="Head of Platform Engineering",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This procedure explains how changes to Tidewell's production environment are "
                "planned, approved, released and, where necessary, reversed.",
                "Changes to development and staging environments are outside its scope, as are "
                "feature flag changes that only affect Tidewell's own internal test accounts.",
            ),
        ),
        Section(
            "2. Types of change",
            (),
            (
                "A standard change is a low-risk, repeatable change listed in the standard change "
                "catalogue, such as a routine dependency update that passes all automated tests. "
                "Standard changes are pre-approved and need no approval beyond code review.",
                "A normal change is any change that is not a standard change. It is rated low, "
                "medium or high risk using the risk matrix in ServiceDesk.",
                "An emergency change is one needed to restore a service during an incident, or to "
                "fix a Critical vulnerability, that cannot wait for the next Change Advisory "
                "Board meeting.",
            ),
        ),
        Section(
            "3. Raising and approving a change",
            (
                "Every normal and emergency change is recorded as a change ticket in ServiceDesk, "
                "linked to its pull request. The ticket sets out what will change, the risk "
                "rating, the evidence of testing and the rollback plan.",
                "All code changes need an approving review from at least one engineer other than "
                "the author. Changes to authentication, billing or payment code need two "
                "approving reviews, one of which must come from the Security team.",
                "Low-risk normal changes are approved by the engineering manager of the team "
                "making the change. Medium-risk changes are approved by the Change Advisory Board "
                "(CAB), which meets every Tuesday and Thursday at 10:00; tickets must be "
                "submitted by 17:00 on the previous working day to be considered.",
                "High-risk changes need approval from both the CAB and the Head of Platform "
                "Engineering. Where a change is expected to cause any customer-facing downtime, "
                "customers are told through the status page at least 5 working days in advance.",
            ),
        ),
        Section(
            "4. Release windows and change freezes",
            (
                "Production releases take place between 09:00 and 16:00 UK time, Monday to "
                "Thursday. Nothing is released on a Friday, at a weekend or on a bank holiday "
                "unless it is an emergency change.",
                "Each year a change freeze runs from 18 December to 3 January inclusive. A freeze "
                "also applies for 48 hours either side of a major product launch announced by the "
                "Product team. Any change other than an emergency change during a freeze needs "
                "the written approval of the Chief Technology Officer (CTO).",
            ),
        ),
        Section(
            "5. Emergency changes",
            (
                "An emergency change may go ahead on the approval of the incident commander and "
                "one senior engineer who is not making the change. The change ticket must be "
                "completed within 2 working days, and the CAB reviews every emergency change at "
                "its next meeting.",
                "If an emergency change is made during a P1 incident, the Head of Platform "
                "Engineering must be told within one hour.",
            ),
        ),
        Section(
            "6. Rollout and rollback",
            (
                "Application releases go first to a canary group that receives 5% of traffic, and "
                "stay there for at least 15 minutes before being released to all customers. "
                "Database migrations must remain compatible with the previous release, so that "
                "the application can be rolled back without restoring data.",
                "If the error rate rises above 2%, or p95 latency doubles, within 30 minutes of a "
                "release, the engineer who deployed it rolls the change back at once and does not "
                "need further approval to do so. Every change ticket must include a rollback plan "
                "that has been tested in staging.",
            ),
        ),
        Section(
            "7. Failed changes, records and review",
            (
                "A change that is rolled back or that causes an incident is treated as a failed "
                "change, and the team holds a post-implementation review within 5 working days. "
                "Change records are kept for three years to support Tidewell's ISO 27001 and "
                "SOC 2 audits.",
                "Questions about this procedure go to change-management@tidewell.io. The Head of "
                "Platform Engineering reviews it every 12 months, and the next review is due in "
                "March 2026.",
            ),
        ),
    ),
)

ON_CALL = SampleDocument(
    file_name="on-call-and-incident-compensation-policy.pdf",
    title="On-Call and Incident Compensation Policy",
    version="1.3",
    effective="1 April 2025",
    owner="Chief People Officer",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "Tidewell runs out-of-hours rotas so that incidents affecting customers can be "
                "handled at any time. This policy sets out how people on those rotas are "
                "organised and paid. It applies to employees in Engineering, Security Operations "
                "and Customer Support who have agreed to join a rota.",
                "Contractors are paid for out-of-hours work under the terms of their own "
                "contracts and are not covered by this policy. New employees may join a rota once "
                "they have completed three months' service and the incident response training "
                "course.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Core hours are 09:00 to 18:00, Monday to Friday, excluding bank holidays.",
                "A call-out is a page or phone call that requires the person on call to start "
                "working on an incident.",
                "A P1 incident is a complete outage of the platform or a confirmed security "
                "breach; a P2 incident is a serious loss of service affecting many customers.",
                "The primary on-call responds first; the secondary on-call supports the primary "
                "and takes over if the primary does not acknowledge a page.",
            ),
        ),
        Section(
            "3. Rotas and responsibilities",
            (
                "Rotas are published in PagerDuty at least four weeks in advance. A rota week "
                "runs from 09:00 on Monday to 09:00 the following Monday, and nobody should be on "
                "call for more than one week in every four.",
                "Shifts may be swapped if both people agree and the swap is recorded in PagerDuty "
                "before it starts; the engineering manager must be told. Only P1 and P2 incidents "
                "page people out of hours, and anything of lower priority waits until core hours.",
                "While on call, each person must:",
            ),
            (
                "acknowledge a page within 15 minutes and be working on the incident within 30 "
                "minutes;",
                "keep their work laptop and a reliable internet connection within reach;",
                "be fit to work, which means not drinking alcohol during the shift.",
            ),
        ),
        Section(
            "4. Standby payments",
            (
                "Each on-call shift is paid at a flat standby rate, whether or not any call-out "
                "happens. The primary on-call receives £35 for each weekday night and £75 for "
                "each Saturday, Sunday or bank holiday. Christmas Day, Boxing Day and New Year's "
                "Day are paid at £150 each.",
                "The secondary on-call receives half the primary rates. Standby payments are made "
                "through payroll in the month after the shift, once the engineering manager has "
                "approved the monthly PagerDuty report by the fifth working day.",
            ),
        ),
        Section(
            "5. Call-out payments",
            (
                "Each call-out is paid at £30, plus the time worked at one and a half times the "
                "person's normal hourly rate, with a minimum of one hour for each call-out. Time "
                "worked between 23:00 and 07:00 is paid at twice the normal hourly rate instead.",
                "Pages received within the same hour are treated as a single call-out.",
            ),
        ),
        Section(
            "6. Time off in lieu and rest",
            (
                "Anyone who works for more than 2 hours between 23:00 and 07:00 may start work up "
                "to four hours late the next morning without loss of pay, and should tell their "
                "manager when they do so.",
                "People may choose time off in lieu (TOIL) equal to the hours worked instead of "
                "the hourly part of a call-out payment; the £30 call-out fee is paid either way. "
                "TOIL must be taken within three months of the call-out and cannot be carried "
                "beyond that or exchanged for pay.",
            ),
        ),
        Section(
            "7. Limits, queries and review",
            (
                "On-call and call-out payments together are capped at £1,500 per person in a "
                "calendar month. Any amount above the cap is paid only with the approval of the "
                "Director of Engineering.",
                "No one should work more than 12 hours of call-out time in any 24-hour period. If "
                "an incident is likely to run longer, the incident commander arranges a handover "
                "to another engineer. Nobody is expected to be on call while on annual leave or "
                "sick leave, and anyone who falls ill during a shift should hand over to the "
                "secondary.",
                "Questions about on-call payments go to payroll@tidewell.io, and questions about "
                "rotas to your engineering manager. The People team can be reached on "
                "01632 960 218.",
                "The Chief People Officer reviews this policy every year with the Director of "
                "Engineering. The next review is due in March 2026.",
            ),
        ),
    ),
)

EXPENSES = SampleDocument(
    file_name="expenses-and-corporate-card-policy.pdf",
    title="Expenses and Corporate Card Policy",
    version="6.0",
    effective="1 January 2025",
    owner="Chief Financial Officer",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains which business expenses Tidewell Software Ltd will pay for, "
                "how to claim them and how company cards may be used. It applies to all "
                "employees. Contractors may claim expenses only where their contract allows it, "
                "and then under the same limits.",
                "Claims are made in the Ledgerly expenses app.",
            ),
        ),
        Section(
            "2. Making a claim",
            (
                "Claims should be submitted within 30 days of the date the cost was incurred. "
                "Claims submitted more than 90 days after that date will not be paid, except with "
                "the approval of the Chief Financial Officer (CFO).",
                "An itemised receipt is required for every item over £10. A clear photo uploaded "
                "to Ledgerly is enough, and the paper original does not need to be kept. If a "
                "receipt is lost, the claimant completes a missing receipt declaration, which can "
                "be used no more than twice in a year.",
                "Claims approved by the 20th of the month are paid with that month's salary; "
                "claims approved later are paid the following month.",
            ),
        ),
        Section(
            "3. Spending limits",
            ("The following limits apply per person and include VAT:",),
            (
                "Hotels: up to £160 a night in London, £110 a night elsewhere in the UK and €180 "
                "a night in the EU, including breakfast.",
                "Meals when staying away overnight: up to £40 a day in total.",
                "Lunch on a day trip of more than 5 hours away from your usual office: up to £12.",
                "Rail travel: standard class. First class may be booked only if it costs no more "
                "than standard class.",
                "Flights: economy class for flights under 6 hours, and premium economy for longer "
                "flights with the approval of a Director.",
                "Business mileage in a private car: 45p a mile for the first 10,000 miles in a "
                "tax year and 25p a mile after that. Journeys between home and your usual office "
                "do not count.",
                "Client entertainment: up to £60 a head, with the names of all guests and their "
                "organisations recorded on the claim.",
                "Team celebrations: up to £25 a head, no more than twice a year, approved in "
                "advance by the head of department.",
            ),
        ),
        Section(
            "4. Approval by amount",
            (
                "No one may approve their own claim, or a claim made by a person they report to; "
                "such claims go to the next approver up.",
                "Each claim is approved according to its total value:",
            ),
            (
                "up to £500: the claimant's line manager;",
                "over £500 and up to £2,500: the head of department;",
                "over £2,500 and up to £10,000: the CFO;",
                "over £10,000: the Chief Executive Officer.",
            ),
        ),
        Section(
            "5. Corporate cards",
            (
                "Corporate cards are issued to staff who travel or buy for the company regularly, "
                "at the request of their head of department. The standard monthly limit is "
                "£3,000, and members of the Executive Committee have a limit of £10,000.",
                "Cards are for business spending only. A personal payment made by mistake must be "
                "repaid to Tidewell by bank transfer within 14 days. Cash withdrawals from a "
                "corporate card are not permitted.",
                "Receipts for card payments must be uploaded to Ledgerly within 7 days of the "
                "transaction. A card with receipts outstanding for more than 30 days is frozen "
                "until they are provided. A lost or stolen card must be reported at once to the "
                "card provider and to Finance at finance@tidewell.io.",
            ),
        ),
        Section(
            "6. Foreign currency",
            (
                "Expenses paid in a foreign currency are claimed in the original currency. "
                "Ledgerly converts card payments at the rate on the card statement, and cash "
                "payments at the published exchange rate on the day the cost was incurred.",
                "Fees for foreign transactions on corporate cards are paid by Tidewell. Where a "
                "personal card is used abroad, bank fees of up to 3% of the amount are reimbursed "
                "if the statement is attached.",
            ),
        ),
        Section(
            "7. Costs that are never reimbursed",
            ("The following are never paid for by Tidewell, even if a manager has approved them:",),
            (
                "parking fines, speeding fines and other penalties;",
                "alcohol, except as part of approved client entertainment;",
                "seat, room or class upgrades;",
                "minibar items, in-room films and spa or gym charges;",
                "personal travel insurance, as staff are covered by the company's business travel "
                "policy;",
                "childcare, pet care or house sitting while travelling;",
                "lost or stolen personal belongings.",
            ),
        ),
        Section(
            "8. Misuse, queries and review",
            (
                "Making a false or inflated claim is treated as gross misconduct and may lead to "
                "dismissal. Questions go to the Finance team at expenses@tidewell.io or on "
                "01632 960 305.",
                "The CFO reviews this policy every year, and the next review is due in "
                "December 2025.",
            ),
        ),
    ),
)

DOCUMENTS = (INFOSEC, CHANGE, ON_CALL, EXPENSES)

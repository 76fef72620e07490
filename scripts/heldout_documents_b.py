"""A second held-out set of policies for the offline answerer: four policies of a fictional county
council, written blind (nobody tuned the answerer on them), asked by
tests/data/answerability/heldout_b_questions.jsonl.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Westmere County Council"

PROCUREMENT = SampleDocument(
    file_name="contract-procedure-rules.pdf",
    title="Contract Procedure Rules",
    version="4.1",
    effective="1 April 2024",
    owner="Head of Procurement",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and Principles",
            (
                "These rules explain how Westmere County Council buys the goods, services and "
                "works it needs to deliver public services. Every purchase must show value for "
                "money, be open to fair competition and leave an audit trail that would satisfy "
                "the council's external auditor. Spending public money carries a duty of care "
                "that goes beyond simply finding the lowest price.",
                "The rules apply to all council staff, agency workers and consultants who commit "
                "council expenditure, including spending from ring-fenced grants. Schools with "
                "delegated budgets follow their own financial regulations and are outside these "
                "rules.",
            ),
        ),
        Section(
            "2. Definitions",
            bullets=(
                "Contract value means the total estimated value over the whole life of the "
                "contract, including any extension options, excluding VAT.",
                "Budget holder means the officer named in the finance system as responsible for "
                "a cost centre.",
                "A framework agreement is a pre-tendered arrangement with one or more suppliers "
                "that the council may call off without running a new competition.",
                "Disaggregation means splitting a requirement into smaller orders to keep each "
                "one below a threshold, and it is prohibited.",
            ),
        ),
        Section(
            "3. Thresholds and Quotations",
            (
                "The route to market depends on the contract value. The thresholds for goods and "
                "services are different from those for construction and maintenance works.",
            ),
            (
                "Goods and services below £10,000: one written quotation is enough, provided the "
                "budget holder is satisfied that the price is reasonable.",
                "Goods and services from £10,000 to £74,999: at least three written quotations, "
                "one of them from a supplier based in the county where possible.",
                "Goods and services of £75,000 or more: a formal tender run by the Procurement "
                "Team through the e-tendering portal.",
                "Works below £25,000 need one written quotation, and works from £25,000 to "
                "£249,999 need at least three written quotations.",
                "Works of £250,000 or more: a formal tender, with the Head of Procurement "
                "deciding whether an open or a restricted procedure is used.",
            ),
        ),
        Section(
            "4. Approval of Spend",
            (
                "No order may be placed until the spend has been approved at the right level. "
                "Approval limits apply to the whole contract value, not to individual invoices.",
            ),
            (
                "Up to £10,000: the budget holder.",
                "From £10,000 to £99,999: the relevant Head of Service.",
                "From £100,000 to £499,999: the Director of the service, after consulting the "
                "Head of Procurement.",
                "£500,000 and above: the Cabinet Member for Finance, on a written report from the "
                "Director.",
            ),
        ),
        Section(
            "5. Purchase Orders, Cards and Payment",
            (
                "A purchase order must be raised in the finance system before goods or services "
                "are received. Invoices that arrive without a valid purchase order number will be "
                "returned to the supplier unpaid. The council aims to pay undisputed invoices "
                "within 30 days of receipt, and within 10 days for small local suppliers "
                "registered on the county business directory.",
                "Purchasing cards may be used for one-off purchases of up to £500 per "
                "transaction, with a monthly card limit of £2,000. A purchasing card must never "
                "be used for recurring subscriptions, for anything that ought to be bought under "
                "a contract, or for personal purchases of any kind.",
            ),
        ),
        Section(
            "6. Waivers",
            (
                "In exceptional circumstances the requirement to obtain quotations or run a "
                "tender may be waived. A waiver request must be made on the waiver form before "
                "any commitment is made, and must explain why competition is not possible, for "
                "example because only one supplier holds the relevant intellectual property.",
                "Waivers up to £74,999 are approved by the Head of Procurement. Waivers of "
                "£75,000 or more also need the written agreement of the Monitoring Officer. "
                "Retrospective waivers are not permitted, and a lack of time to plan is never an "
                "acceptable reason for one.",
            ),
        ),
        Section(
            "7. Breaches",
            (
                "Any officer who suspects a breach of these rules must report it to the Head of "
                "Procurement or to Internal Audit. Placing orders without approval, or "
                "deliberately splitting orders to avoid a threshold, is treated as gross "
                "misconduct under the council's disciplinary procedure. Internal Audit tests a "
                "sample of purchases against these rules every quarter.",
            ),
        ),
        Section(
            "8. Review",
            (
                "These rules are reviewed every two years by the Head of Procurement and approved "
                "by the Audit and Governance Committee. The next review is due in April 2026.",
            ),
        ),
    ),
)

GIFTS_AND_INTERESTS = SampleDocument(
    file_name="gifts-hospitality-and-interests-policy.pdf",
    title="Gifts, Hospitality and Declarations of Interest Policy",
    version="2.3",
    effective="1 September 2023",
    owner="Monitoring Officer",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "Residents must be able to trust that the council's decisions are made on merit "
                "and are not swayed by personal gain. This policy helps staff recognise the "
                "situations in which accepting a gift or hospitality, or holding an outside "
                "interest, could create the appearance of bias. It also protects staff from "
                "unfounded allegations.",
                "The policy applies to all employees and agency workers. Elected councillors are "
                "governed by the Members' Code of Conduct instead.",
            ),
        ),
        Section(
            "2. General Principles",
            bullets=(
                "Never accept a gift or hospitality from anyone who is bidding for a council "
                "contract, or who is involved in a planning or licensing application you are "
                "handling.",
                "Never ask for a gift or hospitality, whatever its value.",
                "Cash, vouchers, gift cards and loans must always be refused, regardless of the "
                "amount.",
                "If in doubt, decline politely and ask your line manager for advice.",
            ),
        ),
        Section(
            "3. Gifts",
            (
                "Staff may accept small items of token value, such as diaries, calendars, pens or "
                "a box of chocolates to share with the team, where the value is under £25. Such "
                "items do not need to be registered.",
                "Any gift worth £25 or more must be entered in the gifts and hospitality register "
                "within 14 days of being offered, whether it was accepted or declined. A gift "
                "worth more than £100 may not be kept personally. It must be returned or, where "
                "returning it would cause offence, handed to the Civic Office for the Chair's "
                "charity appeal.",
                "The total value of gifts accepted from any single source must not exceed £100 "
                "in a financial year.",
            ),
        ),
        Section(
            "4. Hospitality",
            (
                "Modest hospitality, such as a working lunch or light refreshments at a meeting, "
                "is a normal part of public life and may be accepted without declaration. "
                "Hospitality worth more than £50 per person must be approved in advance by your "
                "Head of Service and recorded in the register.",
                "Invitations to sporting events, concerts or other entertainment where the main "
                "purpose is not business must be declined, unless the Monitoring Officer has "
                "agreed in writing that attendance is in the council's interest. Offers of travel "
                "or overnight accommodation paid for by a supplier must always be declined.",
            ),
        ),
        Section(
            "5. Declarations of Interest",
            (
                "A conflict of interest arises where a personal interest, or that of a close "
                "family member, could influence, or be seen to influence, the way you carry out "
                "your duties. Close family member means a spouse or civil partner, parent, child, "
                "sibling, or anyone living in the same household.",
                "Staff must declare any relevant interest on the declarations form within 28 days "
                "of starting employment and within 28 days of any change. Staff at grade 10 and "
                "above must also complete a nil return each April, even when they have nothing to "
                "declare. Relevant interests include:",
            ),
            (
                "paid work outside the council, including self-employment and directorships;",
                "shareholdings worth more than £5,000 in any company that trades with the council;",
                "membership of any organisation that lobbies the council or receives council "
                "grants;",
                "land or property within the county, other than your own home.",
            ),
        ),
        Section(
            "6. Outside Employment",
            (
                "Employees on grade 7 and above must obtain written permission from their "
                "Director before taking up any outside employment. Staff below grade 7 need only "
                "tell their line manager, unless the work is for an organisation that holds a "
                "contract with the council, in which case the Director's permission is also "
                "required. Outside work must not be done during working hours or with council "
                "equipment.",
            ),
        ),
        Section(
            "7. The Register",
            (
                "The gifts and hospitality register is held by Legal and Democratic Services and "
                "is open to inspection by Internal Audit. Entries are kept for six years. The "
                "entries for Directors and the Chief Executive are published on the council's "
                "website every quarter.",
            ),
        ),
        Section(
            "8. Breaches",
            (
                "Failure to declare a gift, hospitality or interest may lead to disciplinary "
                "action up to and including dismissal. Accepting a gift in return for favourable "
                "treatment may be a criminal offence under the Bribery Act 2010 and will be "
                "referred to the police. Concerns about another employee's conduct should be "
                "raised with the Monitoring Officer.",
            ),
        ),
    ),
)

LONE_WORKING = SampleDocument(
    file_name="lone-working-policy.pdf",
    title="Lone Working Policy",
    version="1.4",
    effective="15 January 2024",
    owner="Corporate Health and Safety Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and Scope",
            (
                "Many council services depend on people who work alone, whether visiting "
                "residents at home, inspecting highways, or finishing paperwork in an empty "
                "office. This policy sets out how the council reduces the risks of lone working "
                "and how lone workers stay in contact. It applies to employees, agency workers "
                "and volunteers who work alone on council business.",
                "A lone worker is anyone who works without close or direct supervision by a "
                "colleague for any part of the working day. Staff working at home on office tasks "
                "are not treated as lone workers for the purposes of this policy.",
            ),
        ),
        Section(
            "2. Responsibilities",
            bullets=(
                "Managers must complete a lone working risk assessment for each role that "
                "involves lone working, and review it at least every 12 months or after any "
                "incident.",
                "Lone workers must follow the agreed safe system of work and must not put "
                "themselves at risk in order to finish a task.",
                "The Corporate Health and Safety Manager manages the lone worker device contract "
                "and arranges training.",
                "Team administrators keep the team visit log up to date during office hours.",
            ),
        ),
        Section(
            "3. Activities That Must Not Be Done Alone",
            (
                "Some work must never be done alone. A lone worker must not work at height above "
                "two metres, enter a confined space, or make a first visit to a resident whose "
                "record carries a warning marker. These activities need at least two people.",
                "Social care staff visiting a home where there is a history of aggression must be "
                "accompanied, or must arrange to meet the resident at a council office instead. "
                "Highways inspectors working on roads with a speed limit above 40 mph must work "
                "in pairs after dark.",
            ),
        ),
        Section(
            "4. Keeping in Contact",
            (
                "Before a visit, lone workers must record in the team visit log the address, the "
                "expected arrival time and the expected finish time. They must check in by phone "
                "or through the lone worker device within 15 minutes of the expected finish "
                "time.",
                "Lone worker devices are issued to all staff in the community services, "
                "environmental health and highways teams. Staff in other teams may ask for one "
                "through their manager. The device must be charged every day and carried on the "
                "body, not left in a bag or vehicle.",
            ),
        ),
        Section(
            "5. Escalation",
            (
                "If a lone worker has not checked in within 30 minutes of their expected finish "
                "time, their nominated buddy must try to contact them. If the worker cannot be "
                "reached within a further 15 minutes, the buddy must inform the line manager, who "
                "decides whether to call the police. Where there is any reason to believe the "
                "worker is in immediate danger, the buddy must dial 999 straight away without "
                "waiting for the manager.",
                "Outside office hours, the buddy role is taken by the monitoring centre that "
                "operates the lone worker devices, which escalates on the same timescales.",
            ),
        ),
        Section(
            "6. Working Alone in Council Buildings",
            (
                "Lone working in council buildings is allowed between 7am and 8pm on weekdays. "
                "Working alone in a building outside these hours, or at weekends, needs the prior "
                "agreement of the building manager, and the worker must sign in with security on "
                "arrival.",
                "At the Eastfield Depot lone working is not permitted after 6pm on any day, "
                "because the site has no security cover in the evening. The Harbour Road offices "
                "have a security officer on duty until midnight.",
            ),
        ),
        Section(
            "7. Incidents and Training",
            (
                "Every incident of violence, threats or verbal abuse against a lone worker must "
                "be reported on the incident reporting system within 24 hours, even if no one was "
                "hurt. Managers must review the relevant risk assessment within five working days "
                "of any such report.",
                "All lone workers must complete the personal safety e-learning module before "
                "working alone for the first time, and refresh it every three years. Staff in "
                "high-risk roles also attend a one-day conflict resolution course every two "
                "years.",
            ),
        ),
        Section(
            "8. Review",
            (
                "This policy is reviewed annually by the Corporate Health and Safety Manager in "
                "consultation with the recognised trade unions.",
            ),
        ),
    ),
)

LEAVE_AND_ABSENCE = SampleDocument(
    file_name="annual-leave-and-absence-policy.pdf",
    title="Annual Leave and Sickness Absence Policy",
    version="5.0",
    effective="1 April 2024",
    owner="Head of Human Resources",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and Scope",
            (
                "The council wants its staff to take a proper break from work and to be treated "
                "fairly and consistently when they are off sick. This policy explains how annual "
                "leave is earned, requested and carried over, and what staff must do when they "
                "are unwell.",
                "It applies to all employees on council terms and conditions. Agency workers "
                "accrue holiday through their agency, and must agree any time off with both the "
                "agency and their council manager.",
            ),
        ),
        Section(
            "2. Entitlement",
            (
                "Full-time employees are entitled to 26 days of annual leave a year, rising to 31 "
                "days after five years of continuous local government service. This is in "
                "addition to the eight bank holidays. Part-time employees receive a pro-rata "
                "entitlement based on their contracted hours.",
                "The leave year runs from 1 April to 31 March. Staff who join or leave part-way "
                "through the year receive a proportionate entitlement, and any leave taken beyond "
                "the amount accrued will be deducted from the final salary.",
            ),
        ),
        Section(
            "3. Requesting Leave",
            (
                "Leave must be requested through the HR self-service system and approved by your "
                "line manager before any travel is booked. As a rule, staff should give notice of "
                "at least twice the length of the leave requested, so a week's holiday needs two "
                "weeks' notice. Requests for more than ten consecutive working days need the "
                "approval of the Head of Service as well as the line manager.",
                "Managers should respond to a leave request within five working days. They may "
                "refuse leave where it would leave the service without adequate cover, but must "
                "give their reason in writing.",
            ),
        ),
        Section(
            "4. Carrying Over and Buying Leave",
            (
                "Up to five days of unused leave may be carried over into the next leave year, "
                "and they must be used by 30 June. Carrying over more than five days is only "
                "possible where an employee has been unable to take leave because of sickness or "
                "family leave, in which case the statutory rules apply. Unused leave is not paid "
                "in lieu except when employment ends.",
                "Employees may buy up to ten additional days of leave each year through the "
                "salary sacrifice scheme. Applications to buy leave must be made during the "
                "application window each March.",
            ),
        ),
        Section(
            "5. Reporting Sickness",
            (
                "If you are too unwell to work, telephone your line manager personally before "
                "9.30am on the first day of absence, or within an hour of your normal start time "
                "if you work shifts. A text message or e-mail is not acceptable unless you are "
                "unable to speak. You must keep your manager updated at least every three working "
                "days.",
                "For absences of up to seven calendar days you complete a self-certification form "
                "on your return. From the eighth calendar day a fit note from a doctor is "
                "required, and it must be sent to your manager without delay.",
            ),
        ),
        Section(
            "6. Return to Work and Attendance Reviews",
            (
                "A return to work meeting is held with your line manager after every period of "
                "sickness absence, normally on your first day back. The meeting is a chance to "
                "check that you are fit to return and to discuss any support you need.",
                "A formal attendance review is triggered by four separate absences, or eight "
                "working days of absence in total, within any rolling twelve-month period. "
                "Absence of four consecutive weeks or more is treated as long-term sickness and "
                "is managed with advice from Occupational Health.",
            ),
        ),
        Section(
            "7. Other Paid Leave",
            bullets=(
                "Compassionate leave of up to five days on full pay following the death of a "
                "close relative, approved by the line manager.",
                "Up to two days of paid emergency leave a year to deal with an unexpected problem "
                "involving a dependant.",
                "Jury service is granted as paid leave, and employees must not claim the court's "
                "loss of earnings allowance.",
                "Paid time off for medical and dental appointments is not normally given, and "
                "appointments should be made outside working hours where possible.",
            ),
        ),
        Section(
            "8. Review",
            (
                "The Head of Human Resources reviews this policy every three years, or sooner if "
                "employment law changes.",
            ),
        ),
    ),
)

DOCUMENTS = (PROCUREMENT, GIFTS_AND_INTERESTS, LONE_WORKING, LEAVE_AND_ABSENCE)

"""Held-out documents for the offline answerer: four policies of a fictional housing association.

Written blind (without looking at the answerer's code or its tuned demo questions) to test the
answerer on documents and questions nobody tuned it on; the questions are in
tests/data/answerability/heldout_questions.jsonl. Build the PDFs with
make_sample_pdfs.write_samples(folder, DOCUMENTS).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_sample_pdfs import SampleDocument, Section

COMPANY = "Harrowgate Vale Housing Association"


TRAVEL_EXPENSES = SampleDocument(
    file_name="travel-and-expenses-policy.pdf",
    title="Travel and Expenses Policy",
    version="2.1",
    effective="1 April 2024",
    owner="Director of Finance",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "This policy explains how Harrowgate Vale Housing Association pays back the costs "
                "that colleagues incur while travelling on association business. Every pound we "
                "spend comes from tenants' rents, so claims must be reasonable, necessary and "
                "supported by receipts. Colleagues should never be out of pocket for doing their "
                "job, but nor should they profit from a claim.",
            ),
        ),
        Section(
            "2. Scope",
            (
                "The policy applies to all employees, board members and volunteers of the "
                "association. Agency workers and contractors are not covered; their travel costs "
                "must be agreed in their contract or purchase order before the work starts.",
                "Travel between home and a colleague's normal place of work is ordinary commuting "
                "and cannot be claimed.",
            ),
        ),
        Section(
            "3. Booking travel",
            (
                "All rail tickets, flights and hotel rooms must be booked through the "
                "association's travel desk, which can be reached on extension 4410. Bookings made "
                "privately will only be refunded where the travel desk was closed and the journey "
                "could not wait.",
            ),
            (
                "Standard class rail is the default for every journey.",
                "First class rail may be booked only for journeys of more than three hours each "
                "way, and only with the approval of a Director.",
                "Flights within the UK are allowed only when they are cheaper than the rail fare "
                "or save at least half a working day.",
                "Business class air travel is never permitted for flights within Europe; for "
                "longer flights it requires the written approval of the Chief Executive.",
            ),
        ),
        Section(
            "4. Using your own vehicle",
            (
                "Colleagues who use their own car for work journeys are paid 45p per mile for the "
                "first 10,000 business miles in a tax year and 25p per mile after that. "
                "Motorcycles are paid at 24p per mile and bicycles at 20p per mile.",
                "A passenger supplement of 5p per mile is paid for each colleague carried on the "
                "same work journey. Before using a private vehicle for work, colleagues must show "
                "their line manager a valid driving licence and proof that their insurance covers "
                "business use.",
                "Parking charges and tolls incurred on a work journey can be claimed with a "
                "receipt. However, parking fines and speeding penalties are the driver's own "
                "responsibility and will never be refunded.",
            ),
        ),
        Section(
            "5. Overnight stays and meals",
            (
                "An overnight stay is justified only where the working day would otherwise begin "
                "before 7am or end after 8pm away from home. The nightly limit for a hotel room, "
                "including breakfast, is £150 in London and £95 elsewhere in the UK.",
            ),
            (
                "Lunch may be claimed up to £10 when a colleague is away from their usual "
                "workplace for more than five hours.",
                "An evening meal may be claimed up to £25 when a colleague stays overnight or gets"
                " home later than 8pm.",
                "Alcohol cannot be claimed in any circumstances.",
                "Hospitality for external guests must be agreed in advance by a Head of Service "
                "and is limited to £40 per head.",
            ),
        ),
        Section(
            "6. Making a claim",
            (
                "Claims must be entered in the online expenses system within 45 days of the date "
                "the cost was incurred. Late claims will be refused unless the Director of Finance"
                " agrees that there were exceptional circumstances.",
                "Each claim must be supported by an itemised receipt; a card payment slip on its "
                "own is not enough. If a receipt is lost, the colleague must complete a missing "
                "receipt declaration, and no more than two such declarations will be accepted from"
                " one person in any twelve-month period.",
                "Claims approved by the 15th of the month are paid with the next monthly salary.",
            ),
        ),
        Section(
            "7. Approval and checks",
            (
                "Claims are approved by the claimant's line manager, who must not approve a claim "
                "from which they personally benefit. Claims made by Directors are approved by the "
                "Chief Executive, and the Chief Executive's own claims are approved by the Chair "
                "of the Board.",
                "The Finance team checks a random sample of one in ten claims each quarter. "
                "Deliberately false claims are treated as gross misconduct and may be reported to "
                "the police.",
            ),
        ),
        Section(
            "8. Review",
            (
                "This policy is reviewed every two years by the Director of Finance, or sooner if "
                "HMRC mileage rates change.",
            ),
        ),
    ),
)

HYBRID_WORKING = SampleDocument(
    file_name="hybrid-working-policy.pdf",
    title="Hybrid Working Policy",
    version="1.3",
    effective="6 January 2025",
    owner="Head of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "Hybrid working lets colleagues split their time between association offices, the "
                "neighbourhoods we serve and their own homes. We believe it supports wellbeing and"
                " cuts unnecessary travel, but it must never come at the expense of the service "
                "our tenants receive.",
            ),
        ),
        Section(
            "2. Who can work hybrid",
            (
                "Hybrid working is open to colleagues in office-based roles once they have "
                "completed their probationary period of six months. Roles that need a physical "
                "presence, such as repairs operatives, caretakers and reception staff, are not "
                "eligible, although these colleagues may ask for flexible start and finish times "
                "instead.",
                "Requests are made to the line manager on the hybrid working request form, and the"
                " manager must respond in writing within 28 days. A colleague whose request is "
                "declined may appeal to the Head of People within 14 days of the decision.",
            ),
        ),
        Section(
            "3. Attendance and working hours",
            (
                "Hybrid colleagues are expected to work from an association office for at least "
                "two days in every working week. Each team agrees one anchor day on which all its "
                "members attend the office together, and this day cannot be swapped without the "
                "manager's agreement.",
            ),
            (
                "Core hours are 10am to 3pm, during which colleagues must be available by phone "
                "and Teams.",
                "Outside core hours, colleagues may choose their start and finish times between "
                "7am and 7pm.",
                "Colleagues must record where they will be working in the shared team calendar by "
                "9am each Monday.",
            ),
        ),
        Section(
            "4. Equipment and costs",
            (
                "The association provides a laptop, a headset and, on request, one monitor for use"
                " at home. Colleagues may also claim a one-off allowance of up to £200 towards a "
                "desk or chair, with receipts, within their first three months of hybrid working.",
                "Colleagues must complete the display screen equipment self-assessment within four"
                " weeks of starting hybrid working and repeat it every year. Household costs such "
                "as heating, electricity and broadband are not reimbursed, but colleagues may "
                "claim tax relief directly from HMRC.",
                "Equipment remains the property of the association and must be returned within ten"
                " working days of leaving.",
            ),
        ),
        Section(
            "5. Working from abroad",
            (
                "Working from outside the UK is not part of hybrid working. A colleague may work "
                "from another country for up to 10 working days in any calendar year, but only "
                "with the prior approval of both the Head of People and the Head of IT. Working "
                "from any country subject to UK sanctions is prohibited.",
            ),
        ),
        Section(
            "6. Keeping information safe",
            (
                "Working away from the office brings extra risks to tenants' information, and "
                "colleagues must follow these rules wherever they work.",
            ),
            (
                "Confidential tenant information must not be printed at home.",
                "Laptops must be locked whenever they are left unattended, even for a moment.",
                "Public Wi-Fi may be used only through the association's VPN.",
                "Calls that involve a tenant's personal details must not be taken where they can "
                "be overheard, including in cafes and on trains.",
            ),
        ),
        Section(
            "7. Reviewing arrangements",
            (
                "Any loss or theft of association equipment must be reported to the IT Service "
                "Desk within 24 hours.",
                "Managers review each hybrid arrangement with the colleague after the first three "
                "months and then once a year. The association may end a hybrid arrangement on four"
                " weeks' notice where the needs of the service change or performance falls below "
                "the expected standard.",
                "This policy will next be reviewed in January 2027.",
            ),
        ),
    ),
)

SPEAKING_UP = SampleDocument(
    file_name="speaking-up-procedure.pdf",
    title="Speaking Up (Whistleblowing) Procedure",
    version="4.0",
    effective="1 September 2024",
    owner="Company Secretary",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Why speaking up matters",
            (
                "We want everyone who works for or with the association to feel safe raising "
                "concerns about wrongdoing. Speaking up early allows problems to be put right "
                "before tenants, colleagues or public money are harmed.",
            ),
        ),
        Section(
            "2. Who can use this procedure",
            (
                "The procedure is open to employees, board members, volunteers, agency workers and"
                " contractors. Tenants who are unhappy with a service should use the tenant "
                "complaints policy instead.",
                "Personal grievances about your own employment, such as pay or a dispute with a "
                "manager, are not whistleblowing and should be raised under the grievance "
                "procedure.",
            ),
        ),
        Section(
            "3. What you can report",
            (
                "You can use this procedure to report any of the following, whether it is "
                "happening now, has happened in the past or is likely to happen.",
            ),
            (
                "Fraud, bribery or theft involving association money or property.",
                "Dangers to the health and safety of tenants, colleagues or the public, including "
                "fire safety and damp and mould.",
                "Breaches of the Regulator of Social Housing's consumer standards.",
                "Damage to the environment.",
                "Deliberate concealment of any of these.",
            ),
        ),
        Section(
            "4. How to raise a concern",
            (
                "Concerns should normally be raised first with your line manager. If you feel "
                "unable to do so, you can contact the Speaking Up Guardian, Priya Lennox, on 0161 "
                "555 0192 or at speakingup@harrowgatevale.org.uk.",
                "Concerns about the Chief Executive should be raised directly with the Chair of "
                "the Audit and Risk Committee. You can also use the independent hotline run by "
                "SafeCall, which is available 24 hours a day and allows you to remain anonymous.",
                "Concerns may be raised verbally or in writing, and you do not need proof, only a "
                "reasonable belief that wrongdoing is happening.",
            ),
        ),
        Section(
            "5. What happens next",
            (
                "The Guardian will acknowledge a concern within five working days and tell you who"
                " will investigate it. An initial assessment will be completed within 20 working "
                "days, and most investigations are expected to finish within three months.",
                "You will be told the outcome of the investigation, although some details may be "
                "withheld to protect the privacy of others. If you are unhappy with how your "
                "concern was handled, you may ask the Chair of the Board to review it within 30 "
                "days of being told the outcome.",
            ),
        ),
        Section(
            "6. Protection and confidentiality",
            (
                "No one who raises a genuine concern will be dismissed, disciplined or "
                "disadvantaged for doing so, even if the concern turns out to be mistaken. Anyone "
                "found to have victimised a person for speaking up will face disciplinary action, "
                "which may include dismissal.",
                "Your identity will not be disclosed without your consent unless the law requires "
                "it. Deliberately making false allegations for malicious reasons is a disciplinary"
                " offence.",
            ),
        ),
        Section(
            "7. Reporting outside the association",
            (
                "We hope you will raise concerns internally, but you may also report to a "
                "prescribed body such as the Regulator of Social Housing, the Health and Safety "
                "Executive or the Serious Fraud Office. Free confidential advice is available from"
                " the charity Protect.",
                "You should not contact the media about a concern before using this procedure, "
                "except in exceptional cases.",
            ),
        ),
        Section(
            "8. Records",
            (
                "The Company Secretary keeps a confidential register of all concerns raised. The "
                "register is reported in anonymised form to the Audit and Risk Committee every six"
                " months. Records of each concern are kept for six years after the case is closed.",
            ),
        ),
    ),
)

SITE_ACCESS = SampleDocument(
    file_name="visitor-and-site-access-procedure.pdf",
    title="Visitor and Site Access Procedure",
    version="2.0",
    effective="15 May 2024",
    owner="Facilities Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This procedure explains how visitors, contractors and colleagues gain access to "
                "the association's head office at Calder House and to its three area offices. It "
                "helps us keep people safe, protect tenants' information and know who is on site "
                "in an emergency.",
                "It does not cover entry to tenants' homes, which is governed by the Tenancy "
                "Visits Procedure.",
            ),
        ),
        Section(
            "2. Identity badges",
            (
                "Every colleague is issued with a photo identity badge that also opens the doors "
                "they need for their role. Badges must be worn visibly at all times on association"
                " premises and must never be lent to anyone.",
                "A lost badge must be reported to Facilities on the same working day so that it "
                "can be cancelled. The first replacement is free, but a charge of £10 is made for "
                "each further replacement within the same year.",
                "Colleagues who forget their badge can collect a temporary pass from reception, "
                "which must be returned by 5pm on the same day.",
            ),
        ),
        Section(
            "3. Visitors",
            (
                "Visitors must be booked in advance by their host through the visitor management "
                "system, at least one working day before the visit where possible. On arrival "
                "every visitor signs in at reception, shows photo identification and is given a "
                "visitor badge.",
            ),
            (
                "Visitors must be accompanied by their host at all times beyond the reception "
                "area.",
                "A host may escort no more than four visitors at once.",
                "Visitors under 16 years old must be accompanied by a parent or guardian and may "
                "not enter the server room or the maintenance stores.",
                "Visitor badges must be handed back at reception when the visitor leaves.",
            ),
        ),
        Section(
            "4. Contractors",
            (
                "Contractors working on site must attend a site induction given by Facilities "
                "before starting their first job, and the induction is valid for one year. "
                "Contractors carrying out hazardous work, such as hot works, work at height or "
                "work on electrical systems, need a permit to work issued by the Facilities "
                "Manager.",
                "Contractors who are on site for more than five consecutive days may be issued "
                "with a contractor badge, which is collected at the end of the contract. "
                "Contractors must never be left unsupervised in areas where tenant files are "
                "stored.",
            ),
        ),
        Section(
            "5. Opening hours and out-of-hours access",
            (
                "Calder House is open from 7:30am to 6:30pm, Monday to Friday. Access outside "
                "these hours or at weekends must be approved in advance by a Head of Service and "
                "notified to Facilities by 3pm on the last working day before.",
                "Colleagues working alone out of hours must use the lone worker app and check in "
                "with the security control room every two hours.",
            ),
        ),
        Section(
            "6. Restricted areas",
            (
                "The server room, the cash office and the records store are restricted areas. "
                "Access to the server room is limited to named IT staff, and anyone else must be "
                "escorted by them and signed into the server room log.",
                "Access rights to restricted areas are reviewed by their owners every quarter, and"
                " rights that are no longer used are removed.",
            ),
        ),
        Section(
            "7. Deliveries, parking and keys",
            (
                "Deliveries are accepted at the goods entrance between 8am and 4pm only. Parcels "
                "addressed to individuals for personal use are not accepted.",
                "Visitor parking is limited to the six marked bays at the front of Calder House "
                "and must be booked with reception. Colleagues may not park in visitor bays.",
                "Spare keys for each office are held in the key safe at reception and may be "
                "signed out only by key holders named by the Facilities Manager.",
            ),
        ),
        Section(
            "8. Emergencies and records",
            (
                "If the fire alarm sounds, hosts are responsible for leading their visitors to the"
                " assembly point in the rear car park. Reception will print the visitor list for "
                "the fire marshals, who will report anyone missing to the fire service.",
                "Visitor records are kept for 12 months and then deleted.",
            ),
        ),
    ),
)

DOCUMENTS = (TRAVEL_EXPENSES, HYBRID_WORKING, SPEAKING_UP, SITE_ACCESS)

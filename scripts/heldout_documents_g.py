"""Seventh held-out document set: four policies of a fictional UK construction firm, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_g_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Kestrel Ridge Construction Ltd"

SITE_SAFETY = SampleDocument(
    file_name="site-health-and-safety-policy.pdf",
    title="Site Health and Safety Policy",
    version="5.1",
    effective="1 April 2025",
    owner="Head of Health, Safety and Environment",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out how Kestrel Ridge Construction Ltd keeps people safe on its "
                "construction sites. It applies to all employees, agency workers, subcontractors "
                "and visitors on any site where the company is the principal contractor. Staff "
                "based at the Wetherby head office follow the separate Office Safety "
                "Arrangements instead.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A permit to work is a signed form that authorises a named person to carry out a "
                "high-risk task at a stated place and time, once the listed precautions are in "
                "place.",
                "An Authorised Person is a supervisor trained and appointed in writing by the "
                "Head of Health, Safety and Environment to issue permits to work.",
                "A near miss is an event that did not cause injury or damage but could have done "
                "so.",
                "A RIDDOR incident is an injury, disease or dangerous occurrence that must be "
                "reported to the Health and Safety Executive under the Reporting of Injuries, "
                "Diseases and Dangerous Occurrences Regulations 2013.",
            ),
        ),
        Section(
            "3. Site induction and access",
            (
                "Nobody may start work on a site until they have completed that site's induction "
                "with the Site Manager or their deputy. An induction stays valid for the life of "
                "the project unless the person is away from the site for more than three months, "
                "in which case it must be repeated.",
                "All operatives must hold a valid CSCS card, or the equivalent card for their "
                "trade, before they are inducted. Visitors sign in at the site office and must "
                "be escorted by an inducted member of staff at all times. Children under 16 are "
                "not allowed on site under any circumstances.",
            ),
        ),
        Section(
            "4. Permits to work",
            (
                "A permit to work is required for hot work, entry into confined spaces, "
                "excavations deeper than 1.2 metres, work on or near live electrical systems and "
                "any work on a roof. Permits are issued by the Site Manager or an Authorised "
                "Person and are valid for one shift only, up to a maximum of 12 hours.",
                "Confined space permits must also be countersigned by the Contracts Manager "
                "before work begins. After any hot work, a fire watch must be kept for at least "
                "60 minutes after the work finishes, and the permit is only closed once the area "
                "has been checked.",
            ),
        ),
        Section(
            "5. Working at height",
            (
                "Ladders and stepladders may only be used for light work of short duration, "
                "meaning no more than 30 minutes in one position. Scaffolds must be inspected by "
                "a competent person before first use, at least every 7 days and after any storm "
                "or high winds, and the result is shown on the scaffold tag.",
                "Mobile elevating work platforms (MEWPs) may only be operated by people holding a "
                "valid IPAF licence for that category of machine. MEWP work must stop when the "
                "wind speed at the platform exceeds 28 mph. Harnesses and lanyards are checked "
                "before each use and given a detailed inspection by the site store every 6 "
                "months.",
            ),
            (
                "Never stand on the top three rungs of a ladder.",
                "Nobody may work at height alone; a second person must always be within sight.",
                "Scaffolds must not be altered by anyone other than the scaffolding contractor.",
            ),
        ),
        Section(
            "6. Personal protective equipment",
            (
                "The minimum PPE on every site is a hard hat, a high-visibility vest or jacket, "
                "safety boots with midsole protection, gloves and safety glasses. PPE is issued "
                "free of charge from the site store, and worn or damaged items are replaced on "
                "request. Hard hats must be replaced every three years, or at once after any "
                "impact.",
                "Employees are reimbursed up to £85 towards one pair of safety boots every 12 "
                "months. Employees who need prescription safety glasses receive up to £120 "
                "towards them every two years. Anyone who wears a tight-fitting dust mask must "
                "have passed a face-fit test and be clean-shaven where the mask seals.",
            ),
        ),
        Section(
            "7. First aid",
            (
                "Each site must have at least one qualified first aider for every 25 people on "
                "site, and at least one on every shift. First aiders hold a First Aid at Work "
                "certificate, renewed every three years at the company's expense, and receive an "
                "allowance of £25 a month while they hold the role.",
                "The site first aider checks the first aid kits every week and restocks them "
                "from the site store. Every site with more than 50 people on it must have a "
                "defibrillator, kept in the site office.",
            ),
        ),
        Section(
            "8. Accident and incident reporting",
            (
                "All accidents, injuries and near misses must be reported to the Site Manager "
                "straight away and recorded on the SafeSite app before the end of the shift. The "
                "Site Manager investigates minor accidents and completes the investigation "
                "within five working days.",
                "Serious incidents, including any injury needing hospital treatment, a collapse "
                "or a fire, must be reported at once to the health and safety duty phone on "
                "01632 960 412, which is answered 24 hours a day. The Head of Health, Safety and "
                "Environment decides whether an incident is reportable under RIDDOR and makes "
                "all reports to the Health and Safety Executive.",
                "To encourage reporting, the site with the most near miss reports in each "
                "quarter receives £250 for its welfare fund.",
            ),
        ),
        Section(
            "9. Drugs and alcohol",
            (
                "Random drug and alcohol tests are carried out on every site. Anyone who tests "
                "positive, or refuses a test, is removed from site at once and suspended pending "
                "a disciplinary investigation. Employees taking prescribed medicine that may "
                "cause drowsiness must tell their Site Manager before starting work.",
            ),
        ),
        Section(
            "10. Advice and review",
            (
                "Advice on this policy is available from the health and safety team at "
                "hse@kestrelridge.co.uk. The Head of Health, Safety and Environment reviews this "
                "policy every year, and the next review is due in March 2026.",
            ),
        ),
    ),
)

SUBCONTRACTORS = SampleDocument(
    file_name="subcontractor-management-policy.pdf",
    title="Subcontractor Management Policy",
    version="2.4",
    effective="1 January 2025",
    owner="Commercial Director",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy covers how Kestrel Ridge Construction Ltd selects, appoints, pays "
                "and manages subcontractors who carry out work on its projects. Suppliers who "
                "only deliver materials are dealt with under the Procurement Policy, and design "
                "consultants are appointed under the Consultant Appointments Procedure.",
            ),
        ),
        Section(
            "2. Vetting and approval",
            (
                "Only firms on the Approved Subcontractor List may be given work. To join the "
                "list a firm must hold CHAS or SMAS accreditation, provide two trade references "
                "and its last three years of accounts, and pass a credit check carried out by "
                "the supply chain team. Approval lasts for two years, after which the firm must "
                "re-apply.",
                "Firms with an annual turnover below £250,000 may only be given packages worth "
                "up to £50,000. In an emergency a firm that is not on the list may be used once "
                "for work up to £5,000, with the written approval of the Contracts Manager.",
                "Questions about pre-qualification go to the supply chain team at "
                "supplychain@kestrelridge.co.uk or on 01632 960 238.",
            ),
        ),
        Section(
            "3. Insurance",
            (
                "Every subcontractor must hold employer's liability insurance of at least £10 "
                "million and public liability insurance of at least £5 million. Subcontractors "
                "who carry out any design must also hold professional indemnity insurance of at "
                "least £2 million, maintained for six years after completion of their work.",
                "The supply chain team checks insurance certificates when a firm joins the list "
                "and again each time a policy is renewed. A subcontractor whose insurance has "
                "expired is suspended from all sites until a current certificate is received.",
            ),
        ),
        Section(
            "4. Subcontract orders",
            (
                "No subcontractor may start work without a signed subcontract order. Orders up "
                "to £100,000 are approved by the Contracts Manager, orders from £100,000 to "
                "£500,000 by the Commercial Director, and orders above £500,000 by the Managing "
                "Director.",
            ),
        ),
        Section(
            "5. Payment terms",
            (
                "Subcontractors submit their applications for payment to the Project Quantity "
                "Surveyor by the 25th of each month. A payment notice is issued within five days "
                "of that date, and the final date for payment is 30 days after the application "
                "date. Any pay less notice must be issued at least seven days before the final "
                "date for payment.",
                "Under our Fair Payment Charter, subcontractors with fewer than 10 employees are "
                "paid within 21 days of the application date. Payments are made by BACS on "
                "Fridays only.",
                "Deductions are made under the Construction Industry Scheme at 20% for "
                "subcontractors registered with HMRC and 30% for those who are not registered. "
                "Firms with gross payment status are paid without deduction.",
            ),
        ),
        Section(
            "6. Retentions",
            (
                "A retention of 5% is held on each payment. Half of the retention is released at "
                "practical completion and the other half at the end of the defects period, which "
                "is 12 months unless the subcontract order states otherwise. No retention is "
                "held on packages worth less than £25,000.",
                "The Commercial Director may accept a retention bond from an approved bank "
                "instead of cash retention.",
            ),
        ),
        Section(
            "7. Performance, defects and back-charges",
            (
                "The Site Manager scores each subcontractor's performance every quarter on "
                "safety, quality, programme and tidiness. A firm that scores below 60% is "
                "reviewed by the Contracts Manager, and a firm that scores below 60% in two "
                "quarters running is removed from the Approved Subcontractor List.",
                "Defects must be put right within 10 working days of written notice, or within "
                "24 hours where the defect affects safety. Where a subcontractor fails to clear "
                "its own waste, the cost of clearing it is back-charged at cost plus 15%.",
            ),
        ),
        Section(
            "8. Disputes and review",
            (
                "A subcontractor who disagrees with a valuation or a back-charge should first "
                "raise it in writing with the Project Quantity Surveyor. If it is not settled "
                "within 14 days, the matter goes to a meeting with the Commercial Director.",
                "Either party may refer a dispute to adjudication under the Housing Grants, "
                "Construction and Regeneration Act 1996 at any time. Where the parties cannot "
                "agree an adjudicator, one is nominated by the Royal Institution of Chartered "
                "Surveyors.",
                "The Commercial Director reviews this policy every year, and the next review is "
                "due in December 2025.",
            ),
        ),
    ),
)

VEHICLES = SampleDocument(
    file_name="company-vehicles-and-plant-policy.pdf",
    title="Company Vehicles and Plant Policy",
    version="3.2",
    effective="1 June 2025",
    owner="Fleet and Plant Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Scope and review",
            (
                "This policy covers company vans, pool cars, owned plant such as excavators, "
                "dumpers and telehandlers, and plant hired in for our projects. Employees who "
                "use their own cars for business journeys are covered by the Travel and Expenses "
                "Policy, not by this policy.",
                "The Fleet and Plant Manager reviews this policy every two years, and next in "
                "May 2027. Questions go to fleet@kestrelridge.co.uk.",
            ),
        ),
        Section(
            "2. Licences and licence checks",
            (
                "Drivers of company vehicles must hold a full UK driving licence and have held it "
                "for at least two years. The fleet team checks every driver's licence with the "
                "DVLA before they first drive and every six months after that, or every three "
                "months for drivers with six or more penalty points.",
                "Drivers must tell the fleet desk of any new endorsement or driving ban within 48 "
                "hours. A driver who reaches nine penalty points is referred to the Fleet and "
                "Plant Manager, who may withdraw their company vehicle.",
            ),
        ),
        Section(
            "3. Use of company vans",
            (
                "Company vans are for business use, including travel between home and site. "
                "Private use is only allowed with the written approval of the driver's "
                "Contracts Manager, and vans must never be used for house moves or taken "
                "outside the UK.",
                "Only employees and people travelling on company business may be carried as "
                "passengers. Tools and materials must not be left in a van overnight unless they "
                "are locked in the fitted tool safe.",
            ),
            (
                "Smoking and vaping are not allowed in any company vehicle.",
                "Hand-held mobile phones must not be used while driving, even when stopped in "
                "traffic; hands-free calls should be kept short.",
            ),
        ),
        Section(
            "4. Fuel cards",
            (
                "Each van has its own fuel card, which may only be used to buy diesel and "
                "AdBlue for that van. Each transaction on the card is limited to £150. The "
                "odometer reading must be entered at every fill-up.",
                "Where private use of a van has been approved, the driver repays the fuel for "
                "private miles at 18p per mile through payroll. A lost or stolen fuel card must "
                "be reported to the fleet desk within 24 hours so that it can be stopped. "
                "Misuse of a fuel card is treated as gross misconduct and the money is "
                "recovered.",
            ),
        ),
        Section(
            "5. Telematics",
            (
                "All company vans and pool cars are fitted with telematics that record location, "
                "speed, harsh braking and idling. The data are used to manage the fleet, plan "
                "routes and improve driving, and are kept for 12 months.",
                "Each driver receives a monthly driving score. Drivers who score below 70 for two "
                "months in a row must complete an online driver training course. Drivers with "
                "approved private use may switch the unit to private mode outside working hours.",
            ),
        ),
        Section(
            "6. Plant",
            (
                "Plant may only be operated by people holding a valid CPCS or NPORS card for "
                "that category of machine. Operators complete a daily pre-use check on the "
                "PlantCheck app before starting work, and at the end of each shift keys are "
                "removed and the machine is immobilised.",
                "Hired plant is ordered through the plant desk at plant@kestrelridge.co.uk or on "
                "01632 960 574. To avoid a further day's charge, plant must be called off hire "
                "before 12 noon. Lifting equipment receives a thorough examination every six "
                "months.",
            ),
        ),
        Section(
            "7. Fines and charges",
            (
                "Drivers are personally responsible for parking fines, bus lane fines and "
                "speeding penalties, including those incurred on company business. Where a fine "
                "is sent to the company, it is paid and the amount is deducted from the driver's "
                "pay together with an administration fee of £15.",
                "Congestion Charge, ULEZ and toll charges on business journeys are paid by the "
                "company through its auto-pay accounts. Notices of intended prosecution are "
                "passed to the driver named in the vehicle log within two working days.",
            ),
        ),
        Section(
            "8. Accidents and damage",
            (
                "After any accident, drivers must stop, exchange details, take photographs and "
                "not admit liability. Every accident or damage, however minor, must be reported "
                "to the fleet desk on 01632 960 575, which is staffed 24 hours a day, and an "
                "accident report form completed within 24 hours.",
                "Where damage is caused by a driver's negligence, the first £250 of the repair "
                "cost may be recovered from the driver. A driver who has a second at-fault "
                "accident within 12 months must complete a driver assessment before driving "
                "again. Windscreen chips and cracks are reported to the fleet desk, which "
                "arranges repair.",
            ),
        ),
    ),
)

ANTI_BRIBERY = SampleDocument(
    file_name="whistleblowing-and-anti-bribery-policy.pdf",
    title="Whistleblowing and Anti-Bribery Policy",
    version="1.6",
    effective="1 September 2024",
    owner="Company Secretary",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "Kestrel Ridge Construction Ltd does not tolerate bribery in any form and wants "
                "people to speak up about wrongdoing. This policy applies to all directors, "
                "employees and agency workers. Subcontractors and suppliers may also use the "
                "reporting channels in section 6.",
                "Complaints about a person's own pay, treatment or working conditions are "
                "handled under the Grievance Procedure, not this policy.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A bribe is any gift, payment or other advantage offered, given or received to "
                "influence a business decision improperly.",
                "A facilitation payment is a small unofficial payment to speed up a routine "
                "action by an official, such as an inspection or a permit.",
                "A public official is anyone working for a government body, local authority or "
                "regulator, including building control and planning officers.",
            ),
        ),
        Section(
            "3. Gifts and hospitality received",
            (
                "Gifts worth up to £50 may be accepted without being recorded. Gifts worth from "
                "£50 to £250 must be entered in the gifts and hospitality register within five "
                "working days of receipt. Gifts worth more than £250 must be politely declined "
                "unless the Company Secretary agrees in advance that they may be accepted.",
                "Hospitality such as a meal is acceptable up to £100 per head; anything above "
                "that must be recorded in the register. Cash, gift cards and vouchers must never "
                "be accepted, whatever the amount.",
            ),
            (
                "No gifts or hospitality may be accepted from a subcontractor or supplier that is "
                "bidding in a live tender.",
                "Invitations that include travel or overnight accommodation need the approval of "
                "a Director before they are accepted.",
            ),
        ),
        Section(
            "4. Gifts and hospitality given",
            (
                "Hospitality offered to clients must be reasonable and recorded in the register; "
                "anything above £150 per head needs the approval of a Director. No gift or "
                "hospitality of any value may be given to a public official.",
            ),
        ),
        Section(
            "5. Facilitation payments",
            (
                "Facilitation payments are prohibited, however small. The only exception is "
                "where someone is threatened with violence or detention: they may pay to protect "
                "their safety, and must report the payment to the Company Secretary within 24 "
                "hours.",
            ),
        ),
        Section(
            "6. Raising a concern",
            (
                "Concerns should normally be raised first with your line manager. If that is not "
                "appropriate, for example because the manager is involved, contact the Company "
                "Secretary at speakup@kestrelridge.co.uk.",
                "The confidential Speak Up hotline, run by an independent provider, is available "
                "24 hours a day on 01632 960 800. Reports can be made anonymously, although this "
                "can make an investigation harder.",
            ),
        ),
        Section(
            "7. Investigation",
            (
                "The Company Secretary acknowledges each concern within three working days and "
                "appoints an investigator who is independent of the area concerned. "
                "Investigations are normally completed within 28 days, and the person who raised "
                "the concern is told the outcome, although some details may have to be kept "
                "confidential.",
            ),
        ),
        Section(
            "8. Protection",
            (
                "Nobody will suffer any detriment for raising a genuine concern, even if it turns "
                "out to be mistaken. Anyone who victimises a person for speaking up will face "
                "disciplinary action, as will anyone who knowingly makes a false allegation.",
                "Workers may also report concerns to a prescribed body, such as the Health and "
                "Safety Executive, HMRC or the Serious Fraud Office.",
            ),
        ),
        Section(
            "9. Agents, training, records and review",
            (
                "Agents or introducers who help the company win work may only be appointed after "
                "due diligence approved by the Company Secretary, and any commission above 5% of "
                "the contract value needs the approval of the Board.",
                "All staff complete anti-bribery training at induction and every two years after "
                "that. The Audit Committee reviews the gifts and hospitality register every "
                "quarter, and entries are kept for six years.",
                "The Board reviews this policy every year, and the next review is due in August "
                "2025.",
            ),
        ),
    ),
)

DOCUMENTS = (SITE_SAFETY, SUBCONTRACTORS, VEHICLES, ANTI_BRIBERY)

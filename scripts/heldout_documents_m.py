"""Thirteenth held-out document set: four policies of a fictional UK care home group, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_m_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Millbrook Care Homes Ltd"

MEDICATION = SampleDocument(
    file_name="medication-controlled-drugs-policy.pdf",
    title="Medication Administration and Controlled Drugs Policy",
    version="5.0",
    effective="1 April 2025",
    owner="Clinical Lead",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains how medicines are ordered, stored, given, recorded and "
                "disposed of in the residential and nursing homes of Millbrook Care Homes Ltd. "
                "It applies to every nurse, senior carer and care assistant who handles medicines, "
                "including bank staff.",
                "The Registered Manager of each home is accountable for safe medicines management "
                "in that home. On each shift the nurse in charge, or in a residential home the "
                "senior carer in charge, is responsible for the medication round.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "MAR chart means the Medication Administration Record on which every dose given, "
                "refused or omitted is recorded.",
                "PRN medicine means a medicine prescribed to be taken only when needed, such as "
                "pain relief or a laxative.",
                "Controlled drugs (CDs) are medicines such as morphine, oxycodone and fentanyl "
                "patches that are subject to the Misuse of Drugs Regulations 2001.",
                "Covert administration means giving a medicine hidden in food or drink to a "
                "resident who lacks capacity to make the decision.",
                "A homely remedy is a non-prescription medicine, such as paracetamol or a simple "
                "linctus, kept by the home for minor ailments.",
                "Time-critical medicines are medicines for which a delay can cause harm, including "
                "Parkinson's medicines, insulin and anti-epileptic drugs.",
            ),
        ),
        Section(
            "3. Training and competency",
            (
                "Only nurses and senior carers who have completed the Safe Handling of Medicines "
                "course and been observed giving medicines correctly on at least three medication "
                "rounds may administer medicines. Their competency is reassessed every 12 months "
                "by the Deputy Manager.",
                "Care assistants may apply prescribed creams and emollients under the direction "
                "of the senior carer, and must record each application on the topical MAR chart "
                "kept in the resident's room.",
                "Agency nurses may administer medicines in a nursing home only after completing "
                "the home's local medicines induction. Agency care workers must never administer "
                "medicines.",
            ),
        ),
        Section(
            "4. Administering medicines",
            (
                "Medicines must be given within one hour either side of the time shown on the MAR "
                "chart. Time-critical medicines must be given within 30 minutes of the prescribed "
                "time.",
                "The person giving the medicine must sign the MAR chart immediately after the "
                "resident has taken it, and never before. Medicines must not be put out in advance "
                "for someone else to give.",
                "Staff on the medication round wear the red 'Do not disturb' tabard and should not "
                "be interrupted except in an emergency.",
            ),
            (
                "Check the resident's identity against the photograph on the MAR chart.",
                "Check the medicine, dose, route and time against the MAR chart and the label.",
                "Check the allergy box on the MAR chart before giving any new medicine.",
                "Stay with the resident until the medicine has been swallowed.",
            ),
        ),
        Section(
            "5. Refused and omitted doses",
            (
                "If a resident refuses a medicine, the member of staff should explain why it has "
                "been prescribed and offer it again after 30 to 60 minutes. If the resident "
                "refuses a second time, the dose is recorded as refused using the code R on the "
                "MAR chart and the nurse in charge is told.",
                "Where a resident refuses the same medicine on three consecutive days, or refuses "
                "two consecutive doses of a time-critical medicine, the nurse in charge must "
                "contact the resident's GP on the same day.",
                "Covert administration is allowed only after a mental capacity assessment and a "
                "best interests meeting involving the GP, the pharmacist and the resident's family "
                "or representative. The decision must be recorded in the care plan and reviewed "
                "every three months.",
            ),
        ),
        Section(
            "6. PRN medicines and homely remedies",
            (
                "Every PRN medicine must have a PRN protocol in the MAR folder stating what it is "
                "for, the dose and the minimum interval between doses. PRN protocols are reviewed "
                "every month.",
                "When a PRN dose is given, the reason and the effect must be recorded on the back "
                "of the MAR chart within one hour.",
                "Homely remedies may be given only from the list agreed with each home's GP "
                "practice, and for no longer than 48 hours without asking the GP or pharmacist "
                "for advice.",
            ),
            (
                "Paracetamol: at least 4 hours between doses and no more than 4 doses in "
                "24 hours, including any prescribed paracetamol.",
                "Homely remedies are stored separately from residents' prescribed medicines.",
                "Care assistants must never give a homely remedy.",
            ),
        ),
        Section(
            "7. Controlled drugs",
            (
                "Controlled drugs are kept in the controlled drugs cabinet, which is fixed to the "
                "wall inside the locked medicine room. The CD keys are held at all times by the "
                "nurse in charge or, in a residential home, the senior carer in charge, and must "
                "be handed over in person at the end of each shift.",
                "Every administration of a controlled drug must be witnessed by a second trained "
                "member of staff, and both must sign the CD register. The balance remaining is "
                "checked and recorded each time a dose is given.",
                "A full stock check of all controlled drugs is carried out by two trained staff "
                "every Sunday. Any discrepancy must be reported to the Registered Manager "
                "immediately. If it cannot be resolved within 24 hours, the Registered Manager "
                "reports it to the Controlled Drugs Accountable Officer and to the police.",
                "The CD register must be kept in the home for two years after the date of the "
                "last entry.",
            ),
        ),
        Section(
            "8. Storage",
            (
                "The temperature of the medicine room is recorded every day and must stay below "
                "25°C. If it goes above 25°C on three days in a row, the nurse in charge must ask "
                "the pharmacy for advice.",
                "The medicines fridge must be kept between 2°C and 8°C. Its minimum, maximum and "
                "current temperatures are recorded every morning before 10am, and the thermometer "
                "is reset after each reading.",
                "Eye drops, eye ointments and liquid antibiotics must be labelled with the date of "
                "opening. Eye drops are discarded 28 days after opening unless the label says "
                "otherwise. An insulin pen in use may be kept at room temperature for up to "
                "28 days.",
            ),
        ),
        Section(
            "9. Medication errors and disposal",
            (
                "If a medication error is made or discovered, the member of staff must first check "
                "the resident and contact the GP or NHS 111 for advice straight away. The error "
                "must be reported to the nurse in charge at once and recorded on the CareLog "
                "incident system within 24 hours.",
                "A member of staff involved in a medication error stops giving medicines until "
                "the Deputy Manager has completed a reflective discussion and a new competency "
                "assessment with them. Errors are treated as a learning matter, and disciplinary "
                "action is considered only where there has been deliberate concealment or "
                "repeated errors.",
                "Unwanted and out-of-date medicines are placed in the blue pharmacy returns bin "
                "and listed in the returns book, which the pharmacist signs on collection. When a "
                "resident dies, their medicines are kept for seven days before being returned, in "
                "case the coroner asks for them.",
            ),
        ),
        Section(
            "10. Contacts and review",
            (
                "The supplying pharmacy is Brookside Pharmacy, on 01632 960 318. Questions about "
                "this policy should be sent to the Clinical Lead at "
                "clinical.lead@millbrookcare.co.uk.",
                "This policy is reviewed every year by the Clinical Lead, and next in March 2026.",
            ),
        ),
    ),
)

SAFEGUARDING = SampleDocument(
    file_name="safeguarding-whistleblowing-visiting-policy.pdf",
    title="Safeguarding, Whistleblowing and Visiting Policy",
    version="3.2",
    effective="1 January 2025",
    owner="Director of Care Quality",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "Millbrook Care Homes Ltd is committed to protecting the residents in its care "
                "from abuse and neglect, to listening to staff who raise concerns, and to "
                "welcoming visitors as part of residents' daily lives. This policy applies to all "
                "staff, volunteers and agency workers in every Millbrook home.",
                "All staff complete safeguarding training during their induction and refresh it "
                "every year. Nurses, senior carers and managers also complete the Level 3 "
                "safeguarding course every three years.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "An adult at risk is a person aged 18 or over who has care and support needs and "
                "cannot protect themselves from abuse or neglect because of those needs.",
                "Abuse includes physical, sexual, psychological, financial, discriminatory and "
                "organisational abuse, as well as neglect and acts of omission.",
                "The Designated Safeguarding Lead (DSL) is the Registered Manager of each home. "
                "The Deputy Manager acts as DSL when the Registered Manager is absent.",
                "DoLS means the Deprivation of Liberty Safeguards, under which a local authority "
                "authorises care arrangements that deprive a resident of their liberty.",
                "A protected disclosure is a concern about wrongdoing raised in the public "
                "interest, which is protected by law.",
            ),
        ),
        Section(
            "3. Reporting abuse",
            (
                "Any member of staff who sees, suspects or is told about abuse must first make "
                "sure the resident is safe, and then tell the nurse in charge or the Designated "
                "Safeguarding Lead straight away, and in any case before the end of their shift.",
                "The member of staff must write a factual account of what they saw or were told, "
                "in the resident's own words where possible, and sign and date it on the same "
                "day. They must not question the resident in detail or confront the person "
                "suspected of the abuse.",
                "The Designated Safeguarding Lead refers the concern to the local authority "
                "safeguarding adults team within 24 hours and sends a notification to the Care "
                "Quality Commission without delay.",
                "If the concern is about the Registered Manager, staff should report it directly "
                "to the Director of Care Quality. Out of hours, concerns can be raised with the "
                "on-call manager on 01632 960 450.",
            ),
            (
                "Do not wash the resident or change their bedding if physical or sexual abuse is "
                "suspected, unless it is needed for their immediate comfort.",
                "A member of staff accused of abuse is normally suspended on full pay while the "
                "concern is investigated.",
                "Where a staff member is dismissed for harming a resident, the Head of People "
                "makes a referral to the Disclosure and Barring Service.",
            ),
        ),
        Section(
            "4. Residents' money and gifts",
            (
                "Staff must not accept gifts or money from residents or their families, other "
                "than small gifts worth no more than £20, such as chocolates or flowers shared "
                "with the team. Every gift accepted must be entered in the home's gift register.",
                "Staff must never borrow from or lend money to a resident, witness or help to "
                "write a resident's will, or use a resident's bank card or PIN.",
                "The home may hold up to £300 in personal money for each resident in the "
                "residents' money safe. Every transaction must be signed by two members of staff "
                "and a receipt kept, and the Home Administrator audits the balances every month.",
            ),
        ),
        Section(
            "5. Restrictions and DoLS",
            (
                "Where a resident who lacks capacity needs to be kept in the home for their own "
                "safety, the Registered Manager applies to the local authority for a DoLS "
                "standard authorisation. In an emergency the Registered Manager may grant an "
                "urgent authorisation, which lasts for up to seven days and can be extended once "
                "by a further seven days.",
                "The Registered Manager must apply for a new standard authorisation at least "
                "28 days before the current one expires, and must notify the Care Quality "
                "Commission of the outcome of every DoLS application.",
                "Bed rails, sensor mats and locked doors may be used only after a risk assessment, "
                "and the bed rail risk assessment is reviewed every month.",
            ),
        ),
        Section(
            "6. Whistleblowing",
            (
                "Staff should normally raise concerns about poor practice with their line manager. "
                "Where that is not appropriate, concerns can be raised with the Whistleblowing "
                "Officer, who is the Company Secretary, by e-mail at speakup@millbrookcare.co.uk "
                "or on the confidential Speak Up line, 01632 960 499, which is available 24 hours "
                "a day.",
                "Concerns will be acknowledged within three working days, and the person who "
                "raised the concern will be told the outcome within 28 days wherever possible.",
                "Anonymous concerns are accepted and will be looked into, although they can be "
                "harder to investigate. Staff may also contact the Care Quality Commission "
                "directly at any time.",
                "No member of staff will be disciplined or treated less favourably for raising a "
                "genuine concern, even if it turns out to be mistaken. Making an allegation known "
                "to be false is a disciplinary matter.",
            ),
        ),
        Section(
            "7. Visiting",
            (
                "Visitors are welcome between 9am and 8pm every day, and visits outside these "
                "hours can be arranged with the nurse in charge. Visits to a resident receiving "
                "end-of-life care are allowed at any time.",
                "Each resident may name one essential care supporter, who may visit at any time, "
                "including during an outbreak, provided they follow the infection control advice "
                "of the nurse in charge.",
                "Lunch from 12:00 to 13:30 is a protected mealtime. Visitors are asked not to "
                "visit during this time unless they are helping their relative to eat.",
            ),
            (
                "All visitors sign in and out in the visitors' book at reception.",
                "Children under 16 must be accompanied by an adult at all times.",
                "Dogs are welcome if they are vaccinated and kept on a lead, but not in the dining "
                "room or kitchen.",
                "Visitors who have had diarrhoea or vomiting must not visit until 48 hours after "
                "their symptoms have stopped.",
                "No more than three visitors may be in a resident's bedroom at one time.",
            ),
        ),
        Section(
            "8. Contacts and review",
            (
                "The local authority safeguarding adults team can be contacted on 01632 960 700. "
                "Questions about this policy should be sent to the Director of Care Quality at "
                "care.quality@millbrookcare.co.uk.",
                "This policy is reviewed every two years, and next in December 2026.",
            ),
        ),
    ),
)

STAFF = SampleDocument(
    file_name="staff-rota-pay-leave-policy.pdf",
    title="Staff Rota, Pay, Sickness and Annual Leave Policy",
    version="2.4",
    effective="6 April 2025",
    owner="Head of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Who this policy covers",
            (
                "This policy applies to all employed staff of Millbrook Care Homes Ltd, "
                "including part-time staff and bank workers. Agency workers are covered by the "
                "terms of their agency and not by this policy.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A long day is a shift from 08:00 to 20:00, and a night shift runs from 20:00 to "
                "08:00.",
                "A bank worker is a member of staff with no guaranteed hours who is offered shifts "
                "as they become available.",
                "A sleep-in shift is a night on which a member of staff sleeps at the home and is "
                "available to help if needed.",
                "The leave year runs from 1 April to 31 March.",
            ),
        ),
        Section(
            "3. Rotas, shift swaps and breaks",
            (
                "Rotas are published on the RotaCloud app at least four weeks in advance. Changes "
                "to a published rota are made only by the Deputy Manager.",
                "Staff may swap a shift with a colleague of the same grade, provided the swap is "
                "requested on RotaCloud and approved by the Deputy Manager at least 48 hours "
                "before the shift starts.",
                "No member of staff may work more than 60 hours in any week without the written "
                "agreement of the Registered Manager, and everyone must have at least 11 hours' "
                "rest between the end of one shift and the start of the next.",
                "Every nursing home must have at least one registered nurse on duty on every "
                "shift.",
            ),
            (
                "Shifts of more than 6 hours include an unpaid break of 20 minutes.",
                "Long days and night shifts include two 30-minute breaks, one paid and one unpaid.",
                "Staff on a break must not leave the building without telling the nurse in charge.",
            ),
        ),
        Section(
            "4. Pay, enhancements and expenses",
            (
                "Staff are paid monthly, on the last working day of the month. Timesheets must be "
                "approved by the Deputy Manager by the 20th of the month; hours approved after "
                "the 20th are paid in the following month.",
                "Overtime must be approved in advance by the Registered Manager or Deputy Manager "
                "and is paid at time and a quarter. Hours worked on a bank holiday are paid at "
                "time and a half, and hours worked on Christmas Day and New Year's Day are paid "
                "at double time.",
                "A night enhancement of £1.50 an hour is paid for all hours worked between 20:00 "
                "and 08:00.",
                "A sleep-in allowance of £65 is paid for each sleep-in shift. If the member of "
                "staff is woken and works for more than 30 minutes in total, the time worked is "
                "also paid at their normal hourly rate.",
            ),
            (
                "Millbrook pays for each new starter's DBS check.",
                "The DBS Update Service fee of £16 a year is refunded through expenses.",
                "Nurses' NMC annual registration fee of £120 is refunded in full.",
                "Three tunics are provided free of charge, and replacements are issued by the "
                "Deputy Manager when worn out.",
            ),
        ),
        Section(
            "5. Sickness absence",
            (
                "Staff who are unable to work must telephone the nurse in charge at their home at "
                "least four hours before their shift starts. Staff due to work a night shift must "
                "call by 2pm on the day of the shift. Text messages, WhatsApp messages and e-mails "
                "are not accepted as notice of sickness.",
                "Staff may self-certify sickness of up to seven calendar days. From the eighth "
                "day of absence a fit note from a GP or other healthcare professional is needed.",
                "Staff who have had diarrhoea or vomiting must not return to work until 48 hours "
                "after their last symptoms.",
                "A return-to-work interview is held with the line manager on the first shift "
                "back after every absence.",
            ),
            (
                "Less than 6 months' service: Statutory Sick Pay only.",
                "From 6 months' to 2 years' service: company sick pay of 2 weeks at full pay in "
                "any rolling 12 months.",
                "More than 2 years' service: company sick pay of 4 weeks at full pay in any "
                "rolling 12 months.",
                "Three separate absences in 6 months, or 10 days of absence in 12 months, lead to "
                "a formal attendance review meeting.",
            ),
        ),
        Section(
            "6. Annual leave",
            (
                "Full-time staff are entitled to 28 days of paid leave a year, including bank "
                "holidays. Part-time staff receive the same entitlement pro rata. Staff who work "
                "on a bank holiday take another day off in lieu.",
                "Leave requests must be made on RotaCloud at least four weeks before the first day "
                "of leave, and the Deputy Manager replies within seven days. No more than two "
                "staff from the same unit may be on leave at the same time.",
                "Leave of more than two weeks in a row needs the approval of the Registered "
                "Manager.",
                "Up to five days of untaken leave may be carried over into the next leave year "
                "with the Registered Manager's approval, and must be used by 30 June.",
                "Leave over the Christmas period, from 20 December to 2 January, is shared out by "
                "rota. Staff who worked on Christmas Day the previous year are given priority for "
                "leave at Christmas.",
            ),
        ),
        Section(
            "7. Other leave",
            (
                "Up to five days of paid compassionate leave are given on the death of a partner, "
                "child, parent or sibling. One day of paid leave is given to attend the funeral "
                "of another relative.",
                "Staff called for jury service receive their normal pay for up to 10 working "
                "days, less any loss of earnings allowance paid by the court.",
                "Time off to deal with an emergency involving a dependant is unpaid.",
            ),
        ),
        Section(
            "8. Contacts and review",
            (
                "Payroll questions should be sent to payroll@millbrookcare.co.uk or raised on "
                "01632 960 260. Other questions about this policy go to the People team at "
                "people@millbrookcare.co.uk.",
                "The Head of People reviews this policy every year, and next in March 2026.",
            ),
        ),
    ),
)

INFECTION = SampleDocument(
    file_name="infection-prevention-food-laundry-policy.pdf",
    title="Infection Prevention, Food Hygiene and Laundry Policy",
    version="4.3",
    effective="1 September 2024",
    owner="Infection Prevention and Control Lead",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and responsibilities",
            (
                "This policy sets out how Millbrook homes prevent and control infection, keep "
                "food safe and handle laundry. The Registered Manager is responsible for infection "
                "control in the home.",
                "Each home names an Infection Prevention and Control (IPC) Champion, who carries "
                "out a hand hygiene audit every month and reports the results to the Registered "
                "Manager.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "An outbreak means two or more residents or staff in the same home with similar "
                "symptoms of infection within 48 hours of each other.",
                "PPE means personal protective equipment, including gloves, aprons, masks and eye "
                "protection.",
                "A red alginate bag is a water-soluble bag used for soiled or infected linen, "
                "which dissolves in the washing machine.",
                "Bare below the elbows means short sleeves, no wrist watch, no bracelets and no "
                "rings other than one plain band.",
            ),
        ),
        Section(
            "3. Hand hygiene and PPE",
            (
                "All care staff must be bare below the elbows while giving care. Nails must be "
                "short and clean, and false nails, nail extensions and gel polish are not allowed.",
                "Hands must be washed with soap and water, rather than cleaned with alcohol gel, "
                "when they are visibly dirty and when caring for a resident with diarrhoea, "
                "because alcohol gel does not kill norovirus or C. difficile.",
                "Gloves and aprons are worn for personal care and changed between residents. FFP3 "
                "masks may be worn only by staff who have passed a fit test.",
                "Hand hygiene training is completed at induction and refreshed every year.",
            ),
        ),
        Section(
            "4. Outbreaks",
            (
                "When an outbreak is suspected, the nurse in charge informs the Registered Manager "
                "and the IPC Lead. The Registered Manager reports the outbreak to the UKHSA health "
                "protection team, on 01632 960 880, on the same day.",
                "Residents with symptoms are cared for in their own rooms until they have been "
                "free of symptoms for 48 hours. During an outbreak, new admissions to the home "
                "are stopped unless the health protection team agrees otherwise.",
                "Touch points such as handrails, door handles and call bells are cleaned twice a "
                "day with a chlorine solution of 1,000 ppm during an outbreak.",
                "An outbreak of diarrhoea and vomiting is declared over 72 hours after the last "
                "new case. Other outbreaks are declared over when there have been no new cases "
                "for 14 days.",
            ),
        ),
        Section(
            "5. Sharps, spillages and needlestick injuries",
            (
                "Sharps bins must be closed and locked when they are three-quarters full, and in "
                "any case no more than three months after being opened. Closed bins are collected "
                "by the clinical waste contractor.",
                "Blood and body fluid spillages are cleaned up with the spillage kit, using "
                "chlorine granules at 10,000 ppm.",
            ),
            (
                "After a needlestick injury, encourage the wound to bleed and wash it under "
                "running water, but do not scrub or suck it.",
                "Report the injury to the nurse in charge at once.",
                "Attend the nearest A&E within one hour for assessment.",
                "Record the injury on CareLog before the end of the shift.",
            ),
        ),
        Section(
            "6. Food hygiene",
            (
                "Kitchen staff must hold a Level 2 Food Hygiene certificate, or obtain one within "
                "three months of starting. The Head Cook keeps the allergen matrix for every menu "
                "and must be told of every resident's allergies on admission.",
                "Fridges must be kept at 5°C or below and freezers at -18°C or below, and both are "
                "checked and recorded twice a day.",
                "Hot food must be cooked to a core temperature of at least 75°C for 30 seconds, "
                "checked with a probe thermometer, and kept above 63°C until it is served. Food "
                "may be reheated only once.",
                "Cooked food that is not served must be cooled and put in the fridge within "
                "90 minutes, labelled with the date, and used within 48 hours.",
                "Food brought in for a resident by a visitor must be labelled with the resident's "
                "name and the date, kept in the kitchenette fridge, and thrown away after "
                "24 hours.",
                "Texture-modified meals are prepared to the IDDSI level set out in the resident's "
                "care plan by the speech and language therapist.",
            ),
        ),
        Section(
            "7. Laundry",
            (
                "Families are asked to label all of a resident's clothing with the resident's "
                "name before admission. Name labels can be bought from the home for £5 for a pack "
                "of 50.",
                "Soiled and infected linen is placed in a red alginate bag at the bedside and put "
                "straight into the washing machine without being sorted. It is washed at 71°C for "
                "at least 3 minutes, or 65°C for at least 10 minutes.",
                "Residents' personal clothing is washed at the temperature on its care label, and "
                "woollens are washed by hand. Clothing found without a name is kept in lost "
                "property for three months and then given to charity.",
                "Clothing lost or damaged by the laundry should be reported to the Housekeeper. "
                "The home will pay up to £50 per item if it cannot be found within 30 days.",
            ),
        ),
        Section(
            "8. Cleaning",
            (
                "Commodes and shower chairs are cleaned after each use. Mattresses are checked for "
                "damage and staining every month, and a damaged mattress is replaced.",
                "A resident's room is deep cleaned, including curtains, after the resident leaves "
                "or dies and before a new resident moves in.",
            ),
        ),
        Section(
            "9. Contacts and review",
            (
                "Questions about infection control should be sent to the IPC Lead at "
                "ipc@millbrookcare.co.uk.",
                "This policy is reviewed every year by the IPC Lead, and next in August 2025.",
            ),
        ),
    ),
)

DOCUMENTS = (MEDICATION, SAFEGUARDING, STAFF, INFECTION)

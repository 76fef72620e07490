"""Sixth held-out document set: four policies of a fictional dental group, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_f_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Brightwater Dental Group"

INFECTION_CONTROL = SampleDocument(
    file_name="infection-prevention-and-control-procedure.pdf",
    title="Infection Prevention and Control Procedure",
    version="3.2",
    effective="3 March 2025",
    owner="Group Infection Control Lead",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This procedure sets out how Brightwater Dental Group prevents the spread of "
                "infection between patients, staff and visitors. It applies at all five of our "
                "sites: Harbour Street, Kingsmere, Millbrook, Westgate and the Ashcombe "
                "Specialist Centre.",
                "It covers every dentist, hygienist, therapist, dental nurse and decontamination "
                "assistant, including locums, agency nurses and visiting specialists working a "
                "single session.",
            ),
        ),
        Section(
            "2. Roles and responsibilities",
            (
                "The Group Infection Control Lead sets the standards in this procedure and "
                "advises practices on outbreaks. Each practice has its own Infection Control "
                "Lead, normally a senior dental nurse appointed by the Practice Manager, who "
                "checks that the daily routines below are carried out.",
                "Every practice completes a full infection control audit every six months using "
                "the Group's audit tool. The Practice Manager sends the audit score and action "
                "plan to the Clinical Governance Committee within 14 days of the audit. A "
                "practice scoring below 85% is re-audited within three months.",
            ),
        ),
        Section(
            "3. Hand hygiene",
            (
                "Hands are cleaned before and after every patient contact, before putting on "
                "gloves and straight after taking them off. Alcohol hand rub may be used on hands "
                "that are visibly clean; hands that are visibly soiled, or after contact with a "
                "patient who has diarrhoea or vomiting, must be washed with liquid soap and warm "
                "running water.",
                "The Infection Control Lead observes ten hand hygiene episodes in each surgery "
                "every quarter and records the results on the audit log.",
            ),
        ),
        Section(
            "4. Decontamination of instruments",
            (
                "Reusable instruments are taken to the decontamination room in a lidded box and "
                "must not be carried through reception or the waiting area. They are cleaned in "
                "the washer-disinfector, inspected under a magnifying lamp and sterilised in a "
                "vacuum autoclave.",
                "Each morning, before the first load, the decontamination assistant runs an "
                "automatic control test and a steam penetration test on every vacuum autoclave. "
                "The printouts are kept in the autoclave logbook for two years.",
                "If an autoclave fails a daily test it is taken out of use and labelled, and the "
                "Practice Manager books an engineer from Kestrel Decontamination Services on "
                "01632 960 551. Instruments from a failed cycle are reprocessed in full.",
                "Wrapped instruments are dated and may be stored for up to 60 days, after which "
                "they are reprocessed. Unwrapped instruments must be used by the end of the "
                "working day. Items marked for single use are discarded after one patient and may "
                "never be reprocessed.",
            ),
        ),
        Section(
            "5. Surgery cleaning and dental unit waterlines",
            (
                "Between patients, the dental nurse wipes the chair, light handle, bracket table, "
                "spittoon and any surface touched during treatment with the approved "
                "detergent-disinfectant wipes. Every surgery is given a deep clean once a week by "
                "the evening cleaning contractor.",
                "At the Ashcombe Specialist Centre, where sedation and oral surgery take place, "
                "the surgical suite is deep cleaned at the end of every operating day.",
            ),
            (
                "Dental unit waterlines are flushed for two minutes at the start of each clinical "
                "day.",
                "Handpieces and three-in-one syringes are run for 20 to 30 seconds after each "
                "patient.",
                "Waterlines are treated with the approved biocide continuously and purged with a "
                "shock treatment every Friday.",
                "A water sample from each surgery is sent for laboratory testing every three "
                "months.",
            ),
        ),
        Section(
            "6. Sharps injuries and exposure to blood",
            (
                "After a needlestick or other sharps injury, encourage the wound to bleed, wash "
                "it under running water and cover it with a waterproof dressing. Do not scrub or "
                "suck the wound.",
                "The injured person tells the practice Infection Control Lead straight away and "
                "must speak to the occupational health provider, Healthwork Partners, within one "
                "hour on 01632 960 774. Outside their opening hours (8am to 6pm on weekdays), go "
                "to the nearest emergency department. The incident is recorded on the incident "
                "system within 24 hours.",
                "The treating dentist asks the source patient for consent to a blood test; the "
                "patient must not be pressed if they decline.",
                "Clinical staff must provide evidence of immunity to hepatitis B before they "
                "start treating patients. Anyone who has not responded to vaccination is referred "
                "to Healthwork Partners for advice before starting work.",
            ),
        ),
        Section(
            "7. Training and review",
            (
                "All clinical staff complete infection control training at induction and then "
                "every year. Decontamination assistants also pass a practical competency "
                "assessment, observed by the practice Infection Control Lead, before working "
                "alone and then every 12 months.",
                "This procedure is reviewed every year by the Group Infection Control Lead and "
                "next in March 2026.",
            ),
        ),
    ),
)

COMPLAINTS = SampleDocument(
    file_name="patient-complaints-and-refunds-policy.pdf",
    title="Patient Complaints and Refunds Policy",
    version="2.0",
    effective="14 April 2025",
    owner="Head of Patient Experience",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "Brightwater Dental Group wants patients to tell us when something has gone "
                "wrong. This policy explains how complaints about NHS and private care are "
                "handled, and when money paid for private treatment is refunded.",
                "NHS patients who are unhappy with our final response may take their complaint to "
                "the Parliamentary and Health Service Ombudsman. Private patients may contact the "
                "Dental Complaints Service.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A concern is a verbal complaint that is resolved to the patient's satisfaction "
                "by the end of the next working day. Concerns are logged on the practice's "
                "concerns sheet but are not treated as formal complaints.",
                "A formal complaint is any complaint made in writing or by e-mail, or any verbal "
                "complaint not resolved by the end of the next working day.",
                "A goodwill gesture is a treatment credit offered to recognise poor service where "
                "no refund is due.",
            ),
        ),
        Section(
            "3. Making a complaint",
            (
                "Patients may complain in person at any practice, by phone to the Patient "
                "Experience Team on 01632 960 320 (Monday to Friday, 8.30am to 5pm), by e-mail to "
                "complaints@brightwaterdental.co.uk, or by letter to the Patient Experience Team, "
                "Brightwater Dental Group, 4 Quay Lane, Kingsmere KM2 7DL.",
                "A complaint should be made within 12 months of the treatment, or of the date the "
                "patient became aware of the problem. The Head of Patient Experience may accept a "
                "later complaint where there is good reason for the delay and it is still "
                "possible to investigate fairly.",
                "A relative or friend may complain on a patient's behalf only with the patient's "
                "signed consent, unless the patient has died or lacks capacity.",
            ),
        ),
        Section(
            "4. Investigation and timescales",
            (
                "Formal complaints are acknowledged within three working days, and the patient is "
                "offered a call or meeting to discuss them. We aim to send a full written "
                "response within 20 working days. If the investigation takes longer, we explain "
                "why, agree a new date and update the patient at least every 10 working days.",
                "The Practice Manager investigates complaints about their own practice. Where a "
                "complaint questions a dentist's clinical judgement, the clinical records are "
                "reviewed by the Clinical Director, who must not have treated the patient. "
                "Complaints about a Practice Manager are handled by the Regional Operations "
                "Manager.",
            ),
        ),
        Section(
            "5. Refunds and goodwill gestures",
            (
                "Refunds are considered only for private treatment. NHS charges are refunded only "
                "where a course of treatment was paid for but not provided, or where the patient "
                "was charged in the wrong band.",
                "Where a refund is agreed, it is approved as follows:",
            ),
            (
                "up to £250: the Practice Manager;",
                "from £250.01 to £1,000: the Regional Operations Manager;",
                "above £1,000: the Clinical Director together with the Finance Director.",
                "Reception team leaders may offer a goodwill gesture of up to £50 as a credit "
                "against future treatment, without further approval.",
                "Refunds are paid back to the card or account used for payment within 10 working "
                "days of approval. Cash refunds may only be given for amounts of £100 or less.",
                "Instead of a refund, the patient may be offered remedial treatment free of "
                "charge, with a different dentist at the same or another practice.",
            ),
        ),
        Section(
            "6. Guarantees on private work",
            (
                "Private crowns, bridges, inlays and veneers are guaranteed for 12 months from "
                "the date of fitting. Private implant restorations are guaranteed for five years, "
                "provided the patient sees a hygienist at least every six months. The guarantee "
                "does not cover damage from accidents or sport, and it does not apply to dentures "
                "or tooth whitening.",
            ),
        ),
        Section(
            "7. Records, reporting and review",
            (
                "Complaint files are kept separately from the patient's clinical record and are "
                "held for 10 years after the complaint is closed. A patient's care must not be "
                "affected because they have made a complaint.",
                "The Head of Patient Experience reports the number, themes and outcomes of "
                "complaints to the Clinical Governance Committee every quarter. This policy is "
                "reviewed every two years and next in April 2027.",
            ),
        ),
    ),
)

RECORDS = SampleDocument(
    file_name="clinical-records-and-confidentiality-policy.pdf",
    title="Clinical Records and Confidentiality Policy",
    version="4.1",
    effective="2 September 2024",
    owner="Clinical Director (Caldicott Guardian)",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy describes how Brightwater Dental Group creates, stores, shares and "
                "disposes of patient records, and how staff keep patient information "
                "confidential. It applies to all staff, including reception teams, treatment "
                "coordinators, locums and students on placement.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "The clinical record includes written and electronic notes, radiographs, clinical "
                "photographs, intraoral scans, study models, medical history forms, consent forms "
                "and laboratory prescriptions.",
                "The Caldicott Guardian is the Clinical Director, who decides on any disclosure "
                "of patient information that is not routine.",
                "The Data Protection Officer (DPO) advises on data protection law and handles "
                "requests from patients to see their records.",
            ),
        ),
        Section(
            "3. Making and correcting entries",
            (
                "Notes are written in the practice management system, DentaLedger, during the "
                "appointment or by the end of the same working day at the latest. Every entry is "
                "dated and shows which clinician made it. Where a dental nurse writes notes for a "
                "dentist, the dentist checks and approves them before leaving the practice that "
                "day.",
                "Patients complete a new medical history form at every check-up and at least once "
                "every 12 months. A change in medication is recorded before any treatment starts.",
                "Entries must never be deleted or overwritten. A mistake is corrected by adding a "
                "new, dated entry that gives the reason for the change.",
                "Old paper records are scanned into DentaLedger. After a quality check, the paper "
                "originals are kept for 30 days and then securely shredded.",
            ),
        ),
        Section(
            "4. How long records are kept",
            (),
            (
                "Records of adult patients are kept for 11 years after the last treatment.",
                "Records of children are kept until the patient's 25th birthday or for 11 years "
                "after the last treatment, whichever is longer.",
                "Radiographs and clinical photographs form part of the record and are kept for "
                "the same period.",
                "Study models are kept for three years after the course of treatment is "
                "completed, except orthodontic models, which are kept until the patient's 25th "
                "birthday.",
                "Appointment books and day lists are kept for two years.",
            ),
        ),
        Section(
            "5. Access and disclosure",
            (
                "Patients may ask for a copy of their records by writing to the DPO at "
                "dpo@brightwaterdental.co.uk or handing a request to any practice. Requests are "
                "answered within one calendar month and copies, including radiographs, are "
                "provided free of charge.",
                "A parent may see the records of a child aged under 13. For a child aged 13 to "
                "15, the treating dentist first decides whether the child is mature enough to "
                "give or refuse consent. Patients aged 16 and over must consent before anyone "
                "else sees their records.",
                "Information may be shared with another dentist or doctor to whom we refer the "
                "patient without asking for further consent. Any request from the police, a "
                "solicitor or an insurer is passed to the Caldicott Guardian, and records are "
                "released only with the patient's written consent or the Caldicott Guardian's "
                "approval.",
            ),
        ),
        Section(
            "6. Confidentiality in the practice",
            (),
            (
                "Lock your screen whenever you leave your workstation, even for a moment.",
                "Before discussing treatment by phone, confirm the caller's identity using their "
                "date of birth and the first line of their address.",
                "Voicemail messages must not mention the nature of any treatment; ask the patient "
                "to call the practice back.",
                "Records may only be sent outside the Group by secure e-mail or through the "
                "encrypted referral portal, never by ordinary e-mail or fax.",
                "Patient records must not be taken home, on paper or on a memory stick.",
                "Printed day lists are shredded at the end of each clinical session.",
            ),
        ),
        Section(
            "7. Breaches and review",
            (
                "Any loss of records or disclosure to the wrong person must be reported to the "
                "Practice Manager and the DPO within 24 hours of discovery. The DPO decides "
                "whether the breach must be reported to the Information Commissioner's Office, "
                "which is done within 72 hours where required.",
                "Deliberately looking at the record of a patient you are not caring for, "
                "including a family member, is treated as gross misconduct. This policy is "
                "reviewed every year by the DPO and next in September 2025.",
            ),
        ),
    ),
)

UNIFORM = SampleDocument(
    file_name="staff-uniform-dress-and-ppe-policy.pdf",
    title="Staff Uniform, Dress and Personal Protective Equipment Policy",
    version="1.4",
    effective="6 January 2025",
    owner="Head of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets the standard of dress for everyone working at Brightwater "
                "Dental Group practices and explains which personal protective equipment (PPE) is "
                "worn for which task. It applies to clinical staff (dentists, hygienists, "
                "therapists and dental nurses) and to non-clinical staff such as receptionists "
                "and treatment coordinators.",
            ),
        ),
        Section(
            "2. Uniform issue",
            (
                "Tunics are colour coded so that patients can tell staff apart: dentists wear "
                "navy, hygienists and therapists wear teal, dental nurses wear lilac and trainee "
                "dental nurses wear grey.",
                "Dental nurses, hygienists and therapists are issued with five tunics and three "
                "pairs of trousers when they join, replaced free of charge every 12 months or "
                "sooner if damaged. Receptionists and treatment coordinators receive three "
                "blouses or shirts and one fleece.",
                "Dentists buy their own navy scrubs from the approved supplier and may claim a "
                "uniform allowance of up to £150 a year through payroll. Replacement uniforms are "
                "requested from the Practice Manager, and any items beyond the standard issue are "
                "paid for by the member of staff.",
            ),
        ),
        Section(
            "3. Wearing and laundering uniforms",
            (
                "Clinical uniforms must not be worn when travelling to or from work, or when "
                "shopping or eating out during breaks. Staff change at the practice and carry the "
                "used uniform home in a sealed bag.",
                "Uniforms are washed separately at 60°C or higher and ironed or tumble dried. An "
                "on-site laundry is provided at the Ashcombe Specialist Centre for staff based "
                "there.",
            ),
        ),
        Section(
            "4. Appearance in clinical areas",
            (
                "All staff entering a surgery or decontamination room must be bare below the "
                "elbows.",
            ),
            (
                "No wristwatches, bracelets or fitness trackers; a single plain band ring is "
                "allowed.",
                "Nails are kept short and clean, with no nail varnish, gel or acrylic nails.",
                "Hair longer than collar length is tied back off the face.",
                "Earrings are limited to one plain stud per ear; other facial piercings are "
                "removed or covered.",
                "Lanyards are not worn in clinical areas; identity badges are clipped to the "
                "tunic.",
                "Staff who cover their forearms for religious reasons may wear disposable "
                "over-sleeves, which are discarded after each patient.",
            ),
        ),
        Section(
            "5. Personal protective equipment",
            (
                "Nitrile gloves are worn for all clinical procedures and changed between "
                "patients; latex gloves must not be used anywhere in the Group. A disposable "
                "apron is worn for treatment and decontamination, and a long-sleeved "
                "fluid-resistant gown for oral surgery.",
                "A fluid-resistant surgical mask (Type IIR) is worn for all treatment. An FFP3 "
                "respirator is used for aerosol-generating procedures on patients with a "
                "suspected respiratory infection, and may only be worn by staff who have passed a "
                "fit test for that model. Fit testing is repeated every two years, or sooner "
                "after a change of model or a significant change in weight.",
                "Staff wear safety glasses or a visor for all treatment; ordinary prescription "
                "glasses do not count as eye protection. Patients are given protective glasses, "
                "which are cleaned after each use.",
                "The Practice Manager orders PPE from MediSupply Direct and keeps at least two "
                "weeks' stock at all times. Any shortage is reported to the Group Infection "
                "Control Lead the same day.",
            ),
        ),
        Section(
            "6. Footwear",
            (
                "Shoes worn in clinical areas must be closed-toe, wipeable and slip-resistant. "
                "Clogs with ventilation holes and fabric trainers are not permitted.",
                "Dental nurses and trainee dental nurses may claim up to £40 once a year towards "
                "approved footwear by giving a receipt to their Practice Manager.",
            ),
        ),
        Section(
            "7. Compliance and review",
            (
                "The Practice Manager may ask anyone who does not meet this policy to change "
                "before seeing patients. Repeated breaches are handled under the disciplinary "
                "procedure.",
                "This policy is reviewed every two years by the Head of People together with the "
                "Group Infection Control Lead, and next in January 2027.",
            ),
        ),
    ),
)

DOCUMENTS = (INFECTION_CONTROL, COMPLAINTS, RECORDS, UNIFORM)

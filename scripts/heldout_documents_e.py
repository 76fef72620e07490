"""Fifth held-out document set: four policies of a fictional UK university, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_e_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Aldermoor University"

RESEARCH_DATA = SampleDocument(
    file_name="research-data-management-policy.pdf",
    title="Research Data Management Policy",
    version="3.0",
    effective="1 August 2024",
    owner="Director of Research and Innovation",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out how research data created or collected at Aldermoor "
                "University are planned, stored, kept, shared and eventually destroyed. It "
                "applies to all academic and research staff, postgraduate research students and "
                "visiting researchers who use the University's facilities or funding.",
                "Data gathered by undergraduate and taught postgraduate students for "
                "dissertations are governed by the guidance of their School rather than by this "
                "policy.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Research data are the recorded information, in any format, needed to validate "
                "the findings of a piece of research.",
                "A data management plan (DMP) is a short document describing what data a project "
                "will produce and how they will be looked after.",
                "The Principal Investigator (PI) is the person who leads a project and is "
                "accountable for its data, including data collected by students and assistants.",
                "Special category data are personal data revealing health, ethnicity, religion, "
                "sexual orientation, trade union membership, genetic or biometric information.",
            ),
        ),
        Section(
            "3. Data management plans",
            (
                "Every externally funded project must have a DMP, which the PI submits to the "
                "Research Data Service within three months of the project's start date. "
                "Postgraduate research students complete a DMP with their supervisor within six "
                "months of first registering. The Research Data Service comments on draft plans "
                "within 10 working days and can be contacted at rdm@aldermoor.ac.uk or on "
                "01632 960 771.",
            ),
        ),
        Section(
            "4. Storage and security",
            (
                "Active research data are held on AldStore, the University's managed research "
                "storage, which is backed up nightly. Each project receives 2 TB at no charge; "
                "storage above 2 TB is recharged to the project at £60 per terabyte per year.",
                "Special category data may only be held in the Secure Research Environment, and "
                "access to it is granted by the Data Protection Officer. Laptops taken off campus "
                "with research data on them must be encrypted by IT Services before use.",
            ),
            (
                "Personal data must not be kept in personal cloud accounts such as private "
                "Dropbox or Google Drive folders.",
                "Unencrypted USB sticks and external drives must not be used for any data about "
                "identifiable people.",
            ),
        ),
        Section(
            "5. Retention and disposal",
            (
                "Data that underpin published results are kept for at least 10 years after the "
                "last publication that relies on them. Data from clinical trials are kept for 25 "
                "years after the trial ends. Where a doctoral project produces no publication, "
                "its data are kept for five years after the degree is awarded.",
                "Signed consent forms are retained for as long as the data to which they relate. "
                "Data may be destroyed before the end of these periods only with the written "
                "agreement of the Head of School, and the destruction must be recorded.",
            ),
        ),
        Section(
            "6. Sharing and publication",
            (
                "Data supporting a publication should be deposited in the Aldermoor Research Data "
                "Repository, or a recognised subject repository, no later than the date on which "
                "the paper is published. An embargo of up to 24 months can be approved by the "
                "Associate Dean for Research of the Faculty.",
                "Agreements to share data with external partners are negotiated and signed by "
                "the Research Contracts Office. Individual researchers must not sign data sharing "
                "agreements on the University's behalf.",
            ),
        ),
        Section(
            "7. Researchers leaving the University",
            (
                "A PI who is leaving must hand over the project's data and documentation to the "
                "Head of School at least one month before the leaving date. A copy may be taken "
                "to a new institution only with the written agreement of the Head of School and, "
                "where the data include personal data, of the Data Protection Officer.",
            ),
        ),
        Section(
            "8. Ownership and review",
            (
                "This policy is owned by the Director of Research and Innovation and is reviewed "
                "every three years by the Research Committee. The next review is due in July "
                "2027.",
            ),
        ),
    ),
)

COMPLAINTS = SampleDocument(
    file_name="student-complaints-and-appeals-procedure.pdf",
    title="Student Complaints and Academic Appeals Procedure",
    version="4.2",
    effective="16 September 2024",
    owner="Academic Registrar",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Scope",
            (
                "This procedure is for registered students of Aldermoor University, including "
                "degree apprentices and students away on placement or a year abroad. Complaints "
                "from applicants about admissions decisions are dealt with under the separate "
                "Admissions Complaints Procedure. Students taught at a partner college must first "
                "use that college's own procedure.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A complaint is an expression of dissatisfaction with a service, facility or "
                "action of the University.",
                "An academic appeal is a request to review a decision of a Board of Examiners or "
                "a progression committee.",
                "Working days are Monday to Friday, excluding bank holidays and days on which the "
                "University is closed.",
                "A Completion of Procedures letter confirms that the University's internal "
                "processes have been exhausted.",
            ),
        ),
        Section(
            "3. Stage 1: early resolution",
            (
                "Most concerns are best settled informally. Students should raise the matter with "
                "the member of staff concerned or their School Office within 20 working days of "
                "the event, and can expect a reply within 10 working days. Anonymous complaints "
                "are not normally investigated, although the University may look into serious "
                "allegations. Several students with the same concern may submit a group "
                "complaint, naming one student as the contact.",
            ),
        ),
        Section(
            "4. Stage 2: formal complaint",
            (
                "If Stage 1 does not resolve the matter, the student completes the formal "
                "complaint form and sends it to the Student Casework Office at "
                "casework@aldermoor.ac.uk within 10 working days of the Stage 1 reply. The office "
                "can also be reached on 01632 960 552. An Investigating Officer with no previous "
                "involvement looks into the complaint and aims to issue a written outcome within "
                "30 working days.",
                "Where a complaint is upheld, a refund or compensation payment of up to £500 can "
                "be authorised by the Academic Registrar. Payments between £500 and £5,000 need "
                "the Chief Operating Officer, and any payment above £5,000 must be approved by "
                "the Vice-Chancellor.",
            ),
        ),
        Section(
            "5. Academic appeals",
            (
                "An appeal must reach the Student Casework Office within 15 working days of the "
                "publication of the results concerned. Appeals can only be made on the following "
                "grounds:",
            ),
            (
                "a procedural irregularity in the assessment that may have affected the result;",
                "extenuating circumstances that, for good reason, could not be disclosed before "
                "the Board of Examiners met;",
                "evidence of bias or prejudice on the part of an examiner.",
            ),
        ),
        Section(
            "6. Appeal hearings",
            (
                "Disagreement with the academic judgement of examiners is not a ground for "
                "appeal. Appeals that proceed are heard by a panel of three, one of whom is drawn "
                "from a different Faculty. The student may bring a friend from the University or "
                "an adviser from the Students' Union. Legal representatives may attend only with "
                "the prior agreement of the panel chair.",
            ),
        ),
        Section(
            "7. Review and the Independent Adjudicator",
            (
                "A student who is dissatisfied with a Stage 2 or appeal outcome may ask the "
                "Pro-Vice-Chancellor (Education) for a review within 10 working days. A review "
                "considers only whether the procedure was followed and whether the outcome was "
                "reasonable. A Completion of Procedures letter is issued within 28 days of the "
                "final decision.",
                "Students may then take their case to the Office of the Independent Adjudicator "
                "for Higher Education, normally within 12 months of the date of the letter.",
            ),
        ),
        Section(
            "8. Monitoring",
            (
                "Students will not be disadvantaged for raising a complaint in good faith. An "
                "anonymised report of complaints and appeals goes to Senate every December, and "
                "the Academic Registrar reviews this procedure each summer.",
            ),
        ),
    ),
)

TRAVEL = SampleDocument(
    file_name="overseas-travel-and-fieldwork-safety-policy.pdf",
    title="Overseas Travel and Fieldwork Safety Policy",
    version="2.3",
    effective="1 March 2024",
    owner="Head of Health and Safety",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Scope",
            (
                "This policy applies to staff and postgraduate research students travelling "
                "outside the UK on University business, and to all students taking part in "
                "fieldwork that forms part of their course, whether in the UK or abroad. Travel "
                "that is purely for leisure is outside its scope.",
            ),
        ),
        Section(
            "2. Risk ratings",
            (),
            (
                "Low risk: destinations for which the Foreign, Commonwealth and Development "
                "Office (FCDO) gives no warning beyond general advice.",
                "Medium risk: destinations with specific FCDO warnings, or fieldwork involving "
                "boats, remote areas or work at height.",
                "High risk: destinations where the FCDO advises against all but essential travel.",
                "Travel to places where the FCDO advises against all travel will not be "
                "authorised.",
            ),
        ),
        Section(
            "3. Approval",
            (
                "Low risk trips by staff are approved by their line manager, and by postgraduate "
                "research students by their supervisor. Medium risk trips need the approval of "
                "the Head of School. High risk trips are decided by the Travel Risk Group, to "
                "which a full risk assessment must be sent at least six weeks before the planned "
                "departure.",
                "Risk assessments for student fieldwork in the UK are signed off by the module "
                "leader, while overseas fieldwork for taught students needs the Head of School "
                "whatever its risk rating.",
            ),
        ),
        Section(
            "4. Insurance and registration",
            (
                "Every trip must be registered on the TravelSafe portal at least 14 days before "
                "departure; unregistered trips are not covered by the University's travel "
                "insurance. The cover extends to up to 7 personal days added to a business trip, "
                "but family members and partners who travel with staff are never covered.",
                "Insurance questions go to insurance@aldermoor.ac.uk or 01632 960 390. The "
                "24-hour emergency assistance line is +44 1632 960 999.",
            ),
        ),
        Section(
            "5. Fieldwork supervision",
            (
                "Overseas student fieldwork must have at least one member of staff for every 10 "
                "students; in the UK the ratio is one to 15. Each fieldwork party names a contact "
                "in the UK and checks in with them every 24 hours. If a check-in is more than 6 "
                "hours late, the contact follows the party's emergency plan.",
            ),
            (
                "Students must not carry out fieldwork alone near water, on cliffs or at height.",
                "Students may only drive University hire vehicles abroad if they are over 25.",
            ),
        ),
        Section(
            "6. Health before travel",
            (
                "The cost of vaccinations and antimalarial medication needed for a trip is met "
                "by the School. Staff travelling to a High risk destination must attend an "
                "occupational health appointment at least 8 weeks before they leave.",
            ),
        ),
        Section(
            "7. Incidents and review",
            (
                "Incidents and near misses are reported on the online incident form within 24 "
                "hours. Serious incidents, such as hospital admission, arrest or a threat of "
                "kidnap, must be reported straight away to the emergency assistance line, and "
                "the Head of Health and Safety informs the Vice-Chancellor.",
                "The Head of Health and Safety reviews this policy every year.",
            ),
        ),
    ),
)

CONFLICTS = SampleDocument(
    file_name="conflicts-of-interest-and-outside-work-policy.pdf",
    title="Conflicts of Interest and Outside Work Policy",
    version="1.4",
    effective="1 January 2025",
    owner="University Secretary",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "Aldermoor University expects its staff to act in the University's interest and "
                "to be open about anything that might appear to influence their judgement. This "
                "policy applies to all employees, including honorary and emeritus staff. Members "
                "of Council follow the separate Council Register of Interests procedure.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A conflict of interest arises where a personal, financial or family interest "
                "could affect, or be seen to affect, a decision made for the University.",
                "Outside work is any paid or unpaid work for another organisation, including "
                "consultancy, external examining and directorships.",
                "A significant financial interest is a shareholding worth more than £10,000 or "
                "more than 5% of a company's shares.",
                "A close personal relationship includes partners, family members and anyone with "
                "whom the staff member shares a household.",
            ),
        ),
        Section(
            "3. Declaring interests",
            (
                "All staff at grade 7 and above complete an annual declaration on the HR portal "
                "by 31 October. Any new conflict must be declared within 10 working days of "
                "its arising, whatever the staff member's grade. The Governance Office keeps the "
                "Register of Interests, and entries are kept for six years after the staff "
                "member leaves.",
            ),
        ),
        Section(
            "4. Outside work",
            (
                "Academic staff may undertake up to 30 days of outside work in an academic year "
                "with the prior approval of their Head of School; for professional services "
                "staff the approval is given by their Head of Department. More than 30 days a "
                "year needs the agreement of the Provost. Outside work for a competitor, or for "
                "a supplier to the University, must be approved by the University Secretary.",
                "Staff keep the income they earn from approved personal outside work. "
                "Consultancy arranged through Aldermoor Consulting Ltd carries an overhead of "
                "15%, and in return is covered by the University's professional indemnity "
                "insurance.",
            ),
            (
                "Staff must not use the University's name, logo or e-mail address for private "
                "consultancy.",
                "University laboratories and equipment may only be used for outside work "
                "arranged through Aldermoor Consulting Ltd.",
            ),
        ),
        Section(
            "5. Personal relationships",
            (
                "No member of staff may supervise, assess or take part in appointing a person "
                "with whom they have a close personal relationship. A relationship between a "
                "member of staff and a student whom they teach or supervise must be disclosed "
                "to the Head of School, who will arrange alternative teaching or supervision.",
            ),
        ),
        Section(
            "6. Purchasing and research",
            (
                "Staff who have an interest in a supplier must not take part in choosing or "
                "managing that supplier. A project funded by a company in which the PI holds a "
                "significant financial interest needs the approval of the Research Integrity "
                "Committee before the contract is signed.",
            ),
        ),
        Section(
            "7. Breaches, advice and review",
            (
                "Failure to declare a conflict may be treated as misconduct under the "
                "disciplinary procedure. Advice is available from the Governance Office at "
                "governance@aldermoor.ac.uk or on 01632 960 115.",
                "The University Secretary reviews this policy every two years, and next in "
                "December 2026.",
            ),
        ),
    ),
)

DOCUMENTS = (RESEARCH_DATA, COMPLAINTS, TRAVEL, CONFLICTS)

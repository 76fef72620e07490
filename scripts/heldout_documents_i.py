"""Ninth held-out document set: four policies of a fictional UK homelessness charity, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_i_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Brackenford Community Trust"

VOLUNTEERS = SampleDocument(
    file_name="volunteer-management-policy.pdf",
    title="Volunteer Management Policy",
    version="2.1",
    effective="1 April 2024",
    owner="Head of Volunteering",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out how Brackenford Community Trust recruits, supports and "
                "thanks the volunteers who give their time in our hostels, drop-in centres, "
                "charity shops and offices. It applies to all volunteers, including trustees "
                "when they help out in services. Students on formal placements from a university "
                "or college are covered by the Student Placement Agreement instead.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A volunteer is anyone who gives their time to the Trust without payment, other "
                "than the reimbursement of genuine out-of-pocket expenses.",
                "A Volunteer Coordinator is the member of staff who recruits and supports "
                "volunteers in a particular service or area.",
                "Regulated activity has the meaning given in the Safeguarding Vulnerable Groups "
                "Act 2006 and includes personal care and regular unsupervised contact with "
                "children.",
            ),
        ),
        Section(
            "3. Recruitment",
            (
                "Volunteers must be at least 16 years old. Volunteers aged 16 or 17 may work only "
                "in charity shops and offices and must not volunteer in hostels or on night "
                "shelter shifts, where the minimum age is 18. There is no upper age limit for "
                "volunteering with the Trust.",
                "Applicants complete the online form, or a paper form available from any service, "
                "and have an informal interview with the Volunteer Coordinator. Two references "
                "are taken up before a placement starts, one of which may be a character "
                "reference from someone who has known the applicant for at least two years.",
                "The Trust welcomes volunteers with lived experience of homelessness, including "
                "former residents, provided at least six months have passed since they left a "
                "Brackenford service.",
            ),
        ),
        Section(
            "4. DBS checks",
            (
                "Volunteers whose role involves regulated activity, or who work on night shelter "
                "shifts, need an enhanced DBS check before they start. Volunteers in charity "
                "shops and offices do not normally need a DBS check. The Trust pays for all "
                "checks; volunteers do not pay anything.",
                "Volunteers registered with the DBS Update Service must allow the Trust to check "
                "their status every 12 months, and other enhanced checks are renewed every three "
                "years. A criminal record does not automatically bar anyone from volunteering; "
                "the Volunteer Coordinator and the Designated Safeguarding Officer decide "
                "together, within 10 working days, whether the placement can go ahead.",
            ),
        ),
        Section(
            "5. Expenses",
            (
                "Volunteers can claim back travel to and from their placement by public transport "
                "at the actual cost of the fare, or by car at 45p per mile. Volunteers who give "
                "four hours or more in one day may also claim up to £7 for lunch. Volunteers may "
                "also claim the cost of care for a child or dependant while they volunteer, up to "
                "£8 per hour.",
                "Claims are made on the volunteer expenses form, with receipts, within two months "
                "of the expense, and are paid by bank transfer within 14 days of approval by the "
                "Volunteer Coordinator. The Trust never pays flat-rate sums or allowances to "
                "volunteers, because this could make them count as workers under employment law.",
                "The following are not paid back:",
            ),
            (
                "parking fines, speeding penalties or any other fines incurred while volunteering;",
                "taxi fares, unless the Volunteer Coordinator agreed the journey in advance;",
                "alcohol, or meals bought for anyone other than the volunteer;",
                "the cost of replacing personal items that are lost or damaged while volunteering.",
            ),
        ),
        Section(
            "6. Induction, training and supervision",
            (
                "Every volunteer attends a half-day induction within their first four weeks, "
                "covering safeguarding, health and safety, confidentiality and the Trust's "
                "values. Volunteers in hostels and drop-in centres must also complete the "
                "safeguarding level 1 e-learning before their first shift.",
                "Each volunteer has a named supervisor and a supervision meeting at least every "
                "three months.",
            ),
        ),
        Section(
            "7. Concerns, ending a placement and review",
            (
                "A volunteer who is unhappy about how they have been treated should first speak "
                "to their Volunteer Coordinator. If the matter is not resolved, they may write to "
                "the Head of Volunteering at volunteering@brackenford.org.uk, who will reply "
                "within 15 working days. The volunteering team can also be reached on "
                "01632 960 410.",
                "The Trust may end a placement when the role is no longer needed or when a "
                "volunteer's conduct falls below the standards expected. Except where there is a "
                "safeguarding concern or serious misconduct, the volunteer will be given at least "
                "two weeks' notice and an explanation in writing. A volunteer may appeal against "
                "the decision to end their placement to the Director of Operations within 10 "
                "working days.",
                "This policy is reviewed every two years by the Head of Volunteering and approved "
                "by the People Committee of the Board of Trustees. The next review is due in "
                "March 2026.",
            ),
        ),
    ),
)

SAFEGUARDING = SampleDocument(
    file_name="safeguarding-adults-and-children-procedure.pdf",
    title="Safeguarding Adults and Children Procedure",
    version="5.0",
    effective="1 September 2024",
    owner="Director of Operations",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This procedure tells staff, volunteers and trustees of Brackenford Community "
                "Trust what to do if they are worried that a child or an adult at risk is being "
                "abused or neglected. It applies in all services, including street outreach and "
                "home visits, and to contractors working on Trust premises.",
                "Most people we support are adults, but many have children who visit or live "
                "with them, and families with children under 18 are accommodated in our family "
                "service at Hollin House.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A child is anyone who has not yet reached their 18th birthday.",
                "An adult at risk is a person aged 18 or over who has care and support needs, is "
                "experiencing or at risk of abuse or neglect, and cannot protect themselves "
                "because of those needs.",
                "Abuse includes physical, sexual, emotional, financial and discriminatory abuse, "
                "neglect, self-neglect, domestic abuse, modern slavery and exploitation.",
                "A Designated Safeguarding Officer (DSO) is a manager trained to level 3 who "
                "gives advice and makes referrals for a service.",
            ),
        ),
        Section(
            "3. Who to contact",
            (
                "The Designated Safeguarding Lead (DSL) for the Trust is the Head of "
                "Safeguarding, who can be reached at safeguarding@brackenford.org.uk or on "
                "01632 960 222. Each hostel and drop-in centre has at least one DSO, whose name "
                "is displayed in the staff office. The trustee with lead responsibility for "
                "safeguarding is the Vice-Chair of the Board.",
                "Outside office hours (weekdays after 6pm, weekends and bank holidays) the "
                "on-call manager acts as DSO and can be contacted through the out-of-hours line "
                "on 01632 960 250.",
            ),
        ),
        Section(
            "4. Responding to a concern",
            (
                "If someone is in immediate danger, call 999 first and then tell the DSO.",
                "If a person tells you about abuse, listen calmly, do not ask leading questions "
                "and do not promise to keep it secret. Explain that you will need to share what "
                "they have told you with people who can help.",
                "Staff and volunteers must never:",
            ),
            (
                "investigate the concern themselves or confront the alleged abuser;",
                "contact the person's family without first speaking to the DSO;",
                "delay reporting because they are unsure whether abuse has really happened.",
            ),
        ),
        Section(
            "5. Reporting and referral",
            (
                "All concerns must be reported to the DSO verbally on the same day, and in any "
                "event before the end of the shift on which the concern arose. The member of "
                "staff or volunteer then completes a safeguarding concern form on MyCase within "
                "24 hours. Volunteers without MyCase access complete a paper form and hand it to "
                "the shift leader.",
                "The DSO decides within one working day whether to refer the concern to the "
                "local authority. Concerns about a child go to children's social care, and "
                "concerns about an adult at risk go to the adult social care team of the council "
                "where the person lives. Where the adult has mental capacity, their consent to a "
                "referral is sought, except where other people, including children, are at risk "
                "or a crime has been committed.",
                "Anyone who disagrees with a DSO's decision not to refer may raise it with the "
                "DSL, and anyone may contact the local authority directly.",
            ),
        ),
        Section(
            "6. Records and information sharing",
            (
                "Safeguarding records are kept separately from the person's general case file, "
                "in the restricted safeguarding section of MyCase.",
                "Records about children are kept until the child's 25th birthday, and records "
                "about adults are kept for six years after the Trust's last contact with the "
                "person. Information may be shared without consent where this is needed to "
                "protect someone from serious harm, and the reason for sharing must be written "
                "down.",
            ),
        ),
        Section(
            "7. Allegations against staff, volunteers and trustees",
            (
                "An allegation that a member of staff, volunteer or trustee has harmed a child or "
                "adult at risk, or behaved in a way that suggests they may pose a risk, must be "
                "reported straight away to the DSL and must not be discussed with the person "
                "concerned. If the allegation is about the DSL, report it to the Chief Executive; "
                "if it is about the Chief Executive, report it to the Chair of Trustees.",
                "Allegations involving children are referred to the Local Authority Designated "
                "Officer (LADO) within one working day. The person may be suspended on full pay, "
                "or moved to other duties, while the matter is looked into; suspension is a "
                "neutral act and not a disciplinary sanction. Serious incidents are reported to "
                "the Charity Commission by the Chief Executive.",
            ),
        ),
        Section(
            "8. Training and review",
            (
                "All staff complete level 1 safeguarding training within their first month. "
                "Frontline staff also complete level 2 within six months of starting, and DSOs "
                "refresh their level 3 training every two years. Everyone else refreshes their "
                "safeguarding training at least every three years.",
                "The Head of Safeguarding reviews this procedure every year, and the Board of "
                "Trustees receives a safeguarding report every six months. The next review is "
                "due in August 2025.",
            ),
        ),
    ),
)

FUNDRAISING = SampleDocument(
    file_name="fundraising-and-donations-policy.pdf",
    title="Fundraising and Donations Policy",
    version="3.2",
    effective="1 January 2025",
    owner="Director of Fundraising and Communications",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains how Brackenford Community Trust raises money and accepts "
                "gifts, so that we fundraise legally, honestly and in line with the Code of "
                "Fundraising Practice. It applies to staff, volunteers and trustees who raise "
                "funds or handle donations, and to agencies and community fundraisers who raise "
                "money in our name. The Trust is registered with the Fundraising Regulator.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A donation is a gift of money, goods or services given voluntarily, with nothing "
                "of material value received in return.",
                "A community fundraiser is a supporter who organises their own event, such as a "
                "sponsored run or bake sale, to raise money for the Trust.",
                "Gifts in kind are donated goods, such as food, clothing, furniture or toiletries.",
            ),
        ),
        Section(
            "3. Accepting gifts",
            (
                "Most donations can be accepted by the Fundraising Team without further approval. "
                "Donations from £10,000 up to £50,000 must be checked by the Head of Fundraising "
                "before they are accepted, and any gift above £50,000 needs the approval of the "
                "Chief Executive.",
                "A gift may be refused where accepting it would:",
            ),
            (
                "damage the Trust's reputation or the trust of the people we support;",
                "mean taking money from a company whose main business is gambling, tobacco or "
                "payday lending;",
                "come with conditions that conflict with our charitable objects;",
                "involve the proceeds of crime or money from a source that cannot be identified.",
            ),
        ),
        Section(
            "4. Refused and anonymous gifts, and gifts in kind",
            (
                "Decisions to refuse a gift of more than £5,000 are recorded in the gift "
                "acceptance register and reported to the Finance and Audit Committee. Anonymous "
                "cash donations over £500 are accepted only with the agreement of the Head of "
                "Fundraising.",
                "Donated food must be in date and in its original sealed packaging, and "
                "upholstered furniture is accepted only if it carries a fire safety label. "
                "Hostels do not accept donated mattresses or second-hand electrical items for "
                "residents.",
            ),
        ),
        Section(
            "5. Gift Aid",
            (
                "Gift Aid lets the Trust claim an extra 25p from HMRC for every £1 donated by a "
                "UK taxpayer. A Gift Aid declaration must be held before any claim is made. "
                "Gift Aid cannot be claimed on donations made in return for a raffle ticket or "
                "an auction item, or on money given by a company.",
                "Claims are submitted by the Finance Team every quarter, and declarations are "
                "kept for six years after the last donation they cover.",
            ),
        ),
        Section(
            "6. Cash handling and collections",
            (
                "Cash collected at events or in collection tins must be counted by two people, "
                "one of whom must be a member of staff or a volunteer approved by the "
                "Fundraising Team, and both sign the cash record sheet. Cash must be banked "
                "within three working days, and no more than £250 may be kept on site overnight "
                "unless it is locked in a safe.",
                "Collection tins must be sealed and numbered. Street and house-to-house "
                "collections need a licence from the local council and may only be carried out "
                "by volunteers aged 16 or over; collectors under 18 must be accompanied by an "
                "adult.",
            ),
        ),
        Section(
            "7. Donor data and vulnerable donors",
            (
                "We contact supporters by email or text only with their consent, and we never "
                "sell or swap donor data with other organisations. Requests to stop receiving "
                "fundraising mail are acted on within 28 days.",
                "Staff must not accept a donation from someone who appears to lack the capacity "
                "to decide to give, and must never ask residents or former residents of our "
                "services for donations.",
            ),
        ),
        Section(
            "8. Complaints about fundraising and review",
            (
                "Complaints about our fundraising should be sent to the Supporter Care Team at "
                "supportercare@brackenford.org.uk or made by phone on 01632 960 318. We "
                "acknowledge complaints within three working days and aim to give a full "
                "response within 20 working days.",
                "A complainant who is not satisfied with our response can take the matter to the "
                "Fundraising Regulator. All fundraising complaints are logged and reported to "
                "the Board of Trustees every quarter.",
                "The Director of Fundraising and Communications reviews this policy every year. "
                "The next review is due in December 2025.",
            ),
        ),
    ),
)

HYBRID_WORKING = SampleDocument(
    file_name="remote-and-hybrid-working-policy.pdf",
    title="Remote and Hybrid Working Policy",
    version="1.3",
    effective="1 June 2024",
    owner="Director of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out how employees of Brackenford Community Trust may work from "
                "home for part or all of their working week. It applies to employees who have "
                "passed their probation period.",
                "It does not apply to volunteers, agency workers or staff in frontline roles in "
                "hostels and drop-in centres, whose work must be done on site, although their "
                "managers may agree occasional home working for administrative tasks.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Hybrid working means splitting the working week between a Trust office and home.",
                "Remote working means working wholly from home, which is agreed only in "
                "exceptional cases, for example as a reasonable adjustment.",
                "A base office is the Trust office to which an employee is contractually "
                "attached, usually the head office at 14 Tanners Row or the Eastgate hub.",
            ),
        ),
        Section(
            "3. Requesting hybrid or remote working",
            (
                "Employees in eligible roles ask to work in a hybrid way by completing the "
                "hybrid working request form and discussing it with their line manager, who "
                "will respond within 14 days. Up to three days a week at home is normally "
                "agreed, and everyone attends their base office at least two days a week, "
                "including the team day set by their manager.",
                "Arrangements are reviewed after a three-month trial. Wholly remote working "
                "needs the approval of the Director of People. If a request is refused, the "
                "employee may appeal in writing to their Director within 10 working days.",
            ),
        ),
        Section(
            "4. Equipment",
            (
                "The Trust provides a laptop, headset and mobile phone for hybrid workers. "
                "Employees working at home for two or more days a week may also borrow a "
                "monitor, keyboard and mouse, and may claim up to £150 towards an office chair "
                "or desk, once, against receipts. Equipment remains the property of the Trust and "
                "must be returned within five working days of leaving the Trust.",
                "Faults are reported to the IT Service Desk at itsupport@brackenford.org.uk or "
                "on 01632 960 480, which is staffed 8am to 6pm on weekdays.",
            ),
        ),
        Section(
            "5. Allowances and costs",
            (
                "Hybrid workers are paid a home working allowance of £26 a month through "
                "payroll, which the Trust treats as covering the extra cost of heating, "
                "electricity and broadband. Employees who work wholly remotely receive £40 a "
                "month. No allowance is paid for occasional home working.",
                "Travel between home and the base office is commuting and cannot be claimed as "
                "expenses, even on days when an employee works partly at home.",
            ),
        ),
        Section(
            "6. Insurance, health and safety",
            (
                "Trust equipment is covered by the Trust's insurance at home and in transit, "
                "provided it is not left unattended in a vehicle. Employees' own belongings and "
                "furniture are not covered.",
                "Every hybrid worker completes the home workstation self-assessment within their "
                "first month of working at home and again whenever they move house. Accidents at "
                "home during working hours must be reported to the line manager within 24 hours, "
                "in the same way as accidents in the office.",
            ),
        ),
        Section(
            "7. Security at home",
            (
                "Employees must keep Trust information as secure at home as in the office, and "
                "must follow the Information Security Policy wherever they work. When working "
                "away from the office, staff must:",
            ),
            (
                "lock their laptop screen whenever they step away from it, even for a moment;",
                "not let family members or visitors use Trust devices;",
                "connect to Trust systems only through the VPN, especially on public Wi-Fi;",
                "not print case files or other personal data about residents at home;",
                "hold confidential calls where they cannot be overheard, and never in cafés or "
                "on public transport.",
            ),
        ),
        Section(
            "8. Working abroad, lost devices and ending arrangements",
            (
                "Working from outside the UK is not permitted, except for up to 10 working days "
                "a year with the prior approval of the Director of People.",
                "Lost or stolen devices must be reported to the IT Service Desk immediately, and "
                "any loss of personal data to the Data Protection Officer at "
                "dpo@brackenford.org.uk.",
                "The Trust may end a hybrid arrangement with four weeks' notice where business "
                "needs change or the arrangement is not working. The Director of People reviews "
                "this policy every two years, and the next review is due in May 2026.",
            ),
        ),
    ),
)

DOCUMENTS = (VOLUNTEERS, SAFEGUARDING, FUNDRAISING, HYBRID_WORKING)

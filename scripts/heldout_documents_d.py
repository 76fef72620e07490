"""Fourth held-out document set: four policies of a fictional museums trust, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_d_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Greywell Museums Trust"

SOCIAL_MEDIA = SampleDocument(
    file_name="social-media-and-public-statements-policy.pdf",
    title="Social Media and Public Statements Policy",
    version="2.1",
    effective="6 May 2024",
    owner="Head of Communications",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains how staff, volunteers and trustees of Greywell Museums "
                "Trust use social media and speak in public about the Trust, its collections and "
                "its visitors. It covers the Trust's official accounts, personal accounts where "
                "the Trust is mentioned, and any statement made to journalists, bloggers or "
                "broadcasters.",
                "It applies at all four of our sites: the Corn Exchange Gallery, Tallis House, "
                "the Riverside Mill Museum and the collections store at Brackley Yard. Freelance "
                "curators and exhibition designers engaged for more than 20 days in a year are "
                "also expected to follow it.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "An official account is any social media profile that uses the Trust's name, "
                "logo or the name of one of its sites.",
                "A public statement is any comment given on behalf of the Trust to the media, at "
                "a public meeting or in writing to an elected representative.",
                "A spokesperson is a member of staff named on the approved spokesperson list, "
                "which the Communications Team reviews every January.",
                "Sensitive topics include repatriation claims, loans of contested objects, "
                "funding from sponsors, redundancies and any matter before a court.",
            ),
        ),
        Section(
            "3. Official accounts",
            (
                "Only the Communications Team may open a new official account, and each one must "
                "have at least two named administrators from the Trust's staff. Site managers who "
                "want a channel for a single site should apply to the Head of Communications, who "
                "decides within 10 working days. Passwords for official accounts are kept in the "
                "Trust's password manager and changed every 90 days, and whenever an "
                "administrator leaves.",
                "Accounts that have not posted for six months are reviewed and closed unless the "
                "Head of Communications agrees a plan to revive them. Paid promotion of a post "
                "needs a purchase order. Spending up to £500 per campaign can be approved by the "
                "Digital Marketing Manager, while anything above £500 needs the Head of "
                "Communications.",
            ),
        ),
        Section(
            "4. Personal use of social media",
            (
                "Staff may say where they work on their personal profiles and may share the "
                "Trust's official posts. When commenting on museum matters in a personal "
                "capacity, add a clear statement that the views are your own.",
            ),
            (
                "Do not post photographs of objects in storage, in conservation or on loan from "
                "another institution without written clearance from the Collections Manager.",
                "Do not share images in which visitors, and in particular children, can be "
                "identified unless a signed consent form is held.",
                "Do not reveal details of security arrangements, alarm codes, staff rotas or the "
                "movement of objects between sites.",
                "Do not comment on sensitive topics in a way that could be taken as the Trust's "
                "position.",
            ),
        ),
        Section(
            "5. Media enquiries and public statements",
            (
                "All media enquiries must be passed to the press office on 01632 960 418 or "
                "press@greywellmuseums.org.uk before any reply is given. Outside office hours, "
                "the duty press officer can be reached on 07700 900 236. The press office aims to "
                "acknowledge journalists within 2 hours during the working day.",
                "Only spokespeople and the Chief Executive may give interviews. Statements on "
                "sensitive topics are approved by the Chief Executive, or by the Chair of "
                "Trustees when the Chief Executive is unavailable. Other statements may be "
                "approved by the Head of Communications.",
                "Trustees speak for the Trust only when the Chair has asked them to do so.",
            ),
        ),
        Section(
            "6. Hostile comments and negative coverage",
            (
                "If a post attracts more than 50 hostile comments in an hour, or a complaint from "
                "a public figure, the administrator on duty must alert the Head of Communications "
                "immediately and pause all scheduled posts. Hostile comments are hidden only if "
                "they contain abuse, personal data or threats; criticism of the Trust is not "
                "removed.",
                "Threats of harm to staff or buildings are reported to the site's Security "
                "Manager and, where appropriate, to the police.",
            ),
        ),
        Section(
            "7. Breaches and review",
            (
                "Breaches of this policy are handled under the disciplinary procedure for staff "
                "and under the volunteer agreement for volunteers. Posting confidential "
                "collections or security information is treated as gross misconduct.",
                "This policy is reviewed every two years, and next in May 2026.",
            ),
        ),
    ),
)

RECRUITMENT = SampleDocument(
    file_name="recruitment-and-pre-employment-checks.pdf",
    title="Recruitment and Pre-employment Checks Procedure",
    version="4.0",
    effective="2 September 2024",
    owner="Head of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Scope and approval to recruit",
            (
                "This procedure covers the recruitment of all employees of Greywell Museums Trust "
                "on permanent contracts and on fixed-term contracts of three months or longer. "
                "Casual visitor assistants hired for single events follow the shorter process in "
                "section 7. Volunteers are recruited under the separate Volunteer Handbook.",
                "Every vacancy needs an approved vacancy request before it is advertised. "
                "Replacement posts within the existing budget are approved by the relevant Head "
                "of Department, while new posts or posts graded at band 6 or above also need the "
                "Director of Finance. Posts with a salary above £60,000 are approved by the Chief "
                "Executive.",
            ),
        ),
        Section(
            "2. Advertising",
            (
                "Vacancies are advertised on the Trust's website for at least 14 calendar days, "
                "or for 7 days where the Head of People agrees that a post must be filled "
                "urgently. Posts may first be advertised internally for 5 working days where a "
                "suitable internal candidate is likely.",
                "Every advert states the salary band and the closing date. The Trust does not use "
                "recruitment agencies unless a post has been advertised twice without an "
                "appointment.",
            ),
        ),
        Section(
            "3. Shortlisting and interviews",
            (
                "Shortlisting is done by at least two people against the person specification. "
                "At least one member of every interview panel must have completed the Trust's "
                "fair recruitment training in the last three years. Panels have three members "
                "for posts at band 5 and above, and two members for other posts.",
                "Candidates are given at least 5 working days' notice of an interview and are "
                "asked in advance about any adjustments they need. Interview notes are returned "
                "to the People Team within 2 working days of the interview. Reasonable travel "
                "costs for attending an interview are reimbursed up to £75 for candidates "
                "travelling from within the UK.",
            ),
        ),
        Section(
            "4. Offers",
            (
                "Offers are made verbally by the hiring manager and confirmed in writing by the "
                "People Team within 3 working days. All offers are conditional on the "
                "pre-employment checks in section 5.",
                "Starting salaries are normally at the bottom of the band. A starting point "
                "higher than the second step of the band needs the approval of the Head of "
                "People.",
            ),
        ),
        Section(
            "5. Pre-employment checks",
            (
                "No one may start work until the following checks are complete, apart from "
                "references where the Head of People has agreed a conditional start.",
            ),
            (
                "Right to work in the UK, checked by the People Team from original documents or "
                "the online service before the first day.",
                "Two references, one of which must come from the most recent employer, covering "
                "at least the last three years.",
                "A basic DBS check for all roles, and an enhanced DBS check for learning and "
                "family programme roles that involve regular contact with children.",
                "Proof of professional qualifications where the job description requires them, "
                "such as conservation accreditation.",
                "A health questionnaire, reviewed by the occupational health provider, for roles "
                "involving manual handling of objects or work at height.",
            ),
        ),
        Section(
            "6. DBS certificates and conditional starts",
            (
                "DBS certificates are seen by the People Team but not copied. Only the "
                "certificate number, the date of issue and the outcome are recorded. The Trust "
                "pays for all DBS checks, and the cost of the enhanced check, currently £38, is "
                "never deducted from pay.",
                "A conditional start before references arrive may last no more than 4 weeks. "
                "During that time the new starter may not work unsupervised with children or "
                "handle objects valued above £10,000.",
            ),
        ),
        Section(
            "7. Casual visitor assistants",
            (
                "Casual visitor assistants for single events can be appointed after a short "
                "conversation with the Visitor Services Manager, without a panel. Right to work "
                "must still be checked before the first shift. A basic DBS check is needed "
                "before a casual assistant works more than 10 shifts in a year.",
            ),
        ),
        Section(
            "8. Feedback, concerns and review",
            (
                "Unsuccessful candidates who ask for feedback receive it from the panel chair "
                "within 10 working days of asking. Concerns about a recruitment decision should "
                "be raised with the Head of People at recruitment@greywellmuseums.org.uk.",
                "This procedure is reviewed annually by the People Committee of the Board of "
                "Trustees.",
            ),
        ),
    ),
)

ENVIRONMENT = SampleDocument(
    file_name="environmental-waste-and-recycling-policy.pdf",
    title="Environmental, Waste and Recycling Policy",
    version="1.3",
    effective="15 January 2025",
    owner="Estates and Sustainability Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "Greywell Museums Trust aims to reduce the carbon emissions of its buildings by "
                "40% by 2030 against a 2019 baseline, and to send no waste to landfill by the end "
                "of 2027. This policy sets out how staff, contractors and exhibition partners "
                "help to meet those targets.",
            ),
        ),
        Section(
            "2. Roles",
            (
                "The Estates and Sustainability Manager owns this policy and reports progress to "
                "the Board of Trustees twice a year. Each site has a Green Champion, a member of "
                "staff who checks the recycling points weekly and is given 2 hours of work time "
                "a month for the role.",
                "Heads of department make sure that exhibition budgets include the cost of "
                "reusing or disposing of display materials.",
            ),
        ),
        Section(
            "3. Everyday waste",
            (
                "Waste must be separated at the point where it is produced. Contaminated "
                "recycling costs the Trust more to collect than general waste, so if in doubt, "
                "ask the Green Champion.",
            ),
            (
                "Mixed dry recycling (paper, card, cans and plastic bottles) goes in the blue "
                "bins, which are emptied twice a week.",
                "Food waste from the cafes goes in the green caddies and is collected daily for "
                "anaerobic digestion.",
                "Glass goes in the brown bins in the service yards; glass from broken display "
                "cases is wrapped and labelled as sharps before disposal.",
                "Batteries, lamps and small electrical items go to the collection point in each "
                "site office.",
                "General waste goes in the black bins only when it cannot be recycled.",
            ),
        ),
        Section(
            "4. Hazardous and collections waste",
            (
                "Conservation solvents, pesticide-treated materials and any object suspected of "
                "containing arsenic or mercury are hazardous waste. They must be stored in the "
                "locked hazardous store at Brackley Yard and collected only by a licensed "
                "carrier, with a consignment note kept for 3 years. Never pour solvents down a "
                "sink or put them in general waste.",
                "Objects formally deaccessioned from the collection are not waste. They may only "
                "be disposed of after the Collections Committee has approved the disposal.",
            ),
        ),
        Section(
            "5. Exhibition materials",
            (
                "Exhibition designers must aim to reuse or recycle at least 70% by weight of "
                "build materials at the end of each exhibition. Display cases, plinths and "
                "lighting are returned to the shared store at Brackley Yard for reuse.",
                "Vinyl graphics and single-use foam board may only be used when no reusable "
                "alternative exists, and the project manager records the reason.",
            ),
        ),
        Section(
            "6. Energy and water",
            (
                "Gallery heating is set between 18 and 21 degrees Celsius, except in rooms where "
                "the collection needs tighter environmental control. Lights in offices and "
                "back-of-house areas are switched off at the end of the day, and gallery "
                "lighting is turned off within 30 minutes of closing.",
                "Leaks and faults that waste energy or water should be reported to the Estates "
                "helpdesk on extension 2270 or at estates@greywellmuseums.org.uk.",
            ),
        ),
        Section(
            "7. Cafes and events",
            (
                "Single-use plastic cups, cutlery and straws are not allowed in the cafes or at "
                "Trust events. Event hirers who bring their own catering must follow the same "
                "rule, and a £150 cleaning charge applies when they leave waste behind.",
            ),
        ),
        Section(
            "8. Reporting and review",
            (
                "Waste volumes for each site are reported quarterly on the staff intranet. This "
                "policy is reviewed annually, with the next review due in January 2026. "
                "Suggestions for improvement can be sent to green@greywellmuseums.org.uk.",
            ),
        ),
    ),
)

EVENTS = SampleDocument(
    file_name="events-and-room-bookings-policy.pdf",
    title="Events and Room Bookings Policy",
    version="3.0",
    effective="1 April 2024",
    owner="Commercial Events Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Scope",
            (
                "This policy covers bookings of Trust rooms and galleries by staff for internal "
                "meetings and by external hirers for private events, including weddings, "
                "corporate receptions, filming and community meetings. Educational visits by "
                "schools are booked through the Learning Team and are not covered here.",
                "The Commercial Events Manager reviews this policy every year.",
            ),
        ),
        Section(
            "2. Internal bookings",
            (
                "Staff book meeting rooms through the shared room calendar up to 12 weeks in "
                "advance. A single booking may last no more than 4 hours, unless it is for a "
                "training day or a Board meeting. Rooms not claimed within 15 minutes of the "
                "start time may be released to others.",
                "Galleries may only be used for internal events outside opening hours, and the "
                "Duty Manager must be told at least 5 working days beforehand.",
            ),
        ),
        Section(
            "3. External hire: enquiries and deposits",
            (
                "External hire enquiries go to the events team at events@greywellmuseums.org.uk "
                "or on 01632 960 455. A provisional booking is held for 10 days, after which it "
                "lapses unless a signed hire agreement and the deposit have been received.",
                "The deposit is 25% of the hire fee for bookings under £5,000 and 40% for "
                "bookings of £5,000 or more. The balance is due 6 weeks before the event. "
                "Registered charities and community groups based in the county receive a 30% "
                "discount on room hire, but not on staffing or catering charges.",
            ),
        ),
        Section(
            "4. Cancellation",
            (
                "Hirers who cancel must do so in writing to the events team. The following "
                "charges apply, counted from the date the written notice is received.",
            ),
            (
                "Cancellation more than 90 days before the event: the deposit is refunded less a "
                "£100 administration fee.",
                "Cancellation between 90 and 30 days before the event: the deposit is kept.",
                "Cancellation less than 30 days before the event: the full hire fee is payable.",
                "If the Trust has to close a building for safety reasons, it may cancel the "
                "booking, and all payments are then refunded in full.",
            ),
        ),
        Section(
            "5. Rules for events",
            (
                "Events may run until 11pm at the Corn Exchange Gallery and Tallis House, and "
                "until 9pm at the Riverside Mill Museum. Maximum capacity is 180 standing guests "
                "in the Great Hall at Tallis House and 60 seated guests in the Mill Room.",
            ),
            (
                "No food or drink is allowed in galleries that contain works on paper or textiles.",
                "Candles, confetti, glitter, smoke machines and helium balloons are not allowed "
                "at any site.",
                "Live music is allowed at Tallis House and the Corn Exchange Gallery up to 85 "
                "decibels, measured at the mixing desk.",
                "Hirers must use a caterer from the approved list, or pay a £250 corkage and "
                "supervision fee to bring in their own.",
                "Children at private events must be supervised by an adult from the hiring party "
                "at all times.",
            ),
        ),
        Section(
            "6. Staffing, security and damage",
            (
                "Every external event has a Trust duty manager on site, and one security officer "
                "for every 100 guests or part thereof. Hirers pay a staffing charge of £45 per "
                "staff member per hour after 6pm.",
                "Damage to the building, objects or equipment is charged at cost. The Trust may "
                "ask for a damage bond of £1,000 for events with more than 150 guests.",
            ),
        ),
        Section(
            "7. Filming and photography",
            (
                "Commercial filming and photography need a separate location agreement and a fee "
                "agreed with the Commercial Events Manager. Student and non-commercial filming is "
                "free of charge but must be booked at least 10 working days ahead.",
                "Drones may not be flown inside any building. Outdoors, they may be flown only "
                "with the written approval of the Head of Estates and proof of the operator's "
                "insurance.",
            ),
        ),
    ),
)

DOCUMENTS = (SOCIAL_MEDIA, RECRUITMENT, ENVIRONMENT, EVENTS)

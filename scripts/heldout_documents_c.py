"""A third set of held-out policies for the offline answerer, written blind to its code.

Four policies of a fictional logistics firm (company vehicles, personal devices, parental leave,
first aid and accident reporting) with close facts side by side. The questions over them are in
tests/data/answerability/heldout_c_questions.jsonl. Nobody tuned the answerer on these.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Kestrel Lane Logistics Ltd."

VEHICLES = SampleDocument(
    file_name="company-vehicles-and-driving-policy.pdf",
    title="Company Vehicles and Driving at Work Policy",
    version="2.1",
    effective="6 January 2025",
    owner="Fleet Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "Driving is the most dangerous thing most of our people do at work, and Kestrel "
                "Lane wants every business journey to end safely. This policy explains who may "
                "drive on company business, how company vehicles are booked and looked after, "
                "and what to do when something goes wrong on the road.",
                "The policy covers pool cars, allocated company cars, light vans up to 3.5 tonnes "
                "and private vehicles used for business journeys. Heavy goods vehicles driven by "
                "our professional drivers are governed by the separate HGV Drivers' Handbook and "
                "are outside its scope.",
            ),
        ),
        Section(
            "2. Who may drive",
            (
                "To drive any company vehicle you must hold a full UK driving licence and have "
                "held it for at least two years. The minimum age is 21 for pool cars and 25 for "
                "light vans. Agency workers may drive pool cars only when their agency has "
                "confirmed in writing that its own insurance covers them; they may not drive "
                "light vans at all.",
                "The Fleet team checks each driver's licence with the DVLA before their first "
                "business journey and every six months after that. A driver with six or more "
                "penalty points must pass a practical driver assessment before driving on "
                "company business again. Anyone with nine or more points is suspended from all "
                "business driving until their total falls below nine.",
            ),
            (
                "New penalty points must be declared to the Fleet team within 7 days of the "
                "conviction.",
                "A driving ban, however short, must be declared immediately.",
                "Any medical condition you are legally required to report to the DVLA must also "
                "be reported to Occupational Health.",
                "Failing to declare points, a ban or a notifiable condition may be treated as "
                "gross misconduct.",
            ),
        ),
        Section(
            "3. Booking and using pool cars",
            (
                "Pool cars are booked through the Fleet Booking page on the intranet, at least "
                "24 hours before the journey wherever possible. A booking longer than five "
                "consecutive working days needs the approval of your Head of Department. Before "
                "setting off, walk round the car and record any existing damage on the booking "
                "page, so that you are not held responsible for it later.",
                "Return a pool car with at least a quarter of a tank of fuel, or with at least 30 "
                "per cent charge if it is electric. A pool car may be kept at home overnight only "
                "when the next day's journey starts before 7am.",
            ),
            (
                "Do not carry passengers who are not Kestrel Lane employees, unless they are "
                "customers travelling with you on company business.",
                "Do not tow trailers or caravans with a pool car.",
                "Smoking and vaping are banned in every company vehicle at all times.",
                "Pool cars must not be used for personal errands, including stops on the way home.",
            ),
        ),
        Section(
            "4. Allocated company cars",
            (
                "Company cars are allocated to Regional Managers and above, and to roles that "
                "drive more than 12,000 business miles a year. Reasonable private use of an "
                "allocated car is allowed and is taxed as a benefit in kind. Your spouse or "
                "partner may also drive the car, provided they are named on the insurance and "
                "are aged 25 or over.",
                "Fuel for private mileage is paid for with the company fuel card and deducted "
                "from your salary at the end of each month. Allocated cars are replaced after "
                "four years or 80,000 miles, whichever comes first.",
            ),
        ),
        Section(
            "5. Using your own vehicle for business",
            (
                "If you use your own car for business journeys, your insurance must include "
                "business use, and you must send a copy of the certificate to the Fleet team "
                "every year before you claim any mileage. The car must be taxed, roadworthy and, "
                "where the law requires one, have a valid MOT.",
                "Business mileage in your own car is paid at 45p a mile for the first 10,000 "
                "miles in a tax year and 25p a mile after that. Motorcycles are paid at 24p a "
                "mile. A passenger supplement of 5p a mile is added for each colleague you carry "
                "on the same business trip.",
                "Mileage claims must be made within 60 days of the journey. Claims made after "
                "that are paid only with the approval of the Finance Director.",
            ),
        ),
        Section(
            "6. Safe driving",
            (
                "Plan a break of at least 15 minutes for every two hours of driving, and do not "
                "drive for more than nine hours in a working day, including your commute. If "
                "you feel tired, stop somewhere safe and rest, even if it makes you late.",
                "Kestrel Lane applies a zero alcohol rule that is stricter than the legal limit: "
                "you must not drive on company business with any alcohol in your system. "
                "Hand-held phones must never be used while driving. Hands-free calls should be "
                "kept to a brief message that you are running late.",
                "Parking and speeding fines incurred in a company vehicle are the driver's "
                "responsibility, and the Fleet team will transfer liability to the driver named "
                "on the booking. Congestion charges and tolls on business journeys are paid by "
                "the company.",
            ),
        ),
        Section(
            "7. Accidents, breakdowns and damage",
            (
                "If you are involved in a collision, stop, make sure everyone is safe and call "
                "999 if anyone is hurt. Every accident in a company vehicle must be reported to "
                "the 24-hour accident line on 0800 612 4470 before the end of the same day, even "
                "if no other vehicle was involved. Do not admit liability at the scene.",
                "For a breakdown, call the breakdown provider on 0800 331 9052 and wait in a safe "
                "place away from the vehicle. Do not attempt roadside repairs yourself.",
                "Where damage results from careless driving, the driver may be asked to pay up "
                "to the insurance excess, which is £250 for cars and £500 for vans. Injuries "
                "from a road accident must also be recorded in the Accident Book under the "
                "First Aid and Accident Reporting Procedure.",
            ),
        ),
        Section(
            "8. Contacts and review",
            (
                "Questions about this policy should go to the Fleet Manager at "
                "fleet@kestrellane.co.uk or on extension 4410. The policy is reviewed every two "
                "years, and the next review is due in January 2027.",
            ),
        ),
    ),
)

BYOD = SampleDocument(
    file_name="bring-your-own-device-policy.pdf",
    title="Bring Your Own Device Policy",
    version="1.4",
    effective="1 September 2024",
    owner="Head of Information Security",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "Many of our people would rather read work e-mail on their own phone than carry "
                "a second one. This policy allows that, within limits, while protecting the "
                "information of Kestrel Lane and its customers. Using a personal device for work "
                "is entirely voluntary, and nobody will be disadvantaged for choosing not to.",
            ),
        ),
        Section(
            "2. Scope and eligibility",
            (
                "The policy applies to employees on permanent and fixed-term contracts who use a "
                "personally owned smartphone, tablet or laptop for any work purpose. Contractors "
                "may use a personal phone for e-mail and calendar only, and only with the "
                "written approval of the manager who engaged them.",
                "Personal laptops may reach company systems only through the virtual desktop. "
                "No company data may be saved on the laptop itself.",
            ),
        ),
        Section(
            "3. Enrolling a device",
            (
                "Before a personal phone or tablet can receive company e-mail, it must be "
                "enrolled in our mobile device management service through the IT Service Desk. "
                "Enrolment creates a separate work profile, which keeps work apps and data apart "
                "from your personal ones. Each person may enrol no more than two personal "
                "devices.",
            ),
            (
                "The operating system must be no more than two major versions behind the "
                "current release.",
                "Security updates must be installed within 14 days of being released.",
                "The screen must be locked with a PIN of at least six digits or with "
                "biometrics, and must lock itself after 5 minutes of inactivity at most.",
                "Device encryption must be switched on.",
                "Jailbroken or rooted devices cannot be enrolled.",
            ),
        ),
        Section(
            "4. What you may and may not do",
            (
                "Within the work profile you may use e-mail, calendar, Teams and the Kestrel "
                "Driver app. Photographs of delivery paperwork may be taken only with the "
                "camera inside the Kestrel Driver app, never with the phone's own camera app.",
            ),
            (
                "Never forward work e-mail to a personal account.",
                "Do not save Confidential or Restricted company information anywhere outside "
                "the work profile.",
                "Do not take screenshots of customer data.",
                "Family members and friends must not use the work profile, even briefly.",
            ),
        ),
        Section(
            "5. Costs",
            (
                "Employees who enrol a personal phone and are on an out-of-hours call-out rota "
                "receive an allowance of £15 a month, paid through payroll. The company does not "
                "pay for buying, repairing or replacing a personal device, including one that is "
                "lost or stolen.",
                "Roaming charges for work calls made abroad can be claimed as an expense if your "
                "line manager approved the trip in advance.",
            ),
        ),
        Section(
            "6. Loss, theft and changing devices",
            (
                "If a device that holds work data is lost or stolen, tell the IT Service Desk on "
                "020 7946 0321 within 4 hours of noticing that it is missing. The desk will "
                "remove the work profile remotely. A full wipe of the whole device is carried "
                "out only if it has not been found after 48 hours and you agreed to this when "
                "you enrolled it.",
                "When you replace a phone, unenrol the old one within 5 working days. On your "
                "last working day the work profile is removed from all your devices, and you "
                "must delete any company files you hold outside it before you go.",
            ),
        ),
        Section(
            "7. Privacy",
            (
                "The company can see the model of an enrolled device, its operating system "
                "version and the work apps installed on it. It cannot see your personal e-mail, "
                "photos, messages, browsing history or location. Personal content will only "
                "ever be accessed where a court order or the police require it.",
            ),
        ),
        Section(
            "8. Breaches and exceptions",
            (
                "A breach of this policy may lead to withdrawal of access from personal devices "
                "and to disciplinary action. Exceptions must be approved by the Head of "
                "Information Security, and each approved exception is reviewed every 12 months.",
                "Queries can be sent to security@kestrellane.co.uk.",
            ),
        ),
    ),
)

PARENTAL_LEAVE = SampleDocument(
    file_name="parental-leave-and-pay-policy.pdf",
    title="Parental Leave and Pay Policy",
    version="3.0",
    effective="1 April 2025",
    owner="HR Director",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and principles",
            (
                "Kestrel Lane wants parents to be able to spend time with a new child without "
                "worrying about their job or their income. This policy describes the leave and "
                "pay available around birth, adoption and surrogacy, and it applies equally to "
                "every parent, whatever their gender or family situation.",
                "Where statutory rights are more generous than this policy in any case, the "
                "statutory rights apply.",
            ),
        ),
        Section(
            "2. Eligibility",
            (
                "Company enhanced pay is available to employees who have completed 26 weeks of "
                "continuous service by the date their leave starts. Employees with shorter "
                "service still receive statutory pay if they qualify for it. Agency workers and "
                "self-employed contractors are not covered by this policy.",
            ),
        ),
        Section(
            "3. Maternity and adoption leave",
            (
                "Birth mothers and primary adopters may take up to 52 weeks of leave. You must "
                "tell your line manager and HR that you are pregnant, and the expected week of "
                "childbirth, no later than the 15th week before the baby is due. Adopters must "
                "tell HR within 7 days of being matched with a child.",
                "Eligible employees receive full basic pay for the first 16 weeks and half of "
                "basic pay, plus statutory pay, for the following 10 weeks. Statutory pay alone "
                "is paid for the next 13 weeks, and the rest of the leave is unpaid.",
                "Up to 10 keeping-in-touch days may be worked during the leave, and each is paid "
                "at the full daily rate. If you want to come back earlier than planned, give at "
                "least 8 weeks' notice of the new return date.",
            ),
        ),
        Section(
            "4. Paternity and partner leave",
            (
                "A partner of a birth mother or adopter is entitled to two weeks of paternity "
                "leave, paid by the company at full basic pay. It can be taken as one block of "
                "two weeks or as two separate weeks, within 52 weeks of the birth or placement. "
                "Please give at least 28 days' notice of the dates you want.",
                "Partners may take unpaid time off to attend up to two antenatal appointments, "
                "of up to six and a half hours each. Pregnant employees are given paid time off "
                "for all their antenatal appointments.",
            ),
        ),
        Section(
            "5. Shared parental leave",
            (
                "Parents may end maternity or adoption leave early and share the remaining weeks "
                "as shared parental leave. Shared parental pay is paid at the statutory rate "
                "only; the company enhancement does not apply to it.",
                "Give at least 8 weeks' notice before each period of shared parental leave. Each "
                "parent can send up to three such notices. During shared parental leave, each "
                "parent may also work up to 20 in-touch days.",
            ),
        ),
        Section(
            "6. Unpaid parental leave",
            (
                "Employees with one year of service may take up to 18 weeks of unpaid parental "
                "leave for each child before the child's 18th birthday. No more than 4 weeks may "
                "be taken in any year for each child, and the leave must be taken in whole "
                "weeks.",
                "Give 21 days' notice of unpaid parental leave. The company may postpone it for "
                "up to six months where the absence would seriously disrupt the business, but it "
                "cannot postpone leave requested straight after a birth or adoption.",
            ),
        ),
        Section(
            "7. Repaying enhanced pay",
            (
                "If you do not return to work for at least three months after maternity or "
                "adoption leave, you must repay the company enhanced pay, which is the amount "
                "you received above statutory pay. Repayment is not required if you are made "
                "redundant or a doctor confirms you are unable to return for health reasons.",
            ),
        ),
        Section(
            "8. Returning to work and contacts",
            (
                "Your line manager will hold a return-to-work meeting with you during your first "
                "week back. A private room for expressing breast milk, with a lockable fridge, is "
                "available at head office in Room 2.14, and depot managers will find a suitable "
                "space at other sites.",
                "For advice, contact the HR team at people@kestrellane.co.uk or on 020 7946 0350.",
            ),
        ),
    ),
)

FIRST_AID = SampleDocument(
    file_name="first-aid-and-accident-reporting.pdf",
    title="First Aid and Accident Reporting Procedure",
    version="4.2",
    effective="15 February 2025",
    owner="Health and Safety Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "This procedure makes sure that anyone injured or taken ill at a Kestrel Lane "
                "site gets prompt first aid, and that every accident is recorded and learned "
                "from. Good reporting is not about blame: most of our safety improvements began "
                "as somebody's report of a near miss.",
            ),
        ),
        Section(
            "2. First aiders",
            (
                "Each depot must have at least one qualified first aider on duty for every 50 "
                "people on shift, and each office at least one for every 100 employees. The "
                "names and photographs of first aiders are displayed next to every first aid "
                "box.",
                "First aiders attend a three-day First Aid at Work course, which must be renewed "
                "every three years, and a half-day refresher each year in between. They receive "
                "an allowance of £300 a year, paid in December.",
                "Mental health first aiders are volunteers trained on a two-day course. They are "
                "not paid the first aid allowance.",
            ),
        ),
        Section(
            "3. First aid boxes and defibrillators",
            (
                "First aid boxes are checked every month by the first aider responsible for the "
                "area. Tell a first aider whenever you take something from a box so that it can "
                "be restocked.",
                "Boxes must not contain tablets or medicines of any kind, and first aiders must "
                "not hand out painkillers. A defibrillator is kept at the reception of every "
                "site and checked every week. Anyone may use a defibrillator in an emergency; no "
                "training is needed because the machine gives spoken instructions.",
            ),
        ),
        Section(
            "4. In an emergency",
            (
                "For a serious injury or illness, call 999 first and then the nearest first "
                "aider. At a depot, also tell the shift supervisor, who will send someone to "
                "meet the ambulance at the gate.",
            ),
            (
                "Do not move a casualty who may have a back or neck injury unless they are in "
                "immediate danger.",
                "Do not give the casualty anything to eat or drink.",
                "Stay with the casualty until a first aider or the ambulance crew takes over.",
            ),
        ),
        Section(
            "5. Reporting accidents and near misses",
            (
                "Every accident, however minor, must be recorded in the online Accident Book, "
                "SafeHub, before the end of the shift in which it happened. Near misses must be "
                "reported in SafeHub within 48 hours. If you cannot use SafeHub yourself, your "
                "supervisor will make the entry for you.",
                "When an accident leads to time off work, the line manager must complete an "
                "investigation within 5 working days. When an employee is taken to hospital, "
                "the Health and Safety Manager must be told within 2 hours on 07700 900 412.",
                "If a contractor is injured on our premises, the Kestrel Lane employee who "
                "supervises their work records the accident in SafeHub. The contractor must also "
                "report it to their own employer.",
            ),
        ),
        Section(
            "6. Reporting to the HSE",
            (
                "The Health and Safety Manager decides whether an accident is reportable under "
                "RIDDOR and makes every report to the Health and Safety Executive. An injury that "
                "keeps an employee off normal duties for more than seven days must be reported "
                "within 15 days of the accident. Specified injuries and dangerous occurrences "
                "are reported without delay, and in any case within 10 days.",
            ),
        ),
        Section(
            "7. Records and review",
            (
                "SafeHub entries are kept for at least three years from the date of the "
                "accident. The Health and Safety Committee reviews accident and near miss trends "
                "every quarter, and this procedure is reviewed every year by the Health and "
                "Safety Manager.",
            ),
        ),
    ),
)

DOCUMENTS = (VEHICLES, BYOD, PARENTAL_LEAVE, FIRST_AID)

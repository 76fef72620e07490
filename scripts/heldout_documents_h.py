"""Eighth held-out document set: four policies of a fictional UK hotel group, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_h_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Larkspur Hotels Group plc"

GUEST_DATA = SampleDocument(
    file_name="guest-data-and-cctv-policy.pdf",
    title="Guest Data and CCTV Policy",
    version="2.1",
    effective="1 April 2025",
    owner="Group Data Protection Officer",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains how Larkspur Hotels Group plc collects, uses, keeps and "
                "protects information about guests, visitors and staff, including images "
                "recorded by closed-circuit television. It applies to every hotel managed by the "
                "Group in the United Kingdom and to all employees, agency workers and "
                "contractors who work in them.",
                "Hotels run by franchise partners under the Larkspur name follow the privacy "
                "terms of their franchise agreement instead of this policy.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A guest record is any information held about a guest, including the "
                "registration card, booking history, preferences and notes on the property "
                "management system.",
                "The Data Protection Officer (DPO) is the person appointed by the Group to "
                "advise on and monitor compliance with data protection law.",
                "A subject access request (SAR) is a request by an individual for a copy of the "
                "personal data the Group holds about them.",
                "Cardholder data means the full card number, expiry date and security code of a "
                "payment card.",
            ),
        ),
        Section(
            "3. CCTV coverage",
            (
                "Cameras cover hotel entrances, reception, car parks, public corridors, bars, "
                "loading bays and back-of-house stores. No camera may be placed in a guest "
                "bedroom, toilet, changing room or spa treatment room, and the system never "
                "records sound. Signs stating that CCTV is in operation must be displayed at "
                "every public entrance.",
                "A new camera covering an area used only by staff needs the written approval of "
                "the Regional Operations Director after the DPO has been consulted.",
            ),
        ),
        Section(
            "4. Keeping CCTV footage",
            (
                "Recorded footage is kept for 31 days and is then overwritten automatically. "
                "Footage of an incident, such as an accident, a theft or an assault, is copied "
                "to the secure incident drive by the Head of Security and kept for 12 months, "
                "or until any claim or prosecution has finished if that is later.",
            ),
        ),
        Section(
            "5. Viewing and disclosing footage",
            (
                "Live pictures may be watched by the security team and the duty manager. "
                "Recorded footage may only be reviewed by the General Manager, the Deputy "
                "General Manager or the Head of Security, and each viewing is entered in the "
                "CCTV access log.",
                "Requests from the police for footage must be made on the Group's disclosure "
                "request form and approved by the General Manager. An urgent police request "
                "outside office hours may be approved by the duty manager, who must tell the "
                "General Manager by 10am the next day. Requests from insurers or solicitors are "
                "passed to the DPO.",
            ),
            (
                "Staff must not photograph or film CCTV monitors on their own phones.",
                "Footage must never be shared on social media or with the press.",
            ),
        ),
        Section(
            "6. Guest records",
            (
                "Registration cards and guest records are kept for six years after the guest's "
                "last stay, to meet accounting and tax rules. Marketing preferences are deleted "
                "when a guest has not stayed with the Group for three years.",
                "Under the Immigration (Hotel Records) Order 1972, guests aged 16 or over who "
                "are not British, Irish or Commonwealth citizens must give their passport "
                "number and nationality at check-in. These details are kept for 12 months. "
                "Staff must not photocopy, scan or photograph a guest's passport or driving "
                "licence.",
            ),
        ),
        Section(
            "7. Payment card data",
            (
                "Cardholder data must never be written down, e-mailed or stored on the property "
                "management system. Card payments over the telephone are taken only through the "
                "secure PayLine service, where the guest enters the card number on their own "
                "telephone keypad. If a guest e-mails their card details, the message must be "
                "deleted at once and the guest asked to pay through PayLine.",
                "The night manager checks every card terminal for signs of tampering at the "
                "start of each night shift and records the check on the terminal log.",
            ),
        ),
        Section(
            "8. Subject access requests",
            (
                "A request for personal data may be made in writing, by e-mail or in person, and "
                "need not use any particular wording. Any member of staff who receives one must "
                "forward it to the DPO at privacy@larkspurhotels.co.uk within one working day. "
                "The DPO replies within one calendar month, and no fee is charged unless the "
                "request is manifestly unfounded or excessive.",
                "A person asking for CCTV images of themselves must give the date, the hotel and "
                "a time window of no more than two hours. The faces of other people are "
                "blurred before any footage is released.",
            ),
        ),
        Section(
            "9. Data breaches",
            (
                "A lost or stolen device, a misdirected e-mail or any other data breach must be "
                "reported to the DPO as soon as it is discovered, and in any case within 4 "
                "hours. The DPO decides whether the breach must be notified to the Information "
                "Commissioner's Office, which has to be done within 72 hours. Out of hours, "
                "breaches are reported on 01632 960 214.",
            ),
        ),
        Section(
            "10. Review",
            ("The DPO reviews this policy every year. The next review is due in March 2026.",),
        ),
    ),
)

ROTA_PAY = SampleDocument(
    file_name="staff-rota-overtime-and-tips-policy.pdf",
    title="Staff Rota, Overtime and Tips Policy",
    version="3.4",
    effective="6 April 2025",
    owner="Group HR Director",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy covers how shifts are planned and paid in Larkspur hotels, and how "
                "tips and service charges are shared. It applies to all hourly paid and salaried "
                "hotel team members. Head office staff follow the Head Office Working Hours "
                "Policy, and agency workers are paid by their agency under its own terms.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "A rota week runs from 00:01 on Monday to midnight on Sunday.",
                "A night shift is any shift of which at least three hours fall between 11pm "
                "and 6am.",
                "The tronc is the scheme through which service charges and shared tips are "
                "distributed to staff.",
                "The troncmaster is the employee who runs the tronc independently of hotel "
                "management.",
            ),
        ),
        Section(
            "3. Rotas",
            (
                "Rotas are published on the LarkRota app at least 14 days before the start of "
                "the rota week. Once published, a shift may only be changed within 7 days of it "
                "with the team member's agreement, except in an emergency such as a fire or "
                "flood. If the hotel cancels a shift with less than 48 hours' notice, the team "
                "member is paid for half of the cancelled hours, up to a maximum of 4 hours.",
                "No shift is rostered for less than 4 hours, and nobody is rostered for more "
                "than 6 working days in a row.",
            ),
        ),
        Section(
            "4. Breaks and rest",
            (
                "Team members working more than 6 hours take an unpaid break of 30 minutes. "
                "Shifts of more than 10 hours include an additional paid break of 15 minutes. "
                "Team members under 18 must have a 30-minute break once they have worked 4.5 "
                "hours. There must be at least 11 hours between the end of one shift and the "
                "start of the next.",
                "A free staff meal is provided in the staff canteen on every shift of 5 hours "
                "or more.",
            ),
        ),
        Section(
            "5. Overtime",
            (
                "Overtime must be approved in advance by the Head of Department, or by the duty "
                "manager where the Head of Department is not on site. Hours worked beyond 40 in "
                "a rota week are paid at 1.25 times the basic hourly rate. Work on Christmas "
                "Day, Boxing Day and New Year's Day is paid at double time, and work on other "
                "bank holidays at time and a half.",
                "Salaried managers at grade M1 and above do not receive overtime pay. They may "
                "take time off in lieu for extra hours, which must be used within 3 months. "
                "Hourly paid team members may choose time off in lieu instead of overtime pay, "
                "but may not carry more than 16 hours of it at any time.",
            ),
        ),
        Section(
            "6. Night shifts",
            (
                "Hours worked between 11pm and 6am attract a night premium of £1.50 an hour on "
                "top of the basic rate. Anyone starting regular night work is offered a free "
                "health assessment before the first night shift and once a year after that.",
                "A team member working alone at night, such as a night porter or night auditor, "
                "carries a lone-worker alarm and calls the central night line on 01632 960 488 "
                "every two hours.",
            ),
        ),
        Section(
            "7. Shift swaps",
            (
                "Team members may swap shifts with a colleague through the LarkRota app, provided "
                "the colleague is trained for the role. A swap must be approved by the Head of "
                "Department or the duty manager at least 24 hours before the shift starts. A "
                "swap will not be approved if it would leave either person with less than 11 "
                "hours' rest. Each team member may make no more than 4 swaps in a calendar "
                "month.",
            ),
        ),
        Section(
            "8. Tips and service charge",
            (
                "A discretionary service charge of 12.5% is added to restaurant and room service "
                "bills. All of it, together with tips paid by card and cash tips left on tables, "
                "goes into the tronc, and no deduction is made by the hotel. A cash tip handed "
                "directly to a team member may be kept by that person.",
                "The tronc is shared out on points: 10 points for each hour worked by team "
                "members and 12 for supervisors. General Managers and Deputy General Managers "
                "do not take part in the tronc. Payments are made with the monthly pay on the "
                "last Friday of the month, and a team member who leaves receives their share "
                "for the period they worked in their final pay.",
                "The troncmaster is elected every two years by a ballot of the staff who take "
                "part in the tronc. Records of tips and their allocation are kept for three "
                "years.",
            ),
        ),
        Section(
            "9. Queries and review",
            (
                "Questions about pay, overtime or the tronc go to the Payroll team at "
                "payroll@larkspurhotels.co.uk or on 01632 960 305. The Group HR Director reviews "
                "this policy every two years, and the next review is due in October 2026.",
            ),
        ),
    ),
)

FOOD_SAFETY = SampleDocument(
    file_name="food-safety-and-allergens-policy.pdf",
    title="Food Safety and Allergens Policy",
    version="5.0",
    effective="1 February 2025",
    owner="Group Food Safety Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets the food safety and allergen standards for every kitchen, "
                "bar, room service and banqueting operation in the Group's hotels. Outside "
                "caterers hired by guests for weddings or private events must supply their own "
                "food safety plan and full allergen information to the Events Manager at least "
                "7 days before the event.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "The 14 allergens are those listed in food information law, including cereals "
                "containing gluten, milk, eggs, peanuts, tree nuts, sesame and sulphites.",
                "The allergen matrix is the chart that shows, for every dish and drink served, "
                "which of the 14 allergens it contains.",
                "A critical control point is a step at which control is essential to prevent a "
                "food safety hazard.",
                "The chef in charge is the most senior chef on duty in the kitchen at any time.",
            ),
        ),
        Section(
            "3. Temperature control",
            (
                "Fridges must run at 5°C or below and freezers at -18°C or below. Temperatures "
                "are checked and recorded twice a day, when the kitchen opens and before it "
                "closes. If a fridge reads above 8°C, the chef in charge moves its contents to "
                "another unit and tells the Head Chef.",
                "Food is cooked to a core temperature of at least 75°C for 30 seconds and kept "
                "hot at 63°C or above. Hot food that has been below 63°C for more than 2 hours "
                "must be thrown away. Cooked food that is to be chilled must be below 8°C "
                "within 90 minutes, and food may be reheated only once.",
                "Cold buffet food may be left out of refrigeration for no more than 4 hours, "
                "after which it must be discarded.",
            ),
        ),
        Section(
            "4. Probe thermometers",
            (
                "Every kitchen holds at least two working probe thermometers. Each probe is "
                "checked monthly in iced water, where it must read between -1°C and 1°C, and in "
                "boiling water, where it must read between 99°C and 101°C. A probe outside "
                "these ranges is taken out of use at once and a replacement ordered through "
                "Group Purchasing.",
                "Probes are cleaned with an antibacterial wipe before and after each use, and "
                "are sent for external calibration every 12 months.",
            ),
        ),
        Section(
            "5. Allergen matrix and menus",
            (
                "The allergen matrix must be updated before any new dish or changed recipe is "
                "served. A new or changed menu is signed off first by the Head Chef and then by "
                "the Group Food Safety Manager, and seasonal menus must reach the Group Food "
                "Safety Manager at least 21 days before launch.",
                "If a supplier substitutes a product, the chef in charge checks its label and "
                "updates the matrix before the product is used. Staff must never guess whether "
                "a dish contains an allergen, and must not tell a guest that any dish is "
                "completely free of an allergen, because cross-contact cannot be ruled out in "
                "our kitchens.",
            ),
        ),
        Section(
            "6. Taking allergen orders",
            (
                "When a guest declares an allergy, the server marks the order ticket ALLERGY in "
                "red and tells the chef in charge in person. The dish is prepared with clean "
                "equipment and taken to the table separately from other dishes. Room service "
                "staff must ask every caller whether anyone they are ordering for has a food "
                "allergy.",
            ),
        ),
        Section(
            "7. Allergic reactions",
            (
                "If a guest shows signs of a severe reaction, such as swelling of the lips or "
                "difficulty breathing, call 999 immediately and help the guest to use their "
                "own adrenaline auto-injector if they have one. The duty manager must be told "
                "straight away.",
                "After any reaction, keep the dish, its packaging and the order ticket, and take "
                "the ingredients out of use. The Group Food Safety Manager must be told within "
                "2 hours on 01632 960 623 or at foodsafety@larkspurhotels.co.uk, and an incident "
                "report completed within 24 hours. Staff must not admit liability or offer "
                "compensation; any complaint is passed to the General Manager.",
            ),
        ),
        Section(
            "8. Training and personal hygiene",
            (
                "Food handlers complete Level 2 Food Hygiene training within 4 weeks of "
                "starting and renew it every 3 years. Head Chefs and Sous Chefs must hold Level "
                "3. All kitchen and restaurant staff complete allergen awareness training every "
                "year.",
                "Anyone who has had diarrhoea or vomiting must not handle food until they have "
                "been free of symptoms for 48 hours. Food handlers may wear a plain wedding band "
                "but no other jewellery.",
            ),
        ),
        Section(
            "9. Inspections and review",
            (
                "The Group Food Safety team audits each hotel kitchen every 6 months. When an "
                "Environmental Health Officer visits, the duty manager must inform the Group "
                "Food Safety Manager on the same day. This policy is reviewed every year, next "
                "in January 2026.",
            ),
        ),
    ),
)

LOST_PROPERTY = SampleDocument(
    file_name="lost-property-and-guest-complaints-policy.pdf",
    title="Lost Property and Guest Complaints Policy",
    version="1.7",
    effective="1 June 2025",
    owner="Director of Guest Experience",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out how Larkspur hotels deal with property left behind by "
                "guests and visitors, and how complaints from guests are handled and put right. "
                "Complaints from employees are dealt with under the Grievance Procedure, and "
                "complaints about group bookings made through travel agents are handled by the "
                "Group Sales team.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Lost property is any item found on hotel premises whose owner is not present.",
                "Valuables are cash, jewellery, watches, passports, bank cards, phones, "
                "laptops and any other item that appears to be worth more than £100.",
                "A goodwill credit is a voucher or account credit offered to a guest to put "
                "right a poor experience, where no refund is due.",
            ),
        ),
        Section(
            "3. Handing in and logging items",
            (
                "Anything found must be handed to reception or the housekeeping supervisor "
                "before the end of the finder's shift. The item is entered in the Lost Property "
                "Register with the date, the place it was found and the finder's name, given a "
                "reference number, then bagged and labelled. Cash of more than £50 is counted "
                "and signed for by two members of staff.",
                "Staff must never keep anything they find, whatever its value, and unclaimed "
                "items are never given to the member of staff who found them.",
            ),
        ),
        Section(
            "4. Storage and retention",
            (
                "Valuables are locked in the reception safe and kept for 6 months. Other items "
                "are kept in the lost property store for 3 months. Perishable food, opened "
                "toiletries and underwear are disposed of at the end of the day on which they "
                "are found.",
                "Unclaimed passports are sent to HM Passport Office, or to the relevant embassy "
                "for foreign passports, after 28 days. Unclaimed bank cards are cut up after 7 "
                "days and the issuing bank informed.",
                "When the retention period ends, unclaimed items are donated to the Group's "
                "charity partner, the Hearthside Trust. Phones, laptops and other devices that "
                "may hold personal data are never donated and are destroyed securely by IT.",
            ),
        ),
        Section(
            "5. Returning items",
            (
                "Before an item is returned, the owner must describe it and show photo "
                "identification. Someone collecting on the owner's behalf needs the owner's "
                "written authority. Items can be posted by tracked courier; the guest pays the "
                "postage plus a handling charge of £5, and valuables are only sent by insured "
                "courier. Cash, medicines and loose batteries are never posted.",
            ),
        ),
        Section(
            "6. Handling complaints",
            (
                "Staff should try to put a complaint right on the spot. Written complaints are "
                "acknowledged within 24 hours and receive a full reply within 5 working days. "
                "Negative reviews on public review websites are answered by the General "
                "Manager within 48 hours. Every complaint and every refund or goodwill gesture "
                "is recorded in the complaints log.",
            ),
        ),
        Section(
            "7. Refunds and goodwill credits",
            (
                "Goodwill gestures and refunds may be approved up to the following limits:",
                "Refunds are always made to the original method of payment, and a card payment "
                "is never refunded in cash. Goodwill credits are issued as Larkspur vouchers, "
                "which are valid for 12 months and cannot be exchanged for cash.",
                "Under the Hotel Proprietors Act 1956, the hotel's liability for a guest's "
                "property lost or damaged in the hotel is limited to £50 for any one item and "
                "£100 in total, unless the property was deposited with reception for safe "
                "keeping.",
            ),
            (
                "front desk and restaurant team members: up to £25, such as a complimentary "
                "drink or dessert;",
                "duty managers: up to £150;",
                "General Managers: up to £1,000;",
                "more than £1,000: the Regional Operations Director.",
            ),
        ),
        Section(
            "8. Escalation",
            (
                "A guest who is not satisfied with the General Manager's reply may ask for the "
                "complaint to be reviewed by the Guest Relations team, at "
                "guestrelations@larkspurhotels.co.uk or on 01632 960 740, who reply within 10 "
                "working days. Their decision is final.",
                "Complaints that allege injury, food poisoning or discrimination, or that "
                "threaten legal action, must be sent to Guest Relations and the Legal team on "
                "the day they are received.",
            ),
        ),
        Section(
            "9. Review",
            (
                "The Director of Guest Experience reviews this policy every year. The next "
                "review is due in June 2026.",
            ),
        ),
    ),
)

DOCUMENTS = (GUEST_DATA, ROTA_PAY, FOOD_SAFETY, LOST_PROPERTY)

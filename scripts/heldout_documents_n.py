"""Fourteenth held-out document set: four policies of a fictional UK bus operator, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_n_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Wyvern Valley Buses Ltd"

HOURS = SampleDocument(
    file_name="drivers-hours-fitness-to-drive-policy.pdf",
    title="Drivers' Hours, Rest Breaks and Fitness to Drive Policy",
    version="5.0",
    effective="6 January 2025",
    owner="Operations Director",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy sets out the limits on driving and duty time, the breaks and rest "
                "that drivers must take, and the standards of fitness every driver must meet. It "
                "applies to all PCV drivers employed by Wyvern Valley Buses, including part-time "
                "and casual drivers, and to engineers and shunters who drive buses on the road.",
                "Most of our local bus services have a route length of under 50 km and are "
                "covered by the GB domestic drivers' hours rules. The X50 express service to "
                "Bristol, private hire work and rail replacement journeys of more than 50 km are "
                "covered by the assimilated drivers' hours rules and must be recorded on a "
                "tachograph. Where this policy is stricter than the law, drivers must follow "
                "this policy.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Driving time means time spent at the controls of a bus for the purpose of "
                "controlling its movement, including time stationary in traffic.",
                "Duty time means all time from signing on to signing off, including driving, "
                "other work, waiting time and breaks.",
                "A break is a period during which the driver does no driving and no other work "
                "and is free to use the time as they wish.",
                "Daily rest means the uninterrupted period between signing off one duty and "
                "signing on for the next.",
                "A spread-over duty is a duty split into two parts by an unpaid period of at "
                "least one hour.",
                "The Duty Controller is the manager in charge of the control room at any time, "
                "available 24 hours a day on 01632 960 410.",
            ),
        ),
        Section(
            "3. Daily and weekly driving limits",
            (
                "On domestic services, no driver may drive for more than 10 hours in any duty. "
                "The law allows a duty of up to 16 hours, but Wyvern Valley Buses limits duty "
                "time to 13 hours, and no spread-over duty may last more than 13 hours from "
                "first sign-on to final sign-off.",
                "On tachograph work, daily driving must not exceed 9 hours, which may be "
                "extended to 10 hours no more than twice in a week. Weekly driving must not "
                "exceed 56 hours, and driving in any two consecutive weeks must not exceed "
                "90 hours.",
            ),
            (
                "No driver may be rostered for more than 6 duties in a row without a rest day.",
                "Rostered duties are limited to 48 hours a week on average over 17 weeks, "
                "unless the driver has signed an opt-out agreement.",
                "Overtime and rest day working count towards all the limits in this section.",
            ),
        ),
        Section(
            "4. Breaks",
            (
                "After no more than 5 hours 30 minutes of driving, a driver on domestic work "
                "must take a break of at least 30 minutes. Breaks are taken at the relief point "
                "or depot shown on the duty card, and never in the cab of a bus in service.",
                "In any duty longer than 6 hours, the first 30-minute break is paid. Any further "
                "breaks are unpaid, as is the unpaid period in the middle of a spread-over duty.",
                "On tachograph work, a driver must take a break of at least 45 minutes after "
                "4 hours 30 minutes of driving. The break may be split into a first part of at "
                "least 15 minutes followed by a second part of at least 30 minutes.",
            ),
            (
                "A driver who is running late must still take the full break.",
                "Never shorten a break to recover lost time; the Duty Controller will arrange "
                "cover or curtail the journey.",
                "If a break is missed for any reason, tell the Duty Controller before driving "
                "again.",
            ),
        ),
        Section(
            "5. Daily and weekly rest",
            (
                "Drivers must have at least 11 hours of daily rest between signing off and "
                "signing on again. This may be reduced to 10 hours no more than twice in any "
                "roster week, and only with the driver's agreement.",
                "Every driver is rostered at least two rest days in each roster week, which runs "
                "from Sunday to Saturday. A driver may work one of those rest days as overtime "
                "but must always have at least one full rest day of 24 hours in the week.",
            ),
        ),
        Section(
            "6. Tachographs and records",
            (
                "Drivers on tachograph work must insert their driver card before the journey "
                "starts and keep it in the tachograph until the end of the duty. Driver cards "
                "are downloaded at the depot at least every 28 days, and vehicle units at least "
                "every 90 days.",
                "A lost, stolen or faulty driver card must be reported to the Depot Manager "
                "straight away and to the DVLA within 7 days. The driver may continue to drive "
                "for up to 15 days using printouts from the vehicle unit, signed at the start "
                "and end of each duty.",
                "The Depot Manager keeps tachograph records and domestic duty records for 2 years.",
            ),
        ),
        Section(
            "7. Alcohol, drugs and medication",
            (
                "Wyvern Valley Buses has a zero-tolerance approach to alcohol and drugs. Drivers "
                "must not drink any alcohol in the 10 hours before signing on. A breath test "
                "reading of more than 9 micrograms of alcohol in 100 millilitres of breath is "
                "treated as a failed test.",
                "Random alcohol and drugs tests are carried out at every depot, and at least 10% "
                "of drivers are tested each year. Refusing a test is treated in the same way as "
                "a failed test.",
                "A driver who is prescribed or buys any medicine with a warning that it may "
                "cause drowsiness must tell the Depot Manager before their next duty. The "
                "information is kept confidential and shared with Occupational Health only.",
            ),
        ),
        Section(
            "8. Medical fitness, eyesight and licences",
            (
                "PCV drivers must pass a D4 medical at the age of 45 and every 5 years after "
                "that until the age of 65, and every year from 65. The company arranges D4 "
                "medicals with its Occupational Health provider free of charge. A driver who "
                "chooses to use their own GP is reimbursed up to £95 on production of a "
                "receipt.",
                "Every driver must be able to read a car number plate from a distance of "
                "20 metres, with glasses or contact lenses if needed. Drivers who need glasses "
                "to drive must carry a spare pair in the cab.",
                "Licences are checked with the DVLA every 6 months. Drivers must tell the Depot "
                "Manager of any penalty points, driving conviction or medical condition "
                "affecting their driving before their next duty.",
            ),
        ),
        Section(
            "9. Fatigue and second jobs",
            (
                "A driver who feels too tired to drive safely must tell the Duty Controller "
                "before driving or as soon as it is safe to stop. No driver will be disciplined "
                "for honestly declaring fatigue, and the time is paid for the rest of that duty.",
                "Drivers who have any other paid job must declare it in writing to the Depot "
                "Manager, who must approve it before the driver starts. Time spent driving for "
                "another employer, including taxi and delivery work, counts as driving time "
                "under this policy.",
            ),
        ),
        Section(
            "10. Contacts and review",
            (
                "The Duty Controller can be reached at any time on 01632 960 410. Questions "
                "about rosters go to the Roster Clerk at your depot, and questions about "
                "training go to the Driver Training Centre on 01632 960 430.",
                "The Operations Director reviews this policy every year, and next in January 2026.",
            ),
        ),
    ),
)

FARES = SampleDocument(
    file_name="fares-ticketing-cash-handling-procedure.pdf",
    title="Fares, Ticketing and Cash Handling Procedure",
    version="3.4",
    effective="1 April 2025",
    owner="Commercial Manager",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This procedure explains how drivers issue tickets, accept passes and handle "
                "cash on Wyvern Valley Buses services, and how cash is paid in at the depot. It "
                "applies to all drivers, cash office staff and Revenue Protection Inspectors.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "ETM means the electronic ticket machine fitted in the cab of every bus, "
                "including its contactless card reader.",
                "A waybill is the summary of tickets and cash printed by the ETM when the driver "
                "logs off at the end of a duty.",
                "A concessionary pass is an English National Concessionary Travel Scheme pass "
                "issued by a local council to an older or disabled person.",
                "A child is a passenger aged 5 to 15. Children under 5 travel free, up to three "
                "with each fare-paying adult.",
                "A YouthCard is the Wyvern photocard that lets young people aged 16 to 21 pay "
                "the child fare.",
            ),
        ),
        Section(
            "3. Logging on and ETM faults",
            (
                "At the start of every duty the driver logs on to the ETM with their driver "
                "number and PIN, and checks that the date, route and fare table are correct "
                "before the first journey.",
                "If the ETM fails before the bus leaves the depot, the driver must report it to "
                "the Duty Controller and take a spare bus or a replacement ETM. If the ETM fails "
                "in service, the driver must tell the Duty Controller and sell tickets from the "
                "emergency ticket pad kept in the cab.",
                "Where the ETM has failed and there is no emergency ticket pad on the bus, the "
                "driver may carry passengers free to the end of that journey and must record "
                "the number of passengers carried on the defect card.",
            ),
        ),
        Section(
            "4. Fares and payment",
            (
                "Adult single fares are capped at £3 under the national bus fare cap. Child "
                "single fares are half the adult fare, rounded up to the nearest 10p.",
                "Contactless payments are capped at £5.50 per day and £20 per week from Monday "
                "to Sunday across all Wyvern Valley Buses services. Passengers must tap the same "
                "card or device on every journey to benefit from the cap.",
            ),
            (
                "We accept cash, contactless cards, phones and watches, mTickets on the Wyvern "
                "app and paper tickets bought from the Travel Shop.",
                "Drivers are not required to give change from notes of more than £20, and may "
                "refuse £50 notes.",
                "Passengers who cannot pay the full fare in cash may not be given credit or "
                "asked to pay later.",
            ),
        ),
        Section(
            "5. Concessionary passes",
            (
                "Older persons' passes are valid from 09:30 to 23:00 on Mondays to Fridays and "
                "at any time on Saturdays, Sundays and bank holidays. Before 09:30 on a weekday, "
                "the holder must pay the full adult fare.",
                "Disabled persons' passes are valid at any time on our services. A pass marked "
                "with a C+ symbol allows one companion to travel free with the holder.",
                "Every pass must be tapped on the ETM reader. If a pass will not read, the "
                "driver checks the photograph and expiry date and records the journey using the "
                "'Pass Not Read' key.",
                "Drivers must not keep or confiscate a pass. Suspected misuse must be reported "
                "to Revenue Protection with the pass number, date and journey.",
            ),
        ),
        Section(
            "6. Passengers who cannot or will not pay",
            (
                "A driver must never leave a child under 16 or a vulnerable adult stranded "
                "because they cannot pay. They must be carried and the journey recorded on the "
                "ETM using the 'Unpaid Welfare' key.",
                "If an adult refuses to pay, the driver should explain the fare once, calmly, "
                "and must not argue or try to physically remove the passenger. The journey is "
                "recorded using the 'Fare Refused' key and reported to the Duty Controller if "
                "the passenger becomes aggressive.",
            ),
        ),
        Section(
            "7. Cash handling and paying in",
            (
                "Each driver is issued with a coin float of £25 at sign-on, which is returned "
                "when they pay in. During the duty all cash must be kept in the locked cash "
                "tray and never in pockets or personal bags.",
                "At the end of every duty the driver pays in all cash at the depot cash office, "
                "sealed in a tamper-evident bag with the waybill. The driver and the cash office "
                "clerk both sign the paying-in slip. The cash office is staffed from 05:00 to "
                "01:00; outside those hours the bag is placed in the depot drop safe and the "
                "drop is recorded in the drop safe log.",
                "Cash is counted by the cash office within one working day and compared with "
                "the waybill.",
            ),
            (
                "Differences of up to £2 are written off.",
                "Shortfalls of more than £2 and up to £10 are recorded on the driver's cash "
                "record.",
                "Shortfalls of more than £10 are investigated by the Depot Manager.",
                "Three or more recorded shortfalls in any 13 weeks lead to a cash handling "
                "review with the Depot Manager.",
            ),
        ),
        Section(
            "8. Counterfeit money",
            (
                "A driver who suspects a note is counterfeit should politely refuse it and ask "
                "for another form of payment. Drivers must not keep a suspect note or accuse "
                "the passenger.",
                "Counterfeit notes found by the cash office are handed to the police, and the "
                "value is not deducted from the driver unless the driver has not followed this "
                "procedure.",
            ),
        ),
        Section(
            "9. Refunds and revenue protection",
            (
                "Drivers cannot give refunds from the ETM or from their cash. Passengers who ask "
                "for a refund should be referred to Customer Services on 01632 960 500 or at "
                "customer.services@wyvernvalleybuses.co.uk. Claims for incorrect contactless "
                "charges must be made through the Wyvern app within 28 days of travel.",
                "Revenue Protection Inspectors board buses without notice to check tickets and "
                "passes. Drivers must allow them on board and give them the ETM readings they "
                "ask for. Inspectors carry a company photo ID card, which drivers may ask to "
                "see.",
            ),
        ),
        Section(
            "10. Contacts and review",
            (
                "The cash office can be reached on 01632 960 460 and the Revenue Protection "
                "team at revenue@wyvernvalleybuses.co.uk.",
                "The Commercial Manager reviews this procedure every year, and whenever fares "
                "change.",
            ),
        ),
    ),
)

INCIDENTS = SampleDocument(
    file_name="accidents-incidents-passenger-assistance-policy.pdf",
    title="Accidents, Incidents and Passenger Assistance Policy",
    version="2.3",
    effective="3 March 2025",
    owner="Head of Safety and Compliance",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains what drivers and depot staff must do after an accident or "
                "incident, how passengers who need help are assisted, and how lost property, "
                "assaults on staff and CCTV recordings on buses are dealt with.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "An accident is any collision involving a company vehicle, however minor, "
                "including contact with mirrors, kerbs, trees or street furniture.",
                "An on-board incident is any injury, fall or illness of a passenger on the bus, "
                "including while the bus is stationary.",
                "A serious incident is any event involving a death, hospital treatment, a fire "
                "on a vehicle or an assault.",
                "A near miss is an event that could have caused injury or damage but did not.",
            ),
        ),
        Section(
            "3. Immediately after an accident",
            (
                "The driver must stop as soon as it is safe to do so, switch on the hazard "
                "warning lights, apply the parking brake and check whether anyone is hurt. If "
                "anyone is injured, call 999 first and then the Duty Controller by radio or on "
                "01632 960 410.",
                "The bus must not be moved unless the police or the Duty Controller say so, "
                "except to prevent further danger. The driver must not admit liability or "
                "discuss blame with anyone at the scene.",
                "Where anyone is injured and the police do not attend, the driver must report "
                "the accident at a police station in person as soon as possible and in any case "
                "within 24 hours.",
            ),
            (
                "Give your name, the company's address and the bus registration to anyone who "
                "has reasonable grounds to ask.",
                "Hand a witness card to every passenger and ask them to fill it in before they "
                "leave the bus.",
                "Take photographs with the company phone kept in the cab, never a personal phone.",
            ),
        ),
        Section(
            "4. Reporting and investigation",
            (
                "Every accident, on-board incident and near miss must be reported on an "
                "Accident and Incident Report form (AIR1) before the driver signs off. A driver "
                "who has been injured may complete the form by the end of their next duty.",
                "After any accident involving injury or damage costing more than £500, the "
                "driver is stood down for the rest of the duty on full pay and must take an "
                "alcohol and drugs test within 4 hours of the accident.",
                "The Depot Manager reviews every report within 5 working days. Serious "
                "incidents are investigated by the Head of Safety and Compliance, whose team "
                "makes any report needed under RIDDOR.",
                "Drivers involved in a distressing incident can call the Employee Assistance "
                "Programme free of charge, 24 hours a day, on 01632 960 999.",
            ),
        ),
        Section(
            "5. Wheelchair users and passengers who need assistance",
            (
                "Wheelchair users have priority for the wheelchair space over all other "
                "passengers, including those with buggies. If the space is occupied by a buggy "
                "or luggage, the driver must ask the passenger to fold the buggy or move to "
                "another part of the bus. If they refuse, the driver must ask again and may "
                "wait up to 3 minutes for the space to be cleared.",
                "If the space still cannot be made available, the driver must tell the "
                "wheelchair user when the next bus is due and report the refusal to the Duty "
                "Controller, who may send a bus or taxi if the next bus is more than 30 minutes "
                "away.",
                "The wheelchair space takes a wheelchair up to 700 mm wide and 1,200 mm long. "
                "Mobility scooters are carried only if the user holds a Wyvern Scooter Permit, "
                "which is issued after a free assessment by the Driver Training Centre.",
                "Drivers must kneel the bus and deploy the ramp whenever a passenger asks. "
                "Drivers may offer a steadying hand but must not lift or carry passengers or "
                "push a wheelchair up the ramp.",
            ),
            (
                "Assistance dogs must always be carried.",
                "Passengers showing a Wyvern Help Card should be given the help written on it.",
                "Wait for older and disabled passengers to sit down before moving off.",
            ),
        ),
        Section(
            "6. Lost property",
            (
                "Items found on a bus are handed in at the depot at the end of the duty and "
                "logged in the lost property register. Drivers may look inside a bag or wallet "
                "only to find the owner's name, and only with a witness present.",
                "Lost property is kept for 28 days and then given to charity or destroyed. "
                "Perishable food is thrown away at the end of the day it is handed in, and bank "
                "cards are destroyed after 7 days if not collected. Cash or items worth more "
                "than £250 are handed to the police.",
                "Owners collect items from the depot office between 09:00 and 16:30, Monday to "
                "Friday, and must show photo ID. A £2 handling fee applies, except for "
                "medication, wallets, keys and items belonging to children.",
            ),
            ("Suspicious items must not be touched; move passengers off the bus and call 999.",),
        ),
        Section(
            "7. Assaults on staff and anti-social behaviour",
            (
                "Your safety comes first. Drivers must never leave the cab to confront a "
                "passenger or chase an offender. In an emergency, press the covert alarm "
                "button, which opens a silent radio channel to the control room; the Duty "
                "Controller will listen in and call the police.",
                "If an object hits or damages the bus, stop when it is safe, check for injuries "
                "and tell the Duty Controller. A bus with a cracked windscreen in the driver's "
                "line of sight must not continue in service.",
                "If a driver is spat at, they should use the DNA spit kit in the cab and hand "
                "it to the police. All assaults, including verbal abuse, threats and spitting, "
                "must be reported on an AIR1 form.",
                "Wyvern Valley Buses supports staff who wish to press charges. A driver off "
                "work because of an assault at work receives full pay for up to 26 weeks. The "
                "Operations Director may ban a passenger from our services for up to "
                "12 months.",
            ),
        ),
        Section(
            "8. CCTV on buses",
            (
                "Every bus has CCTV cameras recording the inside of the bus and the road ahead. "
                "Recordings are kept for 31 days and are then overwritten automatically. "
                "Recordings of an incident that has been reported are saved and kept for at "
                "least 12 months, or until any claim or prosecution is concluded.",
                "Requests for footage from the police must go to the CCTV Officer at "
                "cctv@wyvernvalleybuses.co.uk. Passengers who ask for footage of themselves "
                "must make a subject access request to the Data Protection Officer, who "
                "responds within one month.",
                "Drivers must not view, copy or photograph CCTV footage themselves. A driver may "
                "ask to view footage of an incident they were involved in, with their Depot "
                "Manager present.",
            ),
            (
                "Cameras must never be covered or moved.",
                "Report a faulty camera or a CCTV warning light on the defect card.",
                "A bus with faulty CCTV may stay in service for no more than 3 days.",
            ),
        ),
        Section(
            "9. Contacts and review",
            (
                "The Safety and Compliance team can be reached on 01632 960 470 or at "
                "safety@wyvernvalleybuses.co.uk. The Head of Safety and Compliance reviews "
                "this policy every two years, and next in March 2027.",
            ),
        ),
    ),
)

STAFF = SampleDocument(
    file_name="uniform-conduct-leave-pay-policy.pdf",
    title="Uniform, Conduct, Leave and Pay Policy for Depot Staff",
    version="6.2",
    effective="1 May 2025",
    owner="Head of People",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy applies to drivers, engineers, cleaners and administrative staff "
                "at the Wyvernbridge, Kingsmere and Hollin Cross depots. Head office staff are "
                "covered by the separate Head Office Handbook.",
            ),
        ),
        Section(
            "2. Uniform",
            (
                "New drivers are issued with five shirts, two pairs of trousers or skirts, one "
                "jumper, one fleece, one waterproof jacket and one tie. Replacement items are "
                "issued once a year, in April, on request to the Depot Administrator.",
                "Uniform that is lost or damaged through carelessness is replaced at cost, "
                "which is deducted from pay. Uniform damaged in an assault or accident at work "
                "is replaced free of charge.",
                "Drivers may wear the company shorts between 1 May and 30 September. Footwear "
                "must be plain and black, and drivers receive a footwear allowance of £40 each "
                "April. Engineers are issued with safety boots.",
                "All staff must wear a high-visibility vest whenever they are in the depot "
                "yard. Religious headwear may be worn with the uniform.",
                "Uniform must be returned within 14 days of leaving the company, otherwise a "
                "charge of £75 is deducted from final pay.",
            ),
        ),
        Section(
            "3. Conduct",
            (
                "Mobile phones must be switched off and stowed out of reach while driving, "
                "including while the bus is stopped at a bus stop or in traffic. A phone may be "
                "used at a terminus only when the parking brake is on and the engine is "
                "switched off.",
                "Smoking and vaping are not allowed on any bus or within 5 metres of a depot "
                "entrance, and are permitted only in the marked shelters in the depot yard.",
                "Drivers must not eat while driving, but may keep a bottle of water in the cab. "
                "Personal radios, headphones and earphones must not be used in the cab.",
                "Staff must not post photographs or videos of passengers, incidents or the "
                "inside of our buses on social media.",
            ),
            (
                "Gifts worth less than £25 from passengers may be accepted.",
                "Gifts worth £25 or more must be declared to the Depot Manager within 7 days.",
                "Cash tips must not be accepted.",
            ),
        ),
        Section(
            "4. Annual leave",
            (
                "The leave year runs from 1 April to 31 March. Full-time staff receive 25 days' "
                "annual leave plus 8 bank holidays. Leave rises to 27 days after 5 years' "
                "service and to 29 days after 10 years' service. Part-time staff receive leave "
                "in proportion to their contracted hours.",
                "Leave must be requested from the Roster Clerk at least 28 days in advance, and "
                "the Roster Clerk replies within 7 days. Summer leave between 1 June and "
                "30 September is allocated by ballot in January, and no driver may take more "
                "than two weeks of leave in that period unless the Depot Manager agrees.",
                "No more than 10% of drivers at a depot may be on leave between 24 December "
                "and 1 January, allocated by length of service.",
                "Up to 5 days of untaken leave may be carried over, and must be used by "
                "30 June. Any other untaken leave is lost unless the Head of People agrees "
                "otherwise.",
            ),
        ),
        Section(
            "5. Sickness absence",
            (
                "A driver who is unable to work must ring the Duty Controller on "
                "01632 960 410 at least 2 hours before their sign-on time. For duties that "
                "start before 06:00, the call must be made by 22:00 the evening before. Other "
                "staff ring their line manager before their normal start time.",
                "Staff may self-certify absence of up to 7 calendar days. A fit note from a "
                "doctor is needed from the eighth day of absence. Every absence is followed by "
                "a return-to-work interview with the Depot Manager.",
                "After 6 months' service, staff receive company sick pay of full pay for "
                "4 weeks and half pay for a further 4 weeks in any rolling 12 months.",
            ),
        ),
        Section(
            "6. Pay and allowances",
            (
                "Staff are paid weekly by bank transfer every Friday, for the week ending the "
                "previous Saturday. Payslips are available on the MyWyvern staff portal.",
                "The basic rate for drivers from 1 May 2025 is £14.20 an hour. Drivers with less "
                "than 12 months' service are paid a starter rate of £13.40 an hour.",
            ),
            (
                "Sunday duties are paid at time and a half.",
                "Bank holiday duties are paid at double time.",
                "Overtime over 39 hours in a week is paid at time and a quarter.",
                "Rest day working is paid at time and a half, with a minimum of 6 hours paid.",
                "A spread-over allowance of £8.50 is paid for any duty spread over more than "
                "11 hours.",
                "Driver trainers receive an extra £1.75 an hour while training a driver.",
            ),
        ),
        Section(
            "7. Pay queries and overpayments",
            (
                "Pay queries should be raised with Payroll within 4 weeks of the payday, at "
                "payroll@wyvernvalleybuses.co.uk or on 01632 960 480. An underpayment of more "
                "than £50 is paid by bank transfer within 3 working days if the employee asks.",
                "Overpayments are recovered from pay. No more than 10% of net pay is recovered "
                "in any one week unless the employee agrees to a higher amount.",
            ),
        ),
        Section(
            "8. Staff travel",
            (
                "All staff travel free on Wyvern Valley Buses services on showing their staff "
                "ID card. After 12 months' service, staff may apply for a partner pass, which "
                "gives free travel to one nominated partner.",
                "Staff passes must not be lent to anyone else, and misuse is treated as gross "
                "misconduct.",
            ),
        ),
        Section(
            "9. Contacts and review",
            (
                "Questions about this policy should be directed to the People team at "
                "people@wyvernvalleybuses.co.uk or on 01632 960 490.",
                "The Head of People reviews this policy every year, and next in May 2026.",
            ),
        ),
    ),
)

DOCUMENTS = (HOURS, FARES, INCIDENTS, STAFF)

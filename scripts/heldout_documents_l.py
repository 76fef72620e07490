"""Twelfth held-out document set: four policies of a fictional UK retail chain, written blind.

Used only to measure the offline answerer on documents and questions nobody tuned it on
(tests/data/answerability/heldout_l_questions.jsonl). Do not tune the answerer on them.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_sample_pdfs import SampleDocument, Section

COMPANY = "Hartwell & Reed Stores plc"

RETURNS = SampleDocument(
    file_name="customer-returns-refunds-policy.pdf",
    title="Customer Returns, Refunds and Exchanges Policy",
    version="4.1",
    effective="1 February 2025",
    owner="Head of Customer Service",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This policy explains how Hartwell & Reed handles returns, refunds and exchanges "
                "in its homeware stores and garden centres. It applies to all store colleagues, "
                "customer service desk staff and managers. Nothing in this policy affects a "
                "customer's statutory rights under the Consumer Rights Act 2015.",
                "Items bought online may be returned to any of our stores or posted to the "
                "Online Returns Centre in Northampton using the prepaid label sent with the order.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Proof of purchase means a till receipt, an e-receipt, an online order "
                "confirmation or a bank or card statement showing the transaction.",
                "A change-of-mind return is the return of goods that are not faulty, where the "
                "customer simply no longer wants them.",
                "Faulty goods are items that are not of satisfactory quality, not fit for purpose "
                "or not as described.",
                "Made-to-measure items include cut-to-length curtains and blinds, tinted paint, "
                "and fabric, carpet or worktops cut to the customer's order.",
            ),
        ),
        Section(
            "3. Change-of-mind returns",
            (
                "Customers may return unwanted goods within 28 days of purchase for a full "
                "refund, provided the goods are unused, in their original packaging and "
                "returned with proof of purchase. Furniture and large garden items such as "
                "sheds, greenhouses and barbecues may be returned within 14 days of delivery.",
                "Items bought between 1 November and 24 December can be returned until "
                "15 January of the following year.",
                "Live plants may be returned for change of mind within 7 days if they are still "
                "in a saleable condition. Hardy trees, shrubs and perennials also carry a "
                "two-year plant guarantee: if one dies within two years of purchase, the customer "
                "is offered a replacement plant or a refund on production of the receipt.",
            ),
            (
                "Made-to-measure items cannot be returned for change of mind.",
                "Opened bedding, pillows and duvets cannot be returned unless faulty, for "
                "hygiene reasons.",
                "Gift cards, seeds, bulbs and cut flowers cannot be returned for change of mind.",
                "Clearance items marked 'as seen' cannot be returned because of the defect for "
                "which they were reduced.",
            ),
        ),
        Section(
            "4. Returns without proof of purchase",
            (
                "Where a customer has no proof of purchase, a colleague may offer an exchange or "
                "a credit note for items that we currently sell, valued at the lowest price the "
                "item has sold at in the last 28 days.",
                "Refunds without proof of purchase are limited to £50 per item. An item worth "
                "more than £50 can be refunded without proof of purchase only if the Store "
                "Manager agrees.",
                "Cash is never given for a return without proof of purchase. The customer must "
                "show photo ID, and no customer may make more than three returns without proof "
                "of purchase in any 12-month period.",
            ),
        ),
        Section(
            "5. How refunds are paid",
            (
                "Refunds are made to the original method of payment. Card refunds usually reach "
                "the customer's account within 3 to 5 working days.",
                "Goods paid for with a gift card are refunded onto a new gift card. Where the "
                "original card has expired or been cancelled, the refund may be made by credit "
                "note, or in cash up to £100.",
            ),
        ),
        Section(
            "6. Who authorises a refund",
            (
                "Refunds are authorised at the till according to the total value of the refund:",
                "Colleagues must not process a refund for a purchase made by themselves, a family "
                "member or a friend; these refunds are processed by a Duty Manager.",
            ),
            (
                "Up to £100: any colleague trained on customer service may process the refund.",
                "From £100.01 to £500: a Supervisor or Duty Manager must authorise the refund "
                "with their till key.",
                "From £500.01 to £2,000: the Store Manager or Deputy Store Manager must "
                "authorise the refund.",
                "Over £2,000: the refund needs the approval of the Regional Manager, obtained by "
                "the Store Manager before the refund is processed.",
            ),
        ),
        Section(
            "7. Faulty goods",
            (
                "Customers who return faulty goods within 30 days of purchase are entitled to a "
                "full refund. After 30 days and up to six months from purchase, we will offer a "
                "repair or replacement first, and a refund if the repair or replacement fails.",
                "Electrical items costing more than £150 that are returned as faulty after "
                "30 days are sent to the supplier's repair agent for inspection, which normally "
                "takes up to 21 days.",
                "Faulty goods must be labelled with a red Faulty Returns tag and placed in the "
                "returns cage in the stockroom, and never put back on the shop floor.",
                "Where a faulty item has caused an injury or damage to property, the colleague "
                "must not offer compensation but must record the details and inform the Customer "
                "Relations team on the same day.",
            ),
        ),
        Section(
            "8. Exchanges and gift cards",
            (
                "Exchanges for a different size, colour or item can be made within the same "
                "28 days as change-of-mind returns. If the new item costs less, the difference "
                "is refunded to the original payment method; if it costs more, the customer pays "
                "the difference.",
                "Gift receipts allow the person who received the gift to exchange it or receive "
                "a credit note, but not a cash or card refund.",
                "Hartwell & Reed gift cards are valid for 24 months from the date of purchase "
                "and cannot be exchanged for cash. A lost or stolen gift card can be replaced "
                "only if the customer has the gift card receipt, and a £3 replacement fee "
                "applies.",
            ),
        ),
        Section(
            "9. Contacts and review",
            (
                "Questions about this policy should be directed to the Customer Relations team "
                "at customer.relations@hartwellreed.co.uk or on 01632 960 214.",
                "The Head of Customer Service reviews this policy every year, and next in "
                "January 2026.",
            ),
        ),
    ),
)

SAFETY = SampleDocument(
    file_name="store-health-safety-security-policy.pdf",
    title="Store Health, Safety and Security Policy",
    version="2.3",
    effective="1 April 2024",
    owner="Head of Health, Safety and Security",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose and responsibilities",
            (
                "This policy sets out how Hartwell & Reed keeps colleagues, customers and "
                "contractors safe in its stores, garden centres and cafés, and how it protects "
                "stock and cash. The Store Manager is responsible for health and safety in the "
                "store and names a Duty Manager for every shift.",
                "Each store has a trained Health and Safety Champion, who carries out the monthly "
                "store safety walk and keeps the store's risk assessments up to date.",
                "All colleagues complete health and safety induction training on their first day "
                "and refresh it every 12 months on the Learning Hub.",
            ),
        ),
        Section(
            "2. Manual handling",
            (
                "No colleague should lift an item weighing more than 20 kg alone. Items between "
                "20 kg and 40 kg must be lifted by two colleagues or moved on a sack truck, and "
                "anything heavier than 40 kg, such as pallets of bagged compost or aggregates, "
                "must be moved with a pallet truck.",
                "Colleagues who are pregnant, or returning to work after an injury, must have an "
                "individual manual handling risk assessment completed by their line manager.",
                "Colleagues may help customers to load heavy items into their cars, but "
                "colleagues must not lift anything onto a roof rack.",
                "Manual handling training is given at induction and repeated every two years.",
            ),
        ),
        Section(
            "3. Ladders, steps and working at height",
            (
                "Only kick stools and the approved three-tread and six-tread platform steps may "
                "be used on the shop floor. Ladders taller than six treads, and any work above "
                "2.5 metres, may be used only by colleagues who have completed the Working at "
                "Height course.",
                "Stepladders must be inspected before each use and formally checked every month, "
                "with the monthly check recorded on the ladder register. A damaged ladder must be "
                "taken out of use at once and labelled 'Do Not Use'.",
            ),
            (
                "Chairs, stock cages and shelving must never be used as steps.",
                "Work at height on the shop floor during opening hours needs a second colleague "
                "to guard the area.",
            ),
        ),
        Section(
            "4. Cash handling",
            (
                "Till drawers must not hold more than £300 in notes. When this limit is reached, "
                "a Supervisor carries out a till lift and takes the notes to the cash office.",
                "The safe may be opened only by the Store Manager, the Deputy Store Manager or a "
                "Duty Manager, and two colleagues must be present whenever the safe is opened or "
                "cash is counted.",
                "Cash is collected from the store by the security carrier on Mondays and "
                "Thursdays. Colleagues must never take banking bags to the bank themselves.",
                "Differences found when a till is cashed up are dealt with as follows:",
            ),
            (
                "Up to £10: recorded in the cash discrepancy log by the Supervisor.",
                "From £10.01 to £50: investigated by the Duty Manager on the same day.",
                "Over £50: reported to the Loss Prevention team within 24 hours, and the till "
                "operator may be asked to attend a review meeting.",
            ),
        ),
        Section(
            "5. Shoplifting and security",
            (
                "Colleagues must never physically detain, chase or search a suspected shoplifter. "
                "The safety of colleagues and customers always comes before the protection of "
                "stock.",
                "A colleague who suspects theft should approach the person and offer help, and "
                "alert the Duty Manager or security officer by radio using the call 'Code Green'.",
                "Every theft, however small, must be recorded on the SafeStore incident system "
                "before the end of the shift. Thefts of goods worth more than £200, and any theft "
                "involving threats or violence, must also be reported to the police.",
                "A colleague who is threatened or abused should move away to a safe place and "
                "call 999 in an emergency. The Loss Prevention team can be contacted at "
                "lossprevention@hartwellreed.co.uk or on 01632 960 330.",
            ),
        ),
        Section(
            "6. Accident and incident reporting",
            (
                "All accidents, injuries, near misses and dangerous occurrences involving "
                "colleagues, customers or contractors must be reported on SafeStore within "
                "24 hours.",
                "Injuries that keep a colleague off work for more than seven days, and accidents "
                "in which a customer is taken to hospital, are reported under RIDDOR by the "
                "central Health and Safety team, not by the store.",
                "The Store Manager must telephone the Health and Safety team on 01632 960 412 "
                "straight away after any serious injury.",
                "CCTV footage is normally overwritten after 31 days, but the Duty Manager must "
                "save the footage of any reported accident or incident, which is then kept for "
                "three years.",
            ),
        ),
        Section(
            "7. First aid",
            (
                "Every store must have at least one trained first aider on duty whenever it is "
                "open, and stores with a café must have at least two. First aiders hold a "
                "First Aid at Work certificate, which is renewed every three years.",
                "First aid kits are checked every week by a first aider, and the names of the "
                "first aiders on duty are shown on the board outside the staff room. Every store "
                "has a defibrillator, which is located at the customer service desk.",
                "Colleagues must not give customers any medication, including paracetamol, from "
                "the first aid kit.",
            ),
        ),
        Section(
            "8. Fire safety",
            (
                "Fire alarms are tested every week, on a Wednesday before the store opens, and a "
                "full evacuation drill is held twice a year. Fire exits and the routes to them "
                "must be kept clear of stock and cages at all times.",
                "The Duty Manager acts as fire marshal for the shift and confirms at the assembly "
                "point that the building is empty.",
            ),
        ),
        Section(
            "9. Review",
            (
                "This policy is reviewed every two years by the Head of Health, Safety and "
                "Security, and next in March 2026.",
            ),
        ),
    ),
)

COLLEAGUE = SampleDocument(
    file_name="colleague-discount-uniform-conduct-policy.pdf",
    title="Colleague Discount, Uniform and Conduct Policy",
    version="3.0",
    effective="6 April 2025",
    owner="People Director",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Who this policy covers",
            (
                "This policy applies to all colleagues of Hartwell & Reed Stores plc, including "
                "part-time, fixed-term and seasonal colleagues. Agency workers and contractors "
                "are not eligible for colleague discount.",
                "Colleagues can use their discount once they have completed four weeks of "
                "employment.",
            ),
        ),
        Section(
            "2. Discount rates",
            (
                "The standard colleague discount is 20% on full-price goods bought in our stores "
                "or online. During the two Colleague Discount Weeks held each year, one in spring "
                "and one before Christmas, the discount rises to 30%.",
                "Discount in the cafés is 50% on food and drink bought for the colleague's own "
                "use during a shift, and 20% at other times.",
            ),
            (
                "Discount does not apply to gift cards, delivery charges, assembly services, "
                "extended warranties or concession brands trading inside our stores.",
                "On goods already reduced in a sale or on clearance, discount is 10% rather "
                "than 20%.",
                "Colleague discount cannot be used together with customer vouchers or multi-buy "
                "offers.",
            ),
        ),
        Section(
            "3. Family members and limits",
            (
                "Each colleague may nominate one named family member or partner who lives at the "
                "same address to receive a linked discount card. Colleagues with more than five "
                "years' service may nominate a second family member, who need not live at the "
                "same address.",
                "Discounted purchases by a colleague and their nominees together are limited to "
                "£2,500 in each financial year, which runs from 1 April to 31 March.",
                "A single discounted purchase is approved as follows:",
                "Goods bought with colleague discount are for personal use only; reselling them "
                "is treated as gross misconduct.",
                "Discount cards are cancelled on a colleague's last day of employment. Retired "
                "colleagues with at least 10 years' service keep a 10% discount for life.",
            ),
            (
                "Up to £250: no approval is needed.",
                "From £250.01 to £750: approval by a Duty Manager, recorded on the till.",
                "Over £750: approval by the Store Manager before the sale.",
            ),
        ),
        Section(
            "4. Personal shopping",
            (
                "Colleagues must not serve themselves, family members or friends at the till; "
                "another colleague must process the sale.",
                "Personal shopping may be done only before or after a shift or during an unpaid "
                "break, never while on duty.",
                "Personal shopping must be kept in the staff room with the receipt attached, and "
                "managers may carry out random bag checks when colleagues leave the store.",
                "Colleagues may not set aside sale or clearance items for themselves before the "
                "items have been put out for customers.",
            ),
        ),
        Section(
            "5. Uniform and appearance",
            (
                "New colleagues are issued with three polo shirts, one fleece and a name badge. "
                "Garden centre colleagues also receive a waterproof jacket and a pair of safety "
                "boots.",
                "Worn-out uniform is replaced free of charge, but lost items are charged at £10 "
                "each.",
                "Colleagues provide their own plain black or navy trousers, skirt or shorts, and "
                "closed-toe black shoes.",
                "Visible tattoos are allowed unless they are offensive. In the cafés, the only "
                "jewellery that may be worn is a plain wedding band.",
                "Uniform must be returned when a colleague leaves, and must not be worn off duty "
                "except when travelling to and from work.",
            ),
        ),
        Section(
            "6. Conduct at work",
            (
                "Colleagues must not use a personal mobile phone on the shop floor except in an "
                "emergency.",
                "Smoking and vaping are allowed only in the designated smoking area, and never in "
                "uniform at the front of the store.",
                "Colleagues must not post photographs of stockrooms, stock deliveries or "
                "customers on social media.",
                "Arriving more than 10 minutes late three times in a rolling 13-week period may "
                "lead to a formal attendance meeting.",
            ),
        ),
        Section(
            "7. Gifts from suppliers and customers",
            (
                "Gifts, samples and hospitality offered by suppliers or their representatives "
                "are dealt with according to their value:",
                "Cash or gift vouchers from suppliers must never be accepted, whatever their "
                "value.",
                "Tips from customers may be kept by café colleagues and shared equally among the "
                "café team each week. Small gifts from customers, such as chocolates or flowers, "
                "may be kept.",
            ),
            (
                "Up to £25: may be accepted, but must be declared to the line manager.",
                "From £25.01 to £100: may be accepted only with the written approval of the "
                "Store Manager, and must be entered in the gifts register.",
                "Over £100: must be declined, unless the Commercial Director approves in writing.",
            ),
        ),
        Section(
            "8. Breaches, contacts and review",
            (
                "Misuse of colleague discount, including lending a discount card to someone who "
                "is not a nominee, leads to the discount being withdrawn for 12 months and may "
                "also result in disciplinary action.",
                "Questions about this policy can be sent to the People Services team at "
                "peopleservices@hartwellreed.co.uk or on 01632 960 508.",
                "The People Director reviews this policy every year, and next in March 2026.",
            ),
        ),
    ),
)

STOCK = SampleDocument(
    file_name="stock-loss-deliveries-waste-policy.pdf",
    title="Stock Loss, Deliveries and Waste Policy",
    version="1.4",
    effective="1 September 2024",
    owner="Director of Supply Chain",
    company=COMPANY,
    scanned=False,
    sections=(
        Section(
            "1. Purpose",
            (
                "This policy sets out how stores receive deliveries, record damaged and lost "
                "stock, write off goods and dispose of waste, including food waste from the "
                "cafés. It supports the company's targets of keeping stock loss below 1.2% of "
                "sales and sending no waste to landfill by 2027.",
            ),
        ),
        Section(
            "2. Definitions",
            (),
            (
                "Stock loss, or shrinkage, is the difference between the stock the system "
                "expects a store to hold and the stock actually counted.",
                "A write-off is the removal of stock from the system because it cannot be sold "
                "at any price.",
                "Known loss is loss with a recorded reason, such as damage, expiry or theft; "
                "unknown loss is the remainder found at a stock count.",
                "The Stock Control Lead is the colleague in each store responsible for stock "
                "records and counts.",
            ),
        ),
        Section(
            "3. Deliveries",
            (
                "Deliveries from the Distribution Centre in Daventry arrive in a booked slot. "
                "Suppliers delivering direct to a store must book at least 48 hours in advance "
                "through the Delivery Booking Portal.",
                "Deliveries are accepted only between 6am and 2pm, and no delivery may be "
                "received while the yard gate is unattended.",
                "The receiving colleague checks the number of pallets and cages and the seals "
                "against the delivery note. Any shortage or visible damage must be written on "
                "the delivery note before it is signed.",
                "Claims for shortages or damage must be raised with the supplier or the "
                "Distribution Centre within 48 hours of delivery, or they will not be accepted.",
                "Live plant deliveries must be unloaded and watered within two hours of arrival. "
                "Delivery drivers must wear a high-visibility vest in the yard and must not enter "
                "the stockroom.",
            ),
        ),
        Section(
            "4. Damaged goods",
            (
                "Goods damaged in store are first assessed for sale at a reduced price. Items "
                "with cosmetic damage may be reduced by up to 30% by a Supervisor, and larger "
                "reductions need the Duty Manager.",
                "Damaged goods that cannot be sold are scanned into the damages bin on the "
                "handheld terminal with reason code DM, and are kept for seven days before "
                "disposal in case the supplier wants them back.",
                "Goods damaged by a supplier or in transit are sent back to the supplier through "
                "the Returns to Vendor (RTV) process and must not be written off.",
                "Damaged goods must never be given away to colleagues or customers free of charge.",
            ),
        ),
        Section(
            "5. Authorising write-offs",
            (
                "Write-offs are authorised according to the cost value of the stock in a single "
                "write-off:",
                "Every write-off is recorded on the StockPoint system on the day it is "
                "authorised, with a reason code. A photograph must be attached to the StockPoint "
                "record for any single item with a cost value over £50.",
            ),
            (
                "Up to £250: the Duty Manager may authorise the write-off.",
                "From £250.01 to £1,000: the Store Manager must authorise it.",
                "From £1,000.01 to £5,000: the Regional Manager must approve it in advance.",
                "Over £5,000: approval is needed from the Director of Supply Chain, and the "
                "write-off is reported to the Finance Director.",
            ),
        ),
        Section(
            "6. Stock counts and unknown loss",
            (
                "Every store has a full stock count twice a year, in January and July, carried "
                "out by an external counting contractor. High-risk lines such as power tools, "
                "candles, fragrances and small electricals are counted every week by the Stock "
                "Control Lead.",
                "Where unknown loss at a full count is more than 1.5% of sales, the Loss "
                "Prevention team visits the store within 14 days and agrees an action plan with "
                "the Store Manager.",
                "Any difference of more than £500 found in a weekly count must be reported to "
                "the Loss Prevention team on the same day.",
            ),
        ),
        Section(
            "7. Waste and recycling",
            (
                "Stores must separate waste into cardboard, plastic film, glass, garden waste "
                "and general waste at source.",
                "Cardboard and plastic film are baled in the store's baler and collected every "
                "week by the recycling contractor, GreenLoop Recycling. Only colleagues aged 18 "
                "or over who have been trained and signed off may operate the baler.",
                "Unsaleable plants and garden waste go in the green waste skip, which is emptied "
                "every two weeks.",
                "Damaged paint tins, garden chemicals and aerosols must not be put in general "
                "waste; they are placed in the hazardous waste cabinet and collected every month "
                "by a licensed contractor.",
            ),
        ),
        Section(
            "8. Café food waste",
            (
                "Café food is labelled with its use-by date when it is prepared, and food past "
                "its use-by date must be thrown away and recorded on the café waste sheet.",
                "Packaged food that is still within its use-by date at closing time is donated to "
                "a local charity partner agreed with the Regional Manager. Open or unwrapped food "
                "must not be donated.",
                "Colleagues must not take home café food that is being thrown away.",
                "Food waste goes in the caddies provided and is collected three times a week for "
                "anaerobic digestion; it must never be put in general waste.",
                "Café managers must keep food waste below 4% of café sales and report the weekly "
                "waste figure to the Regional Café Lead every Monday.",
            ),
        ),
        Section(
            "9. Contacts and review",
            (
                "Questions about deliveries should be directed to the Distribution Centre "
                "helpdesk on 01632 960 640. Questions about write-offs and stock counts go to the "
                "Stock Control team at stockcontrol@hartwellreed.co.uk.",
                "This policy is owned by the Director of Supply Chain and reviewed every two "
                "years, and next in August 2026.",
            ),
        ),
    ),
)

DOCUMENTS = (RETURNS, SAFETY, COLLEAGUE, STOCK)

"""Write the sample PDFs of the offline demo into a folder: python scripts/make_sample_pdfs.py DIR

Three policies of a fictional company, with headers, footers, numbered headings, bullets and
facts worth asking about (retention periods, roles, deadlines), and a signed supplier agreement
as an office scanner leaves it (an image of each page, no text layer: read by OCR on ingest).
The output is byte-for-byte deterministic (reportlab invariant mode, a seeded scan), so the
demo's document versions never change.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer

if TYPE_CHECKING:
    from certiq.deps import Deps

COMPANY = "Northwind Analytics Ltd."


@dataclass(frozen=True)
class Section:
    heading: str
    paragraphs: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()


@dataclass(frozen=True)
class SampleDocument:
    file_name: str
    title: str
    version: str
    effective: str
    owner: str
    sections: tuple[Section, ...]
    scanned: bool = False  # written as an image-only scan of itself
    company: str = COMPANY  # in every page's running header and the PDF's author


DATA_RETENTION = SampleDocument(
    file_name="data-retention-policy.pdf",
    title="Data Retention Policy",
    version="3.2",
    effective="1 March 2024",
    owner="Data Protection Officer",
    sections=(
        Section(
            "1. Purpose",
            (
                "This policy sets out how long Northwind Analytics keeps the information it "
                "collects, and how that information is destroyed when it is no longer needed. "
                "Keeping data longer than necessary increases the impact of a breach and breaks "
                "the storage limitation principle of the GDPR. Keeping it for too short a time "
                "can leave us unable to meet legal, contractual or audit obligations.",
                "The policy applies the principle that every record has an owner, a documented "
                "retention period and a disposal method. Where this policy and a customer "
                "contract disagree, the stricter of the two applies.",
            ),
        ),
        Section(
            "2. Scope",
            (
                "This policy covers all personal and business data processed by Northwind "
                "Analytics, in any format, including production databases, backups, log "
                "archives, e-mail, shared drives and paper records. It applies to all "
                "employees, contractors and third-party processors acting on our behalf.",
                "Data held by customers in their own tenants is governed by the customer's "
                "instructions under the data processing agreement, and is out of scope except "
                "where Northwind Analytics keeps copies for operational purposes.",
            ),
        ),
        Section(
            "3. Roles and responsibilities",
            (
                "The Data Protection Officer (DPO) owns this policy, approves exceptions and "
                "reports compliance to the executive team every quarter. The Head of IT "
                "Operations is responsible for implementing automated deletion in all "
                "production systems and backup tooling.",
                "Each system owner must keep an up-to-date entry in the record of processing "
                "activities, stating the categories of data held, the retention period and the "
                "disposal method. Line managers make sure their teams complete the annual data "
                "handling training within 30 days of its release.",
            ),
        ),
        Section(
            "4. Retention periods",
            (
                "The following retention periods apply unless a legal hold is in place. "
                "Periods run from the end of the customer relationship or from the date the "
                "record was created, whichever is stated.",
            ),
            (
                "Customer account data is kept for the duration of the contract and deleted "
                "within 90 days after the contract ends.",
                "Backups of customer data are kept for 35 days and then deleted.",
                "Application and security logs are retained for 13 months to support incident "
                "investigations.",
                "Invoices and accounting records are kept for 7 years to meet tax law.",
                "Support tickets are kept for 3 years after they are closed.",
                "Personal data of job applicants is deleted 6 months after the position is "
                "filled, unless the applicant agrees to a longer period.",
                "CCTV footage from the Leeds office is overwritten after 30 days.",
            ),
        ),
        Section(
            "5. Deletion and disposal",
            (
                "When a retention period ends, data must be deleted or irreversibly anonymised "
                "within 30 days. Automated deletion jobs run every night and report failures to "
                "the IT Operations on-call engineer. A failed deletion job must be fixed within "
                "5 business days.",
                "Paper records containing personal data are shredded on site using cross-cut "
                "shredders (security level P-4 or higher). Storage media leaving our control, "
                "including returned laptops and failed disks, are wiped to NIST 800-88 standard "
                "or physically destroyed by an approved supplier, who provides a certificate of "
                "destruction for every batch.",
                "Deleting data from backups happens by expiry: backup sets are encrypted with "
                "keys that are destroyed when the backup expires, so expired backups can no "
                "longer be read even if a copy survives on storage.",
            ),
        ),
        Section(
            "6. Legal hold",
            (
                "If litigation, a regulatory investigation or an audit is reasonably expected, "
                "the General Counsel may place a legal hold on relevant records. A legal hold "
                "suspends deletion for the records it names until the General Counsel lifts it "
                "in writing. System owners must confirm within 2 business days that deletion "
                "has been suspended.",
            ),
        ),
        Section(
            "7. Exceptions and review",
            (
                "Requests to keep data longer than this policy allows must be sent to the DPO "
                "with a business justification. Approved exceptions are valid for at most 12 "
                "months and are recorded in the exceptions register.",
                "This policy is reviewed every 12 months by the DPO, or earlier when the law "
                "or our services change. Breaches of this policy may lead to disciplinary "
                "action. Questions about this policy can be sent to privacy@northwind.example.",
            ),
        ),
    ),
)

INCIDENT_RESPONSE = SampleDocument(
    file_name="incident-response-plan.pdf",
    title="Incident Response Plan",
    version="2.0",
    effective="15 January 2024",
    owner="Chief Information Security Officer",
    sections=(
        Section(
            "1. Purpose and scope",
            (
                "This plan describes how Northwind Analytics detects, contains and recovers "
                "from information security incidents, and how we notify customers and "
                "regulators. It covers every system that stores or processes customer data, "
                "and every employee and contractor with access to those systems.",
            ),
        ),
        Section(
            "2. Severity levels",
            (
                "Every incident is given a severity when it is declared, and the severity may "
                "change as more is learned.",
            ),
            (
                "SEV1: confirmed breach of customer data, or a full outage of the production "
                "platform. The on-call engineer must acknowledge a SEV1 page within 15 minutes.",
                "SEV2: suspected breach, or degradation affecting more than 10% of customers. "
                "A SEV2 page must be acknowledged within 30 minutes.",
                "SEV3: a contained issue with no customer impact, handled in business hours "
                "within 2 business days.",
            ),
        ),
        Section(
            "3. Roles",
            (
                "The Incident Commander leads the response, decides on containment steps and "
                "owns the incident timeline. The on-call security engineer is the Incident "
                "Commander until the CISO or a deputy takes over.",
                "The Communications Lead drafts all customer and public statements; nobody "
                "else may speak to the press about an incident. The Data Protection Officer "
                "decides whether a personal data breach must be notified, and the General "
                "Counsel advises on contractual notification duties.",
            ),
        ),
        Section(
            "4. Response steps",
            (
                "The response follows five phases: detection, containment, eradication, "
                "recovery and review. Evidence such as logs, disk images and memory dumps must "
                "be preserved before systems are rebuilt. Credentials that may have been "
                "exposed are rotated within 4 hours of containment.",
                "Status updates are posted in the incident channel every 30 minutes for a SEV1 "
                "and every 2 hours for a SEV2 until the incident is resolved.",
            ),
        ),
        Section(
            "5. Notification deadlines",
            (
                "The DPO must be informed of any suspected personal data breach within 24 "
                "hours of its discovery. Where a breach is likely to result in a risk to "
                "people's rights and freedoms, the supervisory authority is notified within 72 "
                "hours, as required by Article 33 of the GDPR.",
                "Affected customers are notified without undue delay, and in any case within 48 "
                "hours of the breach being confirmed, unless their contract sets a shorter "
                "period.",
            ),
        ),
        Section(
            "6. After an incident",
            (
                "A blameless post-incident review is held within 5 business days of resolving "
                "every SEV1 and SEV2 incident. The review records the root cause, the timeline "
                "and the follow-up actions, each with an owner and a due date.",
                "This plan is tested with a tabletop exercise twice a year, and reviewed by "
                "the CISO at least once a year.",
            ),
        ),
    ),
)

ACCEPTABLE_USE = SampleDocument(
    file_name="acceptable-use-policy.pdf",
    title="Acceptable Use Policy",
    version="1.4",
    effective="1 September 2023",
    owner="Head of IT Operations",
    sections=(
        Section(
            "1. Purpose",
            (
                "This policy explains how employees and contractors may use Northwind "
                "Analytics devices, accounts and networks. It protects our customers' data, "
                "our people and the company from misuse, whether deliberate or accidental.",
            ),
        ),
        Section(
            "2. Accounts and passwords",
            (
                "Every person has their own account; sharing accounts or passwords is not "
                "allowed. Passwords must be at least 14 characters long and must not be reused "
                "across services. Multi-factor authentication is required for e-mail, source "
                "code hosting, the cloud console and the VPN.",
                "The company password manager must be used to store work credentials. A "
                "password that may have been exposed must be changed immediately and reported "
                "to the security team.",
            ),
        ),
        Section(
            "3. Devices",
            (
                "Company laptops use full-disk encryption and lock the screen after 5 minutes "
                "of inactivity. Security updates must be installed within 7 days of release. "
                "Removable USB storage is blocked on all company laptops.",
                "A lost or stolen device must be reported to the IT service desk within 1 hour "
                "of noticing the loss, so that it can be wiped remotely.",
            ),
        ),
        Section(
            "4. Acceptable and unacceptable use",
            (
                "Limited personal use of company devices is allowed, provided it does not "
                "interfere with work, break the law or put company data at risk.",
            ),
            (
                "Do not store customer data in personal cloud storage or unapproved SaaS tools.",
                "Do not install software from unknown sources or disable security tools.",
                "Do not use generative AI services with customer data unless the service is on "
                "the approved list.",
            ),
        ),
        Section(
            "5. Monitoring and enforcement",
            (
                "Company systems are monitored for security purposes, in line with the "
                "employee privacy notice. Violations of this policy may lead to the removal of "
                "access and to disciplinary action, up to and including dismissal.",
                "Every employee confirms they have read this policy when they join and every "
                "year after that.",
            ),
        ),
    ),
)

SUPPLIER_AGREEMENT = SampleDocument(
    file_name="supplier-agreement-signed-scan.pdf",
    title="Supplier Agreement: Managed Backup Services",
    version="1.0",
    effective="15 January 2024",
    owner="Head of Procurement",
    scanned=True,
    sections=(
        Section(
            "1. Services",
            (
                "Fabrikam Storage GmbH provides encrypted off-site backup storage for "
                "Northwind Analytics and restores any backup within 4 hours of a request.",
            ),
        ),
        Section(
            "2. Security incidents",
            (
                "The supplier must notify Northwind Analytics of any security incident affecting "
                "its data within 24 hours of becoming aware of it.",
            ),
        ),
        Section(
            "3. Term and termination",
            (
                "This agreement runs for 3 years. Either party may terminate it with 90 days' "
                "written notice. On termination the supplier deletes all Northwind data within "
                "30 days and confirms the deletion in writing.",
            ),
        ),
        Section(
            "4. Liability",
            (
                "The liability of each party is capped at the fees paid in the 12 months "
                "before the claim.",
                "Signed for both parties on 15 January 2024.",
            ),
        ),
    ),
)

DOCUMENTS = (DATA_RETENTION, INCIDENT_RESPONSE, ACCEPTABLE_USE, SUPPLIER_AGREEMENT)


def build(document: SampleDocument, target: Path) -> None:
    styles = getSampleStyleSheet()
    body = ParagraphStyle("body", parent=styles["BodyText"], fontSize=10.5, leading=14)
    bullet = ParagraphStyle("bullet", parent=body, leftIndent=16, bulletIndent=4)
    heading = ParagraphStyle("heading", parent=styles["Heading2"], spaceBefore=10)
    story: list[Flowable] = [
        Paragraph(document.title, styles["Title"]),
        Paragraph(
            f"Version {document.version}. Effective {document.effective}. Owner: {document.owner}.",
            body,
        ),
        Spacer(1, 6),
    ]
    for section in document.sections:
        story.append(Paragraph(section.heading, heading))
        story.extend(Paragraph(text, body) for text in section.paragraphs)
        story.extend(Paragraph(text, bullet, bulletText="•") for text in section.bullets)
    template = SimpleDocTemplate(
        str(target),
        pagesize=A4,
        leftMargin=22 * mm,
        rightMargin=22 * mm,
        topMargin=24 * mm,
        bottomMargin=22 * mm,
        title=document.title,
        author=document.company,
        invariant=1,
    )
    decorate = _page_decoration(document)
    template.build(story, onFirstPage=decorate, onLaterPages=decorate)
    if document.scanned:
        from certiq.evaluation.scans import scanned_copy

        target.write_bytes(scanned_copy(target.read_bytes(), skew_degrees=0.6, noise=8, seed=1))


def _page_decoration(document: SampleDocument) -> Callable[[Canvas, SimpleDocTemplate], None]:
    def decorate(canvas: Canvas, template: SimpleDocTemplate) -> None:
        width, height = A4
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(22 * mm, height - 14 * mm, f"{document.company} | {document.title}")
        canvas.drawRightString(width - 22 * mm, height - 14 * mm, "Internal")
        canvas.drawString(22 * mm, 12 * mm, f"Version {document.version}")
        canvas.drawRightString(width - 22 * mm, 12 * mm, f"Page {canvas.getPageNumber()}")
        canvas.restoreState()

    return decorate


def write_samples(folder: Path, documents: tuple[SampleDocument, ...] = DOCUMENTS) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for document in documents:
        target = folder / document.file_name
        build(document, target)
        written.append(target)
    return written


def ingest_samples(
    deps: Deps, folder: Path, documents: tuple[SampleDocument, ...] = DOCUMENTS
) -> None:
    """Writes the samples into ``folder`` and ingests each into ``deps`` (tenant "default"), as
    the benchmarks that ask the demo's documents (or another set) need them."""
    from certiq.ingestion.service import Upload, ingest

    for path in write_samples(folder, documents):
        upload = Upload(
            data=path.read_bytes(), file_name=path.name, uri=path.as_uri(), tenant="default"
        )
        ingest(upload, deps)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: make_sample_pdfs.py OUTPUT_DIR", file=sys.stderr)
        return 2
    for target in write_samples(Path(argv[1])):
        print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

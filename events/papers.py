"""Events of a payment's papers: the cash receipt (현금영수증), the tax-invoice request (세금계산서) and the PDF
documents (receipt, refund notes) given to the customer. One aggregate per merchantUid (docs/papers.md)."""

from __future__ import annotations

from datetime import datetime

from events.contract import StoredCreation, StoredEvent


class PapersOpened(StoredCreation):
    """The first paper of a payment was asked for (a cash receipt at checkout, a tax invoice, a document)."""

    TOPIC = "papers.Opened"
    merchant_uid: str


class CashReceiptRequested(StoredEvent):
    """At checkout the buyer asked for a cash receipt: ``kind`` is ``personal`` (income deduction, a phone number)
    or ``business`` (expense evidence, a business registration number). ``identifier`` is the number the gateway
    needs (digits only), kept only here; every view, log line and answer shows ``masked``."""

    TOPIC = "papers.CashReceiptRequested"
    kind: str
    identifier: str
    masked: str


class CashReceiptIssued(StoredEvent):
    """The gateway issued the cash receipt for ``amount`` (the payment's amount less what was refunded)."""

    TOPIC = "papers.CashReceiptIssued"
    receipt_tid: str
    amount: int
    applied_at: datetime
    receipt_url: str | None


class CashReceiptCancelled(StoredEvent):
    """The gateway cancelled the issued cash receipt (a refund: a full one ends it, a partial one is followed by a
    receipt for the remainder)."""

    TOPIC = "papers.CashReceiptCancelled"
    receipt_tid: str
    amount: int
    cancelled_at: datetime
    reason: str


class TaxInvoiceRequested(StoredEvent):
    """A business buyer asked for a tax invoice; it waits in finance's queue (issuing it is finance's, outside)."""

    TOPIC = "papers.TaxInvoiceRequested"
    business_number: str
    company_name: str
    representative: str
    address: str
    email: str
    amount: int
    currency: str
    requested_at: datetime


class TaxInvoiceWithdrawn(StoredEvent):
    """The tax-invoice request no longer stands: the payment was refunded in full (``reason``), so there is no
    supply left to invoice; finance's queue shows it withdrawn."""

    TOPIC = "papers.TaxInvoiceWithdrawn"
    reason: str
    withdrawn_at: datetime


class DocumentIssued(StoredEvent):
    """A PDF document was first made for the customer: ``kind`` ``receipt`` or ``refund-note`` (``number`` the
    refund's, 1-based; 0 for the receipt), in ``language``. Making it again gives the same bytes, so the SHA-256
    recorded here proves any later copy."""

    TOPIC = "papers.DocumentIssued"
    kind: str
    number: int
    language: str
    sha256: str

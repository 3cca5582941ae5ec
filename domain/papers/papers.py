"""The papers of one payment: its cash receipt, its tax-invoice request and the documents made for it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.papers.numbers import CashReceiptChoice, CashReceiptKind
from events.papers import (
    CashReceiptCancelled,
    CashReceiptIssued,
    CashReceiptRequested,
    DocumentIssued,
    PapersOpened,
    TaxInvoiceRequested,
    TaxInvoiceWithdrawn,
)


@dataclass(frozen=True)
class IssuedCashReceipt:
    """A cash receipt the gateway holds as issued now."""

    receipt_tid: str
    amount: int
    applied_at: datetime
    receipt_url: str | None


class PaymentPapers(Aggregate):
    """Papers of one merchantUid (created with the first one asked for)."""

    @staticmethod
    def id_for(merchant_uid: str) -> UUID:
        """The aggregate id of a payment's papers."""
        return uuid5(NAMESPACE_URL, f"/papers/{merchant_uid}")

    @classmethod
    def open(cls, merchant_uid: str, at: datetime) -> PaymentPapers:
        """Start a payment's papers."""
        return cls._create(PapersOpened, id=cls.id_for(merchant_uid), timestamp=at, merchant_uid=merchant_uid)

    def request_cash_receipt(self, choice: CashReceiptChoice, at: datetime) -> None:
        """Record the buyer's cash-receipt choice (at checkout)."""
        self.trigger_event(
            CashReceiptRequested,
            timestamp=at,
            kind=choice.kind.value,
            identifier=choice.identifier,
            masked=choice.masked,
        )

    def note_cash_receipt_issued(self, issued: IssuedCashReceipt, at: datetime) -> None:
        """The gateway issued the cash receipt."""
        self.trigger_event(
            CashReceiptIssued,
            timestamp=at,
            receipt_tid=issued.receipt_tid,
            amount=issued.amount,
            applied_at=issued.applied_at,
            receipt_url=issued.receipt_url,
        )

    def note_cash_receipt_cancelled(self, reason: str, at: datetime) -> None:
        """The gateway cancelled the issued cash receipt."""
        assert self.cash_receipt is not None
        self.trigger_event(
            CashReceiptCancelled,
            timestamp=at,
            receipt_tid=self.cash_receipt.receipt_tid,
            amount=self.cash_receipt.amount,
            cancelled_at=at,
            reason=reason,
        )

    def request_tax_invoice(
        self,
        *,
        business_number: str,
        company_name: str,
        representative: str,
        address: str,
        email: str,
        amount: int,
        currency: str,
        at: datetime,
    ) -> None:
        """Record a business buyer's tax-invoice request."""
        self.trigger_event(
            TaxInvoiceRequested,
            timestamp=at,
            business_number=business_number,
            company_name=company_name,
            representative=representative,
            address=address,
            email=email,
            amount=amount,
            currency=currency,
            requested_at=at,
        )

    def withdraw_tax_invoice(self, reason: str, at: datetime) -> None:
        """The tax-invoice request no longer stands (the payment was refunded in full)."""
        self.trigger_event(TaxInvoiceWithdrawn, timestamp=at, reason=reason, withdrawn_at=at)

    @property
    def takes_cash_receipt(self) -> bool:
        """The buyer took a cash receipt for this payment (personal or business): its evidence of the supply."""
        return self.cash_receipt_choice is not None

    def note_document(self, kind: str, number: int, language: str, sha256: str, at: datetime) -> None:
        """Record the SHA-256 of a document made for the first time."""
        self.trigger_event(DocumentIssued, timestamp=at, kind=kind, number=number, language=language, sha256=sha256)

    def document_sha256(self, kind: str, number: int, language: str) -> str | None:
        """The recorded SHA-256 of a document, if it was ever made."""
        return self.documents.get((kind, number, language))

    @property
    def cash_receipt_masked(self) -> str | None:
        """The chosen number as it may be shown."""
        return self.cash_receipt_choice.masked if self.cash_receipt_choice else None

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: PapersOpened) -> None:
        self.merchant_uid = event.merchant_uid
        self.cash_receipt_choice: CashReceiptChoice | None = None
        self.cash_receipt: IssuedCashReceipt | None = None
        self.cash_receipts: list[dict[str, Any]] = []  # every one issued, with when it was cancelled
        self.tax_invoice: TaxInvoiceRequested | None = None
        self.tax_invoice_withdrawn_at: datetime | None = None
        self.documents: dict[tuple[str, int, str], str] = {}

    @when.register
    def _cash_receipt_requested(self, event: CashReceiptRequested) -> None:
        self.cash_receipt_choice = CashReceiptChoice(CashReceiptKind(event.kind), event.identifier)

    @when.register
    def _cash_receipt_issued(self, event: CashReceiptIssued) -> None:
        self.cash_receipt = IssuedCashReceipt(event.receipt_tid, event.amount, event.applied_at, event.receipt_url)
        self.cash_receipts.append(
            {"receipt_tid": event.receipt_tid, "amount": event.amount, "applied_at": event.applied_at,
             "cancelled_at": None}
        )  # fmt: skip

    @when.register
    def _cash_receipt_cancelled(self, event: CashReceiptCancelled) -> None:
        self.cash_receipt = None
        for issued in self.cash_receipts:
            if issued["receipt_tid"] == event.receipt_tid and issued["cancelled_at"] is None:
                issued["cancelled_at"] = event.cancelled_at

    @when.register
    def _tax_invoice_requested(self, event: TaxInvoiceRequested) -> None:
        self.tax_invoice = event

    @when.register
    def _tax_invoice_withdrawn(self, event: TaxInvoiceWithdrawn) -> None:
        self.tax_invoice_withdrawn_at = event.withdrawn_at

    @when.register
    def _document_issued(self, event: DocumentIssued) -> None:
        self.documents[(event.kind, event.number, event.language)] = event.sha256

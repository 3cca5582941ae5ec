"""Cash receipts (현금영수증) for bank transfers and virtual accounts: issued at the gateway once the money has
arrived, cancelled when it all went back, and issued again for the remainder after a partial refund.

``settle_cash_receipt`` brings the gateway's receipt in line with the payment (what was paid less what was
refunded); the reactor calls it after a payment settles and after each refund, and it is safe to repeat."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from eventsourcing.application import AggregateNotFoundError

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.papers.numbers import CashReceiptChoice
from domain.papers.papers import IssuedCashReceipt, PaymentPapers
from domain.payments.payment import Payment, PaymentState
from domain.payments.records import recorded_payment
from domain.store import Storefront
from events.concurrency import retry_on_conflict

log = logging.getLogger(__name__)

# The payment methods a cash receipt is issued for (a card payment's card slip is its evidence).
CASH_METHODS = ("bankTransfer", "virtualAccount")
CASH_PAY_METHODS = ("trans", "vbank")


class CashReceiptGateway(Protocol):
    """The gateway's cash-receipt calls (PortOne V1's ``/receipts/{imp_uid}``)."""

    def issue_cash_receipt(self, imp_uid: str, *, kind: str, identifier: str, buyer_email: str) -> IssuedCashReceipt:
        """Issue the receipt for what the payment still holds (a repeat answers the one issued)."""
        ...

    def cancel_cash_receipt(self, imp_uid: str) -> None:
        """Cancel the issued receipt (a repeat changes nothing)."""
        ...


def check_cash_receipt_choice(payment_method: str, currency: str) -> None:
    """A cash receipt is for a bank transfer or a virtual account in won (-2 otherwise)."""
    if payment_method not in CASH_METHODS or currency != "KRW":
        raise DomainError(ErrorCode.INVALID_VALUE, "a cash receipt is for bank transfers and virtual accounts in won")


def papers_of(store: Storefront, merchant_uid: str) -> PaymentPapers | None:
    """A payment's papers, if any were asked for."""
    try:
        papers: PaymentPapers = store.repository.get(PaymentPapers.id_for(merchant_uid))
    except AggregateNotFoundError:
        return None
    return papers


def papers_with_cash_receipt(merchant_uid: str, choice: CashReceiptChoice, at: datetime) -> PaymentPapers:
    """New papers holding the buyer's cash-receipt choice (saved with the order)."""
    papers = PaymentPapers.open(merchant_uid, at)
    papers.request_cash_receipt(choice, at)
    return papers


def cash_receipt_due(payment: Payment) -> int:
    """What the cash receipt should be for now: what was paid and not refunded (0: none)."""
    if payment.state is not PaymentState.PAID or payment.pay_method not in CASH_PAY_METHODS:
        return 0
    return max(payment.amount - payment.cancel_amount, 0)


def settle_cash_receipt(store: Storefront, clock: Clock, gateway: CashReceiptGateway, *, merchant_uid: str) -> str:
    """Bring the gateway's cash receipt in line with the payment; returns what it did (``none``, ``issued``,
    ``cancelled``, ``reissued``, ``unchanged``)."""
    payment = recorded_payment(store, merchant_uid)
    papers = papers_of(store, merchant_uid)
    if payment is None or papers is None or papers.cash_receipt_choice is None or payment.imp_uid is None:
        return "none"
    due = cash_receipt_due(payment)
    did = []
    current = papers.cash_receipt
    if current is not None and current.amount != due:
        gateway.cancel_cash_receipt(payment.imp_uid)
        reason = "refunded in full" if due == 0 else "refunded in part: issued again for the remainder"
        _record(
            store, clock, merchant_uid,
            still=lambda p: p.cash_receipt is not None,
            change=lambda p, at: p.note_cash_receipt_cancelled(reason, at),
        )  # fmt: skip
        log.info("cash receipt of %s (%s) cancelled: %s", merchant_uid, papers.cash_receipt_masked, reason)
        did.append("cancelled")
        current = None
    if current is None and due > 0:
        choice = papers.cash_receipt_choice
        issued = gateway.issue_cash_receipt(
            payment.imp_uid, kind=choice.kind.value, identifier=choice.identifier, buyer_email=payment.buyer_email
        )
        _record(
            store, clock, merchant_uid,
            still=lambda p: p.cash_receipt is None,
            change=lambda p, at: p.note_cash_receipt_issued(issued, at),
        )  # fmt: skip
        log.info("cash receipt of %s (%s) issued for %s", merchant_uid, papers.cash_receipt_masked, issued.amount)
        did.append("issued")
    if did == ["cancelled", "issued"]:
        return "reissued"
    return did[0] if did else "unchanged"


def _record(
    store: Storefront,
    clock: Clock,
    merchant_uid: str,
    *,
    still: Callable[[PaymentPapers], bool],
    change: Callable[[PaymentPapers, datetime], None],
) -> None:
    """Record ``change`` on the papers while ``still`` holds (a racing task may have recorded it first)."""

    def attempt() -> None:
        papers = papers_of(store, merchant_uid)
        if papers is None or not still(papers):
            return
        change(papers, clock.now())
        store.save(papers)

    retry_on_conflict(attempt)

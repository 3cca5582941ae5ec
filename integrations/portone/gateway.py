"""The domain's PaymentGateway port, implemented with the PortOne V1 client."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from domain.papers.papers import IssuedCashReceipt
from domain.payments.cards import Card
from domain.payments.gateway import (
    BillingKeyNotFoundAtGatewayError,
    BillingKeyRefusedError,
    CancelRefusedError,
    GatewayPayment,
    GatewayStatus,
    GatewayUnreachableError,
    IssuedBillingKey,
    PaymentNotFoundAtGatewayError,
)
from integrations.portone.client import PortOneClient
from integrations.portone.errors import (
    BillingKeyNotFoundError,
    GatewayUnavailableError,
    PaymentNotFoundError,
    PortOneError,
)
from integrations.portone.models import CardDetails, Customer, Payment, Receipt

logger = logging.getLogger(__name__)


class CashReceiptRefusedError(Exception):
    """The gateway refused to issue or cancel a cash receipt (the task is tried again later)."""


class PortOneGateway:
    """Adapts PortOne's payments to the domain's view of them.

    A call the gateway does not answer raises GatewayUnreachableError. A charge is different: the
    gateway may have made it and lost the answer, so the charge is read back by its merchantUid first,
    and only a charge the gateway has no record of is reported unreachable (safe to try again).
    """

    def __init__(self, client: PortOneClient) -> None:
        self._client = client

    def prepare(self, merchant_uid: str, amount: int) -> None:
        with _reachable():
            self._client.prepare(merchant_uid, amount)

    def get_payment(self, imp_uid: str) -> GatewayPayment:
        try:
            with _reachable():
                return to_gateway_payment(self._client.get_payment(imp_uid))
        except PaymentNotFoundError as error:
            raise PaymentNotFoundAtGatewayError(imp_uid) from error

    def cancel(self, imp_uid: str, amount: int | None, checksum: int | None, reason: str) -> GatewayPayment:
        try:
            with _reachable():
                cancelled = self._client.cancel(imp_uid=imp_uid, amount=amount, checksum=checksum, reason=reason)
        except PaymentNotFoundError as missing:
            raise PaymentNotFoundAtGatewayError(imp_uid) from missing
        except GatewayUnreachableError:
            raise
        except PortOneError as refused:
            raise CancelRefusedError(refused.message or "refused") from None
        return to_gateway_payment(cancelled)

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        try:
            charged = self._client.charge_again(
                customer_uid=customer_uid, merchant_uid=merchant_uid, amount=amount, name=name
            )
        except GatewayUnavailableError as lost:
            logger.warning("portone: charge %s went unanswered (%s); reading it back", merchant_uid, lost.message)
            return self._charge_made(merchant_uid, lost)
        except PortOneError as refused:
            # A gateway that refuses a repeated merchantUid (the real one does) still holds the first charge.
            try:
                return self._charge_made(merchant_uid, refused)
            except GatewayUnreachableError:
                raise refused from None
        return to_gateway_payment(charged)

    def _charge_made(self, merchant_uid: str, lost: PortOneError) -> GatewayPayment:
        """The charge the gateway made for ``merchant_uid``, or GatewayUnreachableError if it made none."""
        try:
            with _reachable():
                return to_gateway_payment(self._client.find_payment(merchant_uid))
        except PaymentNotFoundError:
            raise GatewayUnreachableError(f"{merchant_uid}: no answer and no charge made ({lost.message})") from None

    def issue_billing_key(self, customer_uid: str, card: Card, pg: str) -> IssuedBillingKey:
        details = CardDetails(
            number=card.dashed_number, expiry=card.expiry, birth=card.birth, pwd_2digit=card.password_2digit
        )
        try:
            with _reachable():
                customer = self._client.issue_billing_key(customer_uid, details, pg=pg)
        except GatewayUnreachableError:
            raise
        except PortOneError as refused:
            raise BillingKeyRefusedError(refused.message or "refused") from None
        return to_issued_billing_key(customer, pg)

    def billing_key(self, customer_uid: str) -> IssuedBillingKey:
        try:
            with _reachable():
                customer = self._client.get_billing_key(customer_uid)
        except BillingKeyNotFoundError as missing:
            raise BillingKeyNotFoundAtGatewayError(customer_uid) from missing
        return to_issued_billing_key(customer, "")

    def payments_between(self, since: datetime, until: datetime) -> list[GatewayPayment]:
        """Every payment the gateway received in ``[since, until)``, newest first (for reconciliation)."""
        with _reachable():
            return [to_gateway_payment(payment) for payment in self._client.list_payments(since, until)]

    def find(self, merchant_uid: str) -> GatewayPayment | None:
        """The gateway's newest payment for a merchantUid, or None when it has none."""
        try:
            with _reachable():
                return to_gateway_payment(self._client.find_payment(merchant_uid))
        except PaymentNotFoundError:
            return None

    def issue_cash_receipt(self, imp_uid: str, *, kind: str, identifier: str, buyer_email: str) -> IssuedCashReceipt:
        """Issue a payment's cash receipt; one the gateway already holds (a repeat whose first answer was lost) is
        answered as issued."""
        identifier_type, receipt_type = ("business", "company") if kind == "business" else ("phone", "person")
        try:
            with _reachable():
                receipt = self._client.issue_receipt(
                    imp_uid, identifier=identifier, identifier_type=identifier_type, type=receipt_type,
                    buyer_email=buyer_email,
                )  # fmt: skip
        except PortOneError as refused:
            live = self._live_receipt(imp_uid)
            if live is None:
                raise CashReceiptRefusedError(refused.message or "refused") from None
            receipt = live
        return IssuedCashReceipt(
            receipt.receipt_tid or "", receipt.amount, receipt.applied_at or datetime.now(UTC), receipt.receipt_url
        )

    def cancel_cash_receipt(self, imp_uid: str) -> None:
        """Cancel a payment's cash receipt; one already cancelled (or never issued) is left as it is."""
        try:
            with _reachable():
                self._client.cancel_receipt(imp_uid)
        except PortOneError as refused:
            if self._live_receipt(imp_uid) is not None:
                raise CashReceiptRefusedError(refused.message or "refused") from None

    def cash_receipt(self, imp_uid: str) -> Receipt | None:
        """The cash receipt the gateway holds for a payment (cancelled or not), or None."""
        try:
            with _reachable():
                return self._client.get_receipt(imp_uid)
        except PaymentNotFoundError:
            return None

    def _live_receipt(self, imp_uid: str) -> Receipt | None:
        receipt = self.cash_receipt(imp_uid)
        return receipt if receipt is not None and receipt.cancelled_at is None else None

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()


@contextmanager
def _reachable() -> Iterator[None]:
    """The client's 'no answer' as the domain's GatewayUnreachableError (the message names no card)."""
    try:
        yield
    except GatewayUnavailableError as unanswered:
        raise GatewayUnreachableError(unanswered.message or "the gateway did not answer") from None


def to_issued_billing_key(customer: Customer, requested_pg: str) -> IssuedBillingKey:
    """A billing key as the domain keeps it: the card's name and mask, never the card."""
    return IssuedBillingKey(
        customer.customer_uid, customer.pg_provider or requested_pg, customer.card_name, customer.card_number
    )


def to_gateway_payment(payment: Payment) -> GatewayPayment:
    """The fields the domain uses, with PortOne's status mapped onto ours."""
    return GatewayPayment(
        imp_uid=payment.imp_uid,
        merchant_uid=payment.merchant_uid,
        status=GatewayStatus(payment.status.value),
        amount=payment.amount,
        currency=payment.currency,
        cancel_amount=payment.cancel_amount,
        pay_method=payment.pay_method or "",
        pg_provider=payment.pg_provider or "",
        paid_at=payment.paid_at,
        failed_at=payment.failed_at,
        fail_reason=payment.fail_reason,
        receipt_url=payment.receipt_url,
        card_name=payment.card_name,
        card_number=payment.card_number,
        bank_name=payment.bank_name,
        vbank_code=payment.vbank_code,
        vbank_name=payment.vbank_name,
        vbank_num=payment.vbank_num,
        vbank_holder=payment.vbank_holder,
        vbank_date=payment.vbank_date,
        vbank_issued_at=payment.vbank_issued_at,
        customer_uid=payment.customer_uid,
    )

"""The domain's PaymentGateway port, implemented with the PortOne V1 client."""

from __future__ import annotations

from datetime import datetime

from domain.payments.cards import Card
from domain.payments.gateway import (
    BillingKeyNotFoundAtGatewayError,
    BillingKeyRefusedError,
    GatewayPayment,
    GatewayStatus,
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
from integrations.portone.models import CardDetails, Customer, Payment


class PortOneGateway:
    """Adapts PortOne's payments to the domain's view of them."""

    def __init__(self, client: PortOneClient) -> None:
        self._client = client

    def prepare(self, merchant_uid: str, amount: int) -> None:
        self._client.prepare(merchant_uid, amount)

    def get_payment(self, imp_uid: str) -> GatewayPayment:
        try:
            return to_gateway_payment(self._client.get_payment(imp_uid))
        except PaymentNotFoundError as error:
            raise PaymentNotFoundAtGatewayError(imp_uid) from error

    def cancel(self, imp_uid: str, amount: int | None, checksum: int | None, reason: str) -> GatewayPayment:
        return to_gateway_payment(self._client.cancel(imp_uid=imp_uid, amount=amount, checksum=checksum, reason=reason))

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        return to_gateway_payment(
            self._client.charge_again(customer_uid=customer_uid, merchant_uid=merchant_uid, amount=amount, name=name)
        )

    def issue_billing_key(self, customer_uid: str, card: Card, pg: str) -> IssuedBillingKey:
        details = CardDetails(
            number=card.dashed_number, expiry=card.expiry, birth=card.birth, pwd_2digit=card.password_2digit
        )
        try:
            customer = self._client.issue_billing_key(customer_uid, details, pg=pg)
        except PortOneError as refused:
            if isinstance(refused, GatewayUnavailableError):
                raise
            raise BillingKeyRefusedError(refused.message or "refused") from None
        return to_issued_billing_key(customer, pg)

    def billing_key(self, customer_uid: str) -> IssuedBillingKey:
        try:
            customer = self._client.get_billing_key(customer_uid)
        except BillingKeyNotFoundError as missing:
            raise BillingKeyNotFoundAtGatewayError(customer_uid) from missing
        return to_issued_billing_key(customer, "")

    def payments_between(self, since: datetime, until: datetime) -> list[GatewayPayment]:
        """Every payment the gateway received in ``[since, until)``, newest first (for reconciliation)."""
        return [to_gateway_payment(payment) for payment in self._client.list_payments(since, until)]

    def find(self, merchant_uid: str) -> GatewayPayment | None:
        """The gateway's newest payment for a merchantUid, or None when it has none."""
        try:
            return to_gateway_payment(self._client.find_payment(merchant_uid))
        except PaymentNotFoundError:
            return None

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()


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

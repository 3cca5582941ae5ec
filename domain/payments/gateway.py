"""The payment gateway port (PortOne V1 in production, its sandbox locally)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Protocol

from domain.payments.cards import Card


class GatewayStatus(Enum):
    """Where the gateway says a payment stands."""

    READY = "ready"
    PAID = "paid"
    CANCELLED = "cancelled"
    FAILED = "failed"


@dataclass(frozen=True)
class GatewayPayment:
    """What the gateway reports about one payment (never the card itself, only its mask)."""

    imp_uid: str
    merchant_uid: str
    status: GatewayStatus
    amount: int
    currency: str
    cancel_amount: int = 0
    pay_method: str = ""
    pg_provider: str = ""
    paid_at: datetime | None = None
    failed_at: datetime | None = None
    fail_reason: str | None = None
    receipt_url: str | None = None
    card_name: str | None = None
    card_number: str | None = None
    bank_name: str | None = None
    vbank_code: str | None = None
    vbank_name: str | None = None
    vbank_num: str | None = None
    vbank_holder: str | None = None
    vbank_date: datetime | None = None
    vbank_issued_at: datetime | None = None
    customer_uid: str | None = None  # the billing key a recurring charge was made on


class PaymentNotFoundAtGatewayError(Exception):
    """The gateway has no payment with that id."""


class GatewayUnreachableError(Exception):
    """The gateway did not answer (a timeout, a 5xx): what it did is unknown until the payment is read
    back. Callers answer 503 (-1002) or retry later with the same merchantUid, which never charges twice."""


class CancelRefusedError(Exception):
    """The gateway answered a cancel with a refusal (a checksum that differs from its balance, a payment it can no
    longer cancel...): nothing was given back by that call."""


class PaymentGateway(Protocol):
    """The calls the purchase flow makes to the gateway."""

    def prepare(self, merchant_uid: str, amount: int) -> None:
        """Register the expected amount, so a tampered amount is refused at the gateway too."""
        ...

    def get_payment(self, imp_uid: str) -> GatewayPayment:
        """Re-read a payment (the only source of truth about money)."""
        ...

    def find(self, merchant_uid: str) -> GatewayPayment | None:
        """The gateway's newest payment for an order id, or None when it has none (a charge never made)."""
        ...

    def cancel(self, imp_uid: str, amount: int | None, checksum: int | None, reason: str) -> GatewayPayment:
        """Cancel all (amount None) or part of a payment; ``checksum`` is the refundable balance (raises
        CancelRefusedError when the gateway refuses, GatewayUnreachableError when it does not answer)."""
        ...

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        """Charge a billing key; a repeated merchantUid returns the first charge instead of charging again."""
        ...

    def issue_billing_key(self, customer_uid: str, card: Card, pg: str) -> IssuedBillingKey:
        """Register a card under ``customer_uid`` (raises BillingKeyRefusedError)."""
        ...

    def billing_key(self, customer_uid: str) -> IssuedBillingKey:
        """The billing key a PG window issued under ``customer_uid`` (raises BillingKeyNotFoundAtGatewayError)."""
        ...


@dataclass(frozen=True)
class IssuedBillingKey:
    """A billing key the gateway issued: only the card's name and mask come back."""

    customer_uid: str
    pg: str
    card_name: str | None
    card_number: str | None


class BillingKeyRefusedError(Exception):
    """The card company or the gateway refused to issue a billing key."""


class BillingKeyNotFoundAtGatewayError(Exception):
    """The gateway holds no billing key under that customer_uid (the PG window never issued one)."""

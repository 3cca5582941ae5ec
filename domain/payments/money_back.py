"""The 30-day money-back guarantee: which payments a customer may ask back, and whether it is refunded at once.

The policy, as docs/money-back.md states it for customers:

- It covers the first purchase of a licence: a one-off purchase (``new``) or the first charge of a subscription
  (``subscription``), asked within 30 days (to the second, by the injected clock) of the payment.
- It does not cover renewals (every charge after a subscription's first), re-subscriptions, upgrades, or licences
  bought in Apple's App Store (Apple refunds those).
- Value that moved into an upgrade as its credit is no longer in the payment: only the rest can come back.
- Within policy and up to the auto-approve limit of the payment's currency the refund is made at once (the licence
  is revoked, its devices released, and the customer mailed); a larger one waits for support.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from domain.payments.payment import Payment, PaymentState

MONEY_BACK_WINDOW = timedelta(days=30)
FIRST_PURCHASES = frozenset({"new", "subscription"})


class Refusal(Enum):
    """Why a payment is outside the guarantee (the code the customer's page explains)."""

    NOT_PAID = "not-paid"  # never paid, or refunded in full already
    APP_STORE = "app-store"  # paid to Apple
    NOT_A_FIRST_PURCHASE = "not-a-first-purchase"  # a renewal, a re-subscription or an upgrade
    TOO_LATE = "too-late"  # more than 30 days ago
    NOTHING_LEFT = "nothing-left"  # all of it was spent on an upgrade or refunded


class Decision(Enum):
    """What happens to an eligible request."""

    REFUND_NOW = "refund-now"
    SUPPORT_QUEUE = "support-queue"


@dataclass(frozen=True)
class PaymentFacts:
    """What the rule reads of a payment (amounts in minor units of ``currency``)."""

    paid: bool
    purchase_type: str
    paid_at: datetime | None
    refundable: int
    currency: str
    app_store: bool


@dataclass(frozen=True)
class Eligibility:
    """The rule's answer: refused with a reason, or the amount that would come back and how."""

    refusal: Refusal | None
    amount: int
    decision: Decision | None
    deadline: datetime | None

    @property
    def eligible(self) -> bool:
        return self.refusal is None


def money_back(facts: PaymentFacts, now: datetime, auto_limits: Mapping[str, int]) -> Eligibility:
    """May the customer have this payment back now, and is it refunded at once or queued for support?"""
    deadline = facts.paid_at + MONEY_BACK_WINDOW if facts.paid_at is not None else None

    def refused(why: Refusal) -> Eligibility:
        return Eligibility(why, 0, None, deadline)

    if facts.app_store:
        return refused(Refusal.APP_STORE)
    if not facts.paid or facts.paid_at is None:
        return refused(Refusal.NOT_PAID)
    if facts.purchase_type not in FIRST_PURCHASES:
        return refused(Refusal.NOT_A_FIRST_PURCHASE)
    if deadline is None or now > deadline:
        return refused(Refusal.TOO_LATE)
    if facts.refundable <= 0:
        return refused(Refusal.NOTHING_LEFT)
    limit = auto_limits.get(facts.currency.upper())
    decision = Decision.REFUND_NOW if limit is not None and facts.refundable <= limit else Decision.SUPPORT_QUEUE
    return Eligibility(None, facts.refundable, decision, deadline)


def facts_of(payment: Payment) -> PaymentFacts:
    """What the rule reads of a recorded payment."""
    return PaymentFacts(
        paid=payment.state is PaymentState.PAID,
        purchase_type=payment.purchase_type,
        paid_at=payment.paid_at,
        refundable=payment.refundable,
        currency=payment.currency.value,
        app_store=payment.apple_transaction_id is not None,
    )

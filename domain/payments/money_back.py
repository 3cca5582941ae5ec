"""The 30-day money-back guarantee: which payments a customer may ask back, and whether it is refunded at once.

The policy, as docs/money-back.md states it for customers:

- It covers the first purchase of a licence: a one-off purchase (``new``) or the first charge of a subscription
  (``subscription``), asked within 30 days (to the second, by the injected clock) of the moment the store recorded
  the payment settled (by the same clock; the gateway's own ``paid_at`` is not compared with ours).
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
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import Payment, PaymentState
from domain.payments.purchase import refund_payment
from domain.payments.refund_requests import RefundRequest, RefundState
from domain.store import Storefront

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
        paid_at=payment.settled_at,
        refundable=payment.refundable,
        currency=payment.currency.value,
        app_store=payment.apple_transaction_id is not None,
    )


@dataclass(frozen=True)
class MoneyBackAnswer:
    """What became of a customer's request: refunded, waiting for support, or refused (with the policy's code)."""

    request_id: UUID
    state: str
    amount: int
    refused: str | None


MONEY_BACK_REASON = "30-day money-back guarantee"


def ask_money_back(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    merchant_uid: str,
    auto_limits: Mapping[str, int],
) -> MoneyBackAnswer:
    """A customer asks for their money back under the guarantee. Within policy and limit it is refunded at once
    (a full refund revokes the licence); within policy above the limit it waits for support; outside policy it is
    refused with the reason. Each outcome is recorded; asking again answers the first request's state."""
    try:
        payment: object = store.repository.get(Payment.id_for(merchant_uid))
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND) from None
    if not isinstance(payment, Payment) or payment.account_id != account_id:
        raise DomainError(ErrorCode.NOT_FOUND)
    request_id = RefundRequest.money_back_id(merchant_uid)
    try:
        earlier: object = store.repository.get(request_id)
    except AggregateNotFoundError:
        earlier = None
    if isinstance(earlier, RefundRequest):
        return _answer(earlier)
    now = clock.now()
    decided = money_back(facts_of(payment), now, auto_limits)

    def request() -> RefundRequest:
        return RefundRequest.ask(
            merchant_uid=merchant_uid,
            account_id=account_id,
            amount=decided.amount,
            currency=payment.currency.value,
            reason=MONEY_BACK_REASON,
            requested_by=None,
            at=now,
        )

    if decided.refusal is not None or decided.decision is Decision.SUPPORT_QUEUE:
        asked = request()
        if decided.refusal is not None:
            asked.refuse(None, decided.refusal.value, now)
        store.save(asked)
        return _answer(asked)

    made: list[RefundRequest] = []

    def recorded_with(current: Payment, refunded: int) -> list[Aggregate]:
        asked = request()
        asked.approve(None, MONEY_BACK_REASON, refunded, clock.now())
        made[:] = [asked]
        return [asked]

    refund_payment(
        store,
        clock,
        gateway,
        merchant_uid=merchant_uid,
        amount=decided.amount,
        reason=MONEY_BACK_REASON,
        recorded_with=recorded_with,
    )
    return _answer(made[0]) if made else _answer(store.repository.get(request_id))


def _answer(request: RefundRequest) -> MoneyBackAnswer:
    refused = request.decision_reason if request.state is RefundState.REFUSED else None
    amount = request.refunded if request.state is RefundState.REFUNDED else request.amount
    return MoneyBackAnswer(request.id, request.state.value, amount, refused)

"""The 30-day money-back guarantee: which licences a customer may ask back, and whether it is refunded at once.

The policy, as docs/money-back.md states it for customers:

- It covers a licence as it was bought: its first purchase (a one-off purchase, ``new``, or the first charge of a
  subscription, ``subscription``) and the upgrades paid for it, all given back together, asked within 30 days (to
  the second, by the injected clock) of the moment the store recorded the first purchase settled.
- It does not cover renewals (every charge after a subscription's first), licences bought in Apple's App Store
  (Apple refunds those), or value already given back.
- It is given once per customer and product: the customer is the mailbox (the account's address), so buying the same
  product again after a refund does not bring a second guarantee. Within the 7 days of the E-Commerce Act's
  withdrawal right (Article 17), a licence never activated on a device is given back all the same.
- Within policy and up to the auto-approve limit of the payment's currency the refund is made at once (the licence
  is revoked, its devices released, its subscription ended, and the customer mailed); a larger one waits for support.
- Where the answer can only be no, the licence page offers no button (``offer``); a request made anyway is refused
  with the code that says why (-340 to -344), and nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments import refunds
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import LicenceEffect, Payment, PaymentState, PendingRefund, RefundKind
from domain.payments.records import recorded_payment
from domain.payments.refund_requests import RefundRequest, RefundState
from domain.payments.refunds import RefundAsked, SubscriptionOf
from domain.store import Storefront
from events.payments import MoneyBackClaimed

MONEY_BACK_WINDOW = timedelta(days=30)
WITHDRAWAL_WINDOW = timedelta(days=7)  # E-Commerce Act, Article 17(1)
FIRST_PURCHASES = frozenset({"new", "subscription"})
MONEY_BACK_REASON = "30-day money-back guarantee"


class Refusal(Enum):
    """Why a licence is outside the guarantee (the code the customer's page explains)."""

    NOT_PAID = "not-paid"  # never paid, or refunded in full already
    APP_STORE = "app-store"  # paid to Apple
    NOT_A_FIRST_PURCHASE = "not-a-first-purchase"  # not bought here (a renewal's licence, a key, the open beta)
    TOO_LATE = "too-late"  # more than 30 days ago
    NOTHING_LEFT = "nothing-left"  # all of it was refunded already
    USED_BEFORE = "used-before"  # this customer was given the guarantee for this product before

    @property
    def code(self) -> ErrorCode:
        """The error code a refused request is answered with."""
        return {
            Refusal.NOT_PAID: ErrorCode.MONEY_BACK_NOTHING_LEFT,
            Refusal.APP_STORE: ErrorCode.MONEY_BACK_APP_STORE,
            Refusal.NOT_A_FIRST_PURCHASE: ErrorCode.MONEY_BACK_NOT_A_FIRST_PURCHASE,
            Refusal.TOO_LATE: ErrorCode.MONEY_BACK_TOO_LATE,
            Refusal.NOTHING_LEFT: ErrorCode.MONEY_BACK_NOTHING_LEFT,
            Refusal.USED_BEFORE: ErrorCode.MONEY_BACK_USED_BEFORE,
        }[self]


class Decision(Enum):
    """What happens to an eligible request."""

    REFUND_NOW = "refund-now"
    SUPPORT_QUEUE = "support-queue"


@dataclass(frozen=True)
class PaymentFacts:
    """What the rule reads of a licence's first payment (amounts in minor units of ``currency``)."""

    paid: bool
    purchase_type: str
    paid_at: datetime | None
    refundable: int
    currency: str
    app_store: bool


@dataclass(frozen=True)
class GuaranteeFacts:
    """What the rule reads of a licence as bought: its first payment, what all of its payments still hold
    (``refundable``), whether the customer had the guarantee for this product before, and whether the licence was
    ever activated on a device."""

    first: PaymentFacts
    refundable: int
    used_before: bool = False
    ever_used: bool = False


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


def money_back(facts: GuaranteeFacts, now: datetime, auto_limits: Mapping[str, int]) -> Eligibility:
    """May the customer have this licence's money back now, and is it refunded at once or queued for support?"""
    first = facts.first
    deadline = first.paid_at + MONEY_BACK_WINDOW if first.paid_at is not None else None

    def refused(why: Refusal) -> Eligibility:
        return Eligibility(why, 0, None, deadline)

    if first.app_store:
        return refused(Refusal.APP_STORE)
    if not first.paid or first.paid_at is None:
        return refused(Refusal.NOT_PAID)
    if first.purchase_type not in FIRST_PURCHASES:
        return refused(Refusal.NOT_A_FIRST_PURCHASE)
    if deadline is None or now > deadline:
        return refused(Refusal.TOO_LATE)
    if facts.refundable <= 0:
        return refused(Refusal.NOTHING_LEFT)
    withdrawal = now <= first.paid_at + WITHDRAWAL_WINDOW and not facts.ever_used
    if facts.used_before and not withdrawal:
        return refused(Refusal.USED_BEFORE)
    limit = auto_limits.get(first.currency.upper())
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
        app_store=payment.store is not None,
    )


class MoneyBackClaim(Aggregate):
    """That a customer (a mailbox) was given the guarantee for a product: one per address and product."""

    @staticmethod
    def id_for(mailbox: str, product_code: str) -> UUID:
        """The claim of one address for one product (the address itself is not kept)."""
        return uuid5(NAMESPACE_URL, f"/money-back/claims/{mailbox.strip().lower()}/{product_code}")

    @classmethod
    def claim(cls, *, mailbox: str, account_id: UUID, licence: UserLicence, at: datetime) -> MoneyBackClaim:
        """Record the guarantee given for ``licence`` (saving a second claim for the address and product conflicts)."""
        return cls._create(
            MoneyBackClaimed,
            id=cls.id_for(mailbox, licence.product_code),
            timestamp=at,
            account_id=account_id,
            user_licence_id=licence.id,
            product_code=licence.product_code,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _claimed(self, event: MoneyBackClaimed) -> None:
        self.user_licence_id = event.user_licence_id


@dataclass(frozen=True)
class Guarantee:
    """A licence under the rule: its holder's address, its payments as bought (first one first), and the facts."""

    licence: UserLicence
    mailbox: str
    payments: tuple[Payment, ...]
    claim: MoneyBackClaim | None
    facts: GuaranteeFacts

    @property
    def request_id(self) -> UUID:
        """The licence's one money-back request (asking again finds it)."""
        return RefundRequest.money_back_id(self.payments[0].merchant_uid)


def guarantee_of(store: Storefront, licence: UserLicence) -> Guarantee | None:
    """The licence as the rule sees it (None when it was not bought with a payment of ours)."""
    payments = [payment for uid in licence.bought_with if (payment := recorded_payment(store, uid)) is not None]
    if not payments:
        return None
    holder: Account = store.repository.get(licence.account_id)
    mailbox = str(holder.email)
    claim = _claim(store, mailbox, licence.product_code)
    used_before = claim is not None and claim.user_licence_id != licence.id
    # The licence goes back as it was bought: credit an upgrade spent comes back with the upgrade.
    refundable = sum(payment.returnable for payment in payments)
    facts = GuaranteeFacts(facts_of(payments[0]), refundable, used_before, licence.ever_used)
    return Guarantee(licence, mailbox, tuple(payments), claim, facts)


def _claim(store: Storefront, mailbox: str, product_code: str) -> MoneyBackClaim | None:
    try:
        claim: object = store.repository.get(MoneyBackClaim.id_for(mailbox, product_code))
    except AggregateNotFoundError:
        return None
    return claim if isinstance(claim, MoneyBackClaim) else None


@dataclass(frozen=True)
class MoneyBackOffer:
    """What the licence page offers: ``amount`` back until ``deadline``, to the first payment's card or account."""

    merchant_uid: str
    amount: int
    currency: str
    deadline: datetime
    pay_method: str | None
    card_name: str | None
    card_number: str | None
    at_once: bool


def offer(
    store: Storefront, licence: UserLicence, now: datetime, auto_limits: Mapping[str, int]
) -> MoneyBackOffer | None:
    """The money-back offer the licence page shows now (None where the answer can only be no, or a request was made
    already)."""
    if licence.state is not LicenceState.ACTIVE:
        return None
    guarantee = guarantee_of(store, licence)
    if guarantee is None or _earlier_request(store, guarantee.request_id) is not None:
        return None
    decided = money_back(guarantee.facts, now, auto_limits)
    if not decided.eligible or decided.deadline is None:
        return None
    first = guarantee.payments[0]
    return MoneyBackOffer(
        first.merchant_uid,
        decided.amount,
        first.currency.value,
        decided.deadline,
        first.pay_method,
        first.card_name,
        first.card_number,
        decided.decision is Decision.REFUND_NOW,
    )


@dataclass(frozen=True)
class MoneyBackAnswer:
    """What became of a customer's request: refunded, being refunded, waiting for support, or refused (with the
    policy's code)."""

    request_id: UUID
    state: str
    amount: int
    refused: str | None
    notification_id: int = 0


def _earlier_request(store: Storefront, request_id: UUID) -> RefundRequest | None:
    try:
        earlier: object = store.repository.get(request_id)
    except AggregateNotFoundError:
        return None
    return earlier if isinstance(earlier, RefundRequest) else None


def licence_paid_by(store: Storefront, merchant_uid: str) -> UserLicence:
    """The licence ``merchant_uid`` paid for (404 when there is none)."""
    payment = recorded_payment(store, merchant_uid)
    if payment is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    try:
        licence: object = store.repository.get(payment.licence_id_paid_for)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND) from None
    if not isinstance(licence, UserLicence):
        raise DomainError(ErrorCode.NOT_FOUND)
    return licence


def own_licence_paid_by(store: Storefront, account_id: UUID, merchant_uid: str) -> UserLicence:
    """The caller's licence that ``merchant_uid`` paid for (404 when there is none, or it is someone else's): the
    licence's holder decides, so a guest's purchase is its buyer's once the mailbox is theirs."""
    licence = licence_paid_by(store, merchant_uid)
    if licence.account_id != account_id:
        raise DomainError(ErrorCode.NOT_FOUND)
    return licence


def ask_money_back(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    merchant_uid: str,
    auto_limits: Mapping[str, int],
    subscription_of: SubscriptionOf | None = None,
) -> MoneyBackAnswer:
    """A customer asks for their money back on the licence ``merchant_uid`` paid for. Within policy and limit it is
    refunded at once (every payment it was bought with; the licence is revoked); within policy above the limit it
    waits for support; outside policy it is refused with the code that says why (nothing recorded). Asking again
    answers the first request's state."""
    licence = own_licence_paid_by(store, account_id, merchant_uid)
    guarantee = guarantee_of(store, licence)
    if guarantee is None:
        raise DomainError(ErrorCode.MONEY_BACK_NOT_A_FIRST_PURCHASE)
    earlier = _earlier_request(store, guarantee.request_id)
    if earlier is not None:
        return answer_of(store, earlier)
    now = clock.now()
    decided = money_back(guarantee.facts, now, auto_limits)
    if decided.refusal is not None:
        raise DomainError(decided.refusal.code, decided.refusal.value)
    first = guarantee.payments[0]

    def request() -> RefundRequest:
        return RefundRequest.ask(
            merchant_uid=first.merchant_uid,
            account_id=account_id,
            amount=decided.amount,
            currency=first.currency.value,
            reason=MONEY_BACK_REASON,
            requested_by=None,
            at=now,
            licence_effect=LicenceEffect.REVOKE,
        )

    if decided.decision is Decision.SUPPORT_QUEUE:
        asked = request()
        position = store.save(asked)[-1].notification.id
        return MoneyBackAnswer(asked.id, asked.state.value, asked.amount, None, position)

    def witnesses(reserved: list[tuple[Payment, PendingRefund]]) -> list[Aggregate]:
        asked = request()
        asked.accept(None, MONEY_BACK_REASON, sum(pending.amount for _, pending in reserved), now)
        return [asked, MoneyBackClaim.claim(mailbox=guarantee.mailbox, account_id=account_id, licence=licence, at=now)]

    give_back_licence(store, clock, gateway, guarantee, None, MONEY_BACK_REASON, witnesses, subscription_of)
    return answer_of(store, _earlier_request(store, guarantee.request_id) or request())


def give_back_licence(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    guarantee: Guarantee,
    actor_id: UUID | None,
    reason: str,
    witnesses: refunds.JointWitnesses,
    subscription_of: SubscriptionOf | None,
) -> list[refunds.RefundOutcome]:
    """Give back every payment a licence was bought with, reserved together (with ``witnesses``), then each asked
    of the gateway and recorded; the licence is revoked with them. What it was bought with is read again in each
    attempt to reserve: an upgrade settling meanwhile conflicts, and its payment is then given back too."""
    for payment in guarantee.payments:
        if payment.returnable > 0:
            refunds.record_refunds_made_elsewhere(store, clock, gateway, payment.merchant_uid, subscription_of)
    request_id = guarantee.request_id

    def asked() -> list[RefundAsked]:
        licence: UserLicence = store.repository.get(guarantee.licence.id)
        return [
            RefundAsked(uid, None, reason, RefundKind.MONEY_BACK, actor_id, request_id, LicenceEffect.REVOKE, True)
            for uid in _still_refundable(store, licence.bought_with)
        ]

    reserved = refunds.reserve_together(store, clock, asked, witnesses)
    return [
        refunds.call_and_record(store, clock, gateway, each.merchant_uid, pending, subscription_of)
        for each, pending in reserved
    ]


def _still_refundable(store: Storefront, merchant_uids: Sequence[str]) -> list[str]:
    fresh = [recorded_payment(store, uid) for uid in merchant_uids]
    return [p.merchant_uid for p in fresh if p is not None and p.returnable > 0]


def approve_queued(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    request: RefundRequest,
    *,
    actor_id: UUID,
    reason: str,
    witnesses: refunds.JointWitnesses,
    subscription_of: SubscriptionOf | None = None,
) -> list[refunds.RefundOutcome]:
    """Support approves a money-back request that waited (above the auto-approve limit): the licence's payments are
    given back together, as at once below it, and the guarantee counts as given."""
    licence = licence_paid_by(store, request.merchant_uid)
    guarantee = guarantee_of(store, licence)
    if guarantee is None:
        raise DomainError(ErrorCode.MONEY_BACK_NOT_A_FIRST_PURCHASE)
    now = clock.now()

    def with_claim(reserved: list[tuple[Payment, PendingRefund]]) -> list[Aggregate]:
        claimed: list[Aggregate] = []
        if guarantee.claim is None:
            claimed.append(
                MoneyBackClaim.claim(mailbox=guarantee.mailbox, account_id=licence.account_id, licence=licence, at=now)
            )
        return [*witnesses(reserved), *claimed]

    return give_back_licence(store, clock, gateway, guarantee, actor_id, reason, with_claim, subscription_of)


def answer_of(store: Storefront, request: RefundRequest) -> MoneyBackAnswer:
    """A request's state as the customer sees it (``refunding``: accepted, the gateway has not made it yet)."""
    refused = request.decision_reason if request.state is RefundState.REFUSED else None
    state = "refunding" if request.state is RefundState.ACCEPTED else request.state.value
    amount = request.refunded if request.state is RefundState.REFUNDED else request.amount
    return MoneyBackAnswer(request.id, state, amount, refused, store.max_notification_id())

"""The one way a subscription charges its billing key: the first period, a renewal, a dunning retry,
the subscriber paying a past-due period, a re-subscription, and an upgrade (to a bigger subscription plan,
or to a lifetime licence, which ends the subscription in the same transaction).

Each charge follows the same steps. The subscription decides the attempt (its merchantUid, key
and quote); the gateway is charged outside any transaction (a repeated merchantUid returns the
first charge instead of charging again); then, in one transaction, a payment record of the
attempt is saved with what the subscription records, and a paid period moves the licence's end
to the end of the subscription's paid period.

Several decided charges go the same way at once (``charge_decided``, the renewal pass's batches): the gateway
calls side by side, and the plain records saved in one transaction; one charge is a batch of one.

The payment record is the answer to a repeated or racing attempt: when a record of the attempt
exists, the attempt was settled already and its outcome is returned as it was. A charge the
subscription no longer wants by the time it is recorded (auto-renewal was stopped, or the licence
refunded, while the renewal was being charged) is given back at the gateway and recorded as refunded.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.accounts.account import Account
from domain.catalogue.versions import load_versions
from domain.clock import Clock
from domain.coupons import redemption as coupons
from domain.coupons.codes import CouponCode
from domain.coupons.group import UNLIMITED_USES
from domain.errors import DomainError, ErrorCode
from domain.licences.granting import new_licence
from domain.licences.licence import LicenceState, LicenceTerms, UserLicence
from domain.payments.gateway import GatewayPayment, PaymentGateway
from domain.payments.give_back import call_off, give_back_called_off
from domain.payments.payment import FirstCharge, LicenceEffect, Payment, PaymentState, RefundKind
from domain.payments.records import recorded_payment
from domain.payments.refunds import SETTLE_AFTER, call_and_record
from domain.pricing.quotes import DiscountKind
from domain.store import Storefront
from domain.subscriptions.subscription import (
    ChargeAttempt,
    ChargeKind,
    Subscription,
    SubscriptionStatus,
    order_id,
)
from events.concurrency import retry_on_conflict

log = logging.getLogger(__name__)

NO_LONGER_WANTED = "auto-renewal was stopped while the charge was made"
NO_CHARGE_MADE = "the gateway made no charge for this order"
LICENCE_REVOKED = "the licence was revoked while the charge was made"
CREDIT_REFUNDED = "the payment credited to the upgrade was refunded while the charge was made"

T = TypeVar("T")
R = TypeVar("R")

# Chooses the attempt to make from the subscription as loaded now (None: nothing to charge).
Decision = Callable[[Subscription, datetime], ChargeAttempt | None]


@dataclass(frozen=True)
class Charged:
    """What a charge did: the attempt made (None when nothing was due) and whether it paid."""

    subscription_id: UUID
    attempt: ChargeAttempt | None
    paid: bool
    status: SubscriptionStatus
    notification_id: int
    reason: str = ""

    @property
    def merchant_uid(self) -> str | None:
        """The order id of the attempt made, if any."""
        return self.attempt.merchant_uid if self.attempt else None


def load_subscription(store: Storefront, subscription_id: UUID, account_id: UUID | None = None) -> Subscription:
    """A subscription (404 when missing, or when ``account_id`` is given and it is someone else's)."""
    try:
        subscription: Subscription = store.repository.get(subscription_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND) from None
    if not isinstance(subscription, Subscription) or (account_id is not None and subscription.account_id != account_id):
        raise DomainError(ErrorCode.NOT_FOUND)
    return subscription


def charge_subscription(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    subscription_id: UUID,
    decide: Decision,
    account_id: UUID | None = None,
    loaded: tuple[Subscription, UserLicence] | None = None,
) -> Charged:
    """Make the charge ``decide`` picks and record it; safe to repeat and to race (see the module).

    ``loaded``: the subscription and its licence as the caller has just read them (not read again)."""
    if loaded is None:
        subscription = load_subscription(store, subscription_id, account_id)
        licence: UserLicence = store.repository.get(subscription.user_licence_id)
    else:
        subscription, licence = loaded
    if licence.state is not LicenceState.ACTIVE:  # a refunded licence renews no more
        if account_id is not None:
            raise DomainError(ErrorCode.LICENCE_REFUNDED, "the licence was refunded")
        return Charged(subscription.id, None, False, subscription.status, store.max_notification_id())
    now = clock.now()
    attempt = decide(subscription, now)
    if attempt is None:
        return Charged(subscription.id, None, False, subscription.status, store.max_notification_id())
    attempt = subscription.priced(attempt, load_versions(store), now)  # the renewal price rule
    (outcome,) = charge_decided(store, clock, gateway, [DecidedCharge(subscription, licence, attempt)])
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


@dataclass(frozen=True)
class DecidedCharge:
    """A charge a subscription decided, with the reads it was decided from (``subscriber``: its account, when
    the caller has read it too)."""

    subscription: Subscription
    licence: UserLicence
    attempt: ChargeAttempt
    subscriber: Account | None = None


# Runs a function over items, in any order of execution but answering in the items' order: ``map``, or a thread
# pool's ``map`` so that a batch's charges wait for the gateway side by side.
EachOf = Callable[[Callable[[T], R], Iterable[T]], Iterator[R]]


def charge_decided(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    decided: Sequence[DecidedCharge],
    *,
    each: EachOf[Any, Any] = map,
) -> list[Charged | Exception]:
    """Charge each decided attempt at the gateway (side by side when ``each`` is a thread pool's ``map``), then
    record them, answering in their order: one charge, or a batch of the renewal pass, the same way.

    A plain paid or declined charge (``plain_charge``) is recorded from the reads it was decided from, all of the
    plain ones in one transaction; anything else, and every plain one when that transaction conflicts (another
    writer got there first), is recorded alone from a fresh read (``record_charge``), which answers an attempt
    recorded meanwhile with what was recorded. A charge the gateway could not make answers its error, and nothing
    is recorded for it (a repeat charges it: the gateway answers a repeated merchantUid with its first charge)."""

    def charge(item: DecidedCharge) -> GatewayPayment | Exception:
        attempt = item.attempt
        try:
            return gateway.charge_billing_key(
                attempt.customer_uid, attempt.merchant_uid, attempt.amount, item.subscription.name
            )
        except Exception as error:
            return error

    outcomes: dict[int, Charged | Exception] = {}
    plain: list[tuple[int, GatewayPayment, Charged, list[Aggregate]]] = []
    for index, (item, made) in enumerate(zip(decided, list(each(charge, decided)), strict=True)):
        if isinstance(made, Exception):
            outcomes[index] = made
            continue
        planned = plain_charge(store, item.attempt, made, item.subscription, item.licence, item.subscriber, clock.now())
        if planned is None:
            outcomes[index] = _recorded_alone(store, clock, gateway, item, made)
        else:
            plain.append((index, made, *planned))
    if plain:
        try:
            position = store.save(*(aggregate for *_, aggregates in plain for aggregate in aggregates))[-1]
        except IntegrityError:
            if len(plain) > 1:
                log.info("a batch of %d charges conflicted; recording each alone", len(plain))
            for index, made, _charged, _aggregates in plain:
                outcomes[index] = _recorded_alone(store, clock, gateway, decided[index], made)
        else:
            for index, _made, charged, _aggregates in plain:
                outcomes[index] = replace(charged, notification_id=position.notification.id)
    return [outcomes[index] for index in range(len(decided))]


def _recorded_alone(
    store: Storefront, clock: Clock, gateway: PaymentGateway, item: DecidedCharge, charge: GatewayPayment
) -> Charged | Exception:
    try:
        return record_charge(store, clock, gateway, item.subscription, item.attempt, charge)
    except Exception as error:
        return error


def record_charge(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    subscription: Subscription,
    attempt: ChargeAttempt,
    charge: GatewayPayment,
) -> Charged:
    """Record a charge made for ``attempt`` of ``subscription`` from a fresh read of the attempt's record, the
    subscription, its licence and the subscriber (safe to repeat and to race, see the module)."""
    subscription_id = subscription.id

    def record() -> tuple[Charged, Payment | None]:
        # A payment record's first event, like every aggregate's, is written only once, so a save racing another
        # record of this attempt conflicts too, and the next attempt finds that record.
        # The attempt's record, the subscription, its licence and the subscriber, in one read (neither of the
        # subscription's two ids ever changes).
        payment_id = Payment.id_for(attempt.merchant_uid)
        ids = [payment_id, subscription_id, subscription.user_licence_id, subscription.account_id]
        found: dict[UUID, Any] = store.get_many(ids)
        earlier: Payment | None = found.get(payment_id)
        current = found[subscription_id]
        if earlier is not None:
            return _answer(current, attempt, earlier, store.max_notification_id()), None
        now = clock.now()
        licence: UserLicence = found[current.user_licence_id]
        upgrade = attempt.upgrade
        terms = upgrade.terms if upgrade is not None else licence.terms
        payment = _payment_record(
            store,
            attempt,
            current.account_id,
            terms,
            now,
            licence.id,
            subscriber=found.get(current.account_id),
            coupon_code=_retention_code(current, attempt),
        )
        credited: list[Payment] = []
        if upgrade is not None:
            payment.note_upgrade(
                user_licence_id=licence.id,
                from_terms=licence.terms,
                credit=upgrade.credit,
                credited_merchant_uid=upgrade.credited_merchant_uid,
                at=now,
            )
            credited.append(store.repository.get(Payment.id_for(upgrade.credited_merchant_uid)))
        if not current.is_current(attempt, now):
            return _unwanted(store, current, attempt, payment, charge, now, NO_LONGER_WANTED)
        if licence.state is not LicenceState.ACTIVE:  # refunded meanwhile: it renews no more
            return _unwanted(store, current, attempt, payment, charge, now, LICENCE_REVOKED)
        if upgrade is not None and credited[0].refundable < upgrade.credit:
            return _unwanted(store, current, attempt, payment, charge, now, CREDIT_REFUNDED)
        paid = current.record_charge(attempt, charge, now)
        if paid:
            payment.succeed(charge, now)
            if upgrade is not None:
                # A lifetime plan is bought for good: the licence stops being the subscription's.
                licence.upgrade(
                    terms=upgrade.terms,
                    merchant_uid=attempt.merchant_uid,
                    source="purchase" if current.replaced_by_lifetime else "subscription",
                    starts_at=now,
                    expires_at=current.paid_until,
                )
                credited[0].spend_credit(upgrade.credit, attempt.merchant_uid, now)
            else:
                licence.extend_to(current.paid_until, now)
        else:
            payment.fail(charge.imp_uid, _reason(charge), now)
            credited.clear()
        redeemed = _redeem_retention_coupon(store, attempt, payment, now) if paid else []
        position = store.save(current, licence, payment, *credited, *redeemed)[-1].notification.id
        return Charged(current.id, attempt, paid, current.status, position, "" if paid else _reason(charge)), None

    charged, to_give_back = retry_on_conflict(record)
    if to_give_back is not None:
        _refund_unwanted(store, clock, gateway, to_give_back, charged.reason)
    return charged


def plain_charge(
    store: Storefront,
    attempt: ChargeAttempt,
    charge: GatewayPayment,
    subscription: Subscription,
    licence: UserLicence,
    subscriber: Account | None,
    now: datetime,
) -> tuple[Charged, list[Aggregate]] | None:
    """A paid or declined charge of the subscription's current attempt on its active licence, decided from
    ``subscription`` and ``licence`` as read before the charge: what it changes (not saved yet), or None when
    the charge is anything else (no longer wanted, a refunded licence, an upgrade), which only a fresh read decides.

    ``subscriber``: the subscription's account when the caller has read it (else it is read here)."""
    if not subscription.is_current(attempt, now) or licence.state is not LicenceState.ACTIVE or attempt.upgrade:
        return None
    payment = _payment_record(
        store,
        attempt,
        subscription.account_id,
        licence.terms,
        now,
        licence.id,
        subscriber=subscriber,
        coupon_code=_retention_code(subscription, attempt),
    )
    paid = subscription.record_charge(attempt, charge, now)
    redeemed: list[Aggregate] = []
    if paid:
        payment.succeed(charge, now)
        licence.extend_to(subscription.paid_until, now)
        redeemed = _redeem_retention_coupon(store, attempt, payment, now)
    else:
        payment.fail(charge.imp_uid, _reason(charge), now)
    charged = Charged(subscription.id, attempt, paid, subscription.status, 0, "" if paid else _reason(charge))
    return charged, [subscription, licence, payment, *redeemed]


def _retention_code(subscription: Subscription, attempt: ChargeAttempt) -> str | None:
    """The retention coupon a period's charge carries (``Subscription.renewal_quote`` put its factor on the quote),
    so the payment names its code like any coupon payment."""
    if subscription.retention_coupon is None or attempt.upgrade is not None or attempt.kind is ChargeKind.FIRST:
        return None
    if not any(item.kind is DiscountKind.COUPON for item in attempt.quote.factors):
        return None
    return subscription.retention_coupon[0]


def _redeem_retention_coupon(
    store: Storefront, attempt: ChargeAttempt, payment: Payment, now: datetime
) -> list[Aggregate]:
    """The retention code's use, saved with the paid charge that used it (none when the charge carried none). The
    subscription decided the price when it issued the code, so the use is counted without asking again."""
    if not payment.coupon_code:
        return []
    issued: CouponCode = store.repository.get(CouponCode.id_for(payment.coupon_code))
    issued.redeem(
        merchant_uid=attempt.merchant_uid,
        buyer_email=payment.buyer_email,
        user_licence_id=payment.licence_id_paid_for,
        sub_issued_count=UNLIMITED_USES,
        at=now,
    )
    return [issued]


def first_subscription_id(store: Storefront, account_id: UUID, customer_uid: str, licence_id: int) -> UUID:
    """The subscription a first charge on one of an account's wallet keys starts, for one plan: the same one while
    its first charge is pending, so a customer's retry after a lost answer finds that charge instead of making
    another (and two racing requests share one order id); a new one once it was paid or refused."""
    for number in itertools.count(1):
        subscription_id = uuid5(
            NAMESPACE_URL, f"/subscriptions/first/{account_id}/{customer_uid}/{licence_id}/{number}"
        )
        earlier = recorded_payment(store, order_id(subscription_id, 1, 1))
        if earlier is None or earlier.state is PaymentState.ORDERED:
            return subscription_id
    raise AssertionError("unreachable")  # pragma: no cover


def start_subscription(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    attempt: ChargeAttempt,
    subscription_id: UUID,
    account_id: UUID,
    terms: LicenceTerms,
    card_name: str | None,
    card_number: str | None,
    opens_account: bool = False,
    also_save: Sequence[Aggregate] = (),
    coupon_code: str | None = None,
) -> tuple[Subscription, UserLicence, int]:
    """Charge the first period and start the subscription.

    The order is recorded first (its payment, with ``also_save``: a wallet, a guest's new account, which
    ``opens_account`` says the payment opened), then the gateway is asked, then the subscription, its new licence
    and the payment's outcome are saved in one transaction (``record_first_charge``). A charge whose answer is lost
    stays pending under its order id: repeating the call asks the gateway for the same order id, which answers its
    first charge instead of charging again, and the settling pass records it if nobody repeats it.

    -303 when refused, also for a first charge refused before under the same order id. With ``coupon_code`` (the
    attempt's quote carries its factor) the use is redeemed in the same transaction; a coupon refused by then (used
    up meanwhile...) gives the charge back and is raised."""
    earlier = recorded_payment(store, attempt.merchant_uid)
    if earlier is not None and earlier.state is PaymentState.FAILED:
        raise DomainError(ErrorCode.CHECK_CARD_HELD, "this billing key was refused: use another card")
    if earlier is not None and earlier.state is PaymentState.PAID and earlier.first_charge is not None:
        return _first_charge_outcome(store, earlier)
    if earlier is None:
        now = clock.now()
        user_licence_id = UserLicence.id_for_payment(attempt.merchant_uid)
        payment = _payment_record(store, attempt, account_id, terms, now, user_licence_id, also_save, coupon_code)
        if opens_account:
            payment.open_buyer_account(account_id, now)
        payment.note_first_charge(FirstCharge(subscription_id, attempt.customer_uid, card_name, card_number), now)
        store.save(payment, *also_save)
    else:
        attempt = _first_attempt(earlier)  # the order's own price, whatever a repeat was asked at
    charge = gateway.charge_billing_key(attempt.customer_uid, attempt.merchant_uid, attempt.amount, terms.name)
    return record_first_charge(store, clock, gateway, attempt.merchant_uid, charge)


def _first_attempt(payment: Payment) -> ChargeAttempt:
    """The first charge a pending order records, at its quote."""
    assert payment.first_charge is not None
    return Subscription.first_charge(
        payment.first_charge.subscription_id,
        payment.first_charge.customer_uid,
        payment.quote,
        payment.catalogue_version,
    )


def _first_charge_outcome(store: Storefront, payment: Payment) -> tuple[Subscription, UserLicence, int]:
    """The subscription a paid first charge started, and its licence."""
    assert payment.first_charge is not None
    subscription: Subscription = store.repository.get(payment.first_charge.subscription_id)
    licence: UserLicence = store.repository.get(subscription.user_licence_id)
    return subscription, licence, store.max_notification_id()


def record_first_charge(
    store: Storefront, clock: Clock, gateway: PaymentGateway, merchant_uid: str, charge: GatewayPayment
) -> tuple[Subscription, UserLicence, int]:
    """Record what the gateway did with a pending first charge: paid, the subscription and its licence start (with
    the coupon's use); refused, -303. A first charge recorded already answers what was recorded."""

    def attempt_record() -> tuple[Subscription, UserLicence, int] | DomainError:
        payment = recorded_payment(store, merchant_uid)
        if payment is None or payment.first_charge is None:
            raise DomainError(ErrorCode.NOT_FOUND, f"no first charge {merchant_uid}")
        if payment.state is PaymentState.PAID:
            return _first_charge_outcome(store, payment)
        if payment.state is not PaymentState.ORDERED:
            return DomainError(ErrorCode.CHECK_CARD_HELD, payment.fail_reason or "the first charge was refused")
        first = payment.first_charge
        attempt = _first_attempt(payment)
        now = clock.now()
        if not attempt.is_paid_by(charge):
            payment.fail(charge.imp_uid, _reason(charge), now)
            store.save(payment)
            return DomainError(ErrorCode.CHECK_CARD_HELD, _reason(charge))
        terms = payment.terms
        redemption = _redeem_first_period_coupon(store, clock, gateway, attempt, payment, charge, terms, now)
        payment.succeed(charge, now)
        account_id = payment.buyer_account_id
        subscription = Subscription.start(
            attempt=attempt,
            subscription_id=first.subscription_id,
            account_id=account_id,
            user_licence_id=payment.licence_id_paid_for,
            name=terms.name,
            life=terms.life,
            card_name=first.card_name or charge.card_name,
            card_number=first.card_number or charge.card_number,
            at=now,
        )
        licence, index = new_licence(
            account_id=account_id,
            terms=terms,
            merchant_uid=merchant_uid,
            source="subscription",
            at=now,
            user_licence_id=payment.licence_id_paid_for,
        )
        licence.extend_to(subscription.paid_until, now)
        position = store.save(payment, subscription, licence, index, *redemption)[-1].notification.id
        return subscription, licence, position

    outcome = retry_on_conflict(attempt_record)
    if isinstance(outcome, DomainError):
        raise outcome
    return outcome


def settle_pending_first_charge(
    store: Storefront, clock: Clock, gateway: PaymentGateway, merchant_uid: str
) -> PaymentState | None:
    """The settling pass for a first charge still pending (its caller got no answer, or died): the gateway's charge
    under its order id is recorded (paid: the subscription starts); when the gateway made none, the order is
    recorded failed, so the customer may try again. None when nothing was pending or it is too fresh to settle."""
    payment = recorded_payment(store, merchant_uid)
    if payment is None or payment.first_charge is None or payment.state is not PaymentState.ORDERED:
        return None
    if clock.now() - payment.ordered_at < SETTLE_AFTER:
        return None
    charge = gateway.find(merchant_uid)
    if charge is None:

        def give_up() -> None:
            current = recorded_payment(store, merchant_uid)
            if current is not None and current.state is PaymentState.ORDERED:
                current.fail(None, NO_CHARGE_MADE, clock.now())
                store.save(current)

        retry_on_conflict(give_up)
        return PaymentState.FAILED
    with contextlib.suppress(DomainError):  # refused (recorded failed), or its coupon refused (given back)
        record_first_charge(store, clock, gateway, merchant_uid, charge)
    current = recorded_payment(store, merchant_uid)
    return current.state if current is not None else None


def _redeem_first_period_coupon(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    attempt: ChargeAttempt,
    payment: Payment,
    charge: GatewayPayment,
    terms: LicenceTerms,
    now: datetime,
) -> list[Aggregate]:
    """The coupon use of a first charge (none without a code); refused now, the charge is recorded cancelled,
    given back at the gateway, and the refusal raised (nobody keeps a coupon price without its use)."""
    if not payment.coupon_code:
        return []
    try:
        return coupons.redeem(
            store,
            now,
            code=payment.coupon_code,
            merchant_uid=attempt.merchant_uid,
            buyer_email=payment.buyer_email,
            user_licence_id=payment.licence_id_paid_for,
            life=terms.life,
            buyer_country=attempt.quote.country_code,
            price_country=attempt.quote.country_code,
        )
    except DomainError as refused:
        call_off(payment, charge, f"coupon refused: {refused.detail}", refused.code, now)
        store.save(payment)
        give_back_called_off(store, clock, gateway, payment.merchant_uid, charge)
        raise


def _payment_record(
    store: Storefront,
    attempt: ChargeAttempt,
    account_id: UUID,
    terms: LicenceTerms,
    at: datetime,
    user_licence_id: UUID | None = None,
    saved_with: Sequence[Aggregate] = (),
    coupon_code: str | None = None,
    subscriber: Account | None = None,
) -> Payment:
    """The payment record of one charge attempt, at the attempt's quote, addressed to the subscriber (read unless
    ``subscriber`` or one of ``saved_with`` is that account)."""
    if subscriber is None:
        subscriber = next((item for item in saved_with if isinstance(item, Account) and item.id == account_id), None)
    if subscriber is None:
        subscriber = store.repository.get(account_id)
    return Payment.order(
        merchant_uid=attempt.merchant_uid,
        at=at,
        quote=attempt.quote,
        terms=terms,
        catalogue_version=attempt.catalogue_version,
        account_id=account_id,
        buyer_email=subscriber.email,
        purchase_type=attempt.kind.purchase_type,
        user_licence_id=user_licence_id,
        coupon_code=coupon_code,
        buyer_country=attempt.quote.country_code if coupon_code else None,
    )


def _answer(subscription: Subscription, attempt: ChargeAttempt, record: Payment, position: int) -> Charged:
    """A repeated attempt answers what the first one recorded."""
    paid = record.state is PaymentState.PAID
    return Charged(subscription.id, attempt, paid, subscription.status, position, "" if paid else record.fail_reason)


def _unwanted(
    store: Storefront,
    subscription: Subscription,
    attempt: ChargeAttempt,
    payment: Payment,
    charge: GatewayPayment,
    now: datetime,
    why: str,
) -> tuple[Charged, Payment | None]:
    """The subscription stopped wanting this charge while it was made (``why``): record it; paid money is reserved
    for its refund in the same transaction, and given back once it is saved."""
    if attempt.is_paid_by(charge):
        payment.succeed(charge, now)
        payment.reserve_refund(
            payment.refundable, reason=why, kind=RefundKind.UNWANTED_CHARGE, at=now, licence_effect=LicenceEffect.KEEP
        )
        position = store.save(payment)[-1].notification.id
        return Charged(subscription.id, attempt, False, subscription.status, position, why), payment
    payment.fail(charge.imp_uid, _reason(charge), now)
    position = store.save(payment)[-1].notification.id
    return Charged(subscription.id, attempt, False, subscription.status, position, _reason(charge)), None


def _refund_unwanted(store: Storefront, clock: Clock, gateway: PaymentGateway, payment: Payment, why: str) -> None:
    """Give back a charge nobody wants any more, in full (its refund was reserved when it was recorded; the licence
    was never extended by it). A refusal or no answer leaves it to the settling pass."""
    if payment.pending_refund is None:
        return
    try:
        call_and_record(store, clock, gateway, payment.merchant_uid, payment.pending_refund)
    except DomainError as refused:
        log.warning("the unwanted charge %s was not given back: %s", payment.merchant_uid, refused.detail)


def _reason(charge: GatewayPayment) -> str:
    return charge.fail_reason or f"gateway status {charge.status.value}"

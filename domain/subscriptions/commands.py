"""Use cases a subscriber starts: subscribe, stop or resume auto-renewal, re-subscribe, pay a past-due
period now, change the card. Every charge goes through ``charging``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account, normalise_email
from domain.accounts.guests import guest_buyer
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.coupons import redemption as coupons
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action
from domain.licences.licence import LicenceTerms, UserLicence
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import Payment
from domain.payments.wallet import BillingKey, Wallet, issued_in_window, wallet_of
from domain.pricing.quotes import quote_licence
from domain.store import Storefront
from domain.subscriptions.charging import (
    Decision,
    charge_subscription,
    first_subscription_id,
    load_subscription,
    start_subscription,
)
from domain.subscriptions.subscription import Subscription, order_id
from events.concurrency import retry_on_conflict
from events.values import Language


@dataclass(frozen=True)
class Subscribed:
    """A subscription and the licence it keeps alive."""

    subscription_id: UUID
    user_licence_id: UUID
    licence_key: str
    account_id: UUID
    notification_id: int
    account_created: bool = False


@dataclass(frozen=True)
class _Subscriber:
    account_id: UUID
    new_aggregates: list[Aggregate] = field(default_factory=list)


@dataclass(frozen=True)
class _Plan:
    terms: LicenceTerms
    country_code: str
    licence_id: int


def subscribe(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    catalogue: Catalogue,
    *,
    account_id: UUID,
    licence_id: int,
    country_code: str,
    language: Language,
    key: BillingKey,
    coupon_code: str | None = None,
) -> Subscribed:
    """Charge the first period to one of the account's billing keys and start the subscription (-303 refused).
    A ``coupon_code`` discounts the first period only (checked as for a purchase: -601 to -605, -613)."""
    plan = _plan(catalogue, licence_id, country_code, language)
    # The same subscription while a first charge on this key for this plan is pending: a retry after a lost answer
    # (or a racing request) asks the gateway for the same order id, which never charges twice.
    subscription_id = first_subscription_id(store, account_id, key.customer_uid, licence_id)
    # Retried on a write conflict (a coupon's last use taken meanwhile): the charge repeats safely, since
    # the gateway answers one merchantUid with its first payment, and the coupon is checked again.
    return retry_on_conflict(
        lambda: _start(
            store,
            clock,
            gateway,
            catalogue,
            plan=plan,
            subscriber=_Subscriber(account_id),
            key=key,
            subscription_id=subscription_id,
            coupon_code=coupon_code,
        )
    )


def subscribe_with_window_key(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    catalogue: Catalogue,
    *,
    account_id: UUID | None,
    email: str | None,
    customer_uid: str,
    licence_id: int,
    country_code: str,
    language: Language,
    coupon_code: str | None = None,
) -> Subscribed:
    """Start a subscription with the billing key a PG window just issued; guests give their email.

    The key joins the subscriber's wallet in the same transaction. A guest's address gets a
    passwordless account (as a guest purchase does); an address with a registered account answers
    -402, since only its holder may add a card to it. One window starts one subscription: the same
    customerUid again answers what the first return answered.
    """
    subscription_id = Subscription.id_for_window_key(customer_uid)
    plan = _plan(catalogue, licence_id, country_code, language)
    key = issued_in_window(gateway, customer_uid=customer_uid, account_id=account_id)

    def attempt() -> Subscribed:
        # Retried on a write conflict (a racing return of the same window, a wallet changed meanwhile):
        # the charge repeats safely, since the gateway answers one merchantUid with its first payment.
        settled = _started_by_window(store, subscription_id, account_id, email)
        if settled is not None:
            return settled
        now = clock.now()
        subscriber = _window_subscriber(store, account_id, email, language, now)
        wallet = wallet_of(store, subscriber.account_id) or Wallet.open(subscriber.account_id, now)
        kept = wallet.add(key, now)
        return _start(
            store,
            clock,
            gateway,
            catalogue,
            plan=plan,
            subscriber=subscriber,
            key=kept,
            subscription_id=subscription_id,
            also_save=[wallet],
            coupon_code=coupon_code,
        )

    return retry_on_conflict(attempt)


def _window_subscriber(
    store: Storefront, account_id: UUID | None, email: str | None, language: Language, now: datetime
) -> _Subscriber:
    """The caller, or the guest's passwordless account (-402 for the address of a registered account)."""
    if account_id is not None:
        return _Subscriber(account_id)
    if not email or not email.strip():
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a guest subscription needs an email")
    buyer = guest_buyer(store, normalise_email(email), language, now)
    if buyer.is_member:
        raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED, "log in to subscribe with this address")
    return _Subscriber(buyer.account_id, buyer.new_aggregates)


def _plan(catalogue: Catalogue, licence_id: int, country_code: str, language: Language) -> _Plan:
    licence = catalogue.get(licence_id)
    if licence is None or not licence.is_subscription:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not a subscription")
    return _Plan(LicenceTerms.of(licence, licence.localization_for(language).name), country_code, licence_id)


def _start(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    catalogue: Catalogue,
    *,
    plan: _Plan,
    subscriber: _Subscriber,
    key: BillingKey,
    subscription_id: UUID,
    also_save: list[Aggregate] | None = None,
    coupon_code: str | None = None,
) -> Subscribed:
    licence = catalogue.get(plan.licence_id)
    assert licence is not None  # checked by _plan
    quote, code = quote_licence(licence, plan.country_code), None
    if coupon_code is not None and coupon_code.strip():
        coupon, quote = coupons.price_order(
            store,
            clock.now(),
            coupon_code,
            licence,
            plan.country_code,
            buyer_email=_email_of(store, subscriber),
            user_licence_id=UserLicence.id_for_payment(order_id(subscription_id, 1, 1)),
        )
        code = coupon.code
    attempt = Subscription.first_charge(subscription_id, key.customer_uid, quote, catalogue.version)
    subscription, user_licence, position = start_subscription(
        store,
        clock,
        gateway,
        attempt=attempt,
        subscription_id=subscription_id,
        account_id=subscriber.account_id,
        terms=plan.terms,
        card_name=key.card_name,
        card_number=key.card_number,
        opens_account=bool(subscriber.new_aggregates),
        also_save=[*(also_save or []), *subscriber.new_aggregates],
        coupon_code=code,
    )
    # A racing request may have recorded the order first: the subscription's account, and whether its first payment
    # opened one, are what was recorded (this request's guest account was never saved then).
    first: Payment = store.repository.get(Payment.id_for(subscription.first_merchant_uid))
    return Subscribed(
        subscription.id,
        user_licence.id,
        user_licence.licence_key,
        subscription.account_id,
        position,
        account_created=first.opened_buyer_account,
    )


def _email_of(store: Storefront, subscriber: _Subscriber) -> str:
    """The subscriber's address (a guest's new account is not saved yet)."""
    new = next((item for item in subscriber.new_aggregates if isinstance(item, Account)), None)
    account: Account = new if new is not None else store.repository.get(subscriber.account_id)
    return str(account.email)


def _started_by_window(
    store: Storefront, subscription_id: UUID, account_id: UUID | None, email: str | None
) -> Subscribed | None:
    """The subscription this window already started, when it is the same subscriber's (-308 otherwise)."""
    try:
        subscription: Subscription = store.repository.get(subscription_id)
    except AggregateNotFoundError:
        return None
    owner: Account = store.repository.get(subscription.account_id)
    same = (
        subscription.account_id == account_id
        if account_id is not None
        else bool(email) and owner.email == normalise_email(email or "")
    )
    if not same:
        raise DomainError(ErrorCode.BILLING_KEY_ALREADY_REGISTERED, "this billing key already started a subscription")
    licence: UserLicence = store.repository.get(subscription.user_licence_id)
    first: Payment = store.repository.get(Payment.id_for(subscription.first_merchant_uid))
    return Subscribed(
        subscription.id,
        licence.id,
        licence.licence_key,
        subscription.account_id,
        store.max_notification_id(),
        account_created=first.opened_buyer_account,
    )


# Aggregates to save with a subscription's change, in the same transaction (a staff member's record of acting
# for the customer): given the subscription as changed and when.
Witness = Callable[[Subscription, datetime], Sequence[Aggregate]]


def cancel_auto_renewal(
    store: Storefront,
    clock: Clock,
    *,
    account_id: UUID | None,
    subscription_id: UUID,
    recorded_with: Witness | None = None,
    reasons: list[str] | None = None,
    comment: str = "",
    offer_declined: bool = False,
) -> int:
    """Stop renewing; the licence runs to the end of the paid period (past due: it ends now).
    Returns the log position. (``account_id`` None: anyone's, for staff acting on the customer's behalf.)
    ``reasons``, ``comment``, ``offer_declined``: the subscriber's answers (``domain.subscriptions.exit``)."""

    def attempt() -> int:
        subscription = load_subscription(store, subscription_id, account_id)
        now = clock.now()
        subscription.cancel_auto_renewal(now, reasons=reasons, comment=comment, offer_declined=offer_declined)
        extra = recorded_with(subscription, now) if recorded_with else ()
        return store.save(subscription, *extra)[-1].notification.id

    return retry_on_conflict(attempt)


def resume_or_resubscribe(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    subscription_id: UUID,
    key: BillingKey | None = None,
) -> int:
    """Turn renewals back on with the previous card or ``key``, whatever state the subscription is in;
    returns the log position.

    Within a cancelled subscription's paid period: resume (nothing is charged; the card changes to
    ``key``). After it, or once it ended: re-subscribe (a new period is charged now). Past due: pay
    the due period now. Already renewing: -306.
    """
    allowed = _allowed(store, load_subscription(store, subscription_id, account_id), clock.now())
    if Action.RESUME in allowed:
        return _resume(store, clock, account_id, subscription_id, key)
    if Action.PAY_NOW in allowed:
        return pay_now(store, clock, gateway, account_id=account_id, subscription_id=subscription_id, key=key)
    if Action.RESUBSCRIBE in allowed:
        return resubscribe(store, clock, gateway, account_id=account_id, subscription_id=subscription_id, key=key)
    raise DomainError(ErrorCode.AUTO_PAYMENT_ALREADY_SET, "auto-renewal is already on")


def _allowed(store: Storefront, subscription: Subscription, now: datetime) -> set[Action]:
    licence: UserLicence = store.repository.get(subscription.user_licence_id)
    return subscription.allowed_actions(now, licence.state.value)


def resume_renewal(
    store: Storefront, clock: Clock, *, subscription_id: UUID, recorded_with: Witness | None = None
) -> int:
    """Turn a cancelled subscription's renewals back on within its paid period, charging nothing (what staff may
    do for a customer; past due or ended needs a charge, which only the customer starts): -306 otherwise."""
    subscription = load_subscription(store, subscription_id)
    if Action.RESUME not in _allowed(store, subscription, clock.now()):
        raise DomainError(ErrorCode.AUTO_RENEWAL_NOT_OFF, "only a cancelled subscription within its paid period")
    return _resume(store, clock, None, subscription_id, None, recorded_with)


def _resume(
    store: Storefront,
    clock: Clock,
    account_id: UUID | None,
    subscription_id: UUID,
    key: BillingKey | None,
    recorded_with: Witness | None = None,
) -> int:
    def attempt() -> int:
        subscription = load_subscription(store, subscription_id, account_id)
        now = clock.now()
        subscription.resume(now)
        if key is not None:
            subscription.change_payment_method(key.customer_uid, key.card_name, key.card_number, now)
        extra = recorded_with(subscription, now) if recorded_with else ()
        return store.save(subscription, *extra)[-1].notification.id

    return retry_on_conflict(attempt)


def resubscribe(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    subscription_id: UUID,
    key: BillingKey | None = None,
) -> int:
    """Start an ended subscription again: charge a new period now (previous card unless ``key``); -303 refused."""
    return _charged_by_subscriber(
        store,
        clock,
        gateway,
        account_id,
        subscription_id,
        lambda subscription, now: subscription.resubscription_charge(now, key),
    )


def pay_now(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    subscription_id: UUID,
    key: BillingKey | None = None,
) -> int:
    """Pay the past-due period now, with the current card or ``key`` (which becomes the card when it pays).

    A paid period extends the licence once and ends dunning; a refused card (-303) changes nothing
    and leaves the dunning schedule as it was.
    """
    return _charged_by_subscriber(
        store, clock, gateway, account_id, subscription_id, lambda subscription, _now: subscription.pay_now_charge(key)
    )


def _charged_by_subscriber(
    store: Storefront, clock: Clock, gateway: PaymentGateway, account_id: UUID, subscription_id: UUID, decide: Decision
) -> int:
    """A charge the subscriber asked for: the log position when it paid, -303 when the card was refused."""
    charged = charge_subscription(
        store, clock, gateway, subscription_id=subscription_id, account_id=account_id, decide=decide
    )
    if not charged.paid:
        raise DomainError(ErrorCode.CHECK_CARD_HELD, charged.reason)
    return charged.notification_id


def change_payment_method(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    subscription_id: UUID,
    key: BillingKey,
) -> int:
    """Charge ``key`` from the next renewal on; past due, it pays the due period now (as an open invoice is
    paid after a card update), and stays the card only if it paid (-303 otherwise)."""
    subscription = load_subscription(store, subscription_id, account_id)
    if Action.PAY_NOW in _allowed(store, subscription, clock.now()):
        return pay_now(store, clock, gateway, account_id=account_id, subscription_id=subscription_id, key=key)

    def attempt() -> int:
        current = load_subscription(store, subscription_id, account_id)
        current.change_payment_method(key.customer_uid, key.card_name, key.card_number, clock.now())
        recordings = store.save(current)
        return recordings[-1].notification.id if recordings else store.max_notification_id()

    return retry_on_conflict(attempt)

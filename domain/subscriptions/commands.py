"""Use cases a subscriber starts: subscribe, cancel or resume auto-renewal, re-subscribe, change the card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account, normalise_email
from domain.accounts.guests import guest_buyer
from domain.catalogue.licences import Catalogue, Price, PurchasableLicence
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.keys import new_licence_key
from domain.licences.licence import LicenceKeyIndex, LicenceTerms, UserLicence
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import Payment, PaymentState
from domain.payments.wallet import BillingKey, Wallet, issued_in_window, wallet_of
from domain.store import Storefront
from domain.subscriptions.records import charge_record, paid_in_full
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
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
) -> Subscribed:
    """Charge the first period to one of the account's billing keys and start the subscription (-303 refused)."""
    account: Account = store.repository.get(account_id)
    plan = _plan(catalogue, licence_id, country_code, language)
    return _start(store, clock, gateway, plan, _Subscriber(account_id, account.email), key, uuid4())


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
) -> Subscribed:
    """Start a subscription with the billing key a PG window just issued; guests give their email.

    The key joins the subscriber's wallet in the same transaction. A guest's address gets a
    passwordless account (as a guest purchase does); an address with a registered account answers
    -402, since only its holder may add a card to it. One window starts one subscription: the same
    customerUid again returns the subscription it started.
    """
    subscription_id = Subscription.id_for_window_key(customer_uid)
    plan = _plan(catalogue, licence_id, country_code, language)
    earlier = _started_by_window(store, subscription_id, account_id, email)
    if earlier is not None:
        return earlier
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
        return _start(store, clock, gateway, plan, subscriber, kept, subscription_id, also_save=[wallet])

    return retry_on_conflict(attempt)


def _window_subscriber(
    store: Storefront, account_id: UUID | None, email: str | None, language: Language, now: datetime
) -> _Subscriber:
    """The caller, or the guest's passwordless account (-402 for the address of a registered account)."""
    if account_id is not None:
        account: Account = store.repository.get(account_id)
        return _Subscriber(account_id, account.email)
    if not email or not email.strip():
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a guest subscription needs an email")
    address = normalise_email(email)
    buyer = guest_buyer(store, address, language, now)
    if buyer.has_password:
        raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED, "log in to subscribe with this address")
    return _Subscriber(buyer.account_id, address, buyer.new_aggregates)


@dataclass(frozen=True)
class _Plan:
    licence: PurchasableLicence
    price: Price
    name: str
    catalogue_version: int

    @property
    def amount(self) -> int:
        """What each period is charged (the catalogue's discounts applied)."""
        return self.licence.charged_amount(self.price)


@dataclass(frozen=True)
class _Subscriber:
    account_id: UUID
    email: str
    new_aggregates: list[Aggregate] = field(default_factory=list)


def _plan(catalogue: Catalogue, licence_id: int, country_code: str, language: Language) -> _Plan:
    licence = catalogue.get(licence_id)
    if licence is None or not licence.is_subscription:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not a subscription")
    price = licence.price_for(country_code)
    name = licence.localization_for(language).name
    return _Plan(licence, price, name, catalogue.version)


def _start(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    plan: _Plan,
    subscriber: _Subscriber,
    key: BillingKey,
    subscription_id: UUID,
    also_save: Sequence[Aggregate] = (),
) -> Subscribed:
    """Charge the first period, then save the subscription, its licence and payment in one transaction."""
    merchant_uid = Subscription.charge_order_id(subscription_id, 1, 1)
    _check_not_refused_before(store, merchant_uid)
    licence = plan.licence
    charge = gateway.charge_billing_key(key.customer_uid, merchant_uid, plan.amount, plan.name)
    now = clock.now()
    payment = Payment.order_licence(
        merchant_uid=merchant_uid,
        at=now,
        licence=licence,
        price=plan.price,
        catalogue_version=plan.catalogue_version,
        name=plan.name,
        account_id=subscriber.account_id,
        buyer_email=subscriber.email,
        purchase_type="subscription",
    )
    joined = [*also_save, *subscriber.new_aggregates]
    if not paid_in_full(charge, plan.amount):
        payment.fail(charge.imp_uid, charge.fail_reason or "not paid", now)
        store.save(payment, *joined)
        raise DomainError(ErrorCode.CHECK_CARD_HELD, charge.fail_reason or "")
    payment.succeed(charge, now)
    subscription = Subscription.start(
        account_id=subscriber.account_id,
        user_licence_id=UserLicence.id_for_payment(merchant_uid),
        licence_id=licence.id,
        name=plan.name,
        life=licence.life,
        amount=plan.amount,
        currency=plan.price.currency,
        customer_uid=key.customer_uid,
        card_name=key.card_name or charge.card_name,
        card_number=key.card_number or charge.card_number,
        first_merchant_uid=merchant_uid,
        at=now,
        subscription_id=subscription_id,
    )
    licence_key = new_licence_key()
    user_licence = UserLicence.grant(
        account_id=subscriber.account_id,
        terms=LicenceTerms(licence.id, licence.product_code, licence.life, licence.max_devices_count, plan.name),
        licence_key=licence_key,
        merchant_uid=merchant_uid,
        source="subscription",
        at=now,
        user_licence_id=subscription.user_licence_id,
    )
    user_licence.extend_to(subscription.paid_until, now)
    index = LicenceKeyIndex.claim(licence_key=licence_key, user_licence_id=user_licence.id, at=now)
    recordings = store.save(payment, subscription, user_licence, index, *joined)
    return Subscribed(
        subscription.id,
        user_licence.id,
        licence_key,
        subscriber.account_id,
        recordings[-1].notification.id,
        account_created=bool(subscriber.new_aggregates),
    )


def _check_not_refused_before(store: Storefront, merchant_uid: str) -> None:
    """A first charge the gateway already refused is not tried again under the same order id."""
    try:
        earlier: Payment = store.repository.get(Payment.id_for(merchant_uid))
    except AggregateNotFoundError:
        return
    if earlier.state is PaymentState.FAILED:
        raise DomainError(ErrorCode.CHECK_CARD_HELD, "this billing key was refused: use another card")


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
    return Subscribed(
        subscription.id, licence.id, licence.licence_key, subscription.account_id, store.max_notification_id()
    )


def _own_subscription(store: Storefront, account_id: UUID, subscription_id: UUID) -> Subscription:
    try:
        subscription: Subscription = store.repository.get(subscription_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND) from None
    if not isinstance(subscription, Subscription) or subscription.account_id != account_id:
        raise DomainError(ErrorCode.NOT_FOUND)
    return subscription


def cancel_auto_renewal(store: Storefront, clock: Clock, *, account_id: UUID, subscription_id: UUID) -> int:
    """Stop renewing; the licence runs to the end of the paid period. Returns the log position."""

    def attempt() -> int:
        subscription = _own_subscription(store, account_id, subscription_id)
        subscription.cancel_auto_renewal(clock.now())
        return store.save(subscription)[-1].notification.id

    return retry_on_conflict(attempt)


def resume_auto_renewal(store: Storefront, clock: Clock, *, account_id: UUID, subscription_id: UUID) -> int:
    """Renew again with the same card, within the paid period."""

    def attempt() -> int:
        subscription = _own_subscription(store, account_id, subscription_id)
        subscription.resume(clock.now())
        return store.save(subscription)[-1].notification.id

    return retry_on_conflict(attempt)


def change_payment_method(
    store: Storefront,
    clock: Clock,
    *,
    account_id: UUID,
    subscription_id: UUID,
    customer_uid: str,
    card_name: str | None = None,
    card_number: str | None = None,
) -> int:
    """Charge another billing key from the next renewal on."""

    def attempt() -> int:
        subscription = _own_subscription(store, account_id, subscription_id)
        subscription.change_payment_method(customer_uid, card_name, card_number, clock.now())
        return store.save(subscription)[-1].notification.id

    return retry_on_conflict(attempt)


def resubscribe(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    subscription_id: UUID,
    customer_uid: str | None = None,
) -> int:
    """Start an ended subscription again: charge a new period now (previous card unless another is given)."""
    subscription = _own_subscription(store, account_id, subscription_id)
    if subscription.status is not SubscriptionStatus.ENDED:
        raise DomainError(ErrorCode.AUTO_PAYMENT_ALREADY_SET, "the subscription has not ended")
    merchant_uid = subscription.resubscribe_merchant_uid()
    card = customer_uid or subscription.customer_uid
    charge = gateway.charge_billing_key(card, merchant_uid, subscription.amount, subscription.name)

    def attempt() -> int:
        current = _own_subscription(store, account_id, subscription_id)
        if current.resubscribe_merchant_uid() != merchant_uid:
            raise DomainError(ErrorCode.AUTO_PAYMENT_ALREADY_SET, "another request settled this re-subscription")
        licence: UserLicence = store.repository.get(current.user_licence_id)
        now = clock.now()
        payment = charge_record(current, licence, merchant_uid, "resubscribe", now)
        if not paid_in_full(charge, current.amount):
            reason = charge.fail_reason or "not paid"
            payment.fail(charge.imp_uid, reason, now)
            current.record_resubscribe_failure(merchant_uid, reason, now)
            store.save(current, payment)
            raise DomainError(ErrorCode.CHECK_CARD_HELD, reason)
        payment.succeed(charge, now)
        current.resubscribe(merchant_uid=merchant_uid, imp_uid=charge.imp_uid, customer_uid=card, at=now)
        licence.extend_to(current.paid_until, now)
        return store.save(current, licence, payment)[-1].notification.id

    return retry_on_conflict(attempt)

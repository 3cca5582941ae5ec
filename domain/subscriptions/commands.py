"""Use cases a subscriber starts: subscribe, cancel or resume auto-renewal, re-subscribe, change the card."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.keys import new_licence_key
from domain.licences.licence import LicenceKeyIndex, LicenceTerms, UserLicence
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import Payment
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
    notification_id: int


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
    customer_uid: str,
    card_name: str | None = None,
    card_number: str | None = None,
) -> Subscribed:
    """Charge the first period to a billing key and start the subscription with its licence (-303 refused)."""
    licence = catalogue.get(licence_id)
    if licence is None or not licence.is_subscription:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not a subscription")
    account: Account = store.repository.get(account_id)
    price = licence.price_for(country_code)
    amount = licence.charged_amount(price)
    name = licence.localization_for(language).name
    subscription_id = uuid4()
    merchant_uid = f"sub-{subscription_id.hex[:16]}-1-1"
    charge = gateway.charge_billing_key(customer_uid, merchant_uid, amount, name)
    now = clock.now()
    payment = Payment.order(
        merchant_uid=merchant_uid,
        at=now,
        licence_id=licence.id,
        catalogue_version=catalogue.version,
        product_code=licence.product_code,
        life=licence.life,
        max_devices_count=licence.max_devices_count,
        name=name,
        original_amount=price.price,
        amount=amount,
        currency=price.currency,
        country_code=price.country_code,
        account_id=account_id,
        buyer_email=account.email,
        purchase_type="subscription",
    )
    if not paid_in_full(charge, amount):
        payment.fail(charge.imp_uid, charge.fail_reason or "not paid", now)
        store.save(payment)
        raise DomainError(ErrorCode.CHECK_CARD_HELD, charge.fail_reason or "")
    payment.succeed(charge, now)
    subscription = Subscription.start(
        account_id=account_id,
        user_licence_id=UserLicence.id_for_payment(merchant_uid),
        licence_id=licence.id,
        name=name,
        life=licence.life,
        amount=amount,
        currency=price.currency,
        customer_uid=customer_uid,
        card_name=card_name or charge.card_name,
        card_number=card_number or charge.card_number,
        first_merchant_uid=merchant_uid,
        at=now,
        subscription_id=subscription_id,
    )
    key = new_licence_key()
    user_licence = UserLicence.grant(
        account_id=account_id,
        terms=LicenceTerms(licence.id, licence.product_code, licence.life, licence.max_devices_count, name),
        licence_key=key,
        merchant_uid=merchant_uid,
        source="subscription",
        at=now,
        user_licence_id=subscription.user_licence_id,
    )
    user_licence.extend_to(subscription.paid_until, now)
    index = LicenceKeyIndex.claim(licence_key=key, user_licence_id=user_licence.id, at=now)
    recordings = store.save(payment, subscription, user_licence, index)
    return Subscribed(subscription.id, user_licence.id, key, recordings[-1].notification.id)


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

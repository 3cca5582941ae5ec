"""Upgrading a subscription: the new plan starts now, its first period is charged through the one charging
path less the unused value of the current period, and renewals follow the new plan's cycle. A lifetime plan
is charged the same way, once, with the subscription's key: the licence becomes that lifetime plan and the
subscription ends in the same transaction, so no renewal charges after it.

The charge's order id is ``sub-<id>-<next period>-u<n>`` (n counts upgrade attempts refused in this
period), so two tabs upgrading at once share one order id: the gateway charges once, and the attempt
recorded second answers what the first recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, LicenceTerms, UserLicence
from domain.licences.upgrades import PaidPeriod, UpgradeOffer, chosen_offer, offers
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import Payment, PaymentState
from domain.payments.wallet import BillingKey
from domain.store import Storefront
from domain.subscriptions.charging import (
    CREDIT_REFUNDED,
    LICENCE_REVOKED,
    NO_LONGER_WANTED,
    Charged,
    charge_subscription,
    load_subscription,
)
from domain.subscriptions.subscription import ChargeAttempt, Subscription, SubscriptionStatus, UpgradeTarget
from events.values import Language


@dataclass(frozen=True)
class SubscriptionUpgradeChoice:
    """A subscription, its licence, the period it runs in and the plans it may move to now."""

    subscription: Subscription
    licence: UserLicence
    period: PaidPeriod
    offers: list[UpgradeOffer]


def subscription_period(store: Storefront, subscription: Subscription) -> PaidPeriod | None:
    """The period a renewing subscription runs in now and what its payment still holds."""
    if subscription.status is not SubscriptionStatus.ACTIVE:
        return None
    payment: Payment = store.repository.get(Payment.id_for(subscription.period_merchant_uid))
    if payment.state is not PaymentState.PAID:
        return None
    return PaidPeriod(
        payment.merchant_uid,
        payment.refundable,
        payment.currency,
        payment.country_code,
        subscription.period_start,
        subscription.paid_until,
    )


def subscription_upgrade_choice(
    store: Storefront, clock: Clock, catalogue: Catalogue, *, account_id: UUID, subscription_id: UUID
) -> SubscriptionUpgradeChoice:
    """The plans a renewing subscription may move to now: bigger subscription plans and lifetime plans (-109
    when none)."""
    subscription = load_subscription(store, subscription_id, account_id)
    licence: UserLicence = store.repository.get(subscription.user_licence_id)
    now = clock.now()
    period = subscription_period(store, subscription)
    if period is None or licence.state is not LicenceState.ACTIVE or not licence.is_valid(now):
        raise DomainError(ErrorCode.NOTHING_PURCHASABLE, "only a renewing subscription upgrades")
    found = offers(catalogue, licence.product_code, licence.life, licence.max_devices_count, period, now)
    if not found:
        raise DomainError(ErrorCode.NOTHING_PURCHASABLE, "no bigger plan")
    return SubscriptionUpgradeChoice(subscription, licence, period, found)


def upgrade_subscription(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    catalogue: Catalogue,
    *,
    account_id: UUID,
    subscription_id: UUID,
    target_id: int,
    expected_amount: int | None,
    language: Language,
    key: BillingKey | None = None,
) -> Charged:
    """Move a subscription to ``target_id`` now, charging the subscription's card (or ``key``): -302 when it is
    not an upgrade now or the page's price differs, -303 when the card is refused."""
    subscription = load_subscription(store, subscription_id, account_id)
    licence: UserLicence = store.repository.get(subscription.user_licence_id)
    if key is not None and _upgraded_with(store, subscription, key, target_id):
        # A phone's redirect return, or a reload of it, repeats an upgrade that a key already paid.
        return Charged(subscription.id, None, True, subscription.status, store.max_notification_id())
    now = clock.now()
    period = subscription_period(store, subscription)
    if period is None or not licence.is_valid(now):
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, "only a renewing subscription upgrades")
    chosen = chosen_offer(
        catalogue, licence.product_code, licence.life, licence.max_devices_count, period, now, target_id
    )
    if expected_amount is not None and expected_amount != chosen.amount:
        raise DomainError(
            ErrorCode.INVALID_PRODUCT_AT_INIT, f"the upgrade costs {chosen.amount}, not {expected_amount}"
        )
    target = UpgradeTarget(
        LicenceTerms.of(chosen.target, chosen.target.localization_for(language).name),
        chosen.credit,
        period.merchant_uid,
    )

    def decide(current: Subscription, _now: datetime) -> ChargeAttempt:
        return current.upgrade_charge(chosen.quote, target, key, catalogue.version)

    charged = charge_subscription(
        store, clock, gateway, subscription_id=subscription_id, decide=decide, account_id=account_id
    )
    if not charged.paid:
        given_back = charged.reason in (NO_LONGER_WANTED, LICENCE_REVOKED, CREDIT_REFUNDED)
        raise DomainError(
            ErrorCode.INVALID_PRODUCT_AT_INIT if given_back else ErrorCode.CHECK_CARD_HELD,
            charged.reason or "the upgrade was not charged",
        )
    return charged


def _upgraded_with(store: Storefront, subscription: Subscription, key: BillingKey, target_id: int) -> bool:
    """Did the subscription's running period start with an upgrade to ``target_id`` paid by ``key``?"""
    if subscription.licence_id != target_id or subscription.customer_uid != key.customer_uid:
        return False
    payment: Payment = store.repository.get(Payment.id_for(subscription.period_merchant_uid))
    return payment.upgrade is not None and payment.upgrade.to_licence_id == target_id

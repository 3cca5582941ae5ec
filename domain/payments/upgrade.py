"""Upgrading a licence through a payment window: the offers, the order, and settling it.

An upgrade order is a ``Payment`` of the target plan at its quote less the credit, which also records
``UpgradeOrdered`` (the licence, the plan it leaves, the credit and the payment credited). Settling it
(browser, webhook, racing repeats; see ``domain.payments.purchase.settle_payment``) upgrades the licence,
spends the credit on the credited payment and marks the upgrade paid in one transaction. When the
licence is no longer where the order found it (another tab's upgrade settled first, or the credited
payment was refunded meanwhile) the order is cancelled and its money given back at the gateway.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID, uuid4

from domain.accounts.account import Account
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.coupons import redemption as coupons
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, LicenceTerms, UserLicence, expiry
from domain.licences.ownership import load_own_licence
from domain.licences.upgrades import PaidPeriod, UpgradeOffer, chosen_offer, offers
from domain.payments.gateway import PaymentGateway
from domain.payments.methods import gateway_choice, methods_for
from domain.payments.payment import Payment, PaymentState
from domain.store import Storefront
from events.values import Language

# Upgrades are paid at once: a virtual account would leave the licence between two plans.
UPGRADE_METHODS = ("creditCard", "bankTransfer", "kakaopay", "naverpay", "point")


def upgrade_methods_for(currency: str) -> list[str]:
    """The payment methods an upgrade priced in ``currency`` may be paid with (a window's, no virtual account)."""
    return [method for method in UPGRADE_METHODS if method in methods_for(currency)]


def upgrade_merchant_uid(now: datetime) -> str:
    """A unique, readable order id for an upgrade such as ``upg-20261122-3f9a0c1b2d4e``."""
    return f"upg-{now:%Y%m%d}-{uuid4().hex[:12]}"


@dataclass(frozen=True)
class UpgradeChoice:
    """A licence and the upgrades it may take now."""

    licence: UserLicence
    period: PaidPeriod
    offers: list[UpgradeOffer]


def licence_period(store: Storefront, licence: UserLicence) -> PaidPeriod | None:
    """The paid period of a purchased licence (None when it has none to credit: reserved, app-store...)."""
    if licence.source != "purchase" or licence.period_merchant_uid is None:
        return None
    if licence.state is not LicenceState.ACTIVE or licence.starts_at is None or licence.expires_at is None:
        return None
    payment: Payment = store.repository.get(Payment.id_for(licence.period_merchant_uid))
    if payment.state is not PaymentState.PAID or payment.store is not None:
        return None
    return PaidPeriod(
        payment.merchant_uid,
        payment.refundable,
        payment.currency,
        payment.country_code,
        licence.starts_at,
        licence.expires_at,
    )


def upgrade_choice(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    *,
    account_id: UUID,
    user_licence_id: UUID,
    coupon_code: str | None = None,
) -> UpgradeChoice:
    """What one of the caller's purchased licences may be upgraded to now (404 not theirs, -109 nothing).

    With a ``coupon_code`` (checked for this buyer and licence: -601 to -605, -613) each plan the coupon
    discounts carries its factor as the last step, after the base discount and the credit."""
    licence = load_own_licence(store, account_id, user_licence_id)
    now = clock.now()
    period = licence_period(store, licence)
    if period is None or not licence.is_valid(now):
        raise DomainError(ErrorCode.NOTHING_PURCHASABLE, "this licence cannot be upgraded here")
    found = offers(catalogue, licence.product_code, licence.life, licence.max_devices_count, period, now)
    if not found:
        raise DomainError(ErrorCode.NOTHING_PURCHASABLE, "no bigger plan for this licence")
    if coupon_code is not None and coupon_code.strip():
        coupon = _coupon_for(store, account_id, licence, coupon_code, now)
        found = [_discounted(item, coupon, period) for item in found]
    return UpgradeChoice(licence, period, found)


def _coupon_for(store: Storefront, account_id: UUID, licence: UserLicence, code: str, now: datetime) -> coupons.Coupon:
    buyer: Account = store.repository.get(account_id)
    return coupons.check_for_buyer(store, now, code, buyer_email=str(buyer.email), user_licence_id=licence.id)


def _discounted(item: UpgradeOffer, coupon: coupons.Coupon, period: PaidPeriod) -> UpgradeOffer:
    """The offer with the coupon's factor (none when the coupon does not apply to this plan)."""
    return replace(item, quote=item.quote.with_coupon(coupon.fraction_for(item.target, period.country_code)))


@dataclass(frozen=True)
class UpgradeOrder:
    """What the browser needs to open the window for an upgrade."""

    merchant_uid: str
    amount: int
    currency: str
    name: str
    pg: str
    pay_method: str
    buyer_email: str
    credit: int
    notification_id: int


def place_upgrade_order(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    catalogue: Catalogue,
    *,
    account_id: UUID,
    user_licence_id: UUID,
    target_id: int,
    expected_amount: int | None,
    payment_method: str,
    language: Language,
    coupon_code: str | None = None,
) -> UpgradeOrder:
    """Fix the price of an upgrade under a fresh merchantUid and tell the gateway; -302 when the target is not
    an upgrade of this licence now or the page's price differs from the quote. A ``coupon_code`` is checked
    for this buyer, licence and plan (-604 when it does not discount the plan) and counted when the payment
    settles."""
    if payment_method not in UPGRADE_METHODS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"upgrades are paid with one of {', '.join(UPGRADE_METHODS)}")
    licence = load_own_licence(store, account_id, user_licence_id)
    now = clock.now()
    period = licence_period(store, licence)
    if period is None or not licence.is_valid(now):
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, "this licence cannot be upgraded here")
    chosen = chosen_offer(
        catalogue, licence.product_code, licence.life, licence.max_devices_count, period, now, target_id
    )
    code = None
    if coupon_code is not None and coupon_code.strip():
        coupon = _coupon_for(store, account_id, licence, coupon_code, now)
        price = chosen.target.price_for(period.country_code)
        coupon.rules.check_fits(
            life=chosen.target.life, buyer_country=period.country_code, price_country=price.country_code
        )
        chosen, code = _discounted(chosen, coupon, period), coupon.code
    if expected_amount is not None and expected_amount != chosen.amount:
        raise DomainError(
            ErrorCode.INVALID_PRODUCT_AT_INIT, f"the upgrade costs {chosen.amount}, not {expected_amount}"
        )
    choice = gateway_choice(payment_method, chosen.quote.currency.value)
    merchant_uid = upgrade_merchant_uid(now)
    name = chosen.target.localization_for(language).name
    buyer: Account = store.repository.get(account_id)
    payment = Payment.order(
        merchant_uid=merchant_uid,
        at=now,
        quote=chosen.quote,
        terms=LicenceTerms.of(chosen.target, name),
        catalogue_version=catalogue.version,
        account_id=account_id,
        buyer_email=str(buyer.email),
        purchase_type="upgrade",
        user_licence_id=licence.id,
        coupon_code=code,
        buyer_country=period.country_code,
    )
    payment.note_upgrade(
        user_licence_id=licence.id,
        from_terms=licence.terms,
        credit=chosen.credit,
        credited_merchant_uid=period.merchant_uid,
        at=now,
    )
    recordings = store.save(payment)
    gateway.prepare(merchant_uid, chosen.amount)
    return UpgradeOrder(
        merchant_uid,
        chosen.amount,
        chosen.quote.currency.value,
        name,
        choice.pg,
        choice.pay_method,
        str(buyer.email),
        chosen.credit,
        recordings[-1].notification.id,
    )


@dataclass(frozen=True)
class UpgradeParts:
    """What settling an upgrade order changes, read once: the licence it upgrades and the payment it credits (so
    whatever changes either of them meanwhile, a refund reserving the credit say, conflicts with the settlement)."""

    licence: UserLicence
    credited: Payment


def upgrade_parts(store: Storefront, payment: Payment) -> UpgradeParts:
    """The licence an upgrade order upgrades and the payment it credits, as recorded now."""
    upgrade = payment.upgrade
    assert upgrade is not None
    licence: UserLicence = store.repository.get(upgrade.user_licence_id)
    credited: Payment = store.repository.get(Payment.id_for(upgrade.credited_merchant_uid))
    return UpgradeParts(licence, credited)


def stale_upgrade(payment: Payment, parts: UpgradeParts, now: datetime) -> str | None:
    """Why a paid upgrade order can no longer take effect (None when it can): the licence left the plan the
    order found it on, or the credited payment no longer holds the credit (refunded, or reserved for a refund)."""
    upgrade = payment.upgrade
    assert upgrade is not None
    licence = parts.licence
    if (
        licence.period_merchant_uid != upgrade.credited_merchant_uid
        or licence.licence_id != upgrade.from_licence_id
        or not licence.is_valid(now)
    ):
        return "the licence changed since this upgrade was ordered"
    if parts.credited.refundable < upgrade.credit:
        return "the credited payment was refunded since this upgrade was ordered"
    return None


def apply_upgrade(payment: Payment, parts: UpgradeParts, now: datetime) -> None:
    """Upgrade the licence a paid upgrade order names and spend its credit (both saved by the caller with it)."""
    upgrade = payment.upgrade
    assert upgrade is not None
    parts.licence.upgrade(
        terms=payment.terms,
        merchant_uid=payment.merchant_uid,
        source="purchase",
        starts_at=now,
        expires_at=expiry(now, payment.life),
    )
    parts.credited.spend_credit(upgrade.credit, payment.merchant_uid, now)

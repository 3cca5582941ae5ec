"""Upgrades (spec section 7): the plans a licence may move to, upgrading a purchased licence through a payment
window, and upgrading a subscription with its card, a new card or a PG window's key. Every decision is the
domain's (``domain.licences.upgrades``, ``domain.payments.upgrade``, ``domain.subscriptions.upgrade``)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Request
from pydantic import Field

from api.access import CallerDep, OptionalCallerDep
from api.card_registration import register_card
from api.error_docs import errors
from api.language import request_language
from api.ownership import OwnLicenceDep, own_subscription_id
from api.schemas import CamelModel
from api.schemas.cards import CardForm, WindowKey
from api.schemas.coupons import COUPON_REFUSALS
from api.schemas.payments import PaymentConfirmation, PaymentRequest
from api.schemas.subscriptions import SubscriptionState
from api.services import ServicesDep
from domain.catalogue.licences import DEFAULT_LIFE
from domain.errors import ErrorCode
from domain.licences.ownership import load_own_licence
from domain.licences.upgrades import UpgradeOffer
from domain.payments.payment import Payment, PaymentState
from domain.payments.purchase import confirm_payment
from domain.payments.upgrade import place_upgrade_order, upgrade_choice, upgrade_methods_for
from domain.payments.wallet import BillingKey, keep_window_billing_key, key_to_charge
from domain.pricing.quotes import DiscountKind
from domain.subscriptions.upgrade import subscription_upgrade_choice, upgrade_subscription
from events.values import Language
from projections.subscriptions import subscription_of_licence

options = APIRouter(prefix="/purchasable-licenses/upgrade", tags=["upgrades"])
router = APIRouter(prefix="/payments/licenses", tags=["upgrades"])
VIEWS = ("licences", "payments", "subscriptions")


class UpgradePlan(CamelModel):
    """One plan the licence may move to now (spec: plan item). Prices are minor units of ``currency``:
    ``price`` the list price, ``discountedPrice`` after the base discount, ``remainingPrice`` after the
    credit for the unused value (``remainingCredit``), ``requestPrice`` what the upgrade charges. ``discount``,
    ``remaining`` and ``coupon`` are the fractions of each step (a coupon only with ``?code=``)."""

    id: int
    name: str
    category: str
    life: int
    max_devices_count: int
    currency: str
    price: int
    discounted_price: int
    remaining_price: int
    request_price: int
    remaining_credit: int
    discount: str
    remaining: str
    coupon: str

    @classmethod
    def of(cls, offer: UpgradeOffer, language: Language) -> UpgradePlan:
        """The wire form of an offer, named in the caller's language."""
        quote = offer.quote
        return cls(
            id=offer.target.id,
            name=offer.target.localization_for(language).name,
            category=offer.target.product_code,
            life=offer.target.life,
            max_devices_count=offer.target.max_devices_count,
            currency=quote.currency.value,
            price=quote.list_price,
            discounted_price=quote.price_after(DiscountKind.BASE),
            remaining_price=quote.price_after(DiscountKind.REMAINING),
            request_price=quote.amount,
            remaining_credit=offer.credit,
            discount=str(quote.factor(DiscountKind.BASE)),
            remaining=str(quote.factor(DiscountKind.REMAINING)),
            coupon=str(quote.factor(DiscountKind.COUPON)),
        )


class UpgradableOptions(CamelModel):
    """The lives and device counts the page offers (each appears in at least one plan)."""

    life: list[int]
    max_devices_count: list[int]


class UpgradeOptions(CamelModel):
    """What a licence may be upgraded to now, and how: ``upgrade`` through a payment window (a purchased
    licence) or ``subscribe`` with a billing key (a subscription)."""

    user_license_id: UUID
    current_license_id: int
    upgrade_method: str
    default_life: int
    upgradable_options: UpgradableOptions
    licenses: list[UpgradePlan]
    payment_methods: list[str] = Field(
        description="the methods an upgrade through the window may be paid with, in the plans' currency"
    )


@options.get(
    "/licenses/{user_license_id}",
    response_model=UpgradeOptions,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.NOTHING_PURCHASABLE, *COUPON_REFUSALS),
)
def upgrade_options(
    licence: OwnLicenceDep,
    request: Request,
    services: ServicesDep,
    caller: CallerDep,
    code: Annotated[str | None, Query(description="coupon or promotion code")] = None,
) -> UpgradeOptions:
    """The plans one of the caller's licences may move to now (404 not theirs, -109 none); with a coupon
    ``code`` the plans it discounts carry its factor (-601 to -605 and -613 when it cannot be used)."""
    subscription = subscription_of_licence(services.views, caller.account_id, licence.id)
    if licence.source == "subscription" and subscription is not None:
        found = subscription_upgrade_choice(
            services.store,
            services.clock,
            services.catalogue,
            account_id=caller.account_id,
            subscription_id=UUID(subscription["subscription_id"]),
        ).offers
        method = "subscribe"
    else:
        found = upgrade_choice(
            services.store,
            services.clock,
            services.catalogue,
            account_id=caller.account_id,
            user_licence_id=licence.id,
            coupon_code=code,
        ).offers
        method = "upgrade"
    lives = sorted({offer.target.life for offer in found})
    language = request_language(request)
    return UpgradeOptions(
        user_license_id=licence.id,
        current_license_id=licence.licence_id,
        upgrade_method=method,
        default_life=DEFAULT_LIFE if DEFAULT_LIFE in lives else lives[0],
        upgradable_options=UpgradableOptions(
            life=lives, max_devices_count=sorted({offer.target.max_devices_count for offer in found})
        ),
        licenses=[UpgradePlan.of(offer, language) for offer in found],
        payment_methods=upgrade_methods_for(found[0].quote.currency.value),
    )


class UpgradeOrderIn(CamelModel):
    """Upgrade a purchased licence to ``licenseId``; ``requestPrice`` is the price the page showed."""

    license_id: int = Field(gt=0)
    payment_method: str = Field(min_length=1)
    request_price: int | None = Field(default=None, ge=0)
    code: str | None = Field(default=None, max_length=50, description="coupon or promotion code")


class UpgradePaymentRequest(PaymentRequest):
    """The parameters of request_pay, and the credit the amount already has taken off."""

    remaining_credit: int


@router.post(
    "/{user_license_id}/upgrade",
    response_model=UpgradePaymentRequest,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_PRODUCT_AT_INIT, *COUPON_REFUSALS),
)
def start_upgrade(
    user_license_id: UUID, body: UpgradeOrderIn, request: Request, services: ServicesDep, caller: CallerDep
) -> UpgradePaymentRequest:
    """Fix the price of an upgrade (quote less the credit) under a new merchantUid; -302 when the plan is not an
    upgrade of this licence now or the price differs."""
    order = place_upgrade_order(
        services.store,
        services.clock,
        services.payments,
        services.catalogue,
        account_id=caller.account_id,
        user_licence_id=user_license_id,
        target_id=body.license_id,
        expected_amount=body.request_price,
        payment_method=body.payment_method,
        language=request_language(request),
        coupon_code=body.code,
    )
    return UpgradePaymentRequest(
        merchant_uid=order.merchant_uid,
        amount=order.amount,
        currency=order.currency,
        name=order.name,
        pg=order.pg,
        pay_method=order.pay_method,
        buyer_email=order.buyer_email,
        remaining_credit=order.credit,
    )


class ConfirmedUpgrade(CamelModel):
    """The licence an upgrade payment upgraded: same id and key, its new plan; and what the payment was, for the
    result page: ``licenseName`` (the plan as ordered), ``amount`` paid in ``currency``, ``credit`` (the unused value
    of the licence taken off the price) and ``merchantUid`` (its receipt is on the purchase-history page)."""

    user_license_id: UUID
    license_key: str
    new_license_id: int
    state: PaymentState
    merchant_uid: str | None = None
    license_name: str | None = None
    amount: int | None = None
    currency: str | None = None
    credit: int | None = None


@router.post(
    "/upgrade/confirm",
    response_model=ConfirmedUpgrade,
    responses=errors(
        ErrorCode.FORBIDDEN,
        ErrorCode.NOT_FOUND,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.PAYMENT_DIFFERS_FROM_INIT,
        ErrorCode.INVALID_PRODUCT_AT_INIT,
        ErrorCode.PAYMENT_REFUSED,
        *COUPON_REFUSALS,
    ),
)
def confirm_upgrade(
    body: PaymentConfirmation, request: Request, services: ServicesDep, caller: OptionalCallerDep
) -> ConfirmedUpgrade:
    """Re-read the upgrade payment at the gateway and upgrade the licence once (idempotent; -302 and the money
    given back when another upgrade of the licence won meanwhile)."""
    confirmed = confirm_payment(
        services.store,
        services.clock,
        services.payments,
        imp_uid=body.imp_uid,
        merchant_uid=body.merchant_uid,
        caller_account_id=caller.account_id if caller else None,
        language=request_language(request),
    )
    services.see_own_write(confirmed.notification_id, *VIEWS)
    licence = load_own_licence(services.store, confirmed.account_id, confirmed.user_licence_id)
    payment: Payment = services.store.repository.get(Payment.id_for(body.merchant_uid))
    return ConfirmedUpgrade(
        user_license_id=licence.id,
        license_key=licence.licence_key,
        new_license_id=licence.licence_id,
        state=confirmed.state,
        merchant_uid=payment.merchant_uid,
        license_name=payment.name,
        amount=payment.amount,
        currency=payment.currency.value,
        credit=payment.upgrade.credit if payment.upgrade is not None else 0,
    )


class SubscriptionUpgradeIn(CamelModel):
    """Upgrade a subscription to ``licenseId`` with its card, or a named key of the wallet."""

    license_id: int = Field(gt=0)
    billingkey_id: str | None = None
    request_price: int | None = Field(default=None, ge=0)


class SubscriptionUpgradeWithNewCard(CamelModel):
    """Upgrade a subscription and register the card that pays it."""

    license_id: int = Field(gt=0)
    request_price: int | None = Field(default=None, ge=0)
    card: CardForm


class SubscriptionUpgradeWithWindowKey(WindowKey):
    """Upgrade a subscription with the key a PG window issued (also a phone's redirect return)."""

    user_license_id: UUID
    license_id: int = Field(gt=0)
    request_price: int | None = Field(default=None, ge=0)


SUBSCRIPTION_UPGRADE_ERRORS = (
    ErrorCode.NOT_FOUND,
    ErrorCode.NOTHING_PURCHASABLE,
    ErrorCode.LICENSE_KEY_UNUSABLE,
    ErrorCode.INVALID_PRODUCT_AT_INIT,
    ErrorCode.CHECK_CARD_HELD,
)


def _upgrade(
    services: ServicesDep,
    request: Request,
    account_id: UUID,
    user_license_id: UUID,
    target_id: int,
    expected_amount: int | None,
    key: BillingKey | None,
) -> SubscriptionState:
    subscription_id = own_subscription_id(services, account_id, user_license_id)
    charged = upgrade_subscription(
        services.store,
        services.clock,
        services.payments,
        services.catalogue,
        account_id=account_id,
        subscription_id=subscription_id,
        target_id=target_id,
        expected_amount=expected_amount,
        language=request_language(request),
        key=key,
    )
    services.see_own_write(charged.notification_id, *VIEWS)
    # What the card was charged now, not the renewal price (a repeated return charged nothing new: unknown here).
    amount = charged.attempt.amount if charged.attempt else None
    state = SubscriptionState.load(services.store, subscription_id, services.clock.now())
    return state.model_copy(update={"charged_amount": amount})


@router.post(
    "/{user_license_id}/subscribe/upgrade",
    response_model=SubscriptionState,
    responses=errors(*SUBSCRIPTION_UPGRADE_ERRORS),
)
def upgrade_subscription_with_key(
    user_license_id: UUID, body: SubscriptionUpgradeIn, request: Request, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Move a subscription to a bigger plan now: its first period less the unused value of the current one is
    charged to the subscription's card (or the named key); renewals follow the new plan."""
    own_subscription_id(services, caller.account_id, user_license_id)
    key = key_to_charge(services.store, caller.account_id, body.billingkey_id) if body.billingkey_id else None
    return _upgrade(services, request, caller.account_id, user_license_id, body.license_id, body.request_price, key)


@router.post(
    "/{user_license_id}/subscribe/upgrade/new-billingkey",
    response_model=SubscriptionState,
    responses=errors(*SUBSCRIPTION_UPGRADE_ERRORS, ErrorCode.CHECK_CARD_INFO, ErrorCode.BILLING_KEY_ALREADY_REGISTERED),
)
def upgrade_subscription_with_new_card(
    user_license_id: UUID,
    body: SubscriptionUpgradeWithNewCard,
    request: Request,
    services: ServicesDep,
    caller: CallerDep,
) -> SubscriptionState:
    """Register a new card, then upgrade the subscription with it (it becomes the subscription's card)."""
    own_subscription_id(services, caller.account_id, user_license_id)
    key = register_card(services, caller.account_id, body.card)
    return _upgrade(services, request, caller.account_id, user_license_id, body.license_id, body.request_price, key)


@router.post(
    "/subscribe/upgrade/new-billingkey/redirect",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.FORBIDDEN,
        *SUBSCRIPTION_UPGRADE_ERRORS,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.BILLING_KEY_ALREADY_REGISTERED,
    ),
)
def upgrade_subscription_with_window_key(
    body: SubscriptionUpgradeWithWindowKey, request: Request, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Keep the key a PG window issued, then upgrade the subscription with it; the popup's callback and a
    phone's redirect return (or a reload of it) upgrade once."""
    own_subscription_id(services, caller.account_id, body.user_license_id)
    key = keep_window_billing_key(
        services.store, services.clock, services.payments, account_id=caller.account_id, customer_uid=body.customer_uid
    )
    return _upgrade(
        services, request, caller.account_id, body.user_license_id, body.license_id, body.request_price, key
    )

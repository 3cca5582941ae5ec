"""Subscriptions: subscribe with a new or a previous billing key, cancel, resume or re-subscribe, pay a
past-due period, change card. Every decision is the domain's; these routes translate HTTP."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import EmailStr, Field

from api.access import CallerDep, OptionalCallerDep
from api.card_registration import register_card
from api.country import COUNTRY_IGNORED, visitor_country
from api.error_docs import errors
from api.language import request_language
from api.ownership import OwnSubscriptionDep, own_subscription_id
from api.schemas import CamelModel
from api.schemas.cards import CardForm, WindowKey
from api.schemas.coupons import COUPON_REFUSALS
from api.schemas.subscriptions import SubscriptionState
from api.services import ServicesDep
from application.price_rises import agree_to_price_rise, decline_price_rise
from domain.accounts.account import Account
from domain.errors import ErrorCode
from domain.payments.wallet import BillingKey, keep_window_billing_key, key_to_charge
from domain.subscriptions.commands import (
    Subscribed,
    cancel_auto_renewal,
    change_payment_method,
    pay_now,
    resume_or_resubscribe,
    subscribe,
    subscribe_with_window_key,
)

router = APIRouter(prefix="/payments/licenses", tags=["subscriptions"])
VIEWS = ("licences", "payments", "subscriptions", "price_rises")


class SubscriptionOrder(CamelModel):
    """Subscribe to a monthly or annual licence."""

    license_id: int = Field(gt=0)
    country_code: str | None = Field(
        default=None, min_length=2, max_length=2, pattern="^[A-Za-z]{2}$", description=COUNTRY_IGNORED
    )
    billingkey_id: str | None = None
    code: str | None = Field(default=None, max_length=50, description="coupon code: discounts the first period only")


class SubscriptionWithNewCard(SubscriptionOrder):
    """Subscribe and register the card in one step."""

    card: CardForm


class SubscriptionWithWindowKey(SubscriptionOrder, WindowKey):
    """Subscribe with the billing key a PG window issued; guests give their email."""

    email: EmailStr | None = None


def _start(
    services: ServicesDep, request: Request, account_id: UUID, order: SubscriptionOrder, key: BillingKey
) -> SubscriptionState:
    started = subscribe(
        services.store,
        services.clock,
        services.payments,
        services.catalogue,
        account_id=account_id,
        licence_id=order.license_id,
        country_code=visitor_country(request, services.settings),
        language=request_language(request),
        key=key,
        coupon_code=order.code,
    )
    return _started(services, started)


def _started(services: ServicesDep, started: Subscribed) -> SubscriptionState:
    services.see_own_write(started.notification_id, *VIEWS)
    account: Account = services.store.repository.get(started.account_id)
    state = SubscriptionState.load(services.store, started.subscription_id, services.clock.now(), started.licence_key)
    return state.model_copy(update={"email": account.email, "account_created": started.account_created})


@router.post(
    "/subscribe/new",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.INVALID_PRODUCT_AT_INIT,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        *COUPON_REFUSALS,
    ),
)
def subscribe_with_previous_key(
    order: SubscriptionOrder, request: Request, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Subscribe, charging a billing key already registered (the default unless one is named)."""
    key = key_to_charge(services.store, caller.account_id, order.billingkey_id)
    return _start(services, request, caller.account_id, order, key)


@router.post(
    "/subscribe/new/new-billingkey",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.INVALID_PRODUCT_AT_INIT,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.CHECK_CARD_INFO,
        ErrorCode.BILLING_KEY_ALREADY_REGISTERED,
        *COUPON_REFUSALS,
    ),
)
def subscribe_with_new_key(
    order: SubscriptionWithNewCard, request: Request, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Register a card and subscribe with it (-303, -305, -308 for the card)."""
    key = register_card(services, caller.account_id, order.card)
    return _start(services, request, caller.account_id, order, key)


@router.post(
    "/subscribe/new/new-billingkey/redirect",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.FORBIDDEN,
        ErrorCode.INVALID_PRODUCT_AT_INIT,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.BILLING_KEY_ALREADY_REGISTERED,
        ErrorCode.EMAIL_ALREADY_REGISTERED,
        *COUPON_REFUSALS,
    ),
)
def subscribe_with_key_from_window(
    order: SubscriptionWithWindowKey, request: Request, services: ServicesDep, caller: OptionalCallerDep
) -> SubscriptionState:
    """Subscribe with the key a PG window issued (popup or redirect return); guests too, by email."""
    started = subscribe_with_window_key(
        services.store,
        services.clock,
        services.payments,
        services.catalogue,
        account_id=caller.account_id if caller else None,
        email=str(order.email) if order.email else None,
        customer_uid=order.customer_uid,
        licence_id=order.license_id,
        country_code=visitor_country(request, services.settings),
        language=request_language(request),
        coupon_code=order.code,
    )
    return _started(services, started)


def _after(services: ServicesDep, subscription_id: UUID, position: int, *, resumed: bool = False) -> SubscriptionState:
    services.see_own_write(position, *VIEWS)
    state = SubscriptionState.load(services.store, subscription_id, services.clock.now())
    return state.model_copy(update={"resume_complete": resumed})


@router.get("/subscribe/{user_license_id}", response_model=SubscriptionState, responses=errors(ErrorCode.NOT_FOUND))
def subscription_state(subscription_id: OwnSubscriptionDep, services: ServicesDep) -> SubscriptionState:
    """The subscription behind one of the caller's licences."""
    return SubscriptionState.load(services.store, subscription_id, services.clock.now())


@router.delete("/subscribe/{user_license_id}", response_model=SubscriptionState, responses=errors(ErrorCode.NOT_FOUND))
def stop_auto_renewal(
    subscription_id: OwnSubscriptionDep, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Turn auto-renewal off: isScheduled false, the licence runs to the next payment date (past due: ends now)."""
    position = cancel_auto_renewal(
        services.store, services.clock, account_id=caller.account_id, subscription_id=subscription_id
    )
    return _after(services, subscription_id, position)


class Resubscription(CamelModel):
    """Which billing key to charge when re-subscribing (the previous one when none is named)."""

    billingkey_id: str | None = None


def _resume(
    services: ServicesDep, account_id: UUID, user_license_id: UUID, key: BillingKey | None
) -> SubscriptionState:
    subscription_id = own_subscription_id(services, account_id, user_license_id)
    position = resume_or_resubscribe(
        services.store,
        services.clock,
        services.payments,
        account_id=account_id,
        subscription_id=subscription_id,
        key=key,
    )
    return _after(services, subscription_id, position, resumed=True)


@router.post(
    "/re-subscribe/{user_license_id}",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.AUTO_PAYMENT_ALREADY_SET,
    ),
)
def resume_with_previous_key(
    user_license_id: UUID, body: Resubscription, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Turn renewals back on (resumeComplete): resume within the paid period, re-subscribe after it, pay a
    past-due period now; with the previous card or a named key."""
    key = key_to_charge(services.store, caller.account_id, body.billingkey_id) if body.billingkey_id else None
    return _resume(services, caller.account_id, user_license_id, key)


@router.post(
    "/re-subscribe/{user_license_id}/new-billingkey",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.CHECK_CARD_INFO,
        ErrorCode.AUTO_PAYMENT_ALREADY_SET,
        ErrorCode.BILLING_KEY_ALREADY_REGISTERED,
    ),
)
def resume_with_new_key(
    user_license_id: UUID, card: CardForm, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Register a new card, then turn renewals back on with it (resumeComplete)."""
    own_subscription_id(services, caller.account_id, user_license_id)
    key = register_card(services, caller.account_id, card)
    return _resume(services, caller.account_id, user_license_id, key)


class ResubscriptionWithWindowKey(WindowKey):
    """Resume or re-subscribe a licence with the key a PG window issued."""

    user_license_id: UUID


@router.post(
    "/re-subscribe/new-billingkey/redirect",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.FORBIDDEN,
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.AUTO_PAYMENT_ALREADY_SET,
        ErrorCode.BILLING_KEY_ALREADY_REGISTERED,
    ),
)
def resume_with_window_key(
    body: ResubscriptionWithWindowKey, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Keep the key a PG window issued, then turn renewals back on with it (resumeComplete)."""
    own_subscription_id(services, caller.account_id, body.user_license_id)
    key = keep_window_billing_key(
        services.store, services.clock, services.payments, account_id=caller.account_id, customer_uid=body.customer_uid
    )
    return _resume(services, caller.account_id, body.user_license_id, key)


@router.post(
    "/subscribe/{user_license_id}/pay",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.NOTHING_PAST_DUE,
    ),
)
def pay_past_due_period(
    subscription_id: OwnSubscriptionDep, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """After a failed renewal (past due), charge the due period now with the current card (-303 refused,
    -306 when nothing is past due)."""
    position = pay_now(
        services.store, services.clock, services.payments, account_id=caller.account_id, subscription_id=subscription_id
    )
    return _after(services, subscription_id, position)


class PaymentMethodChange(CamelModel):
    """The billing key renewals should charge from now on."""

    billingkey_id: str


@router.put(
    "/subscribe/{user_license_id}/billingkey",
    response_model=SubscriptionState,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.AUTO_PAYMENT_ALREADY_SET,
    ),
)
def change_card(
    user_license_id: UUID, body: PaymentMethodChange, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Change the subscription's payment method to another registered billing key; past due, the key pays
    the due period now and becomes the card only if it paid (-303)."""
    subscription_id = own_subscription_id(services, caller.account_id, user_license_id)
    key = key_to_charge(services.store, caller.account_id, body.billingkey_id)
    position = change_payment_method(
        services.store,
        services.clock,
        services.payments,
        account_id=caller.account_id,
        subscription_id=subscription_id,
        key=key,
    )
    return _after(services, subscription_id, position)


@router.post(
    "/subscribe/{user_license_id}/price-rise/agree",
    response_model=SubscriptionState,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.PRICE_RISE_NOT_ASKED),
)
def agree_to_new_price(
    subscription_id: OwnSubscriptionDep, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Agree to the higher price the licence page asks about (docs/catalogue.md): the renewal at the change charges
    it. Only this call agrees; following a mailed link does not (-360 when nothing is asked)."""
    position = agree_to_price_rise(
        services.store, services.clock, account_id=caller.account_id, subscription_id=subscription_id
    )
    return _after(services, subscription_id, position)


@router.post(
    "/subscribe/{user_license_id}/price-rise/decline",
    response_model=SubscriptionState,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.PRICE_RISE_NOT_ASKED),
)
def decline_new_price(
    subscription_id: OwnSubscriptionDep, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Decline the higher price and stop auto-renewal: the licence runs to the end of the paid period, nothing more
    is charged, and nobody asks again for 7 days (-360 when nothing is asked)."""
    position = decline_price_rise(
        services.store, services.clock, account_id=caller.account_id, subscription_id=subscription_id
    )
    return _after(services, subscription_id, position)

"""Subscriptions: subscribe with a new or a previous billing key, cancel, resume or re-subscribe, pay a
past-due period, change card. Every decision is the domain's; these routes translate HTTP."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import EmailStr, Field

from api.access import CallerDep, OptionalCallerDep
from api.country import COUNTRY_IGNORED, visitor_country
from api.error_docs import errors
from api.language import request_language
from api.routers.billing_keys import CardForm, WindowKey
from api.routers.coupons import COUPON_REFUSALS
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.accounts.account import Account
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action, in_display_order
from domain.licences.licence import UserLicence
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
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from projections.subscriptions import subscription_of_licence

router = APIRouter(prefix="/payments/licenses", tags=["subscriptions"])
VIEWS = ("licences", "payments", "subscriptions")


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


class SubscriptionState(CamelModel):
    """Where a subscription stands (what the licence detail shows), and what the subscriber may do now."""

    subscription_id: UUID
    user_license_id: UUID
    status: SubscriptionStatus
    is_scheduled: bool
    next_payment_at: datetime | None
    paid_until: datetime
    price: int
    currency: str
    license_name: str
    card_name: str | None
    card_number: str | None
    allowed_actions: list[Action] = Field(description="what the subscriber may do now, in the order to offer it")
    license_key: str | None = None
    resume_complete: bool = False
    email: str | None = None
    account_created: bool = False
    charged_amount: int | None = Field(
        default=None,
        description="what this call charged, when it charged (an upgrade: the new plan's first period less the "
        "credit); `price` is what each renewal costs",
    )


def _state(services: ServicesDep, subscription_id: UUID, licence_key: str | None = None) -> SubscriptionState:
    subscription: Subscription = services.store.repository.get(subscription_id)
    licence: UserLicence = services.store.repository.get(subscription.user_licence_id)
    return SubscriptionState(
        subscription_id=subscription.id,
        user_license_id=subscription.user_licence_id,
        status=subscription.status,
        is_scheduled=subscription.is_scheduled,
        next_payment_at=subscription.next_charge_at,
        paid_until=subscription.paid_until,
        price=subscription.amount,
        currency=subscription.currency.value,
        license_name=subscription.name,
        card_name=subscription.card_name,
        card_number=subscription.card_number,
        allowed_actions=in_display_order(subscription.allowed_actions(services.clock.now(), licence.state.value)),
        license_key=licence_key,
    )


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
    state = _state(services, started.subscription_id, started.licence_key)
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
    key = order.card.register(services, caller.account_id)
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


def _subscription_id(services: ServicesDep, account_id: UUID, user_license_id: UUID) -> UUID:
    """The subscription behind one of the caller's licences (404 when it has none or is not theirs)."""
    row = subscription_of_licence(services.views, account_id, user_license_id)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return UUID(row["subscription_id"])


def _after(services: ServicesDep, subscription_id: UUID, position: int, *, resumed: bool = False) -> SubscriptionState:
    services.see_own_write(position, *VIEWS)
    return _state(services, subscription_id).model_copy(update={"resume_complete": resumed})


@router.get("/subscribe/{user_license_id}", response_model=SubscriptionState, responses=errors(ErrorCode.NOT_FOUND))
def subscription_state(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """The subscription behind one of the caller's licences."""
    return _state(services, _subscription_id(services, caller.account_id, user_license_id))


@router.delete("/subscribe/{user_license_id}", response_model=SubscriptionState, responses=errors(ErrorCode.NOT_FOUND))
def stop_auto_renewal(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """Turn auto-renewal off: isScheduled false, the licence runs to the next payment date (past due: ends now)."""
    subscription_id = _subscription_id(services, caller.account_id, user_license_id)
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
    subscription_id = _subscription_id(services, account_id, user_license_id)
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
    _subscription_id(services, caller.account_id, user_license_id)
    key = card.register(services, caller.account_id)
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
    _subscription_id(services, caller.account_id, body.user_license_id)
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
        ErrorCode.AUTO_PAYMENT_ALREADY_SET,
    ),
)
def pay_past_due_period(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """After a failed renewal (past due), charge the due period now with the current card (-303 refused,
    -306 when nothing is past due)."""
    subscription_id = _subscription_id(services, caller.account_id, user_license_id)
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
    subscription_id = _subscription_id(services, caller.account_id, user_license_id)
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

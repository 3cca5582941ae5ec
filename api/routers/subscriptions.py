"""Subscriptions: subscribe with a new or a previous billing key, cancel, resume or re-subscribe, change card."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import EmailStr, Field

from api.auth import CallerDep, OptionalCallerDep
from api.language import request_language
from api.routers.billing_keys import CardForm, WindowKey
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.accounts.account import Account
from domain.errors import DomainError, ErrorCode
from domain.payments.wallet import BillingKey, keep_window_billing_key, wallet_of
from domain.subscriptions.commands import (
    Subscribed,
    cancel_auto_renewal,
    change_payment_method,
    resubscribe,
    resume_auto_renewal,
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
    country_code: str = Field(min_length=2, max_length=2, pattern="^[A-Za-z]{2}$")
    billingkey_id: str | None = None


class SubscriptionWithNewCard(SubscriptionOrder):
    """Subscribe and register the card in one step."""

    card: CardForm


class SubscriptionWithWindowKey(SubscriptionOrder, WindowKey):
    """Subscribe with the billing key a PG window issued; guests give their email."""

    email: EmailStr | None = None


class SubscriptionState(CamelModel):
    """Where a subscription stands (what the licence detail shows)."""

    subscription_id: UUID
    user_license_id: UUID
    status: str
    is_scheduled: bool
    next_payment_at: datetime | None
    paid_until: datetime
    price: int
    currency: str
    license_name: str
    card_name: str | None
    card_number: str | None
    license_key: str | None = None
    resume_complete: bool = False
    email: str | None = None
    account_created: bool = False


def _state(
    subscription: Subscription, key: BillingKey | None = None, licence_key: str | None = None
) -> SubscriptionState:
    return SubscriptionState(
        subscription_id=subscription.id,
        user_license_id=subscription.user_licence_id,
        status=subscription.status.value,
        is_scheduled=subscription.is_scheduled,
        next_payment_at=subscription.next_charge_at,
        paid_until=subscription.paid_until,
        price=subscription.amount,
        currency=subscription.currency.value,
        license_name=subscription.name,
        card_name=key.card_name if key else subscription.card_name,
        card_number=key.card_number if key else subscription.card_number,
        license_key=licence_key,
    )


def _key(services: ServicesDep, account_id: UUID, billingkey_id: str | None) -> BillingKey:
    wallet = wallet_of(services.store, account_id)
    if wallet is None or (billingkey_id is None and wallet.default_id is None):
        raise DomainError(ErrorCode.RESERVED_PAYMENT_MISSING, "no billing key registered")
    return wallet.get(billingkey_id or wallet.default_id or "")


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
        country_code=order.country_code.upper(),
        language=request_language(request),
        key=key,
    )
    return _started(services, started, key)


def _started(services: ServicesDep, started: Subscribed, key: BillingKey | None = None) -> SubscriptionState:
    services.see_own_write(started.notification_id, *VIEWS)
    subscription: Subscription = services.store.repository.get(started.subscription_id)
    account: Account = services.store.repository.get(started.account_id)
    state = _state(subscription, key, started.licence_key)
    return state.model_copy(update={"email": account.email, "account_created": started.account_created})


@router.post("/subscribe/new", response_model=SubscriptionState)
def subscribe_with_previous_key(
    order: SubscriptionOrder, request: Request, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Subscribe, charging a billing key already registered (the default unless one is named)."""
    return _start(services, request, caller.account_id, order, _key(services, caller.account_id, order.billingkey_id))


@router.post("/subscribe/new/new-billingkey", response_model=SubscriptionState)
def subscribe_with_new_key(
    order: SubscriptionWithNewCard, request: Request, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Register a card and subscribe with it (-303, -305, -308 for the card)."""
    key = order.card.register(services, caller.account_id)
    return _start(services, request, caller.account_id, order, key)


@router.post("/subscribe/new/new-billingkey/redirect", response_model=SubscriptionState)
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
        country_code=order.country_code.upper(),
        language=request_language(request),
    )
    return _started(services, started)


def _subscription(services: ServicesDep, account_id: UUID, user_license_id: UUID) -> Subscription:
    row = subscription_of_licence(services.views, account_id, user_license_id)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    subscription: Subscription = services.store.repository.get(UUID(row["subscription_id"]))
    return subscription


@router.get("/subscribe/{user_license_id}", response_model=SubscriptionState)
def subscription_state(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """The subscription behind one of the caller's licences."""
    return _state(_subscription(services, caller.account_id, user_license_id))


@router.delete("/subscribe/{user_license_id}", response_model=SubscriptionState)
def stop_auto_renewal(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """Turn auto-renewal off: isScheduled false, the licence runs to the next payment date."""
    subscription = _subscription(services, caller.account_id, user_license_id)
    position = cancel_auto_renewal(
        services.store, services.clock, account_id=caller.account_id, subscription_id=subscription.id
    )
    services.see_own_write(position, *VIEWS)
    return _state(services.store.repository.get(subscription.id))


class Resubscription(CamelModel):
    """Which billing key to charge when re-subscribing (the previous one when none is named)."""

    billingkey_id: str | None = None


def _resume_or_resubscribe(
    services: ServicesDep, account_id: UUID, user_license_id: UUID, key: BillingKey | None
) -> SubscriptionState:
    subscription = _subscription(services, account_id, user_license_id)
    if subscription.status is SubscriptionStatus.CANCELLED and services.clock.now() < subscription.paid_until:
        position = resume_auto_renewal(
            services.store, services.clock, account_id=account_id, subscription_id=subscription.id
        )
        if key is not None and key.customer_uid != subscription.customer_uid:
            position = change_payment_method(
                services.store,
                services.clock,
                account_id=account_id,
                subscription_id=subscription.id,
                customer_uid=key.customer_uid,
                card_name=key.card_name,
                card_number=key.card_number,
            )
    else:
        position = resubscribe(
            services.store,
            services.clock,
            services.payments,
            account_id=account_id,
            subscription_id=subscription.id,
            customer_uid=key.customer_uid if key else None,
        )
    services.see_own_write(position, *VIEWS)
    state = _state(services.store.repository.get(subscription.id), key)
    return state.model_copy(update={"resume_complete": True})


@router.post("/re-subscribe/{user_license_id}", response_model=SubscriptionState)
def resume_with_previous_key(
    user_license_id: UUID, body: Resubscription, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Resume auto-renewal within the paid period, or re-subscribe after it ended (previous or named key)."""
    key = _key(services, caller.account_id, body.billingkey_id) if body.billingkey_id else None
    return _resume_or_resubscribe(services, caller.account_id, user_license_id, key)


@router.post("/re-subscribe/{user_license_id}/new-billingkey", response_model=SubscriptionState)
def resume_with_new_key(
    user_license_id: UUID, card: CardForm, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Register a new card, then resume or re-subscribe with it (resumeComplete)."""
    key = card.register(services, caller.account_id)
    return _resume_or_resubscribe(services, caller.account_id, user_license_id, key)


class ResubscriptionWithWindowKey(WindowKey):
    """Resume or re-subscribe a licence with the key a PG window issued."""

    user_license_id: UUID


@router.post("/re-subscribe/new-billingkey/redirect", response_model=SubscriptionState)
def resume_with_window_key(
    body: ResubscriptionWithWindowKey, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Keep the key a PG window issued, then resume or re-subscribe with it (resumeComplete)."""
    subscription = _subscription(services, caller.account_id, body.user_license_id)
    key = keep_window_billing_key(
        services.store, services.clock, services.payments, account_id=caller.account_id, customer_uid=body.customer_uid
    )
    return _resume_or_resubscribe(services, caller.account_id, subscription.user_licence_id, key)


class PaymentMethodChange(CamelModel):
    """The billing key renewals should charge from now on."""

    billingkey_id: str


@router.put("/subscribe/{user_license_id}/billingkey", response_model=SubscriptionState)
def change_card(
    user_license_id: UUID, body: PaymentMethodChange, services: ServicesDep, caller: CallerDep
) -> SubscriptionState:
    """Change the subscription's payment method to another registered billing key."""
    subscription = _subscription(services, caller.account_id, user_license_id)
    key = _key(services, caller.account_id, body.billingkey_id)
    position = change_payment_method(
        services.store,
        services.clock,
        account_id=caller.account_id,
        subscription_id=subscription.id,
        customer_uid=key.customer_uid,
        card_name=key.card_name,
        card_number=key.card_number,
    )
    services.see_own_write(position, *VIEWS)
    return _state(services.store.repository.get(subscription.id), key)

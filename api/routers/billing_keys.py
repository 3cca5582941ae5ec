"""Billing keys: cards kept at the gateway for subscriptions (spec section 7)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Discriminator, Tag

from api.access import CallerDep, OptionalCallerDep
from api.card_registration import register_card
from api.error_docs import errors
from api.schemas import CamelModel
from api.schemas.cards import CardForm, WindowKey
from api.services import ServicesDep
from domain.errors import DomainError, ErrorCode
from domain.payments.wallet import (
    BillingKey,
    choose_default_billing_key,
    keep_window_billing_key,
    open_key_window,
    wallet_of,
)

router = APIRouter(prefix="/billingkeys", tags=["billing keys"])


def _new_key_kind(body: Any) -> str:
    """A body naming a customerUid presents a PG window's key; anything else is a card form."""
    named = body.get("customerUid") if isinstance(body, dict) else getattr(body, "customer_uid", None)
    return "window" if named is not None else "card"


NewBillingKey = Annotated[
    Annotated[CardForm, Tag("card")] | Annotated[WindowKey, Tag("window")],
    Discriminator(_new_key_kind),
]


class BillingKeyWindow(CamelModel):
    """What IMP.request_pay needs to issue a billing key in a PG window (amount 0: nothing is charged)."""

    customer_uid: str
    merchant_uid: str
    pg: str
    pay_method: str
    amount: int = 0
    currency: str = "KRW"


class BillingKeyOut(CamelModel):
    """A billing key as the customer sees it: the card's name and mask."""

    billingkey_id: str
    customer_uid: str
    pg: str
    card_name: str | None
    card_number: str | None
    is_default: bool


class Wallet(CamelModel):
    """Every billing key of the caller, and the default one."""

    billingkeys: list[BillingKeyOut]
    default_billingkey_id: str | None


def _out(key: BillingKey, default_id: str | None) -> BillingKeyOut:
    return BillingKeyOut(
        billingkey_id=key.billing_key_id,
        customer_uid=key.customer_uid,
        pg=key.pg,
        card_name=key.card_name,
        card_number=key.card_number,
        is_default=key.billing_key_id == default_id,
    )


@router.put(
    "",
    response_model=BillingKeyOut,
    responses=errors(
        ErrorCode.FORBIDDEN,
        ErrorCode.CHECK_CARD_HELD,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.CHECK_CARD_INFO,
        ErrorCode.BILLING_KEY_ALREADY_REGISTERED,
    ),
)
def add_billing_key(form: NewBillingKey, services: ServicesDep, caller: CallerDep) -> BillingKeyOut:
    """Register a card at the gateway, or keep the key a PG window issued (-303, -304, -305, -308)."""
    if isinstance(form, WindowKey):
        key = keep_window_billing_key(
            services.store,
            services.clock,
            services.payments,
            account_id=caller.account_id,
            customer_uid=form.customer_uid,
        )
    else:
        key = register_card(services, caller.account_id, form)
    wallet = wallet_of(services.store, caller.account_id)
    return _out(key, wallet.default_id if wallet else None)


@router.get("", response_model=Wallet)
def my_billing_keys(services: ServicesDep, caller: CallerDep) -> Wallet:
    """The caller's billing keys, and the default one."""
    wallet = wallet_of(services.store, caller.account_id)
    if wallet is None:
        return Wallet(billingkeys=[], default_billingkey_id=None)
    return Wallet(
        billingkeys=[_out(key, wallet.default_id) for key in wallet.keys.values()],
        default_billingkey_id=wallet.default_id,
    )


@router.get("/customerUid", response_model=BillingKeyWindow)
def new_customer_uid(
    caller: OptionalCallerDep,
    request_type: Annotated[str, Query(alias="requestType", min_length=1)] = "creditCard",
) -> BillingKeyWindow:
    """A customerUid for a billing key issued in a PG window (creditCard, kakaopay or naverpay); guests too."""
    window = open_key_window(request_type, caller.account_id if caller else None)
    return BillingKeyWindow(
        customer_uid=window.customer_uid, merchant_uid=window.merchant_uid, pg=window.pg, pay_method=window.pay_method
    )


@router.get("/customerUid/{billingkey_id}", response_model=BillingKeyOut, responses=errors(ErrorCode.NOT_FOUND))
def my_billing_key(billingkey_id: str, services: ServicesDep, caller: CallerDep) -> BillingKeyOut:
    """One of the caller's billing keys (404 otherwise)."""
    wallet = wallet_of(services.store, caller.account_id)
    if wallet is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return _out(wallet.get(billingkey_id), wallet.default_id)


@router.put("/{billingkey_id}", response_model=Wallet, responses=errors(ErrorCode.NOT_FOUND))
def make_default(billingkey_id: str, services: ServicesDep, caller: CallerDep) -> Wallet:
    """Make one of the caller's billing keys the default."""
    choose_default_billing_key(
        services.store, services.clock, account_id=caller.account_id, billing_key_id=billingkey_id
    )
    return my_billing_keys(services, caller)

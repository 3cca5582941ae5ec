"""Purchases made in the apps' stores (docs/app-stores.md): a customer links a store purchase to their licence with
the store's proof, and the stores' server notifications (App Store Server Notifications v2, Google Play's Real-time
Developer Notifications over Pub/Sub push) keep it as the store has it. The use cases are
``application/app_stores.py``; this router translates HTTP."""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from api.access import CallerDep
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from application.app_stores import (
    link_app_store_purchase,
    link_google_play_purchase,
    take_app_store_notification,
    take_google_play_notification,
)
from domain.app_stores.recording import Linked
from domain.errors import ErrorCode

log = logging.getLogger(__name__)

router = APIRouter(prefix="/app-stores", tags=["app stores"])

# What a store purchase changes that the caller's next read shows.
VIEWS = ("licences", "payments", "app_stores")
MAX_SIGNED = 32_768  # a signed transaction or notification with its chain is a few kB


class AppStorePurchaseIn(CamelModel):
    """The signed transaction StoreKit gave the app (a JWS)."""

    signed_transaction: str = Field(min_length=1, max_length=MAX_SIGNED)


class GooglePlayPurchaseIn(CamelModel):
    """The product and the purchase token Google Play Billing gave the app."""

    product_id: str = Field(min_length=1, max_length=200)
    purchase_token: str = Field(min_length=1, max_length=2000)


class StorePurchaseOut(CamelModel):
    """The licence a store purchase is: its id and key (the apps validate with it), its store and state."""

    user_license_id: UUID
    license_key: str
    store: str
    original_transaction_id: str
    state: str
    expires_at: datetime | None

    @classmethod
    def of(cls, linked: Linked) -> StorePurchaseOut:
        return cls(
            user_license_id=linked.user_licence_id,
            license_key=linked.licence_key,
            store=linked.store.value,
            original_transaction_id=linked.original_transaction_id,
            state=linked.state.value,
            expires_at=linked.expires_at,
        )


class AppStoreNotificationIn(CamelModel):
    """App Store Server Notifications v2's body."""

    signed_payload: str = Field(min_length=1, max_length=MAX_SIGNED)


class NotificationOut(CamelModel):
    """What a notification did: ``applied``, ``unlinked``, ``ignored`` or ``duplicate`` (taken before)."""

    outcome: str


# A store that does not answer is -352 (503), not listed: 503 documents the request budget's -1002 alone.
PURCHASE_ERRORS = errors(
    ErrorCode.STORE_PROOF_REFUSED,
    ErrorCode.STORE_PURCHASE_OF_ANOTHER,
    ErrorCode.INVALID_PRODUCT_AT_INIT,
    ErrorCode.FORBIDDEN,
)


@router.post("/app-store/purchases", response_model=StorePurchaseOut, responses=PURCHASE_ERRORS)
async def link_an_app_store_purchase(
    body: AppStorePurchaseIn, services: ServicesDep, caller: CallerDep
) -> StorePurchaseOut:
    """Link an App Store purchase to the caller's licence: its signed transaction is verified to Apple's root (-350),
    and a purchase linked to another account is -351."""
    linked = await run_in_threadpool(
        link_app_store_purchase,
        services.store,
        services.clock,
        services.catalogue,
        services.stores,
        account_id=caller.account_id,
        signed_transaction=body.signed_transaction,
    )
    await run_in_threadpool(services.see_latest_write, *VIEWS)
    return StorePurchaseOut.of(linked)


@router.post("/google-play/purchases", response_model=StorePurchaseOut, responses=PURCHASE_ERRORS)
async def link_a_google_play_purchase(
    body: GooglePlayPurchaseIn, services: ServicesDep, caller: CallerDep
) -> StorePurchaseOut:
    """Link a Google Play purchase to the caller's licence: its token is looked up with Google Play (-350 for one
    Google does not know), and a purchase linked to another account is -351."""
    linked = await run_in_threadpool(
        link_google_play_purchase,
        services.store,
        services.clock,
        services.catalogue,
        services.stores,
        account_id=caller.account_id,
        product_id=body.product_id,
        purchase_token=body.purchase_token,
    )
    await run_in_threadpool(services.see_latest_write, *VIEWS)
    return StorePurchaseOut.of(linked)


@router.post(
    "/app-store/notifications",
    response_model=NotificationOut,
    responses=errors(ErrorCode.STORE_PROOF_REFUSED),
)
async def app_store_notification(body: AppStoreNotificationIn, services: ServicesDep) -> NotificationOut:
    """App Store Server Notifications v2: verified to Apple's root and within its signing window (-350 otherwise,
    logged, nothing applied), then taken once per notification id."""
    taken = await run_in_threadpool(
        take_app_store_notification,
        services.store,
        services.clock,
        services.catalogue,
        services.stores,
        body.signed_payload,
    )
    await run_in_threadpool(services.see_latest_write, *VIEWS)
    return NotificationOut(outcome=taken.outcome)


@router.post(
    "/google-play/notifications",
    response_model=NotificationOut,
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.STORE_PROOF_REFUSED),
)
async def google_play_notification(request: Request, services: ServicesDep) -> NotificationOut:
    """Google Play's Real-time Developer Notifications (a Pub/Sub push): its OIDC token verified (401 otherwise,
    logged, nothing applied), the purchase looked up with Google, then taken once per message id."""
    pushed = await run_in_threadpool(
        take_google_play_notification,
        services.store,
        services.clock,
        services.catalogue,
        services.stores,
        authorization=request.headers.get("authorization"),
        body=await request.body(),
    )
    await run_in_threadpool(services.see_latest_write, *VIEWS)
    return NotificationOut(outcome=pushed.taken.outcome)

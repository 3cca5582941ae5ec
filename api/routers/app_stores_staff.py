"""Store purchases in the back office (docs/app-stores.md): support sees a customer's store purchases with their store,
original transaction id and state; finance sees store revenue counted apart, net of each store's commission; the test
harness runs the reconciliation pass at once (beat's hourly ``app_stores.reconcile``)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Path
from starlette.concurrency import run_in_threadpool

from api.admin_token import admin_only
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from application.app_stores import reconcile_stores
from domain.business_time import BUSINESS_TIME
from domain.errors import DomainError, ErrorCode
from projections.app_stores import store_ledger, store_payments_of, store_subscriptions_of

support = APIRouter(prefix="/staff", tags=["staff"], responses=STAFF_ERRORS)
finance = APIRouter(prefix="/staff/finance", tags=["finance"], responses=STAFF_ERRORS)
harness = APIRouter(prefix="/test-harness", tags=["test harness"])

MAX_RANGE_DAYS = 800


class StoreSubscriptionOut(CamelModel):
    """A store purchase as support sees it."""

    store: str
    original_transaction_id: str
    product_id: str
    licence_id: int
    user_licence_id: UUID
    environment: str
    state: str
    renewing: bool
    expires_at: str | None
    grace_until: str | None
    heard_at: str
    linked_at: str
    linked_by: str
    renewals: int
    last_reason: str | None


class StoreChargeOut(CamelModel):
    """A store charge recorded as a payment of ours."""

    merchant_uid: str
    store: str
    transaction_id: str
    original_transaction_id: str
    user_licence_id: UUID | None
    amount: int
    currency: str
    commission: int
    refunded: int
    paid_at: str
    refunded_at: str | None


class StorePurchasesOut(CamelModel):
    """A customer's store purchases and their charges."""

    subscriptions: list[StoreSubscriptionOut]
    charges: list[StoreChargeOut]


@support.get("/customers/{account_id}/store-purchases", response_model=StorePurchasesOut)
def customer_store_purchases(
    account_id: Annotated[UUID, Path(description="the customer's account id")],
    caller: StaffDep,
    services: ServicesDep,
) -> StorePurchasesOut:
    """A customer's purchases in the App Store and Google Play: store, original transaction id, state, paid time, and
    each charge with the store's commission."""
    subscriptions = store_subscriptions_of(services.views, account_id)
    charges = store_payments_of(services.views, account_id)
    return StorePurchasesOut(
        subscriptions=[
            StoreSubscriptionOut.model_validate({**row, "renewing": bool(row["renewing"])}) for row in subscriptions
        ],
        charges=[
            StoreChargeOut.model_validate(
                {**row, "commission": row["commission"] or 0, "refunded": row["refunded"] or 0}
            )
            for row in charges
        ],
    )


class StoreLedgerRow(CamelModel):
    """One business day's store revenue in one store and currency (minor units)."""

    day: str
    store: str
    currency: str
    revenue: int
    commission: int
    refunds: int
    commission_returned: int
    net: int
    payments: int
    refunded: int


class StoreLedgerOut(CamelModel):
    """Store revenue over days ``[since, until)``, apart from what PortOne moves: what customers paid each store, its
    commission, its refunds and what it owes us (net)."""

    since: date
    until: date
    rows: list[StoreLedgerRow]


@finance.get("/store-ledger", response_model=StoreLedgerOut)
def the_store_ledger(
    caller: StaffDep, services: ServicesDep, since: date | None = None, until: date | None = None
) -> StoreLedgerOut:
    """Store revenue by Korean business day, store and currency, net of each store's commission (the last 30 days by
    default)."""
    end = until or services.clock.now().astimezone(BUSINESS_TIME).date() + timedelta(days=1)
    start = since or end - timedelta(days=30)
    if start >= end or (end - start).days > MAX_RANGE_DAYS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"since must come before until, at most {MAX_RANGE_DAYS} days")
    rows = store_ledger(services.views, start, end)
    return StoreLedgerOut(since=start, until=end, rows=[StoreLedgerRow.model_validate(row) for row in rows])


class ReconciledOut(CamelModel):
    """What a reconciliation pass did."""

    asked: int
    found: list[str]
    unanswered: list[str]
    at: datetime


@harness.post(
    "/app-stores/reconcile",
    response_model=ReconciledOut,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED),
)
async def reconcile_now(services: ServicesDep) -> ReconciledOut:
    """Ask the stores about silent subscriptions now (what beat's hourly pass does)."""
    done = await run_in_threadpool(
        reconcile_stores, services.store, services.views, services.clock, services.catalogue, services.stores
    )
    await run_in_threadpool(services.see_latest_write, "licences", "payments", "app_stores")
    return ReconciledOut(asked=done.asked, found=done.found, unanswered=done.unanswered, at=services.clock.now())

"""The test harness's admin API (never in production): move the shared clock forward, and run the renewal
pass now instead of at beat's next tick."""

from __future__ import annotations

from datetime import datetime, timedelta

from fastapi import APIRouter, Depends
from pydantic import Field

from api.admin_token import admin_only
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from application.pending_money import settle_pending_money
from application.price_rises import remind_price_rises
from application.reminders import record_due_reminders
from domain.errors import DomainError, ErrorCode
from domain.subscriptions.renewal import renew_if_due
from harness.clock import SharedTestClock
from projections.subscriptions import due_subscriptions

router = APIRouter(prefix="/test-harness", tags=["test harness"])


class ClockMove(CamelModel):
    """How far to move time forward."""

    days: int = Field(default=0, ge=0, le=3650)
    seconds: int = Field(default=0, ge=0)


class ClockNow(CamelModel):
    """The shared clock's time."""

    now: datetime


def _clock(services: ServicesDep) -> SharedTestClock:
    if not isinstance(services.clock, SharedTestClock):
        raise DomainError(ErrorCode.FORBIDDEN, "the test clock is off (TEST_CLOCK)")
    return services.clock


@router.get(
    "/clock",
    response_model=ClockNow,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN),
)
def read_clock(services: ServicesDep) -> ClockNow:
    """What time every process thinks it is."""
    return ClockNow(now=_clock(services).now())


@router.post(
    "/clock/advance",
    response_model=ClockNow,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN),
)
def advance_clock(move: ClockMove, services: ServicesDep) -> ClockNow:
    """Jump every process's time forward; beat and the workers act on their next tick."""
    return ClockNow(now=_clock(services).advance(timedelta(days=move.days, seconds=move.seconds)))


class RenewalPass(CamelModel):
    """What one renewal pass charged (merchantUids of the attempts made)."""

    charged: list[str]


@router.post(
    "/renewals/run",
    response_model=RenewalPass,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED),
)
def run_renewals(services: ServicesDep) -> RenewalPass:
    """What beat's renewal pass does at its next tick, done now: charge what is due, end what ran out."""
    services.see_latest_write("subscriptions")
    charged = []
    for subscription_id in due_subscriptions(services.views, services.clock.now()):
        outcome = renew_if_due(services.store, services.clock, services.payments, subscription_id)
        if outcome.merchant_uid:
            charged.append(outcome.merchant_uid)
    services.see_latest_write("licences", "payments", "subscriptions")
    return RenewalPass(charged=charged)


class Recorded(CamelModel):
    """How many reminders a pass recorded."""

    recorded: int


@router.post(
    "/reminders/run",
    response_model=Recorded,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED),
)
def run_reminders(services: ServicesDep) -> Recorded:
    """What beat's hourly reminder tasks do at their next tick, done now: record every renewal reminder due and every
    price rise's one reminder due (a rise not yet agreed to, its change 7 days away or less)."""
    services.see_latest_write("subscriptions", "price_rises")
    recorded = record_due_reminders(services.store, services.views, services.clock)
    recorded += remind_price_rises(services.store, services.views, services.clock)
    services.see_latest_write("subscriptions", "price_rises")
    return Recorded(recorded=recorded)


class Settled(CamelModel):
    """What the pass over money pending at the gateway found, one line a payment."""

    settled: list[str]


@router.post(
    "/payments/settle",
    response_model=Settled,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED),
)
def run_settling_pass(services: ServicesDep) -> Settled:
    """What beat's minute pass over money pending at the gateway does, done now (application/pending_money.py)."""
    services.see_latest_write("payments")
    found = settle_pending_money(services.store, services.views, services.clock, services.payments)
    services.see_latest_write("licences", "payments", "subscriptions", "refund_requests")
    return Settled(settled=[f"{each.merchant_uid}: {each.pending}: {each.outcome}" for each in found])

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
from domain.errors import DomainError, ErrorCode
from domain.subscriptions.renewal import renew_if_due
from projections.subscriptions import due_subscriptions
from projections.test_clock import SharedTestClock

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

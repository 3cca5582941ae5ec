"""The honest exit: the question asked when auto-renewal is stopped, the one retention offer, and (for finance)
what leaving subscribers said. The rules are the domain's (domain/subscriptions/exit.py); these routes translate
HTTP."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query
from pydantic import Field

from api.access import CallerDep
from api.error_docs import errors
from api.ownership import OwnSubscriptionDep, own_subscription_id
from api.schemas import CamelModel
from api.schemas.subscriptions import SubscriptionState
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from domain.errors import ErrorCode
from domain.subscriptions.exit import (
    COMMENT_LIMIT,
    EXIT_REASONS,
    ExitAnswers,
    accept_retention_offer,
    exit_question,
    stop_auto_renewal,
)
from domain.subscriptions.exit_reasons import exit_summary

router = APIRouter(prefix="/payments/licenses/subscribe", tags=["subscriptions"])
reasons = APIRouter(prefix="/staff", tags=["staff"], responses=STAFF_ERRORS)
VIEWS = ("licences", "payments", "subscriptions")


class RetentionOfferOut(CamelModel):
    """The one offer: ``percentOff`` off the renewal at ``renewsAt`` (``price`` → ``offeredPrice``)."""

    percent_off: int
    factor: str
    renews_at: datetime
    price: int
    offered_price: int
    currency: str


class ExitQuestionOut(CamelModel):
    """What the exit dialog asks (reason codes; ko/en/ja labels are the web's) and the offer, when one is open."""

    reasons: list[str]
    comment_limit: int
    offer: RetentionOfferOut | None


class ExitAnswersIn(CamelModel):
    """Why the subscriber leaves: any of the reason codes, and free text; both optional."""

    reasons: list[str] = Field(default_factory=list, max_length=len(EXIT_REASONS))
    comment: str = Field(default="", max_length=COMMENT_LIMIT)

    def answers(self) -> ExitAnswers:
        return ExitAnswers.of(self.reasons, self.comment)


class ExitIn(ExitAnswersIn):
    """Stop auto-renewal with the answers; ``offerDeclined``: the offer was shown and declined."""

    offer_declined: bool = False


def _factor(services: ServicesDep) -> Decimal:
    return Decimal(services.settings.retention_coupon_factor)


def _after(services: ServicesDep, subscription_id: UUID, position: int) -> SubscriptionState:
    services.see_own_write(position, *VIEWS)
    return SubscriptionState.load(services.store, subscription_id, services.clock.now())


@router.get("/{user_license_id}/exit", response_model=ExitQuestionOut, responses=errors(ErrorCode.NOT_FOUND))
def question(subscription_id: OwnSubscriptionDep, services: ServicesDep, caller: CallerDep) -> ExitQuestionOut:
    """What to ask before auto-renewal stops: the reasons to choose from, and the one retention offer if open."""
    asked = exit_question(
        services.store,
        services.clock,
        account_id=caller.account_id,
        subscription_id=subscription_id,
        factor=_factor(services),
    )
    offer = asked.offer
    return ExitQuestionOut(
        reasons=list(asked.reasons),
        comment_limit=COMMENT_LIMIT,
        offer=None
        if offer is None
        else RetentionOfferOut(
            percent_off=int(offer.factor * 100),
            factor=str(offer.factor),
            renews_at=offer.renews_at,
            price=offer.price,
            offered_price=offer.offered_price,
            currency=offer.currency.value,
        ),
    )


@router.post(
    "/{user_license_id}/exit",
    response_model=SubscriptionState,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_VALUE),
)
def leave(user_license_id: UUID, body: ExitIn, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """Stop auto-renewal with the subscriber's answers (as DELETE /payments/licenses/subscribe/{id} does); the
    licence runs to the paid date (past due: it ends now). A confirmation mail follows."""
    subscription_id = own_subscription_id(services, caller.account_id, user_license_id)
    position = stop_auto_renewal(
        services.store,
        services.clock,
        account_id=caller.account_id,
        subscription_id=subscription_id,
        answers=body.answers(),
        offer_declined=body.offer_declined,
    )
    return _after(services, subscription_id, position)


@router.post(
    "/{user_license_id}/exit/offer",
    response_model=SubscriptionState,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.CODE_CANNOT_BE_USED, ErrorCode.PROMOTION_ALREADY_USED),
)
def stay(user_license_id: UUID, body: ExitAnswersIn, services: ServicesDep, caller: CallerDep) -> SubscriptionState:
    """Take the one retention offer instead of leaving: the next renewal is charged the offered price, auto-renewal
    stays on (-612 when the offer was answered before, -604 when none is open)."""
    subscription_id = own_subscription_id(services, caller.account_id, user_license_id)
    position = accept_retention_offer(
        services.store,
        services.clock,
        account_id=caller.account_id,
        subscription_id=subscription_id,
        answers=body.answers(),
        factor=_factor(services),
    )
    return _after(services, subscription_id, position)


class ReasonCount(CamelModel):
    """One reason: how many who stopped renewing chose it, and how many who took the offer instead."""

    reason: str
    cancelled: int
    stayed: int


class ExitCommentOut(CamelModel):
    at: datetime
    outcome: str
    reasons: list[str]
    comment: str


class CancellationReasonsOut(CamelModel):
    """What leaving subscribers said in the period: counts per reason, outcomes, and the latest comments."""

    cancelled: int
    stayed: int
    unanswered: int
    offers_declined: int
    reasons: list[ReasonCount]
    comments: list[ExitCommentOut]


@reasons.get("/cancellation-reasons", response_model=CancellationReasonsOut)
def cancellation_reasons(
    caller: StaffDep,
    services: ServicesDep,
    since: Annotated[datetime | None, Query(description="from this moment on (ISO 8601)")] = None,
    until: Annotated[datetime | None, Query(description="before this moment (ISO 8601)")] = None,
) -> CancellationReasonsOut:
    """Why subscribers stopped auto-renewal (or took the retention offer instead), read from the log."""
    summary = exit_summary(services.store, since, until)
    return CancellationReasonsOut(
        cancelled=summary.cancelled,
        stayed=summary.stayed,
        unanswered=summary.unanswered,
        offers_declined=summary.offers_declined,
        reasons=[ReasonCount(reason=name, cancelled=left, stayed=kept) for name, left, kept in summary.rows()],
        comments=[
            ExitCommentOut(at=item.at, outcome=item.outcome, reasons=list(item.reasons), comment=item.comment)
            for item in summary.comments
        ],
    )

"""Consent before a price rise in the back office (docs/catalogue.md): per rise, who agreed, declined, has not
answered, or lapsed (auto-renewal stopped without an answer). Support and marketing read it (``read-customers``)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from fastapi import APIRouter

from api.schemas import CamelModel
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from application.price_rises import price_rise_answers, price_rises

router = APIRouter(prefix="/staff/price-rises", tags=["staff"], responses=STAFF_ERRORS)


class RiseOut(CamelModel):
    """One catalogue version's rise and its answers counted."""

    catalogue_version: int
    asked: int
    agreed: int
    declined: int
    pending: int
    lapsed: int


class AnswerOut(CamelModel):
    """One subscriber asked, and their answer."""

    subscription_id: UUID
    account_id: UUID
    user_licence_id: UUID
    kind: str
    previous_price: int
    new_price: int
    currency: str
    asked_at: datetime
    changes_at: datetime
    answer: str
    answered_at: datetime | None
    reminded_at: datetime | None


class RiseAnswersOut(CamelModel):
    """Everyone asked about one rise."""

    catalogue_version: int
    answers: list[AnswerOut]


@router.get("")
def every_price_rise(caller: StaffDep, services: ServicesDep) -> list[RiseOut]:
    """Every rise asked about, newest first, with how many agreed, declined, have not answered or lapsed."""
    services.see_latest_write("price_rises")
    return [RiseOut.model_validate(item, from_attributes=True) for item in price_rises(services.views)]


@router.get("/{catalogue_version}")
def answers_to_a_price_rise(catalogue_version: int, caller: StaffDep, services: ServicesDep) -> RiseAnswersOut:
    """Who was asked about version ``catalogue_version``'s rise, and what each answered."""
    services.see_latest_write("price_rises")
    answers = [
        AnswerOut(
            subscription_id=item.subscription_id,
            account_id=item.account_id,
            user_licence_id=item.user_licence_id,
            kind=item.kind,
            previous_price=item.previous_amount,
            new_price=item.amount,
            currency=item.currency,
            asked_at=item.asked_at,
            changes_at=item.changes_at,
            answer=item.answer,
            answered_at=item.answered_at,
            reminded_at=item.reminded_at,
        )
        for item in price_rise_answers(services.views, catalogue_version)
    ]
    return RiseAnswersOut(catalogue_version=catalogue_version, answers=answers)

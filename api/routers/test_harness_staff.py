"""The test harness's staff (never in production): a browser story makes the back-office member it needs and
enrols them through the link, as an owner's invitation would give it."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Depends
from pydantic import Field

from api.admin_token import admin_only
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.staff.signin import enrolment_link_token
from harness.staff import seed_member

router = APIRouter(prefix="/test-harness", tags=["test harness"])


class SeedIn(CamelModel):
    email: str = Field(min_length=3, max_length=254)
    name: str = Field(min_length=1, max_length=100)
    roles: list[str] = Field(min_length=1, max_length=4)


class Seeded(CamelModel):
    """The new member and their enrolment link (good once, for three days)."""

    member_id: UUID
    enrolment_link: str


@router.post(
    "/staff/members",
    response_model=Seeded,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.EMAIL_ALREADY_REGISTERED),
)
def seed_staff_member(body: SeedIn, services: ServicesDep) -> Seeded:
    """A back-office member with these roles, and the link they enrol with."""
    member = seed_member(services.store, services.clock, email=body.email, name=body.name, roles=body.roles)
    token = enrolment_link_token(services.settings.auth_secret, member, services.clock.now())
    return Seeded(member_id=member.id, enrolment_link=f"{services.settings.base_url}/admin/enrol?token={token}")

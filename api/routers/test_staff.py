"""The test harness's staff (never in production; mounted with TEST_ADMIN_TOKEN): a member of given roles with an
enrolment link, for browser stories that need one whoever made the first owner."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Depends
from pydantic import EmailStr, Field

from api.admin_token import admin_only
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.staff.harness import add_test_member
from domain.staff.signin import enrolment_link_token

router = APIRouter(prefix="/test-harness", tags=["test harness"])


class HarnessMemberIn(CamelModel):
    """Who to add, with which roles."""

    email: EmailStr
    name: str = Field(min_length=1, max_length=100)
    roles: list[str] = Field(min_length=1, max_length=4)


class HarnessMemberOut(CamelModel):
    """The new member and their enrolment link (good once)."""

    member_id: UUID
    enrolment_link: str


@router.post(
    "/staff/members",
    response_model=HarnessMemberOut,
    dependencies=[Depends(admin_only)],
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.DUPLICATE_PARAMETER, ErrorCode.INVALID_VALUE),
)
def add_member(body: HarnessMemberIn, services: ServicesDep) -> HarnessMemberOut:
    """Add a staff member of the given roles (the harness stands in for an owner's invitation)."""
    member = add_test_member(services.store, services.clock, email=body.email, name=body.name, roles=body.roles)
    token = enrolment_link_token(services.settings.auth_secret, member, services.clock.now())
    return HarnessMemberOut(
        member_id=member.id, enrolment_link=f"{services.settings.base_url}/admin/enrol?token={token}"
    )

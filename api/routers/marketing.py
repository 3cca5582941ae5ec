"""Marketing's part of the back office: coupon groups (open, change, issue and export private codes, see each
group's redemptions and what they gave away, disable at once) and the banner board (post, schedule, change and end
event banners and notices, with images checked as report images are). Every change is a staff use case
(domain/staff/marketing.py) that records the member and their reason."""

from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Request, Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from api.banner_forms import MULTIPART_DOC, banner_form
from api.error_docs import errors
from api.schemas import CamelModel
from api.schemas.coupons import BannerOut, CouponGroupOut
from api.services import Services, ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from domain.banners.board import load_board
from domain.coupons.admin import GroupCodes, load_group
from domain.coupons.group import GroupRules
from domain.errors import DomainError, ErrorCode
from domain.staff.marketing import (
    change_banner_for,
    change_coupon_group,
    disable_coupon_group,
    end_banner,
    issue_codes,
    open_coupon_group,
    post_banner_for,
)
from eventlog import csv_files
from projections.coupons import coupon_groups, group_codes, group_redemptions

router = APIRouter(prefix="/staff", tags=["staff: marketing"], responses=STAFF_ERRORS)

GroupId = Annotated[UUID, Path(description="the coupon group's id")]
BannerId = Annotated[int, Path(ge=1, le=1_000_000, description="the banner's number on the board")]
Reason = Annotated[str, Field(min_length=1, max_length=500)]
CHANGE_ERRORS = errors(ErrorCode.EMPTY_PARAMETER, ErrorCode.INVALID_VALUE)


class CouponGroupIn(CamelModel):
    """A new coupon group (spec: couponGroup; dates without a zone are +09:00); ``code`` names a public group's
    shared code (else ``default``); a private group issues ``issuedCount`` codes."""

    name: str = Field(min_length=1, max_length=100)
    coupon_group_type: str = Field(default="public", pattern="^(public|private)$")
    constraint_type: str = Field(default="none", pattern="^(none|account|userlicense)$")
    apply_default_country: bool = False
    available_duration: int = Field(default=0, ge=0, le=36_500)
    countries: list[str] = Field(default_factory=list, max_length=300)
    enabled: bool = True
    start_at: datetime | None = None
    exp_at: datetime | None = None
    factor: Decimal = Field(gt=0, le=1)
    operator: str = Field(default="multiply", pattern="^multiply$")
    sub_issued_count: int = Field(default=1, ge=1, le=4294967295)
    issued_count: int = Field(default=1, ge=1, le=10_000)
    currency: str | None = Field(default=None, max_length=3)
    code: str | None = Field(default=None, min_length=1, max_length=50)
    reason: Reason


class CouponGroupChange(CamelModel):
    """Changes to a group's rules (only the fields sent change; its type never does)."""

    name: str | None = Field(default=None, min_length=1, max_length=100)
    constraint_type: str | None = Field(default=None, pattern="^(none|account|userlicense)$")
    apply_default_country: bool | None = None
    available_duration: int | None = Field(default=None, ge=0, le=36_500)
    countries: list[str] | None = Field(default=None, max_length=300)
    enabled: bool | None = None
    start_at: datetime | None = None
    exp_at: datetime | None = None
    factor: Decimal | None = Field(default=None, gt=0, le=1)
    operator: str | None = Field(default=None, pattern="^multiply$")
    sub_issued_count: int | None = Field(default=None, ge=1, le=4294967295)
    issued_count: int | None = Field(default=None, ge=1, le=10_000)
    currency: str | None = Field(default=None, max_length=3)
    reason: Reason


class ReasonIn(CamelModel):
    reason: Reason


class IssueIn(CamelModel):
    """How many more codes a private group issues."""

    count: int = Field(ge=1, le=10_000)
    reason: Reason


class Totals(CamelModel):
    """Redemptions in one currency: how many, what they charged (less refunds) and what the coupon took off."""

    currency: str
    redemptions: int
    charged: int
    given_away: int


class CouponGroupRow(CamelModel):
    """A group in the list."""

    coupon_group: CouponGroupOut
    codes: int
    created_at: str
    changed_at: str
    totals: list[Totals]


class CouponCodeRow(CamelModel):
    code: str
    used: int
    issued_at: str


class RedemptionOut(CamelModel):
    """One use of a code: who, when, which payment, and what the coupon gave away."""

    code: str
    merchant_uid: str
    buyer_email: str
    account_id: str | None
    user_licence_id: str | None
    redeemed_at: str
    name: str | None
    amount: int | None
    currency: str | None
    given_away: int | None
    state: str | None
    pay_method: str | None
    paid_at: str | None
    cancel_amount: int | None


class CouponGroupPage(CamelModel):
    """A group: its rules, codes, redemptions and their totals."""

    coupon_group: CouponGroupOut
    codes: list[CouponCodeRow]
    redemptions: list[RedemptionOut]
    totals: list[Totals]


def _totals(totals: dict[str, dict[str, int]]) -> list[Totals]:
    return [Totals(currency=currency, **values) for currency, values in sorted(totals.items())]


def _rules(record: dict[str, Any]) -> GroupRules:
    values = dict(record)
    for moment in ("start_at", "exp_at"):
        if values.get(moment):
            values[moment] = datetime.fromisoformat(values[moment])
    return GroupRules.from_record(values)


def _invalid(run: Any) -> Any:
    try:
        return run()
    except (ValueError, KeyError, TypeError) as bad:
        raise DomainError(ErrorCode.INVALID_VALUE, str(bad)) from None


def _page(services: Services, group_id: UUID, codes: GroupCodes | None = None) -> CouponGroupPage:
    if codes is not None and codes.position:
        services.see_own_write(codes.position, "coupons")
    group = load_group(services.store, group_id)
    rows, totals = group_redemptions(services.views, group_id)
    return CouponGroupPage(
        coupon_group=CouponGroupOut.of(group_id, group.rules),
        codes=[CouponCodeRow.model_validate(row) for row in group_codes(services.views, group_id)],
        redemptions=[RedemptionOut.model_validate(row) for row in rows],
        totals=_totals(totals),
    )


@router.get("/coupon-groups")
def list_coupon_groups(caller: StaffDep, services: ServicesDep) -> list[CouponGroupRow]:
    """Every coupon group, newest first, with its codes' count, redemptions and revenue given away."""
    return [
        CouponGroupRow(
            coupon_group=CouponGroupOut.of(UUID(row["group_id"]), _rules(row["rules"])),
            codes=row["codes"],
            created_at=row["created_at"],
            changed_at=row["changed_at"],
            totals=_totals(row["totals"]),
        )
        for row in coupon_groups(services.views)
    ]


@router.post("/coupon-groups", status_code=201, responses=CHANGE_ERRORS)
def create_coupon_group(body: CouponGroupIn, caller: StaffDep, services: ServicesDep) -> CouponGroupPage:
    """Open a coupon group and issue its codes (a reason is required)."""
    fields = body.model_dump(by_alias=False, exclude={"code", "reason"})
    fields["group_type"] = fields.pop("coupon_group_type")
    rules = _invalid(lambda: GroupRules.from_record(fields))
    codes = open_coupon_group(
        services.store, services.clock, caller.member.id, rules=rules, code=body.code, reason=body.reason
    )
    return _page(services, codes.group_id, codes)


@router.get("/coupon-groups/{group_id}")
def coupon_group(group_id: GroupId, caller: StaffDep, services: ServicesDep) -> CouponGroupPage:
    """A group: its rules, its codes with their uses, each redemption (who, when, which payment) and the totals."""
    return _page(services, group_id)


@router.patch("/coupon-groups/{group_id}", responses=CHANGE_ERRORS)
def change_a_coupon_group(
    group_id: GroupId, body: CouponGroupChange, caller: StaffDep, services: ServicesDep
) -> CouponGroupPage:
    """Change a group's rules (the same checks as a new group's; a grown issuedCount issues the extra codes)."""
    changes = body.model_dump(by_alias=False, exclude={"reason"}, exclude_unset=True)
    codes = _invalid(
        lambda: change_coupon_group(
            services.store,
            services.clock,
            caller.member.id,
            group_id=group_id,
            changes=changes,
            reason=body.reason,
        )
    )
    return _page(services, group_id, codes)


@router.post("/coupon-groups/{group_id}/disable", responses=CHANGE_ERRORS)
def disable_a_coupon_group(
    group_id: GroupId, body: ReasonIn, caller: StaffDep, services: ServicesDep
) -> CouponGroupPage:
    """Turn the group off at once: every code of it answers -603 from the next check."""
    codes = disable_coupon_group(
        services.store, services.clock, caller.member.id, group_id=group_id, reason=body.reason
    )
    return _page(services, group_id, codes)


@router.post("/coupon-groups/{group_id}/codes", responses=CHANGE_ERRORS)
def issue_more_codes(group_id: GroupId, body: IssueIn, caller: StaffDep, services: ServicesDep) -> CouponGroupPage:
    """Issue more codes of a private group."""
    codes = issue_codes(
        services.store, services.clock, caller.member.id, group_id=group_id, count=body.count, reason=body.reason
    )
    return _page(services, group_id, codes)


@router.get(
    "/coupon-groups/{group_id}/codes.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "the codes as CSV"}},
)
def export_codes(group_id: GroupId, caller: StaffDep, services: ServicesDep) -> Response:
    """A group's codes as CSV (code, uses, issued at), to hand out a private group's codes."""
    group = load_group(services.store, group_id)
    out = io.StringIO()
    writer = csv_files.writer(out)
    writer.writerow(["code", "used", "subIssuedCount", "issuedAt", "group"])
    for row in group_codes(services.views, group_id):
        writer.writerow([row["code"], row["used"], group.rules.sub_issued_count, row["issued_at"], group.rules.name])
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="coupon-codes-{group_id}.csv"'},
    )


BANNER_ERRORS = errors(
    ErrorCode.EMPTY_PARAMETER,
    ErrorCode.INVALID_VALUE,
    ErrorCode.IMAGE_TYPE_NOT_ALLOWED,
    ErrorCode.IMAGE_TOO_LARGE,
    ErrorCode.TOO_MANY_IMAGES,
)


@router.get("/banners")
def list_banners(caller: StaffDep, services: ServicesDep) -> list[BannerOut]:
    """Every event banner and notice on the board, newest first (shown or not)."""
    board = load_board(services.store)
    if board is None:
        return []
    return [BannerOut.of(banner) for banner in sorted(board.banners.values(), key=lambda b: b.id, reverse=True)]


@router.post(
    "/banners", status_code=201, response_model=BannerOut, responses=BANNER_ERRORS, openapi_extra=MULTIPART_DOC
)
async def post_a_banner(request: Request, caller: StaffDep, services: ServicesDep) -> BannerOut:
    """Post an event banner or a notice (multipart: the ``eventBanner`` JSON, its images, and a ``reason``)."""
    record = await banner_form(request, services)
    record.pop("id")
    reason = record.pop("reason")
    banner = await run_in_threadpool(
        lambda: _invalid(
            lambda: post_banner_for(services.store, services.clock, caller.member.id, record=record, reason=reason)
        )
    )
    return BannerOut.of(banner)


@router.patch("/banners/{banner_id}", response_model=BannerOut, responses=BANNER_ERRORS, openapi_extra=MULTIPART_DOC)
async def change_a_banner(banner_id: BannerId, request: Request, caller: StaffDep, services: ServicesDep) -> BannerOut:
    """Change a banner (the ``eventBanner`` JSON carries the fields to change; images sent replace theirs)."""
    record = await banner_form(request, services, partial=True)
    record.pop("id")
    reason = record.pop("reason")
    if not record["localizations"]:
        record.pop("localizations")
    banner = await run_in_threadpool(
        lambda: _invalid(
            lambda: change_banner_for(
                services.store, services.clock, caller.member.id, banner_id=banner_id, changes=record, reason=reason
            )
        )
    )
    return BannerOut.of(banner)


@router.post("/banners/{banner_id}/end", response_model=BannerOut)
def end_a_banner(banner_id: BannerId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> BannerOut:
    """Take a banner or notice down at once."""
    return BannerOut.of(
        end_banner(services.store, services.clock, caller.member.id, banner_id=banner_id, reason=body.reason)
    )

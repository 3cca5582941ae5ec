"""The test-only admin API of spec section 7 (never in production; mounted with TEST_ADMIN_TOKEN under
``/test-harness/admin``): log in with the test credential, create and change coupon groups and event banners
(multipart, with images), list a group's codes."""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from api.banner_forms import MULTIPART_DOC, banner_form
from api.error_docs import errors
from api.schemas import CamelModel
from api.schemas.coupons import BannerOut, CouponGroupOut
from api.services import Services, ServicesDep
from domain.banners.board import change_banner, post_banner
from domain.coupons.admin import GroupCodes, change_group, group_codes, open_group
from domain.coupons.group import GroupRules
from domain.errors import DomainError, ErrorCode

router = APIRouter(prefix="/test-harness/admin", tags=["test harness"])
_bearer = HTTPBearer(auto_error=False)


def _admin_token(services: Services) -> str:
    secret = services.settings.auth_secret.encode()
    return hmac.new(secret, f"test-admin:{services.settings.test_admin_token}".encode(), hashlib.sha256).hexdigest()


def admin_caller(
    services: ServicesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    x_admin_token: Annotated[str | None, Header()] = None,
) -> None:
    """The bearer from ``POST /test-harness/admin/auth/login``, or the X-Admin-Token header; 401 otherwise."""
    expected = services.settings.test_admin_token
    if expected and x_admin_token and hmac.compare_digest(expected.encode(), x_admin_token.encode()):
        return
    if (
        expected
        and credentials
        and hmac.compare_digest(_admin_token(services).encode(), credentials.credentials.encode())
    ):
        return
    raise DomainError(ErrorCode.UNAUTHORIZED, "admin login required")


AdminOnly = [Depends(admin_caller)]


class AdminLogin(CamelModel):
    """The test credential: TEST_ADMIN_EMAIL (default admin@unicornpro.test) and TEST_ADMIN_TOKEN as password."""

    email: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=200)


class AdminSession(CamelModel):
    """A bearer for the admin calls."""

    access_token: str


@router.post("/auth/login", response_model=AdminSession, responses=errors(ErrorCode.UNAUTHORIZED))
def admin_login(body: AdminLogin, services: ServicesDep) -> AdminSession:
    """Log in with the build environment's test credential."""
    settings = services.settings
    # Compared as UTF-8 bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500).
    matches = hmac.compare_digest(
        body.email.lower().encode(), settings.test_admin_email.lower().encode()
    ) and hmac.compare_digest(body.password.encode(), settings.test_admin_token.encode())
    if not settings.test_admin_token or not matches:
        raise DomainError(ErrorCode.UNAUTHORIZED, "not the test credential")
    return AdminSession(access_token=_admin_token(services))


class CouponGroupIn(CamelModel):
    """A new coupon group (spec: couponGroup); ``code`` names a public group's shared code (else ``default``)."""

    name: str
    coupon_group_type: str = "public"
    constraint_type: str = "none"
    apply_default_country: bool = False
    available_duration: int = 0
    countries: list[str] = Field(default_factory=list)
    enabled: bool = True
    start_at: datetime | None = None
    exp_at: datetime | None = None
    factor: Decimal
    operator: str = "multiply"
    sub_issued_count: int = 1
    issued_count: int = 1
    currency: str | None = None
    code: str | None = Field(default=None, max_length=50)


class CouponGroupPatch(CamelModel):
    """Changes to a group: its id and the fields to change."""

    id: UUID
    name: str | None = None
    constraint_type: str | None = None
    apply_default_country: bool | None = None
    available_duration: int | None = None
    countries: list[str] | None = None
    enabled: bool | None = None
    start_at: datetime | None = None
    exp_at: datetime | None = None
    factor: Decimal | None = None
    operator: str | None = None
    sub_issued_count: int | None = None
    issued_count: int | None = None
    currency: str | None = None


class CouponCodeOut(CamelModel):
    """One code of a group and how often it was used."""

    code: str
    used_count: int
    coupon_group: CouponGroupOut


class CouponGroupCreated(CamelModel):
    """A group and its codes."""

    coupon_group: CouponGroupOut
    coupons: list[CouponCodeOut]


def _created(codes: GroupCodes) -> CouponGroupCreated:
    group = CouponGroupOut.of(codes.group_id, codes.rules)
    return CouponGroupCreated(
        coupon_group=group,
        coupons=[CouponCodeOut(code=code, used_count=used, coupon_group=group) for code, used in codes.codes],
    )


def _rules_record(fields: dict[str, Any]) -> dict[str, Any]:
    record = dict(fields)
    if "coupon_group_type" in record:
        record["group_type"] = record.pop("coupon_group_type")
    return record


@router.post(
    "/coupons/group",
    response_model=CouponGroupCreated,
    dependencies=AdminOnly,
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.DUPLICATE_PARAMETER, ErrorCode.INVALID_VALUE),
)
def create_coupon_group(body: CouponGroupIn, services: ServicesDep) -> CouponGroupCreated:
    """Open a group and issue its codes."""
    fields = body.model_dump(by_alias=False, exclude={"code"})
    try:
        rules = GroupRules.from_record(_rules_record(fields))
    except (ValueError, KeyError) as bad:
        raise DomainError(ErrorCode.INVALID_VALUE, str(bad)) from None
    return _created(open_group(services.store, services.clock.now(), rules, code=body.code))


@router.patch(
    "/coupons/group",
    response_model=CouponGroupCreated,
    dependencies=AdminOnly,
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND, ErrorCode.INVALID_VALUE),
)
def change_coupon_group(body: CouponGroupPatch, services: ServicesDep) -> CouponGroupCreated:
    """Change a group's rules (a private group whose issuedCount grew issues the extra codes)."""
    changes = body.model_dump(by_alias=False, exclude={"id"}, exclude_unset=True)
    try:
        codes = change_group(services.store, services.clock.now(), body.id, changes)
    except (ValueError, KeyError) as bad:
        raise DomainError(ErrorCode.INVALID_VALUE, str(bad)) from None
    return _created(codes)


@router.get(
    "/coupons/coupon",
    response_model=list[CouponCodeOut],
    dependencies=AdminOnly,
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND),
)
def coupon_codes(
    services: ServicesDep, coupon_group_ids: Annotated[str, Query(alias="couponGroupIds", min_length=1)]
) -> list[CouponCodeOut]:
    """Every code of the given groups (comma-separated ids) with its uses."""
    try:
        ids = [UUID(part.strip()) for part in coupon_group_ids.split(",") if part.strip()]
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, "couponGroupIds are comma-separated uuids") from None
    answer = []
    for group_id in ids:
        answer.extend(_created(group_codes(services.store, group_id)).coupons)
    return answer


BANNER_ERRORS = errors(
    ErrorCode.UNAUTHORIZED,
    ErrorCode.NOT_FOUND,
    ErrorCode.IMAGE_TYPE_NOT_ALLOWED,
    ErrorCode.IMAGE_TOO_LARGE,
    ErrorCode.TOO_MANY_IMAGES,
)


@router.post(
    "/event-banners",
    response_model=BannerOut,
    dependencies=AdminOnly,
    responses=BANNER_ERRORS,
    openapi_extra=MULTIPART_DOC,
)
async def create_banner(request: Request, services: ServicesDep) -> BannerOut:
    """Post an event banner or a notice (multipart: the ``eventBanner`` JSON and its images)."""
    record = await banner_form(request, services)
    record.pop("id")
    record.pop("reason")
    return BannerOut.of(await run_in_threadpool(post_banner, services.store, services.clock.now(), record))


@router.patch(
    "/event-banners",
    response_model=BannerOut,
    dependencies=AdminOnly,
    responses=BANNER_ERRORS,
    openapi_extra=MULTIPART_DOC,
)
async def change_banner_route(request: Request, services: ServicesDep) -> BannerOut:
    """Change a banner (the ``eventBanner`` JSON carries its ``id`` and the fields to change; images replace)."""
    record = await banner_form(request, services)
    record.pop("reason")
    banner_id = record.pop("id")
    if banner_id is None:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "eventBanner.id names the banner to change")
    if not record["localizations"]:
        record.pop("localizations")
    banner = await run_in_threadpool(change_banner, services.store, services.clock.now(), banner_id, record)
    return BannerOut.of(banner)

"""Coupons and banners as visitors see them: look a code up, check it for a buyer, what a payment used,
and the banner and notice above the header (spec section 7)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Response
from pydantic import EmailStr, Field

from api.access import CallerDep, OptionalCallerDep
from api.error_docs import errors
from api.schemas import CamelModel
from api.schemas.coupons import COUPON_REFUSALS, BannerOut, CouponGroupOut
from api.services import ServicesDep
from domain.accounts.account import Account
from domain.banners.board import showing
from domain.coupons.group import ConstraintType
from domain.coupons.redemption import Coupon, check_for_buyer, find_coupon
from domain.errors import DomainError, ErrorCode
from projections.payments import payment_of

router = APIRouter(prefix="/payments", tags=["coupons"])
banners = APIRouter(prefix="/event-banners", tags=["coupons"])


class CouponOut(CamelModel):
    """A code and its group (spec: coupon)."""

    code: str
    coupon_group: CouponGroupOut

    @classmethod
    def of(cls, coupon: Coupon) -> CouponOut:
        """The wire form of a coupon."""
        return cls(code=coupon.code, coupon_group=CouponGroupOut.of(coupon.group_id, coupon.rules))


def _email_of(services: ServicesDep, account_id: UUID) -> str:
    account: Account = services.store.repository.get(account_id)
    return str(account.email)


@router.get("/coupons", response_model=CouponOut, responses=errors(*COUPON_REFUSALS))
def coupon(
    services: ServicesDep,
    caller: OptionalCallerDep,
    code: Annotated[str, Query(min_length=1, max_length=50)],
    license_id: Annotated[int | None, Query(alias="licenseId", gt=0)] = None,
    user_license_id: Annotated[UUID | None, Query(alias="userLicenseId")] = None,
) -> CouponOut:
    """A code and its group when it can be used now (for a licence: when it discounts that licence's life; for
    a user licence: when that licence has not used the group)."""
    email = _email_of(services, caller.account_id) if caller else None
    found = find_coupon(services.store, code)
    if found.rules.constraint_type is ConstraintType.ACCOUNT and email is None:
        found.check_open(services.clock.now())  # a visitor's email is checked by POST /payments/coupons/check
    else:
        found = check_for_buyer(
            services.store, services.clock.now(), code, buyer_email=email, user_licence_id=user_license_id
        )
    if license_id is not None:
        licence = services.catalogue.get(license_id)
        if licence is None:
            raise DomainError(ErrorCode.CODE_CANNOT_BE_USED, f"licence {license_id} is not on sale")
        if found.rules.available_duration and licence.life != found.rules.available_duration:
            raise DomainError(ErrorCode.CODE_CANNOT_BE_USED, "the coupon does not discount this licence")
    return CouponOut.of(found)


class CouponCheck(CamelModel):
    """A buyer asks whether a code's constraint lets them use it (guests give their email)."""

    code: str = Field(min_length=1, max_length=50)
    email: EmailStr | None = None
    purchase_type: str = Field(default="new", pattern="^(new|upgrade|subscribe|resubscribe)$")
    user_license_id: UUID | None = None


@router.post("/coupons/check", response_model=CouponOut, responses=errors(*COUPON_REFUSALS, ErrorCode.INVALID_VALUE))
def check_coupon(body: CouponCheck, services: ServicesDep, caller: OptionalCallerDep) -> CouponOut:
    """The code is open and this buyer (a member, or a guest by email) or user licence has not used its group;
    -2 when the group is once per account and a guest gave no email; already used: -613 (by the account or
    address), -614 (by the user licence), -612 (a private single-use code)."""
    email = _email_of(services, caller.account_id) if caller else (str(body.email) if body.email else None)
    found = check_for_buyer(
        services.store,
        services.clock.now(),
        body.code,
        buyer_email=email,
        user_licence_id=body.user_license_id,
    )
    return CouponOut.of(found)


class PaymentCoupon(CamelModel):
    """The code a payment was priced with (null when none)."""

    coupon_code: str | None


@router.get("/licenses/{merchant_uid}/coupon", response_model=PaymentCoupon, responses=errors(ErrorCode.NOT_FOUND))
def payment_coupon(merchant_uid: str, services: ServicesDep, caller: CallerDep) -> PaymentCoupon:
    """The coupon code of one of the caller's payments (404 when not theirs)."""
    row = payment_of(services.views, caller.account_id, merchant_uid)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return PaymentCoupon(coupon_code=row.get("coupon_code"))


class BannersOut(CamelModel):
    """What shows above the header now: the code's group, an event banner, a notice (each may be null)."""

    coupon_group: CouponGroupOut | None
    event_banner: BannerOut | None
    notice: BannerOut | None


@banners.get("", response_model=BannersOut)
def event_banners(
    services: ServicesDep,
    code: Annotated[str | None, Query(max_length=50)] = None,
    country_code: Annotated[str | None, Query(alias="countryCode", max_length=2)] = None,
) -> BannersOut:
    """The banner and notice a visitor from ``countryCode`` sees now; with a ``code``, its group and the event
    banner advertising it (an unknown code just shows no group)."""
    group = None
    if code and code.strip():
        try:
            group = find_coupon(services.store, code)
        except DomainError:
            group = None
    shown = showing(services.store, services.clock.now(), country_code, group.group_id if group else None)
    return BannersOut(
        coupon_group=CouponGroupOut.of(group.group_id, group.rules) if group else None,
        event_banner=BannerOut.of(shown.event_banner) if shown.event_banner else None,
        notice=BannerOut.of(shown.notice) if shown.notice else None,
    )


@banners.get(
    "/images/{name}",
    response_class=Response,
    responses={200: {"content": {"image/png": {}, "image/jpeg": {}, "image/gif": {}}}, **errors(ErrorCode.NOT_FOUND)},
)
def banner_image(
    name: Annotated[str, Field(pattern=r"^[0-9a-f]{32}\.(png|jpg|gif)$")], services: ServicesDep
) -> Response:
    """A banner image uploaded through the admin API."""
    stored = services.objects.get(f"banners/{name}")
    if stored is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return Response(stored.data, media_type=stored.content_type, headers={"Cache-Control": "public, max-age=86400"})

"""Coupon and banner models the visitors' and the admin's routers share, and why a code may be refused."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from api.schemas import CamelModel
from domain.banners.board import Banner
from domain.coupons.group import GroupRules
from domain.errors import ErrorCode

# Why a code cannot discount an order: checked when asked, when ordering, and again when the payment settles.
COUPON_REFUSALS = (
    ErrorCode.COUPON_NOT_FOUND,
    ErrorCode.COUPON_USAGE_EXCEEDED,
    ErrorCode.COUPON_UNUSABLE,
    ErrorCode.CODE_CANNOT_BE_USED,
    ErrorCode.CODE_EXPIRED,
    ErrorCode.PROMOTION_ALREADY_USED,
    ErrorCode.PROMOTION_ALREADY_USED_BY_ACCOUNT,
    ErrorCode.PROMOTION_ALREADY_USED_BY_LICENSE,
    ErrorCode.PROMOTION_ALREADY_USED_BY_EMAIL,
)


class CouponGroupOut(CamelModel):
    """A coupon group's rules (spec: couponGroup); dates in +09:00."""

    id: UUID
    name: str
    coupon_group_type: str
    constraint_type: str
    apply_default_country: bool
    available_duration: int
    countries: list[str]
    enabled: bool
    start_at: datetime | None
    exp_at: datetime | None
    factor: Decimal
    operator: str
    sub_issued_count: int
    issued_count: int
    currency: str | None

    @classmethod
    def of(cls, group_id: UUID, rules: GroupRules) -> CouponGroupOut:
        """The wire form of a group's rules."""
        return cls(
            id=group_id,
            name=rules.name,
            coupon_group_type=rules.group_type.value,
            constraint_type=rules.constraint_type.value,
            apply_default_country=rules.apply_default_country,
            available_duration=rules.available_duration,
            countries=list(rules.countries),
            enabled=rules.enabled,
            start_at=rules.start_at,
            exp_at=rules.exp_at,
            factor=rules.factor,
            operator=rules.operator.value,
            sub_issued_count=rules.sub_issued_count,
            issued_count=rules.issued_count,
            currency=rules.currency,
        )


class BannerLocalizationOut(CamelModel):
    """A banner's content in one language."""

    lang_code: str
    text: str | None = None
    sub_text: str | None = None
    text_color: str | None = None
    sub_text_color: str | None = None
    background_color: str | None = None
    background_image_url: str | None = None
    pc_image_url: str | None = None
    mobile_image_url: str | None = None
    close_button_color: str | None = None
    url: str | None = None


class BannerOut(CamelModel):
    """An event banner or a notice (spec: eventBanner, notice); dates in +09:00."""

    id: int
    type: str
    active: bool
    start_at: datetime | None
    end_at: datetime | None
    apply_country: list[str]
    coupon_group_id: UUID | None
    localizations: list[BannerLocalizationOut]

    @classmethod
    def of(cls, banner: Banner) -> BannerOut:
        """The wire form of a banner (a notice's window widened to whole days)."""
        start, end = banner.window
        return cls(
            id=banner.id,
            type=banner.type.value,
            active=banner.active,
            start_at=start,
            end_at=end,
            apply_country=list(banner.apply_country),
            coupon_group_id=banner.coupon_group_id,
            localizations=[BannerLocalizationOut(**_plain(item)) for item in banner.localizations],
        )


def _plain(item: Any) -> dict[str, Any]:
    return {key: value for key, value in dict(item).items() if value is not None}

"""Events of coupon groups, their codes, the once-per-buyer claims, and the event-banner board."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class CouponGroupCreated(StoredCreation):
    """An operator opened a coupon group: its rules, shared by every code it issues (the fields of
    ``domain.coupons.group.GroupRules``)."""

    TOPIC = "coupon.GroupCreated"
    name: str
    group_type: str
    constraint_type: str
    factor: Decimal
    operator: str
    available_duration: int
    countries: list[str]
    apply_default_country: bool
    enabled: bool
    start_at: datetime | None
    exp_at: datetime | None
    sub_issued_count: int
    issued_count: int
    currency: str | None


class CouponGroupChanged(StoredEvent):
    """An operator changed some of a group's rules; the event carries the whole new set."""

    TOPIC = "coupon.GroupChanged"
    name: str
    group_type: str
    constraint_type: str
    factor: Decimal
    operator: str
    available_duration: int
    countries: list[str]
    apply_default_country: bool
    enabled: bool
    start_at: datetime | None
    exp_at: datetime | None
    sub_issued_count: int
    issued_count: int
    currency: str | None


class CouponCodesIssued(StoredEvent):
    """The group issued codes (a public group's one shared code, or a private group's codes)."""

    TOPIC = "coupon.CodesIssued"
    codes: list[str]


class CouponCodeIssued(StoredCreation):
    """A code exists and belongs to a group (the aggregate doubles as the code's uniqueness index)."""

    TOPIC = "coupon.CodeIssued"
    code: str
    group_id: UUID


class CouponRedeemed(StoredEvent):
    """A payment was charged at the code's price; saved in the same transaction as the payment's success."""

    TOPIC = "coupon.Redeemed"
    merchant_uid: str
    buyer_email: str
    user_licence_id: UUID


class CouponRedemptionReleased(StoredEvent):
    """A redeemed payment never settled (an unpaid virtual account), so its use is given back."""

    TOPIC = "coupon.RedemptionReleased"
    merchant_uid: str


class CouponConstraintClaimed(StoredEvent):
    """One buyer (an account's email, or a user licence) used the group once, with this payment."""

    TOPIC = "coupon.ConstraintClaimed"
    merchant_uid: str


class CouponConstraintOpened(StoredCreation):
    """The first claim of a buyer on a group created its index."""

    TOPIC = "coupon.ConstraintOpened"
    group_id: UUID
    subject: str
    merchant_uid: str


class CouponConstraintReleased(StoredEvent):
    """The claiming payment never settled; the buyer may use the group again."""

    TOPIC = "coupon.ConstraintReleased"
    merchant_uid: str


class BannerBoardOpened(StoredCreation):
    """The board that holds every event banner and notice (one per storefront)."""

    TOPIC = "banner.BoardOpened"


class BannerPosted(StoredEvent):
    """An operator posted an event banner or a notice (the fields of ``domain.banners.board.Banner``)."""

    TOPIC = "banner.Posted"
    banner_id: int
    type: str
    active: bool
    start_at: datetime | None
    end_at: datetime | None
    apply_country: list[str]
    coupon_group_id: UUID | None
    localizations: list[dict[str, str | None]]


class BannerChanged(StoredEvent):
    """An operator changed a banner; the event carries its whole new record."""

    TOPIC = "banner.Changed"
    banner_id: int
    type: str
    active: bool
    start_at: datetime | None
    end_at: datetime | None
    apply_country: list[str]
    coupon_group_id: UUID | None
    localizations: list[dict[str, str | None]]

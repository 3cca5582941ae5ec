"""A coupon code and the once-per-buyer claims on a group: the aggregates that keep the limits true.

Both are saved in the same transaction as the payment they discount, so a racing redemption of the
same code conflicts on the code's version, and a racing second use by the same buyer conflicts on the
claim's version (or on its creation); the loser re-reads and is refused.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import DomainError, ErrorCode
from events.coupons import (
    CouponCodeIssued,
    CouponConstraintClaimed,
    CouponConstraintOpened,
    CouponConstraintReleased,
    CouponRedeemed,
    CouponRedemptionReleased,
)

# Private codes avoid letters and digits that read alike (0/O, 1/I/L).
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def normalise_code(code: str) -> str:
    """Codes are matched without surrounding spaces and case-insensitively."""
    return code.strip().upper()


def new_private_code() -> str:
    """A fresh code for one recipient of a private group, e.g. ``UNC-7KQ2-M9XD``."""
    body = "".join(secrets.choice(_ALPHABET) for _ in range(8))
    return f"UNC-{body[:4]}-{body[4:]}"


class CouponCode(Aggregate):
    """One code: the group it belongs to and the payments it was redeemed with (its id is derived
    from the code, so the aggregate is also the code's uniqueness index)."""

    @staticmethod
    def id_for(code: str) -> UUID:
        """The aggregate id of a code."""
        return uuid5(NAMESPACE_URL, f"/coupon-codes/{normalise_code(code)}")

    @classmethod
    def issue(cls, *, code: str, group_id: UUID, at: datetime) -> CouponCode:
        """A new code of a group (saving a code that exists fails)."""
        if not 1 <= len(code.strip()) <= 50:
            raise DomainError(ErrorCode.INVALID_VALUE, "a code is 1-50 characters")
        return cls._create(
            CouponCodeIssued, id=cls.id_for(code), timestamp=at, code=normalise_code(code), group_id=group_id
        )

    @property
    def used(self) -> int:
        """How many settled (or reserved) payments hold this code now."""
        return len(self.redemptions)

    def check_available(self, sub_issued_count: int) -> None:
        """-602 when the code was redeemed as often as its group allows."""
        if self.used >= sub_issued_count:
            raise DomainError(ErrorCode.COUPON_USAGE_EXCEEDED, f"code {self.code} is used up")

    def redeem(
        self, *, merchant_uid: str, buyer_email: str, user_licence_id: UUID, sub_issued_count: int, at: datetime
    ) -> None:
        """Count one use by a payment (a payment already counted is not counted twice)."""
        if merchant_uid in self.redemptions:
            return
        self.check_available(sub_issued_count)
        self.trigger_event(
            CouponRedeemed,
            timestamp=at,
            merchant_uid=merchant_uid,
            buyer_email=buyer_email,
            user_licence_id=user_licence_id,
        )

    def release(self, merchant_uid: str, at: datetime) -> None:
        """Give back the use of a payment that never settled."""
        if merchant_uid in self.redemptions:
            self.trigger_event(CouponRedemptionReleased, timestamp=at, merchant_uid=merchant_uid)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _issued(self, event: CouponCodeIssued) -> None:
        self.code = event.code
        self.group_id = event.group_id
        self.redemptions: dict[str, UUID] = {}

    @when.register
    def _redeemed(self, event: CouponRedeemed) -> None:
        self.redemptions = {**self.redemptions, event.merchant_uid: event.user_licence_id}

    @when.register
    def _released(self, event: CouponRedemptionReleased) -> None:
        self.redemptions = {uid: licence for uid, licence in self.redemptions.items() if uid != event.merchant_uid}


class CouponConstraint(Aggregate):
    """Who used a group once: one aggregate per (group, account email or user licence)."""

    @staticmethod
    def id_for(group_id: UUID, subject: str) -> UUID:
        """The claim's id; ``subject`` is ``account:<email>`` or ``userlicense:<id>``."""
        return uuid5(NAMESPACE_URL, f"/coupon-constraints/{group_id}/{subject}")

    @classmethod
    def open(cls, *, group_id: UUID, subject: str, merchant_uid: str, at: datetime) -> CouponConstraint:
        """The subject's first use of the group (a racing first use fails to save)."""
        return cls._create(
            CouponConstraintOpened,
            id=cls.id_for(group_id, subject),
            timestamp=at,
            group_id=group_id,
            subject=subject,
            merchant_uid=merchant_uid,
        )

    def claim(self, merchant_uid: str, at: datetime, *, guest: bool = False) -> None:
        """Use the group again after a released claim; refused (``already_used``) while another payment
        holds it."""
        if self.merchant_uid == merchant_uid:
            return
        if self.merchant_uid is not None:
            raise DomainError(already_used(self.subject, guest=guest), "this buyer already used the coupon")
        self.trigger_event(CouponConstraintClaimed, timestamp=at, merchant_uid=merchant_uid)

    def release(self, merchant_uid: str, at: datetime) -> None:
        """The claiming payment never settled."""
        if self.merchant_uid == merchant_uid:
            self.trigger_event(CouponConstraintReleased, timestamp=at, merchant_uid=merchant_uid)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: CouponConstraintOpened) -> None:
        self.group_id = event.group_id
        self.subject = event.subject
        self.merchant_uid: str | None = event.merchant_uid

    @when.register
    def _claimed(self, event: CouponConstraintClaimed) -> None:
        self.merchant_uid = event.merchant_uid

    @when.register
    def _released(self, event: CouponConstraintReleased) -> None:
        self.merchant_uid = None


def already_used(subject: str, *, guest: bool) -> ErrorCode:
    """The refusal of a group's second use by the same subject: -614 for a user licence; -613 for an account's
    address, whoever asks (the spec's tests expect it); -615 when a guest's payment, settling, finds its
    address's use taken meanwhile (a guest and the account later opened for that address share one use)."""
    if subject.startswith("userlicense:"):
        return ErrorCode.PROMOTION_ALREADY_USED_BY_LICENSE
    return ErrorCode.PROMOTION_ALREADY_USED_BY_EMAIL if guest else ErrorCode.PROMOTION_ALREADY_USED_BY_ACCOUNT

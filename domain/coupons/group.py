"""A coupon group: the rules every code of the group shares (docs/coupons.md).

A public group shares one code among every buyer; a private group issues ``issuedCount`` codes, one
per recipient. Each code may be redeemed ``subIssuedCount`` times. ``availableDuration`` is the licence
life (days) the group discounts (0: any life). ``countries`` are the buyer countries it applies to (empty:
every country); ``applyDefaultCountry`` also admits buyers whose country has no price of its own and who
pay the default (fallback) country's price. The window ``[startAt, expAt)`` is kept in +09:00.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.business_time import BUSINESS_TIME
from domain.errors import DomainError, ErrorCode
from events.coupons import CouponCodesIssued, CouponGroupChanged, CouponGroupCreated

# The spec's default name of a public group's shared code.
DEFAULT_CODE = "default"
# subIssuedCount of the spec's test group: a code anyone may use without a practical limit.
UNLIMITED_USES = 4294967295


class GroupType(Enum):
    """Public groups share one code; private groups issue one code per recipient."""

    PUBLIC = "public"
    PRIVATE = "private"


class ConstraintType(Enum):
    """Who may use the group once only: nobody in particular, each account (by email), each user licence."""

    NONE = "none"
    ACCOUNT = "account"
    USER_LICENCE = "userlicense"


class Operator(Enum):
    """How ``factor`` changes a price. ``multiply``: the price after base and remaining discounts is
    multiplied by ``1 - factor`` (rounded down), so ``factor`` is the fraction taken off."""

    MULTIPLY = "multiply"


def in_kst(moment: datetime) -> datetime:
    """A moment as +09:00 (a naive one is read as +09:00, the spec's zone for coupon dates)."""
    return moment.replace(tzinfo=BUSINESS_TIME) if moment.tzinfo is None else moment.astimezone(BUSINESS_TIME)


@dataclass(frozen=True)
class GroupRules:
    """The fields of a coupon group (spec: couponGroup)."""

    name: str
    group_type: GroupType
    constraint_type: ConstraintType
    factor: Decimal
    operator: Operator = Operator.MULTIPLY
    available_duration: int = 0
    countries: tuple[str, ...] = ()
    apply_default_country: bool = False
    enabled: bool = True
    start_at: datetime | None = None
    exp_at: datetime | None = None
    sub_issued_count: int = 1
    issued_count: int = 1
    currency: str | None = None

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > 100:
            raise DomainError(ErrorCode.INVALID_VALUE, "a group's name is 1-100 characters")
        if not Decimal(0) < self.factor <= Decimal(1):
            raise DomainError(ErrorCode.INVALID_VALUE, "a multiply factor is a fraction in (0, 1]")
        if self.available_duration < 0 or not 1 <= self.sub_issued_count <= UNLIMITED_USES:
            raise DomainError(ErrorCode.INVALID_VALUE, "availableDuration >= 0 and 1 <= subIssuedCount <= 2^32-1")
        if not 1 <= self.issued_count <= 10_000 or (self.group_type is GroupType.PUBLIC and self.issued_count != 1):
            raise DomainError(ErrorCode.INVALID_VALUE, "a public group has one code; a private one 1-10000")
        if self.start_at and self.exp_at and self.exp_at <= self.start_at:
            raise DomainError(ErrorCode.INVALID_VALUE, "expAt must come after startAt")
        if any(len(country) != 2 or not country.isalpha() for country in self.countries):
            raise DomainError(ErrorCode.INVALID_VALUE, "countries are two-letter codes")

    def as_record(self) -> dict[str, Any]:
        """The plain form events carry."""
        record = asdict(self)
        record.update(
            group_type=self.group_type.value,
            constraint_type=self.constraint_type.value,
            operator=self.operator.value,
            countries=list(self.countries),
        )
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> GroupRules:
        """Read the plain form back (also used for an operator's changes merged onto current rules)."""
        values = dict(record)
        values["group_type"] = GroupType(values["group_type"])
        values["constraint_type"] = ConstraintType(values["constraint_type"])
        values["operator"] = Operator(values.get("operator", Operator.MULTIPLY.value))
        values["factor"] = Decimal(str(values["factor"]))
        values["countries"] = tuple(country.upper() for country in values.get("countries") or ())
        for moment in ("start_at", "exp_at"):
            if values.get(moment) is not None:
                values[moment] = in_kst(values[moment])
        return cls(**values)

    def changed(self, changes: Mapping[str, Any]) -> GroupRules:
        """These rules with an operator's changes (validated like new rules)."""
        record = self.as_record()
        record.update(changes)
        rules = GroupRules.from_record(record)
        if rules.group_type is not self.group_type:
            raise DomainError(ErrorCode.INVALID_VALUE, "a group's type cannot change")
        if rules.issued_count < self.issued_count:
            raise DomainError(ErrorCode.INVALID_VALUE, "issued codes cannot be taken back")
        return rules

    def check_open(self, now: datetime) -> None:
        """The group can be used now: enabled (-603), started (-604) and not expired (-605)."""
        if not self.enabled:
            raise DomainError(ErrorCode.COUPON_UNUSABLE, f"coupon group {self.name!r} is disabled")
        if self.start_at is not None and now < self.start_at:
            raise DomainError(ErrorCode.CODE_CANNOT_BE_USED, "the coupon's window has not started")
        if self.exp_at is not None and now >= self.exp_at:
            raise DomainError(ErrorCode.CODE_EXPIRED, "the coupon has expired")

    def fits(self, *, life: int, buyer_country: str, price_country: str) -> bool:
        """Does the group discount a licence of this life, sold to this country at that country's price?"""
        if self.available_duration and life != self.available_duration:
            return False
        if not self.countries:
            return True
        if buyer_country.upper() in self.countries:
            return True
        return self.apply_default_country and price_country != buyer_country.upper()

    def check_fits(self, *, life: int, buyer_country: str, price_country: str) -> None:
        """-604 when the group does not discount this licence in this country."""
        if not self.fits(life=life, buyer_country=buyer_country, price_country=price_country):
            raise DomainError(ErrorCode.CODE_CANNOT_BE_USED, "the coupon does not apply to this licence or country")


class CouponGroup(Aggregate):
    """A coupon group's rules and the codes it issued."""

    @classmethod
    def open(cls, *, group_id: UUID, rules: GroupRules, at: datetime) -> CouponGroup:
        """Record a new group (its codes are issued separately, each its own aggregate)."""
        return cls._create(CouponGroupCreated, id=group_id, timestamp=at, **rules.as_record())

    def change(self, changes: Mapping[str, Any], at: datetime) -> GroupRules:
        """Change some rules; answers the new rules."""
        rules = self.rules.changed(changes)
        self.trigger_event(CouponGroupChanged, timestamp=at, **rules.as_record())
        return rules

    def issue(self, codes: list[str], at: datetime) -> None:
        """Note codes issued under this group."""
        self.trigger_event(CouponCodesIssued, timestamp=at, codes=codes)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _created(self, event: CouponGroupCreated) -> None:
        self.rules = _rules_of(event)
        self.codes: list[str] = []
        self.created_at = event.timestamp

    @when.register
    def _changed(self, event: CouponGroupChanged) -> None:
        self.rules = _rules_of(event)

    @when.register
    def _issued(self, event: CouponCodesIssued) -> None:
        self.codes = [*self.codes, *event.codes]


def _rules_of(event: CouponGroupCreated | CouponGroupChanged) -> GroupRules:
    return GroupRules.from_record({name: getattr(event, name) for name in GroupRules.__dataclass_fields__})

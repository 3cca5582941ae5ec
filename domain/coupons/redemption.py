"""Using a coupon: look a code up, check it for a buyer, price a quote with it, redeem it with a payment.

The price is fixed when the order is placed (the quote carries the coupon's factor); every rule is
checked again when the payment settles, and the redemption is saved in the same transaction as the
payment's success. A payment refused then is cancelled and its money given back by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.mailboxes import mailbox_of
from domain.catalogue.licences import PurchasableLicence
from domain.coupons.codes import CouponCode, CouponConstraint, already_used, normalise_code
from domain.coupons.group import ConstraintType, CouponGroup, GroupRules, GroupType
from domain.errors import DomainError, ErrorCode
from domain.pricing.quotes import Quote, quote_licence
from domain.store import Storefront


@dataclass(frozen=True)
class Coupon:
    """A code as found in the log, with its group's rules (spec: coupon with its couponGroup)."""

    code: str
    group_id: UUID
    rules: GroupRules
    used: int

    def check_open(self, now: datetime) -> None:
        """The group is open now (-603, -604, -605) and the code is not used up (-602; -612 for a private
        group's single-use code, which its one recipient has used)."""
        self.rules.check_open(now)
        if self.used >= self.rules.sub_issued_count:
            single_use = self.rules.group_type is GroupType.PRIVATE and self.rules.sub_issued_count == 1
            refusal = ErrorCode.PROMOTION_ALREADY_USED if single_use else ErrorCode.COUPON_USAGE_EXCEEDED
            raise DomainError(refusal, f"code {self.code} is used up")

    def fraction_for(self, licence: PurchasableLicence, country_code: str) -> Decimal:
        """The fraction this coupon takes off a licence sold in a country (0 when it does not apply)."""
        price = licence.price_for(country_code)
        fits = self.rules.fits(life=licence.life, buyer_country=country_code, price_country=price.country_code)
        return self.rules.factor if fits else Decimal(0)

    def quote(self, licence: PurchasableLicence, country_code: str) -> Quote:
        """The licence's quote with this coupon as its last discount (unchanged when it does not apply)."""
        return quote_licence(licence, country_code).with_coupon(self.fraction_for(licence, country_code))


def find_coupon(store: Storefront, code: str) -> Coupon:
    """The coupon a code names; -601 when no group issued it."""
    if not code or not code.strip():
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "no coupon code")
    try:
        issued: CouponCode = store.repository.get(CouponCode.id_for(code))
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.COUPON_NOT_FOUND, f"no coupon {normalise_code(code)}") from None
    group: CouponGroup = store.repository.get(issued.group_id)
    return Coupon(issued.code, issued.group_id, group.rules, issued.used)


def constraint_subject(rules: GroupRules, *, buyer_email: str | None, user_licence_id: UUID | None) -> str | None:
    """What the group's once-only constraint is keyed on for this buyer (None: no constraint applies).

    ``account``: the mailbox the account's (or guest's) address delivers to, so a guest, the account later opened
    for the address, and its case, ``+tag`` and (at Gmail) dotted variants share one use. ``userlicense``: the
    user licence paid for (a new purchase's own licence, or the licence an upgrade or renewal is for)."""
    if rules.constraint_type is ConstraintType.ACCOUNT:
        if not buyer_email:
            raise DomainError(ErrorCode.INVALID_VALUE, "this coupon is checked against the buyer's email")
        return f"account:{mailbox_of(buyer_email)}"
    if rules.constraint_type is ConstraintType.USER_LICENCE and user_licence_id is not None:
        return f"userlicense:{user_licence_id}"
    return None


def binds_to_mailbox(store: Storefront, code: str) -> bool:
    """Whether a code's group may be used once per customer: the customer is a mailbox, so a guest who used it
    must prove the mailbox before the licence it bought is of use (its key goes only by mail)."""
    try:
        coupon = find_coupon(store, code)
    except DomainError:
        return False
    return coupon.rules.constraint_type is ConstraintType.ACCOUNT


def check_constraint(store: Storefront, coupon: Coupon, subject: str | None, merchant_uid: str | None = None) -> None:
    """-613 (-614 for a user licence) when the group was already used with another payment."""
    if subject is None:
        return
    try:
        claim: CouponConstraint = store.repository.get(CouponConstraint.id_for(coupon.group_id, subject))
    except AggregateNotFoundError:
        return
    if claim.merchant_uid is not None and claim.merchant_uid != merchant_uid:
        raise DomainError(already_used(subject, guest=False), "this buyer already used the coupon")


def check_for_buyer(
    store: Storefront,
    now: datetime,
    code: str,
    *,
    buyer_email: str | None,
    user_licence_id: UUID | None = None,
) -> Coupon:
    """Everything a buyer can be told before ordering: the code exists, is open, is not used up, and this
    buyer (or user licence) has not used its group; a guest without an email gets -2 for an account
    constraint."""
    coupon = find_coupon(store, code)
    coupon.check_open(now)
    subject = constraint_subject(coupon.rules, buyer_email=buyer_email, user_licence_id=user_licence_id)
    check_constraint(store, coupon, subject)
    return coupon


def price_order(
    store: Storefront,
    now: datetime,
    code: str,
    licence: PurchasableLicence,
    country_code: str,
    *,
    buyer_email: str,
    user_licence_id: UUID | None,
) -> tuple[Coupon, Quote]:
    """The quote an order is fixed at when it carries a code: every rule checked, -604 when the code does
    not discount this licence in this country."""
    coupon = check_for_buyer(store, now, code, buyer_email=buyer_email, user_licence_id=user_licence_id)
    price = licence.price_for(country_code)
    coupon.rules.check_fits(life=licence.life, buyer_country=country_code, price_country=price.country_code)
    return coupon, coupon.quote(licence, country_code)


def redeem(
    store: Storefront,
    now: datetime,
    *,
    code: str,
    merchant_uid: str,
    buyer_email: str,
    user_licence_id: UUID,
    life: int,
    buyer_country: str,
    price_country: str,
    guest: bool = False,
) -> list[Aggregate]:
    """Check every rule again and count the use: the aggregates to save with the payment's success (a
    ``guest``'s payment refused for its address's use answers -615)."""
    issued: CouponCode = store.repository.get(CouponCode.id_for(code))
    group: CouponGroup = store.repository.get(issued.group_id)
    rules = group.rules
    if merchant_uid not in issued.redemptions:
        rules.check_open(now)
        rules.check_fits(life=life, buyer_country=buyer_country, price_country=price_country)
    issued.redeem(
        merchant_uid=merchant_uid,
        buyer_email=buyer_email,
        user_licence_id=user_licence_id,
        sub_issued_count=rules.sub_issued_count,
        at=now,
    )
    subject = constraint_subject(rules, buyer_email=buyer_email, user_licence_id=user_licence_id)
    if subject is None:
        return [issued]
    try:
        claim: CouponConstraint = store.repository.get(CouponConstraint.id_for(issued.group_id, subject))
    except AggregateNotFoundError:
        claim = CouponConstraint.open(group_id=issued.group_id, subject=subject, merchant_uid=merchant_uid, at=now)
    else:
        claim.claim(merchant_uid, now, guest=guest)
    return [issued, claim]


def release(
    store: Storefront, now: datetime, *, code: str, merchant_uid: str, buyer_email: str, user_licence_id: UUID
) -> list[Aggregate]:
    """Give back a use whose payment never settled (an unpaid virtual account): the aggregates to save."""
    issued: CouponCode = store.repository.get(CouponCode.id_for(code))
    group: CouponGroup = store.repository.get(issued.group_id)
    issued.release(merchant_uid, now)
    changed: list[Aggregate] = [issued]
    subject = constraint_subject(group.rules, buyer_email=buyer_email, user_licence_id=user_licence_id)
    if subject is not None:
        try:
            claim: CouponConstraint = store.repository.get(CouponConstraint.id_for(issued.group_id, subject))
        except AggregateNotFoundError:
            return changed
        claim.release(merchant_uid, now)
        changed.append(claim)
    return changed

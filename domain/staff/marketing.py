"""What marketing does in the back office, as staff actions: coupon groups (open, change, issue more private codes,
disable) and the banner board (post, change, end a banner or notice). Each is the same use case the test harness
calls (domain/coupons/admin.py, domain/banners/board.py), saved in one transaction with the ``StaffActed`` event that
names the member and their reason. A coupon's change moves prices, so it needs a reason; a banner's may have one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.banners.board import Banner, change_banner, post_banner
from domain.clock import Clock
from domain.coupons.admin import GroupCodes, change_group, load_group, open_group
from domain.coupons.group import CouponGroup, GroupRules, GroupType
from domain.errors import DomainError, ErrorCode
from domain.staff.actions import StaffAction
from domain.staff.member import load_member
from domain.staff.permissions import Permission
from domain.store import Storefront
from events.concurrency import retry_on_conflict

MAX_CODES_AT_ONCE = 10_000


def _reason(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a reason is required for a coupon change")
    return text


def _summary(rules: GroupRules) -> dict[str, str | int | None]:
    return {
        "name": rules.name,
        "type": rules.group_type.value,
        "enabled": int(rules.enabled),
        "factor": str(rules.factor),
        "issued_count": rules.issued_count,
    }


def _group_witness(store: Storefront, clock: Clock, actor_id: UUID, action: str, reason: str) -> Any:
    def recorded_with(group: CouponGroup) -> list[Aggregate]:
        actor = load_member(store, actor_id)
        actor.act(Permission.MARKETING, action, str(group.id), reason, clock.now(), _summary(group.rules))
        return [actor]

    return recorded_with


def open_coupon_group(
    store: Storefront, clock: Clock, actor_id: UUID, *, rules: GroupRules, code: str | None, reason: str
) -> GroupCodes:
    """Open a coupon group with its codes for the member (-3 for a public code another group holds)."""
    load_member(store, actor_id).check_may(Permission.MARKETING)
    why = _reason(reason)
    witness = _group_witness(store, clock, actor_id, StaffAction.OPEN_COUPON_GROUP, why)
    return open_group(store, clock.now(), rules, code=code, recorded_with=witness)


def change_coupon_group(
    store: Storefront, clock: Clock, actor_id: UUID, *, group_id: UUID, changes: Mapping[str, Any], reason: str
) -> GroupCodes:
    """Change some of a group's rules for the member (the same checks as a new group's; codes are never taken
    back; a private group whose issuedCount grew issues the extra codes)."""
    load_member(store, actor_id).check_may(Permission.MARKETING)
    why = _reason(reason)
    witness = _group_witness(store, clock, actor_id, StaffAction.CHANGE_COUPON_GROUP, why)
    return retry_on_conflict(lambda: change_group(store, clock.now(), group_id, changes, recorded_with=witness))


def issue_codes(
    store: Storefront, clock: Clock, actor_id: UUID, *, group_id: UUID, count: int, reason: str
) -> GroupCodes:
    """Issue ``count`` more codes of a private group (a public group has its one shared code)."""
    if not 1 <= count <= MAX_CODES_AT_ONCE:
        raise DomainError(ErrorCode.INVALID_VALUE, f"issue 1..{MAX_CODES_AT_ONCE} codes at once")
    load_member(store, actor_id).check_may(Permission.MARKETING)
    why = _reason(reason)
    witness = _group_witness(store, clock, actor_id, StaffAction.ISSUE_COUPON_CODES, why)

    def attempt() -> GroupCodes:
        group = load_group(store, group_id)
        if group.rules.group_type is not GroupType.PRIVATE:
            raise DomainError(ErrorCode.INVALID_VALUE, "only a private group issues more codes")
        changes = {"issued_count": group.rules.issued_count + count}
        return change_group(store, clock.now(), group_id, changes, recorded_with=witness)

    return retry_on_conflict(attempt)


def disable_coupon_group(store: Storefront, clock: Clock, actor_id: UUID, *, group_id: UUID, reason: str) -> GroupCodes:
    """Turn a group off at once: from the next check, every code of it answers -603 (also when a payment made with
    it settles)."""
    load_member(store, actor_id).check_may(Permission.MARKETING)
    why = _reason(reason)
    witness = _group_witness(store, clock, actor_id, StaffAction.DISABLE_COUPON_GROUP, why)
    return retry_on_conflict(
        lambda: change_group(store, clock.now(), group_id, {"enabled": False}, recorded_with=witness)
    )


def _check_group(store: Storefront, record: Mapping[str, Any]) -> None:
    group_id = record.get("coupon_group_id")
    if group_id:
        load_group(store, UUID(str(group_id)))


def _banner_witness(store: Storefront, clock: Clock, actor_id: UUID, action: str, reason: str | None) -> Any:
    def recorded_with(banner: Banner) -> list[Aggregate]:
        actor = load_member(store, actor_id)
        details: dict[str, str | int | None] = {
            "type": banner.type.value,
            "active": int(banner.active),
            "coupon_group_id": str(banner.coupon_group_id) if banner.coupon_group_id else None,
        }
        actor.act(Permission.MARKETING, action, f"banner:{banner.id}", reason, clock.now(), details)
        return [actor]

    return recorded_with


def post_banner_for(
    store: Storefront, clock: Clock, actor_id: UUID, *, record: Mapping[str, Any], reason: str | None
) -> Banner:
    """Post an event banner or a notice for the member (a banner tied to a coupon group names one that exists)."""
    load_member(store, actor_id).check_may(Permission.MARKETING)
    _check_group(store, record)
    witness = _banner_witness(store, clock, actor_id, StaffAction.POST_BANNER, reason)
    return post_banner(store, clock.now(), record, recorded_with=witness)


def change_banner_for(
    store: Storefront,
    clock: Clock,
    actor_id: UUID,
    *,
    banner_id: int,
    changes: Mapping[str, Any],
    reason: str | None,
    action: str = StaffAction.CHANGE_BANNER,
) -> Banner:
    """Change a banner's fields for the member (``end-banner``: take it down now)."""
    load_member(store, actor_id).check_may(Permission.MARKETING)
    _check_group(store, changes)
    witness = _banner_witness(store, clock, actor_id, action, reason)
    return change_banner(store, clock.now(), banner_id, changes, recorded_with=witness)


def end_banner(store: Storefront, clock: Clock, actor_id: UUID, *, banner_id: int, reason: str | None) -> Banner:
    """Take a banner or notice down at once."""
    return change_banner_for(
        store,
        clock,
        actor_id,
        banner_id=banner_id,
        changes={"active": False},
        reason=reason,
        action=StaffAction.END_BANNER,
    )

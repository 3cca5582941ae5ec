"""An operator's coupon use cases: open a group with its codes, change its rules, list its codes."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.coupons.codes import CouponCode, new_private_code, normalise_code
from domain.coupons.group import DEFAULT_CODE, CouponGroup, GroupRules, GroupType
from domain.errors import DomainError, ErrorCode
from domain.store import Storefront


@dataclass(frozen=True)
class GroupCodes:
    """A group, its rules and each code with how often it was used."""

    group_id: UUID
    rules: GroupRules
    codes: list[tuple[str, int]]
    # The log position of the change that answered it (0 when nothing was saved).
    position: int = 0


# Aggregates to save with a group's change (a staff member's record of it), given the group as changed.
Witness = Callable[[CouponGroup], Sequence[Aggregate]]


def open_group(
    store: Storefront,
    now: datetime,
    rules: GroupRules,
    *,
    code: str | None = None,
    recorded_with: Witness | None = None,
) -> GroupCodes:
    """Record a group and issue its codes: a public group's one shared code (``code``, else ``default``), or
    ``issuedCount`` fresh codes of a private group. A code in use by another group answers -3. ``recorded_with``
    gives aggregates saved in the same transaction (a staff member's record of the change)."""
    group = CouponGroup.open(group_id=uuid.uuid4(), rules=rules, at=now)
    if rules.group_type is GroupType.PUBLIC:
        codes = [normalise_code(code or DEFAULT_CODE)]
    else:
        codes = _fresh_codes(rules.issued_count)
    issued = [CouponCode.issue(code=item, group_id=group.id, at=now) for item in codes]
    group.issue(codes, now)
    witnesses = recorded_with(group) if recorded_with else ()
    try:
        recordings = store.save(group, *issued, *witnesses)
    except IntegrityError:
        raise DomainError(ErrorCode.DUPLICATE_PARAMETER, "the code belongs to another group") from None
    return GroupCodes(group.id, rules, [(item, 0) for item in codes], recordings[-1].notification.id)


def change_group(
    store: Storefront,
    now: datetime,
    group_id: UUID,
    changes: Mapping[str, Any],
    *,
    recorded_with: Witness | None = None,
) -> GroupCodes:
    """Change a group's rules; a private group whose issuedCount grew issues the extra codes."""
    group = _group(store, group_id)
    before = group.rules.issued_count
    rules = group.change(changes, now)
    issued: list[CouponCode] = []
    if rules.group_type is GroupType.PRIVATE and rules.issued_count > before:
        codes = _fresh_codes(rules.issued_count - before)
        issued = [CouponCode.issue(code=item, group_id=group.id, at=now) for item in codes]
        group.issue(codes, now)
    witnesses = recorded_with(group) if recorded_with else ()
    recordings = store.save(group, *issued, *witnesses)
    answer = group_codes(store, group_id)
    return GroupCodes(answer.group_id, answer.rules, answer.codes, recordings[-1].notification.id)


def group_codes(store: Storefront, group_id: UUID) -> GroupCodes:
    """A group with its codes and their uses (404 for an unknown group)."""
    group = _group(store, group_id)
    codes = []
    for code in group.codes:
        issued: CouponCode = store.repository.get(CouponCode.id_for(code))
        codes.append((code, issued.used))
    return GroupCodes(group_id, group.rules, codes)


def _group(store: Storefront, group_id: UUID) -> CouponGroup:
    try:
        group: object = store.repository.get(group_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, f"no coupon group {group_id}") from None
    if not isinstance(group, CouponGroup):
        raise DomainError(ErrorCode.NOT_FOUND, f"no coupon group {group_id}")
    return group


def _fresh_codes(count: int) -> list[str]:
    codes: set[str] = set()
    while len(codes) < count:
        codes.add(new_private_code())
    return sorted(codes)


def load_group(store: Storefront, group_id: UUID) -> CouponGroup:
    """A coupon group (-404 for an unknown id)."""
    return _group(store, group_id)

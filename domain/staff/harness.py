"""The test harness's way to a staff member (never in production: only the harness's routes call it, and they are
mounted only with TEST_ADMIN_TOKEN). A browser story that needs a member of some role gets one without an owner's
passkey, since ``create-owner`` works once per store and another story may have made the first owner."""

from __future__ import annotations

from collections.abc import Iterable

from domain.clock import Clock
from domain.staff.member import StaffDirectory, StaffMember, load_directory
from domain.staff.permissions import parse_roles
from domain.store import Storefront
from events.concurrency import retry_on_conflict


def add_test_member(store: Storefront, clock: Clock, *, email: str, name: str, roles: Iterable[str]) -> StaffMember:
    """A new active member with these roles, added by the harness (no actor), opening the directory when needed."""
    wanted = parse_roles(roles)

    def attempt() -> StaffMember:
        now = clock.now()
        directory = load_directory(store) or StaffDirectory.open(now)
        member = StaffMember.create(
            email=email, name=name, roles=wanted, actor_id=None, reason="added by the test harness", at=now
        )
        directory.list_member(member.email, member.id, now)
        store.save(directory, member)
        return member

    return retry_on_conflict(attempt)

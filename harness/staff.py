"""Staff for the test harness only (api/routers/test_harness_staff.py, never mounted in production): a member with
the roles a browser story needs, whether or not staff has anyone yet, so each story signs in as its own member."""

from __future__ import annotations

from collections.abc import Iterable

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.staff.member import StaffDirectory, StaffMember, load_directory
from domain.staff.permissions import Role, parse_roles
from domain.store import Storefront
from events.concurrency import retry_on_conflict

SEEDED = "seeded by the test harness"


def seed_member(store: Storefront, clock: Clock, *, email: str, name: str, roles: Iterable[str]) -> StaffMember:
    """A new active member with ``roles`` (never an owner: the first owner still comes from the operator's command,
    whichever story runs first), listed in the directory (opened when staff has nobody yet); no actor: the build
    environment's credential stands for the owner."""
    wanted = parse_roles(roles)
    if Role.OWNER in wanted:
        raise DomainError(ErrorCode.INVALID_VALUE, "the test harness makes no owners")

    def attempt() -> StaffMember:
        now = clock.now()
        directory = load_directory(store) or StaffDirectory.open(now)
        member = StaffMember.create(email=email, name=name, roles=wanted, actor_id=None, reason=SEEDED, at=now)
        directory.list_member(member.email, member.id, now)
        store.save(directory, member)
        return member

    return retry_on_conflict(attempt)

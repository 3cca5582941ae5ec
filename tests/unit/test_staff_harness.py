"""The test harness's staff: a story's own member with the roles it needs, before or after the first owner, who
still comes from the operator's command (once there is an owner, never again); the harness makes no owners."""

from __future__ import annotations

import pytest

from domain.errors import ErrorCode
from domain.staff.member import create_first_owner, find_member, list_members
from domain.staff.permissions import Role
from harness.staff import seed_member
from tests.unit.billing_world import World, refused


@pytest.fixture
def world() -> World:
    return World()


def test_a_seeded_member_does_not_stand_in_for_the_first_owner(world: World) -> None:
    support = seed_member(world.store, world.clock, email="desk@example.com", name="Desk", roles=["support"])
    assert support.roles == frozenset({Role.SUPPORT}) and support.created_by is None
    owner = create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss")
    assert [member.email for member in list_members(world.store)] == ["boss@example.com", "desk@example.com"]
    assert find_member(world.store, "boss@example.com") is not None and owner.roles == frozenset({Role.OWNER})
    with refused(ErrorCode.DUPLICATE_PARAMETER):
        create_first_owner(world.store, world.clock, email="other@example.com", name="Other")
    seed_member(world.store, world.clock, email="money@example.com", name="Money", roles=["finance"])
    with refused(ErrorCode.EMAIL_ALREADY_REGISTERED):
        seed_member(world.store, world.clock, email="desk@example.com", name="Again", roles=["support"])
    with refused(ErrorCode.INVALID_VALUE):
        seed_member(world.store, world.clock, email="king@example.com", name="King", roles=["owner"])

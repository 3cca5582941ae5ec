"""The back office's people: the first owner, invitations, roles and what they allow, suspension, and actions
that carry their actor and reason."""

from __future__ import annotations

import pytest

from domain.errors import ErrorCode
from domain.staff.member import (
    StaffMember,
    StaffState,
    change_member_roles,
    create_first_owner,
    find_member,
    invite_member,
    list_members,
    load_member,
    suspend_member,
)
from domain.staff.permissions import (
    NEEDS_A_REASON,
    NEEDS_STEP_UP,
    ROLE_PERMISSIONS,
    Permission,
    Role,
    permissions_of,
)
from events.staff import StaffActed, StaffMemberCreated
from tests.unit.billing_world import World, refused


def test_the_table_gives_every_role_something_and_only_owners_manage_staff() -> None:
    assert set(ROLE_PERMISSIONS) == set(Role)
    assert ROLE_PERMISSIONS[Role.OWNER] == frozenset(Permission)
    assert [role for role in Role if Permission.MANAGE_STAFF in ROLE_PERMISSIONS[role]] == [Role.OWNER]
    assert Permission.APPROVE_REFUNDS not in ROLE_PERMISSIONS[Role.SUPPORT]
    assert Permission.REFUND not in ROLE_PERMISSIONS[Role.MARKETING]
    assert NEEDS_STEP_UP <= NEEDS_A_REASON
    assert permissions_of([Role.SUPPORT, Role.MARKETING]) >= {Permission.HELP_CUSTOMERS, Permission.MARKETING}


def test_the_first_owner_comes_from_the_command_line_once(world: World) -> None:
    owner = create_first_owner(world.store, world.clock, email="Boss@Example.com", name="Boss")
    assert (owner.email, owner.roles, owner.state) == ("boss@example.com", frozenset({Role.OWNER}), StaffState.ACTIVE)
    created = list(world.store.repository.event_store.get(owner.id))
    assert isinstance(created[0], StaffMemberCreated) and created[0].actor_id is None
    with refused(ErrorCode.DUPLICATE_PARAMETER):
        create_first_owner(world.store, world.clock, email="other@example.com", name="Other")


def test_an_owner_invites_and_the_invitation_names_them(world: World) -> None:
    owner = create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss")
    support = invite_member(
        world.store, world.clock, owner.id, email="help@example.com", name="Help", roles=["support"], reason="hired"
    )
    assert find_member(world.store, "HELP@example.com") == load_member(world.store, support.id)
    assert [member.email for member in list_members(world.store)] == ["boss@example.com", "help@example.com"]
    first = next(iter(world.store.repository.event_store.get(support.id)))
    assert isinstance(first, StaffMemberCreated) and first.actor_id == owner.id and first.reason == "hired"
    with refused(ErrorCode.EMAIL_ALREADY_REGISTERED):
        invite_member(
            world.store, world.clock, owner.id, email="help@example.com", name="Again", roles=["finance"], reason=""
        )
    with refused(ErrorCode.FORBIDDEN):
        invite_member(world.store, world.clock, support.id, email="x@example.com", name="X", roles=["owner"], reason="")
    with refused(ErrorCode.INVALID_VALUE):
        invite_member(world.store, world.clock, owner.id, email="y@example.com", name="Y", roles=["janitor"], reason="")
    changed = change_member_roles(world.store, world.clock, owner.id, support.id, ["support", "finance"], "promoted")
    assert changed.may(Permission.APPROVE_REFUNDS)


def test_suspension_takes_every_permission_and_ends_every_session(world: World) -> None:
    owner = create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss")
    support = invite_member(
        world.store, world.clock, owner.id, email="help@example.com", name="Help", roles=["support"], reason="hired"
    )
    support.sign_in("s1", "totp", world.clock.now())
    world.store.save(support)
    assert load_member(world.store, support.id).session_is_open("s1")
    suspended = suspend_member(world.store, world.clock, owner.id, support.id, "left the company")
    assert suspended.state is StaffState.SUSPENDED and not suspended.session_is_open("s1")
    assert suspended.permissions == frozenset()
    with refused(ErrorCode.UNAUTHORIZED):
        suspended.sign_in("s2", "totp", world.clock.now())
    with refused(ErrorCode.FORBIDDEN):
        suspend_member(world.store, world.clock, owner.id, owner.id, "oops")


@pytest.mark.parametrize("permission", sorted(NEEDS_A_REASON, key=lambda permission: permission.value))
def test_money_and_licence_actions_need_a_reason_and_carry_their_actor(world: World, permission: Permission) -> None:
    owner = create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss")
    member: StaffMember = load_member(world.store, owner.id)
    with refused(ErrorCode.EMPTY_PARAMETER):
        member.act(permission, "refund", "m-1", "  ", world.clock.now())
    member.act(permission, "refund", "m-1", "asked nicely", world.clock.now(), {"amount": 100, "currency": "KRW"})
    world.store.save(member)
    acted = list(world.store.repository.event_store.get(owner.id))[-1]
    assert isinstance(acted, StaffActed)
    assert (acted.originator_id, acted.reason, acted.details) == (
        owner.id,
        "asked nicely",
        {"amount": 100, "currency": "KRW"},
    )

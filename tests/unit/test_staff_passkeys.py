"""Staff passkeys on the server (domain/staff/signin.py with the ``webauthn`` library), answered by a software
authenticator (tests/passkeys.py): a member registers a passkey and signs in with it; a step-up proves the same
session again; and every way a ceremony can be wrong is refused: another site, another origin, a replayed counter,
a stale or mismatched ceremony, an unknown passkey, a suspended member."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.errors import ErrorCode
from domain.staff.member import (
    StaffMember,
    create_first_owner,
    find_member,
    invite_member,
    load_member,
    suspend_member,
)
from domain.staff.signin import (
    Relying,
    authentication_options,
    register_passkey,
    registration_options,
    sign_in_with_passkey,
)
from events.staff import StaffChallengeSpent, StaffPasskeyRegistered, StaffSignedIn
from tests.passkeys import SoftAuthenticator
from tests.unit.billing_world import World, refused

SECRET = "passkey-test-secret-of-thirty-two-bytes"
SITE = Relying(rp_id="localhost", origin="http://localhost:8000")


@pytest.fixture
def world() -> World:
    return World()


def enrolled(world: World, authenticator: SoftAuthenticator, member: StaffMember | None = None) -> StaffMember:
    """The member (the first owner by default) registers the authenticator's passkey."""
    member = member or create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss")
    options, ceremony = registration_options(SECRET, SITE, member, world.clock.now())
    credential = authenticator.create(json.loads(options))
    return register_passkey(
        world.store, world.clock, SECRET, SITE, ceremony=ceremony, credential=json.dumps(credential), label="laptop"
    )


def challenge(world: World, email: str = "boss@example.com") -> tuple[dict[str, Any], str]:
    options, ceremony = authentication_options(SECRET, SITE, email, world.clock.now())
    return json.loads(options), ceremony


def sign_in(world: World, credential: dict[str, Any], ceremony: str, session_id: str | None = None) -> Any:
    return sign_in_with_passkey(
        world.store,
        world.clock,
        SECRET,
        SITE,
        ceremony=ceremony,
        credential=json.dumps(credential),
        session_id=session_id,
    )


def test_a_member_registers_a_passkey_signs_in_with_it_and_steps_up(world: World) -> None:
    laptop = SoftAuthenticator(SITE.origin)
    member = enrolled(world, laptop)
    [passkey] = member.passkeys.values()
    assert (passkey.label, passkey.sign_count) == ("laptop", 0)

    options, ceremony = challenge(world)
    assert options["rpId"] == "localhost"
    assert options["allowCredentials"] == [], "the device offers its passkeys: no list says who has which"
    assert options["userVerification"] == "required"
    signed, session_id = sign_in(world, laptop.get(options), ceremony)
    assert signed.session_is_open(session_id)
    assert signed.passkeys[passkey.credential_id].sign_count == 1, "the counter the authenticator sent is kept"

    world.later(minutes=3)
    options, ceremony = challenge(world)
    stepped, same = sign_in(world, laptop.get(options), ceremony, session_id=session_id)
    assert same == session_id
    history = [event for event in world.store.repository.event_store.get(member.id)]
    signed_ins = [event for event in history if isinstance(event, StaffSignedIn)]
    assert [type(event) for event in history[-5:]] == [
        StaffPasskeyRegistered,
        StaffChallengeSpent,
        StaffSignedIn,
        StaffChallengeSpent,
        StaffSignedIn,
    ]
    assert [event.step_up for event in signed_ins] == [False, True]
    assert stepped.passkeys[passkey.credential_id].sign_count == 2


def test_a_passkey_answer_for_another_site_or_origin_is_refused(world: World) -> None:
    laptop = SoftAuthenticator(SITE.origin)
    enrolled(world, laptop)
    options, ceremony = challenge(world)
    with refused(ErrorCode.UNAUTHORIZED):
        sign_in(world, laptop.get(options, origin="https://phish.example"), ceremony)
    options, ceremony = challenge(world)
    with refused(ErrorCode.UNAUTHORIZED):
        sign_in(world, laptop.get(options, rp_id="phish.example"), ceremony)


def test_a_replayed_counter_a_stale_or_mismatched_ceremony_and_an_unknown_passkey_are_refused(world: World) -> None:
    laptop = SoftAuthenticator(SITE.origin)
    enrolled(world, laptop)
    options, ceremony = challenge(world)
    sign_in(world, laptop.get(options), ceremony)

    options, ceremony = challenge(world)
    with refused(ErrorCode.UNAUTHORIZED):  # a clone of the authenticator: its counter did not move
        sign_in(world, laptop.get(options, count=False), ceremony)

    options, _ = challenge(world)
    _, other_ceremony = challenge(world)
    with refused(ErrorCode.UNAUTHORIZED):  # signed the challenge of another ceremony
        sign_in(world, laptop.get(options), other_ceremony)

    options, ceremony = challenge(world)
    answer = laptop.get(options)
    world.later(minutes=6)
    with refused(ErrorCode.UNAUTHORIZED):  # the ceremony lasts five minutes
        sign_in(world, answer, ceremony)

    options, ceremony = challenge(world)
    with refused(ErrorCode.UNAUTHORIZED):  # a passkey nobody registered
        sign_in(world, SoftAuthenticator(SITE.origin).get(options), ceremony)

    member = find_member(world.store, "boss@example.com")
    assert member is not None
    options_json, register_ceremony = registration_options(SECRET, SITE, member, world.clock.now())
    with refused(ErrorCode.UNAUTHORIZED):  # a registration ceremony is not a sign-in
        sign_in(world, laptop.get({**json.loads(options_json), "rpId": SITE.rp_id}), register_ceremony)


def test_an_unknown_address_gets_a_ceremony_too_but_no_passkey_signs_it(world: World) -> None:
    laptop = SoftAuthenticator(SITE.origin)
    enrolled(world, laptop)
    options, ceremony = challenge(world, "nobody@example.com")
    assert options.get("allowCredentials", []) == [] and options["challenge"]
    with refused(ErrorCode.UNAUTHORIZED):
        sign_in(world, laptop.get(options), ceremony)


def test_a_passkey_is_registered_once_and_a_suspended_member_cannot_sign_in_with_theirs(world: World) -> None:
    owner_key = SoftAuthenticator(SITE.origin)
    owner = enrolled(world, owner_key)
    with refused(ErrorCode.DUPLICATE_PARAMETER):
        enrolled(world, owner_key, load_member(world.store, owner.id))

    support = invite_member(
        world.store, world.clock, owner.id, email="help@example.com", name="Help", roles=["support"], reason="hired"
    )
    phone = SoftAuthenticator(SITE.origin)
    enrolled(world, phone, support)
    suspend_member(world.store, world.clock, owner.id, support.id, "left")
    options, ceremony = challenge(world, "help@example.com")
    with refused(ErrorCode.UNAUTHORIZED):
        sign_in(world, phone.get({**options, "rpId": SITE.rp_id}), ceremony)


def test_a_registration_from_another_origin_is_refused(world: World) -> None:
    member = create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss")
    options, ceremony = registration_options(SECRET, SITE, member, world.clock.now())
    credential = SoftAuthenticator(SITE.origin).create(json.loads(options), origin="https://phish.example")
    with refused(ErrorCode.UNAUTHORIZED):
        register_passkey(
            world.store, world.clock, SECRET, SITE, ceremony=ceremony, credential=json.dumps(credential), label="x"
        )
    assert load_member(world.store, member.id).passkeys == {}


def test_an_accepted_answer_is_spent_even_when_the_counter_stays_at_zero(world: World) -> None:
    """Issue 40 finding 4: most platform passkeys keep their counter at 0, so only the spent challenge stops a
    captured answer from signing in again within its ceremony's five minutes."""
    laptop = SoftAuthenticator(SITE.origin)
    enrolled(world, laptop)
    options, ceremony = challenge(world)
    laptop.sign_count = 0
    captured = laptop.get(options, count=False)
    sign_in(world, captured, ceremony)
    with refused(ErrorCode.UNAUTHORIZED):
        sign_in(world, captured, ceremony)


def test_an_answer_without_user_verification_is_refused(world: World) -> None:
    laptop = SoftAuthenticator(SITE.origin)
    enrolled(world, laptop)
    options, ceremony = challenge(world)
    with refused(ErrorCode.UNAUTHORIZED):
        sign_in(world, laptop.get(options, verified=False), ceremony)

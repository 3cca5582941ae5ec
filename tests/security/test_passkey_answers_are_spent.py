"""Issue 40 finding 4: a captured passkey answer could be replayed within its ceremony's five minutes, for
authenticators whose signature counter stays at 0 (most platform passkeys): the challenge was not single-use.

As it ran: a member signed in with their passkey; the same answer, sent again, signed the attacker in too. Now an
accepted answer spends its challenge in the member's log, so the replay is refused (401) and no session starts;
and an answer whose authenticator did not verify the user (a touch, no PIN or face) is refused as well.
"""

from __future__ import annotations

import pytest

from events.staff import StaffChallengeSpent, StaffSignedIn
from tests.integration.purchases.desk import Desk
from tests.security.back_office import first_owner, member_of, staff_call, with_passkey

pytestmark = pytest.mark.integration

HELP = "help@example.com"


def test_a_captured_answer_signs_in_once(desk: Desk) -> None:
    support = first_owner(desk).invite(HELP, ["support"])
    laptop = with_passkey(desk, support)
    laptop.sign_count = 0  # a platform passkey: its counter never moves
    started = staff_call(desk, "POST", "/sign-in/passkey/options", json={"email": HELP}).json()
    captured = {"ceremony": started["ceremony"], "credential": laptop.get(started["options"], count=False)}

    assert staff_call(desk, "POST", "/sign-in/passkey", json=captured).status_code == 200, "the member's own"
    version = member_of(desk, support).version
    replayed = staff_call(desk, "POST", "/sign-in/passkey", client="203.0.113.66", json=captured)
    assert (replayed.status_code, replayed.json()["errorCode"]) == (401, 401)
    assert "staff_session" not in replayed.cookies
    assert member_of(desk, support).version == version, "no session started, nothing recorded"
    history = list(desk.services.store.repository.event_store.get(member_of(desk, support).id))
    assert [type(event) for event in history[-2:]] == [StaffChallengeSpent, StaffSignedIn]


def test_an_answer_without_user_verification_is_refused(desk: Desk) -> None:
    support = first_owner(desk).invite(HELP, ["support"])
    laptop = with_passkey(desk, support)
    version = member_of(desk, support).version
    started = staff_call(desk, "POST", "/sign-in/passkey/options", json={"email": HELP}).json()
    touched = {"ceremony": started["ceremony"], "credential": laptop.get(started["options"], verified=False)}
    assert staff_call(desk, "POST", "/sign-in/passkey", json=touched).status_code == 401
    assert member_of(desk, support).version == version

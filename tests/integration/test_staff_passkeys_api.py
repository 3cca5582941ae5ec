"""Staff passkeys over HTTP on both stores, answered by a software authenticator (tests/passkeys.py): the first
owner registers a passkey from the enrolment link and is signed in; after signing out the passkey signs in again,
steps up the session before money moves, and registers a second passkey; a replayed answer is refused."""

from __future__ import annotations

from typing import Any

import pytest

from api.staff_session import SESSION_COOKIE, relying_party
from tests.integration.test_staff_api import STAFF, Desk, desk, first_owner_link
from tests.passkeys import SoftAuthenticator

__all__ = ["desk"]

pytestmark = pytest.mark.integration


def ceremony(desk: Desk, path: str, body: dict[str, Any] | None = None, as_: dict[str, str] | None = None) -> Any:
    answer = desk.call("POST", path, as_, json=body or {}) if as_ else desk.client.post(f"{STAFF}{path}", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_member_enrols_signs_in_and_steps_up_with_a_passkey(desk: Desk) -> None:
    token = first_owner_link(desk.services).split("token=", 1)[1]
    started = ceremony(desk, "/enrolment/passkey/options", {"token": token})
    origin = relying_party(desk.services).origin  # APP_BASE_URL's, as the browser names it
    laptop = SoftAuthenticator(origin)
    credential = laptop.create(started["options"])
    answer = desk.client.post(
        f"{STAFF}/enrolment/passkey",
        json={"token": token, "ceremony": started["ceremony"], "credential": credential, "label": "laptop"},
    )
    assert answer.status_code == 200, answer.text
    owner = desk.take_cookies(answer.json()["csrf"])
    assert desk.call("GET", "/me", owner).json()["member"]["passkeys"] == 1
    assert desk.call("POST", "/sign-out", owner).status_code == 204

    signing = ceremony(desk, "/sign-in/passkey/options", {"email": "boss@example.com"})
    signed = laptop.get(signing["options"])
    answer = desk.client.post(f"{STAFF}/sign-in/passkey", json={"ceremony": signing["ceremony"], "credential": signed})
    assert answer.status_code == 200, answer.text
    assert SESSION_COOKIE in answer.cookies
    owner = desk.take_cookies(answer.json()["csrf"])
    replayed = desk.client.post(
        f"{STAFF}/sign-in/passkey", json={"ceremony": signing["ceremony"], "credential": signed}
    )
    assert replayed.status_code == 401, "the same answer (same counter) does not sign in twice"

    stepping = ceremony(desk, "/step-up/passkey/options", as_=owner)
    stepped = desk.call(
        "POST",
        "/step-up/passkey",
        owner,
        json={"ceremony": stepping["ceremony"], "credential": laptop.get(stepping["options"])},
    )
    assert stepped.status_code == 200, stepped.text

    adding = ceremony(desk, "/passkeys/options", as_=owner)
    phone = SoftAuthenticator(origin)
    added = desk.call(
        "POST",
        "/passkeys",
        owner,
        json={"ceremony": adding["ceremony"], "credential": phone.create(adding["options"]), "label": "phone"},
    )
    assert added.status_code == 200 and added.json()["passkeys"] == 2, added.text

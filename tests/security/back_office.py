"""The back office the second probe (issue 40) attacked: staff members' browsers on the purchase stories' desk (the API
over HTTP, the PortOne sandbox, each store), from the back office stories, with what the attacker adds: a member's
raw session, passkeys answered by a software authenticator, and the member as the log has them."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import httpx
from fastapi.testclient import TestClient

from api.staff_session import CSRF_HEADER, SESSION_COOKIE, relying_party
from domain.staff.member import StaffMember, load_member
from tests.integration.purchases.desk import V1, Desk
from tests.integration.purchases.test_back_office_support import Member, buy, first_owner
from tests.passkeys import SoftAuthenticator

__all__ = ["STAFF", "Member", "buy", "first_owner", "member_of", "staff_call", "with_passkey"]

STAFF = f"{V1}/staff"


def member_of(desk: Desk, member: Member) -> StaffMember:
    """The member as the log has them now."""
    return load_member(desk.services.store, UUID(member.id))


def staff_call(desk: Desk, method: str, path: str, *, client: str = "198.51.100.7", **kwargs: Any) -> httpx.Response:
    """A call to a staff operation with no session, from ``client`` (through the trusted local proxy)."""
    proxy = TestClient(desk.client.app, client=("127.0.0.1", 50000))
    headers = {"X-Forwarded-For": client, **kwargs.pop("headers", {})}
    return proxy.request(method, f"{STAFF}{path}", headers=headers, **kwargs)


def with_passkey(desk: Desk, member: Member) -> SoftAuthenticator:
    """The member registers a passkey on their laptop (a software authenticator) from their session."""
    laptop = SoftAuthenticator(relying_party(desk.services).origin)
    started = member.call("POST", "/passkeys/options")
    assert started.status_code == 200, started.text
    body = {"ceremony": started.json()["ceremony"], "credential": laptop.create(started.json()["options"])}
    added = member.call("POST", "/passkeys", json={**body, "label": "laptop"})
    assert added.status_code == 200, added.text
    return laptop


def session_of(answer: httpx.Response) -> dict[str, str]:
    """The session cookie and CSRF value a sign-in answered with."""
    return {SESSION_COOKIE: answer.cookies[SESSION_COOKIE], CSRF_HEADER: answer.json()["csrf"]}

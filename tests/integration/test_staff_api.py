"""The back office's people over HTTP, on both stores: the first owner from the command line, enrolment and
sign-in (one-time codes here; passkeys in the Playwright story), the session cookie with its CSRF header and idle
timeout, suspension that ends sessions at once, and a walk of every staff operation that refuses anonymous
callers, customers and members without the permission."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID, uuid4

import httpx
import pytest
from fastapi.testclient import TestClient

from api.access import POLICY, Access
from api.app import create_app
from api.services import Services
from api.staff_session import CSRF_HEADER, SESSION_COOKIE
from config.settings import Settings
from events.staff import StaffMemberCreated, StaffSuspended
from tests.fakes import ManualClock, PlainHasher
from tests.staff_codes import enrol_with_code_app, sign_in_with_code
from tests.support import START, register_confirmed
from workers.operator import parse_args, run

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"
STAFF = f"{V1}/staff"


@dataclass
class Desk:
    services: Services
    clock: ManualClock
    client: TestClient

    def enrol(self, link: str) -> tuple[dict[str, str], str]:
        """The member opens their link and sets up a code app; their cookies (session, CSRF) and its secret."""
        secret, answer = enrol_with_code_app(self.client, STAFF, link, self.clock.now())
        return self.take_cookies(answer.json()["csrf"]), secret

    def take_cookies(self, csrf: str) -> dict[str, str]:
        cookies = {SESSION_COOKIE: self.client.cookies[SESSION_COOKIE], "csrf": csrf}
        self.client.cookies.clear()
        return cookies

    def call(
        self,
        method: str,
        path: str,
        as_: dict[str, str] | None,
        headers: dict[str, str] | None = None,
        json: object = None,
    ) -> httpx.Response:
        """A staff request with the member's cookie and CSRF header (anonymous for None); keeps the renewed cookie."""
        self.client.cookies.clear()
        sent = dict(headers or {})
        if as_ is not None:
            self.client.cookies.set(SESSION_COOKIE, as_[SESSION_COOKIE])
            sent.setdefault(CSRF_HEADER, as_["csrf"])
        answer = self.client.request(method, f"{STAFF}{path}", headers=sent, json=json)
        if as_ is not None and SESSION_COOKIE in answer.cookies:
            as_[SESSION_COOKIE] = answer.cookies[SESSION_COOKIE]
        self.client.cookies.clear()
        return answer


@pytest.fixture
def desk(settings: Settings) -> Iterator[Desk]:
    clock = ManualClock(START)
    services = Services.build(settings, clock=clock, hasher=PlainHasher())
    with TestClient(create_app(services=services)) as client:
        yield Desk(services, clock, client)
    services.close()


def first_owner_link(services: Services) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert run(parse_args(["staff", "create-owner", "boss@example.com", "Boss"]), services) == 0
    found = re.search(r"(http\S+/admin/enrol\?token=\S+)", out.getvalue())
    assert found, out.getvalue()
    return found.group(1)


def invite(desk: Desk, owner: dict[str, str], email: str, roles: list[str]) -> tuple[str, str]:
    answer = desk.call(
        "POST", "/members", owner, json={"email": email, "name": email, "roles": roles, "reason": "hired"}
    )
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["member"]["id"], body["enrolmentLink"]


def test_the_owner_invites_support_who_signs_in_with_a_code_and_a_suspension_ends_their_session(desk: Desk) -> None:
    owner, _ = desk.enrol(first_owner_link(desk.services))
    assert desk.call("GET", "/me", owner).json()["member"]["roles"] == ["owner"]
    support_id, link = invite(desk, owner, "help@example.com", ["support"])
    support, secret = desk.enrol(link)
    assert desk.call("POST", "/enrolment", None, json={"token": link.split("token=")[1]}).status_code == 401

    # Signing out ends the session; a code signs in again (a wrong one does not).
    assert desk.call("POST", "/sign-out", support).status_code == 204
    assert desk.call("GET", "/me", support).status_code == 401
    wrong = desk.client.post(f"{STAFF}/sign-in/totp", json={"email": "help@example.com", "code": "000000"})
    assert wrong.status_code == 401
    desk.clock.advance(timedelta(seconds=31))
    answer = sign_in_with_code(desk.client, STAFF, "help@example.com", secret, desk.clock.now())
    assert answer.status_code == 200, answer.text
    support = desk.take_cookies(answer.json()["csrf"])
    assert desk.call("GET", "/me", support).json()["member"]["email"] == "help@example.com"

    # A change without the CSRF header is refused; support does not manage staff.
    assert desk.call("POST", "/sign-out", support, headers={CSRF_HEADER: "nope"}).status_code == 403
    assert desk.call("GET", "/members", support).status_code == 403

    # The owner suspends support: the open session stops at its next request.
    suspended = desk.call("POST", f"/members/{support_id}/suspend", owner, json={"reason": "left"})
    assert suspended.json()["state"] == "suspended"
    assert desk.call("GET", "/me", support).status_code == 401
    events = list(desk.services.store.repository.event_store.get(UUID(support_id)))
    created, stopped = events[0], events[-1]
    assert isinstance(created, StaffMemberCreated) and isinstance(stopped, StaffSuspended)
    owner_id = desk.call("GET", "/me", owner).json()["member"]["id"]
    assert str(created.actor_id) == str(stopped.actor_id) == owner_id


def test_an_idle_session_ends(desk: Desk) -> None:
    owner, _ = desk.enrol(first_owner_link(desk.services))
    desk.clock.advance(timedelta(minutes=10))
    assert desk.call("GET", "/me", owner).status_code == 200
    desk.clock.advance(timedelta(minutes=10))  # 10 minutes since the last use: still open (the limit is 15)
    assert desk.call("GET", "/me", owner).status_code == 200
    desk.clock.advance(timedelta(minutes=16))
    assert desk.call("GET", "/me", owner).status_code == 401


def test_a_passkey_ceremony_starts_for_a_member_with_a_link(desk: Desk) -> None:
    link = first_owner_link(desk.services)
    answer = desk.client.post(f"{STAFF}/enrolment/passkey/options", json={"token": link.split("token=")[1]})
    assert answer.status_code == 200, answer.text
    options = answer.json()["options"]
    assert options["rp"]["id"] == "localhost" and options["user"]["name"] == "boss@example.com"
    assert options["challenge"] and answer.json()["ceremony"]


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", lambda _: str(uuid4()), path)


def test_every_staff_operation_refuses_anonymous_callers_customers_and_members_without_its_permission(
    desk: Desk,
) -> None:
    owner, _ = desk.enrol(first_owner_link(desk.services))
    members = {}
    for role in ("marketing", "support", "finance"):
        _, link = invite(desk, owner, f"{role}@example.com", [role])
        members[role], _ = desk.enrol(link)
    marketing = members["marketing"]
    may_support = desk.call("GET", "/me", members["support"]).json()["member"]["permissions"]
    register_confirmed(desk.client, desk.services, "customer@example.com")
    token = desk.client.post(f"{V1}/auth/login", json={"email": "customer@example.com", "pw": "abcd1234"}).json()
    customer = {"Authorization": f"Bearer {token['accessToken']}"}
    walked = 0
    for key, need in POLICY.items():
        if not need.needs_staff:
            continue
        method, path = key.split(" ", 1)
        url = _concrete(path.removeprefix("/staff"))
        assert desk.call(method, url, None).status_code == 401, key
        assert desk.call(method, url, None, headers=customer).status_code == 401, key
        permission = need.staff_permission
        for role, member in members.items():
            if (
                permission is not None
                and permission.value not in desk.call("GET", "/me", member).json()["member"]["permissions"]
            ):
                assert desk.call(method, url, member, json={}).status_code == 403, (role, key)
        walked += 1
    assert (
        walked == sum(1 for need in POLICY.values() if need.needs_staff)
        and Access.STAFF_MANAGE_STAFF in POLICY.values()
        and Access.STAFF_READ_LEDGER in POLICY.values()  # finance's tax-invoice queue (docs/papers.md)
        and POLICY["GET /staff/finance/ledger"] is Access.STAFF_READ_LEDGER
        and "read-ledger" not in may_support
        and Access.STAFF_MARKETING in POLICY.values()
    )
    # Prices are marketing's (and owners'): support and finance cannot change them, nor read the versions.
    change = {"licences": [{"id": 1}], "effectiveAt": "2030-01-01T00:00:00+09:00", "reason": "a rise"}
    for role in ("support", "finance"):
        assert desk.call("POST", "/catalogue/versions", members[role], json=change).status_code == 403, role
        assert desk.call("GET", "/catalogue", members[role]).status_code == 403, role
    assert desk.call("POST", "/catalogue/versions", marketing, json=change).json()["errorCode"] == -2
    assert desk.call("GET", "/catalogue", marketing).json()["inForce"] == 1

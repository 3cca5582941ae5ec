"""Finding 5: access tokens outlived their session.

As it ran: after a logout, a refresh token's reuse, a password reset and the account's deletion, an access token
copied before kept working for up to 30 minutes; a deleted account still read its licence keys and billing keys.
Now every API process keeps the list of what ended tokens in memory, current within 5 seconds of the log
(api/revocations.py), and refuses them: a logout, a reuse, a new password or address, a claim by the mailbox and a
deletion end the tokens of the sessions they end. The owner's other sessions, licences and keys stay as they were.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from api.revocations import FRESH_WITHIN, Revocations
from config.settings import Settings
from domain.accounts.tokens import CONFIRM_EMAIL, CONFIRMATION_LINK_LIFETIME, sign_link
from domain.clock import SystemClock
from tests.conftest import create_postgres_database, drop_postgres_database, make_settings, postgres_available, require
from tests.faults.stack import Stack, free_port, until
from tests.integration.purchases.desk import GOOD_CARD, PASSWORD, V1, Desk
from tests.security.mailbox import deliver_mails, mailbox
from tests.security.test_guest_purchases_need_the_mailbox import buy_as_guest

pytestmark = pytest.mark.integration

OWNER = "owner@example.com"
A_MOMENT = timedelta(seconds=1)
READS = ("/licenses/mine", "/payments/licenses", "/billingkeys", "/accounts")


@dataclass(frozen=True)
class Session:
    """What a logged-in browser holds: the access token and the refresh cookie."""

    token: str
    rt: str


def log_in(desk: Desk, address: str = OWNER, password: str = PASSWORD) -> Session:
    desk.client.cookies.clear()
    answer = desk.guest_call("POST", "/auth/login", json={"email": address, "pw": password})
    assert answer.status_code == 200, answer.text
    return Session(answer.json()["accessToken"], answer.cookies["rt"])


def read(desk: Desk, session: Session, path: str = "/licenses/mine") -> Any:
    desk.client.cookies.clear()
    return desk.guest_call("GET", path, headers={"Authorization": f"Bearer {session.token}"})


def refresh(desk: Desk, rt: str) -> Any:
    desk.client.cookies.clear()
    return desk.client.get(f"{V1}/auth/refresh", headers={"Cookie": f"rt={rt}"})


def refused_soon(call: Callable[[], Any]) -> float:
    """How many seconds until ``call()`` answers 401; fails once the revocation list's bound has passed."""
    began = time.monotonic()
    while (answer := call()).status_code != 401:
        waited = time.monotonic() - began
        assert waited < FRESH_WITHIN, f"still {answer.status_code} after {waited:.2f} s"
        time.sleep(0.01)
    return time.monotonic() - began


def owner_with_a_licence_and_a_key(desk: Desk) -> dict[str, Any]:
    """The owner registers, keeps a card as a billing key and subscribes with it; their licences and keys."""
    desk.register(OWNER)
    assert desk.call("PUT", "/billingkeys", as_email=OWNER, json=GOOD_CARD).status_code == 200
    subscribed = desk.call(
        "POST", "/payments/licenses/subscribe/new", as_email=OWNER, json={"licenseId": 111, "countryCode": "KR"}
    )
    assert subscribed.status_code == 200, subscribed.text
    desk.views_caught_up()
    return {
        "licences": desk.call("GET", "/licenses/mine", as_email=OWNER).json(),
        "keys": desk.call("GET", "/billingkeys", as_email=OWNER).json(),
    }


def test_a_token_copied_before_logout_is_refused_within_seconds_and_the_other_sessions_stay(desk: Desk) -> None:
    held = owner_with_a_licence_and_a_key(desk)
    laptop, phone = log_in(desk), log_in(desk)
    # Someone copies the laptop's token (a shared computer, a screenshot of the developer tools): it reads.
    assert read(desk, laptop).json() == held["licences"]

    desk.clock.advance(A_MOMENT)
    desk.client.cookies.clear()
    assert desk.client.post(f"{V1}/auth/logout", headers={"Cookie": f"rt={laptop.rt}"}).status_code == 200

    refused_soon(lambda: read(desk, laptop))
    for path in READS:
        assert read(desk, laptop, path).status_code == 401, path
    # The phone's session is another: it reads the same licences and keys as before.
    assert read(desk, phone).json() == held["licences"]
    assert read(desk, phone, "/billingkeys").json() == held["keys"]


def test_a_reused_refresh_token_ends_every_access_token_of_its_family(desk: Desk) -> None:
    held = owner_with_a_licence_and_a_key(desk)
    copied = log_in(desk)  # the thief copies both the cookie and the token
    desk.clock.advance(A_MOMENT)
    renewed = refresh(desk, copied.rt)  # the owner's browser renews: the cookie rotates
    assert renewed.status_code == 200
    owners = Session(renewed.json()["accessToken"], renewed.cookies["rt"])

    assert refresh(desk, copied.rt).status_code == 401, "the copied cookie is an old one: the family is revoked"
    refused_soon(lambda: read(desk, copied))
    refused_soon(lambda: read(desk, owners))
    assert refresh(desk, owners.rt).status_code == 401

    assert read(desk, log_in(desk)).json() == held["licences"], "the owner logs in again, to the same licences"


def test_a_password_reset_ends_every_earlier_token(desk: Desk) -> None:
    held = owner_with_a_licence_and_a_key(desk)
    stolen = log_in(desk)
    desk.clock.advance(A_MOMENT)
    asked = desk.guest_call("POST", "/accounts/password-change-email", json={"email": OWNER})
    assert asked.status_code == 200
    deliver_mails(desk.services)
    [reset] = [mail for mail in mailbox(desk.services, OWNER) if mail.links("/password/reset?")]
    link = reset.link_query("/password/reset?")["t"]
    done = desk.guest_call("PUT", "/accounts/password-change", json={"pw": "newpass99", "token": link})
    assert done.status_code == 200, done.text

    refused_soon(lambda: read(desk, stolen))
    assert refresh(desk, stolen.rt).status_code == 401
    assert read(desk, log_in(desk, password="newpass99")).json() == held["licences"]


def test_an_email_change_ends_every_earlier_token_and_refresh_cookie(desk: Desk) -> None:
    held = owner_with_a_licence_and_a_key(desk)
    stolen, owners = log_in(desk), log_in(desk)
    desk.clock.advance(A_MOMENT)
    asked = desk.guest_call(
        "POST",
        "/accounts/email-change-email",
        headers={"Authorization": f"Bearer {owners.token}"},
        json={"email": "moved@example.com", "pw": PASSWORD},
    )
    assert asked.status_code == 200, asked.text
    deliver_mails(desk.services)
    [link] = [mail for mail in mailbox(desk.services, "moved@example.com") if mail.links("/email-change/confirm?")]
    token = link.link_query("/email-change/confirm?")["t"]
    assert desk.guest_call("PUT", "/accounts/email-change", json={"token": token}).status_code == 200

    refused_soon(lambda: read(desk, stolen))
    assert read(desk, owners).status_code == 401
    assert refresh(desk, stolen.rt).status_code == 401
    assert refresh(desk, owners.rt).status_code == 401, "the owner's own session ends too: they log in again"
    assert read(desk, log_in(desk, "moved@example.com")).json() == held["licences"]


def test_a_deleted_account_no_longer_reads_its_licence_keys_or_billing_keys(desk: Desk) -> None:
    owner_with_a_licence_and_a_key(desk)
    stolen, owners = log_in(desk), log_in(desk)
    assert read(desk, stolen).json()[0]["licenseKey"]
    assert read(desk, stolen, "/billingkeys").json()["billingkeys"]

    desk.clock.advance(A_MOMENT)
    deleted = desk.guest_call(
        "PUT",
        "/accounts/delete",
        headers={"Authorization": f"Bearer {owners.token}"},
        json={"pw": PASSWORD, "deletedReason": "moving on"},
    )
    assert deleted.status_code == 200, deleted.text

    refused_soon(lambda: read(desk, stolen))
    for path in READS:
        assert read(desk, stolen, path).status_code == 401, path


def test_a_stranger_who_registered_a_guests_address_loses_the_session_when_the_mailbox_claims_it(desk: Desk) -> None:
    victim = "walk.in@example.com"
    early = desk.guest_call("POST", "/accounts", json={"email": victim, "pw": "attack1234", "language": "ko"})
    assert early.status_code == 200
    stranger = log_in(desk, victim, "attack1234")
    assert read(desk, stranger, "/accounts").status_code == 200, "scope 0 may read its own account"

    desk.clock.advance(timedelta(minutes=5))
    bought = buy_as_guest(desk, victim)
    deliver_mails(desk.services)
    [receipt] = [mail for mail in mailbox(desk.services, victim) if bought["licenseKey"] in mail.text]
    owned = desk.guest_call(
        "POST",
        "/accounts",
        params={"receiptToken": receipt.link_query("/register?")["t"]},
        json={"email": victim, "pw": "victim1234", "language": "ko"},
    )
    assert owned.json()["emailConfirmed"] is True

    refused_soon(lambda: read(desk, stranger, "/accounts"))
    desk.views_caught_up()
    assert [each["id"] for each in read(desk, log_in(desk, victim, "victim1234")).json()] == [bought["userLicenseId"]]


def test_a_list_that_cannot_follow_the_log_refuses_every_token_for_now_until_it_can(desk: Desk) -> None:
    desk.register(OWNER)
    session = log_in(desk)
    services = desk.services
    services.revocations.stop()
    # As if the database were out of reach: a list whose follower is gone, with a short bound to wait out. Fresh
    # for longer than the follower's idle re-read (1 s), so a following list is current however loaded the host.
    services.revocations = Revocations(
        services.store, services.views, services.clock, fresh_within=1.5, current_wait=0.5
    )
    assert services.revocations.wait_for_first_catch_up(10)
    assert read(desk, session, "/accounts").status_code == 200

    services.revocations.stop()
    time.sleep(1.7)
    refused = read(desk, session, "/accounts")
    # It fails closed with "try again", not "logged out": the token may well be good.
    assert (refused.status_code, refused.json()["errorCode"]) == (503, -1002), "a list that is not current"

    services.revocations = Revocations(services.store, services.views, services.clock)
    assert read(desk, session, "/accounts").status_code == 200, "once it follows again, the token works again"


# -- two API processes on one PostgreSQL, as production runs them ----------------------------------------------


def answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture
def two_apis(tmp_path: Path) -> Iterator[tuple[Stack, Settings, list[str]]]:
    require("PostgreSQL", postgres_available())
    url = create_postgres_database()
    stack = Stack(tmp_path / "stack", DATABASE_URL=f"{url}?pool_size=1&max_overflow=4")
    try:
        stack.wait_until_healthy()
        second = f"http://127.0.0.1:{free_port()}"
        stack.spawn("api2", "api", "--host", "127.0.0.1", "--port", second.rsplit(":", 1)[1])
        until(lambda: answers(f"{second}{V1}/health"), "the second API answers", 60)
        yield stack, make_settings(stack.var_dir, DATABASE_URL=url), [stack.api_url, second]
    finally:
        stack.stop()
        drop_postgres_database(url)


def test_a_logout_on_one_api_process_refuses_the_token_on_the_other_within_the_bound(
    two_apis: tuple[Stack, Settings, list[str]],
) -> None:
    _stack, settings, (first, second) = two_apis
    with httpx.Client(timeout=10) as http:
        registered = http.post(f"{first}{V1}/accounts", json={"email": OWNER, "pw": PASSWORD, "language": "ko"})
        assert registered.status_code == 200, registered.text
        link = sign_link(
            settings.auth_secret,
            CONFIRM_EMAIL,
            UUID(registered.json()["userId"]),
            SystemClock().now(),
            CONFIRMATION_LINK_LIFETIME,
            email=OWNER,
        )
        http.get(f"{first}{V1}/accounts/confirm", params={"t": link})

        def log_in_at(api: str) -> Session:
            http.cookies.clear()
            answer = http.post(f"{api}{V1}/auth/login", json={"email": OWNER, "pw": PASSWORD})
            assert (answer.status_code, answer.json()["scope"]) == (200, 1), answer.text
            return Session(answer.json()["accessToken"], answer.cookies["rt"])

        def read_at(api: str, session: Session) -> Any:
            http.cookies.clear()
            return http.get(f"{api}{V1}/licenses/mine", headers={"Authorization": f"Bearer {session.token}"})

        copied, other = log_in_at(first), log_in_at(second)
        assert read_at(second, copied).status_code == 200

        http.cookies.clear()
        assert http.post(f"{first}{V1}/auth/logout", headers={"Cookie": f"rt={copied.rt}"}).status_code == 200
        waited = refused_soon(lambda: read_at(second, copied))
        print(f"the second API process refused the token {waited * 1000:.0f} ms after the logout on the first")
        refused_soon(lambda: read_at(first, copied))  # the process that logged out follows the same list
        assert read_at(first, other).status_code == 200 and read_at(second, other).status_code == 200

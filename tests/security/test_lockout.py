"""Finding 7, lock-out: ten wrong logins from ten client addresses locked the owner out for ten minutes, and
five reset requests blocked the owner's own reset mail for an hour.

Now an attempt counts for its client, for the address from that client, and only then against a ceiling
that every unknown client shares; a browser that logged in before (the kd cookie) has a budget of its own.
The attacks as they ran are refused where they should be, the owner gets in and gets her mail, and her
account is as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from api.known_devices import KNOWN_DEVICE_COOKIE
from api.ratelimit import LOGIN, MAIL
from domain.accounts.recovery import reset_link_token
from tests.security.shop import PASSWORD, V1, Shop, shop

__all__ = ["shop"]

pytestmark = pytest.mark.integration

VICTIM = "victim@example.com"
HOME = "198.51.100.20"  # the owner's own address


def login(shop: Shop, client: str, password: str = "wrong9999", **kwargs: Any) -> tuple[int, int]:
    answer = shop.via_proxy(client, "POST", "/auth/login", json={"email": VICTIM, "pw": password}, **kwargs)
    return answer.status_code, answer.json().get("errorCode", 0)


def reset_mail(shop: Shop, client: str, **kwargs: Any) -> int:
    answer = shop.via_proxy(client, "POST", "/accounts/password-change-email", json={"email": VICTIM}, **kwargs)
    return int(answer.status_code)


def test_ten_wrong_logins_from_ten_addresses_no_longer_lock_the_owner_out(shop: Shop) -> None:
    owner = shop.customer(VICTIM, client=HOME)
    version = shop.account(owner["id"]).version

    attack = [login(shop, f"203.0.113.{n}") for n in range(1, 11)]
    assert attack == [(401, -400)] * 10
    assert shop.account(owner["id"]).version == version, "nothing of the account changed"

    assert login(shop, HOME, PASSWORD) == (200, 0), "the owner logs in from home, cookie or not"


def test_one_client_guessing_is_stopped_without_touching_anyone_else(shop: Shop) -> None:
    shop.customer(VICTIM, client=HOME)
    one_client = [login(shop, "203.0.113.50") for _ in range(12)]
    per_pair = LOGIN.per_address_and_client.amount
    assert one_client == [(401, -400)] * per_pair + [(429, -4)] * (12 - per_pair)
    assert login(shop, HOME, PASSWORD) == (200, 0), "one client's guesses never reach the address's ceiling"
    assert login(shop, "203.0.113.51") == (401, -400), "another client still has its own budget"


def test_a_crowd_reaches_the_ceiling_but_the_owners_known_browser_gets_in(shop: Shop) -> None:
    owner = shop.customer(VICTIM, client=HOME)
    known = {KNOWN_DEVICE_COOKIE: owner["cookies"][KNOWN_DEVICE_COOKIE]}
    version = shop.account(owner["id"]).version

    ceiling = LOGIN.per_address.amount - 1  # the owner's first login, from a browser not known then, counted
    crowd = [login(shop, f"203.0.{n // 200}.{n % 200 + 1}") for n in range(ceiling + 10)]
    assert crowd[:ceiling] == [(401, -400)] * ceiling
    assert crowd[ceiling:] == [(429, -4)] * 10, "the ceiling still bounds guesses at one account"
    assert login(shop, "192.0.2.77", PASSWORD) == (429, -4), "a browser the account never saw waits"
    assert shop.account(owner["id"]).version == version, "nothing of the account changed"

    assert login(shop, HOME, PASSWORD, cookies=known) == (200, 0), "the owner's known browser gets in"
    assert login(shop, "192.0.2.78", PASSWORD, cookies=known) == (200, 0), "wherever it is"
    forged = {KNOWN_DEVICE_COOKIE: "made-up.0123456789abcdef"}
    assert login(shop, "192.0.2.79", PASSWORD, cookies=forged) == (429, -4), "a made-up cookie is no one's"


def test_the_owner_on_a_new_browser_resets_the_password_and_that_browser_is_known_from_then(shop: Shop) -> None:
    owner = shop.customer(VICTIM, client=HOME)
    for n in range(LOGIN.per_address.amount):
        login(shop, f"203.0.{n // 200}.{n % 200 + 1}")
    assert login(shop, "192.0.2.90", PASSWORD) == (429, -4)

    assert reset_mail(shop, "192.0.2.90") == 200
    account = shop.account(owner["id"])
    token = reset_link_token(shop.settings.auth_secret, account.id, str(account.pending_reset_id), shop.clock.now())
    reset = shop.via_proxy("192.0.2.90", "PUT", "/accounts/password-change", json={"token": token, "pw": "newpass99"})
    assert reset.status_code == 200, reset.text
    assert KNOWN_DEVICE_COOKIE in reset.cookies, "the mailbox proved it: this browser is the owner's"

    known = {KNOWN_DEVICE_COOKIE: reset.cookies[KNOWN_DEVICE_COOKIE]}
    assert login(shop, "192.0.2.90", "newpass99", cookies=known) == (200, 0)


def test_five_reset_requests_no_longer_block_the_owners_reset_mail(shop: Shop) -> None:
    owner = shop.customer(VICTIM, client=HOME)
    attack = [reset_mail(shop, f"192.0.2.{n}") for n in range(1, 6)]
    assert attack == [200] * 5
    asked = shop.account(owner["id"]).pending_reset_id

    assert reset_mail(shop, HOME) == 200, "the owner's own request is mailed"
    assert shop.account(owner["id"]).pending_reset_id != asked, "a new link went out"
    assert shop.proxy.post(f"{V1}/auth/login", json={"email": VICTIM, "pw": PASSWORD}).status_code == 200


def test_a_crowd_asking_for_reset_mails_is_capped_and_the_owners_known_browser_still_gets_one(shop: Shop) -> None:
    owner = shop.customer(VICTIM, client=HOME)
    known = {KNOWN_DEVICE_COOKIE: owner["cookies"][KNOWN_DEVICE_COOKIE]}
    ceiling = MAIL.per_address.amount - 1  # the registration's confirmation mail counted too
    crowd = [reset_mail(shop, f"192.0.2.{n}") for n in range(1, ceiling + 6)]
    assert crowd == [200] * ceiling + [429] * 5, "mails to one mailbox are capped"

    before = shop.account(owner["id"]).pending_reset_id
    assert reset_mail(shop, HOME, cookies=known) == 200, "the owner's known browser still gets a mail"
    assert shop.account(owner["id"]).pending_reset_id != before


def test_a_refusal_says_how_long_to_wait(shop: Shop) -> None:
    """Issue 29 finding 16: "Too many requests" tells how long to wait, so the page can say it."""
    shop.customer(VICTIM, client=HOME)
    for _ in range(LOGIN.per_address_and_client.amount):
        login(shop, "203.0.113.60")
    refused = shop.via_proxy("203.0.113.60", "POST", "/auth/login", json={"email": VICTIM, "pw": "wrong9999"})
    assert (refused.status_code, refused.json()["errorCode"]) == (429, -4)
    window = LOGIN.per_address_and_client.get_expiry()
    assert 0 < int(refused.headers["Retry-After"]) <= window

"""Finding 9 (deletion): a token alone deleted the account.

As it ran: PUT /accounts/delete took nothing but the bearer token, so a token left on a shared computer, or copied,
deleted the account with everything it held. Now deletion asks for the account's password (-406 when wrong, and
guesses are limited like the password check: -4); the account, its licences and its keys stay as they were.
"""

from __future__ import annotations

import pytest

from tests.integration.purchases.desk import GOOD_CARD, PASSWORD, Desk

pytestmark = pytest.mark.integration


def test_a_token_without_the_password_cannot_delete_the_account(desk: Desk) -> None:
    assert desk.call("PUT", "/billingkeys", json=GOOD_CARD).status_code == 200
    keys = desk.call("GET", "/billingkeys").json()

    bare = desk.call("PUT", "/accounts/delete", json={"deletedReason": "bye"})
    assert (bare.status_code, bare.json()["errorCode"]) == (400, -1), "the password is a required field"
    codes = [
        desk.call("PUT", "/accounts/delete", json={"pw": f"guess{n:04d}", "deletedReason": "bye"}).json()["errorCode"]
        for n in range(11)
    ]
    assert codes == [-406] * 10 + [-4], "wrong passwords are refused, then guessing is stopped"

    assert desk.call("GET", "/accounts").status_code == 200
    assert desk.call("GET", "/billingkeys").json() == keys
    assert desk.guest_call("POST", "/auth/login", json={"email": "sub@example.com", "pw": PASSWORD}).status_code == 200

"""Finding 1: a stranger took a guest buyer's licences by registering the buyer's address.

As it ran: a guest bought with address V; anyone registered V with a password of their own, logged in (scope 0) and
read V's licence key, payments and receipt, activated a device with the key, and V's own registration then answered
-402. Now an address is only a claim: nothing of the guest's is shown until the mailbox proves it, and the real owner
gets in through the receipt's link or the claim mail, whoever else registered first.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.integration.purchases.desk import GOOD_CARD, Desk
from tests.security.mailbox import deliver_mails, mailbox

pytestmark = pytest.mark.integration

VICTIM = "walk.in@example.com"
VICTIMS_PASSWORD = "victim1234"
ATTACKERS_PASSWORD = "attack1234"


def buy_as_guest(desk: Desk, address: str) -> dict[str, Any]:
    """A guest buys a monthly licence by card; what the confirm page shows."""
    order = desk.guest_call(
        "POST", "/payments/licenses/new", json={"licenseId": 121, "paymentMethod": "creditCard", "email": address}
    ).json()
    paid = desk.sandbox.checkout(
        pg=order["pg"],
        pay_method=order["payMethod"],
        merchant_uid=order["merchantUid"],
        name=order["name"],
        amount=order["amount"],
        buyer_email=order["buyerEmail"],
        card_number=GOOD_CARD["cardNumber"],
    )
    confirmed = desk.guest_call(
        "POST", "/payments/licenses/new/confirm", json={"impUid": paid["imp_uid"], "merchantUid": order["merchantUid"]}
    )
    assert confirmed.status_code == 200, confirmed.text
    result: dict[str, Any] = confirmed.json()
    return result


def log_in(desk: Desk, address: str, password: str) -> Any:
    return desk.guest_call("POST", "/auth/login", json={"email": address, "pw": password})


def bearer(login: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {login.json()['accessToken']}"}


def test_registering_a_guest_buyers_address_shows_nothing_until_the_mailbox_proves_it(desk: Desk) -> None:
    bought = buy_as_guest(desk, VICTIM)

    # The stranger registers the victim's address with a password of their own: accepted as a claim only.
    claimed = desk.guest_call("POST", "/accounts", json={"email": VICTIM, "pw": ATTACKERS_PASSWORD, "language": "ko"})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["emailConfirmed"] is False
    # Their password opens no session: the answer says the address must be confirmed first.
    refused = log_in(desk, VICTIM, ATTACKERS_PASSWORD)
    assert (refused.status_code, refused.json()["errorCode"]) == (403, -401)
    # No licence, payment or key can be reached: there is no token, and a forged one is refused.
    assert desk.guest_call("GET", "/licenses/mine").status_code == 401
    assert desk.guest_call("GET", "/payments/licenses").status_code == 401

    # The victim reads the receipt: its register link carries a token that proves the mailbox.
    deliver_mails(desk.services)
    [receipt] = [mail for mail in mailbox(desk.services, VICTIM) if bought["licenseKey"] in mail.text]
    link = receipt.link_query("/register?")
    assert (link["email"], link["userLicenseKey"]) == (VICTIM, bought["licenseKey"])
    owned = desk.guest_call(
        "POST",
        "/accounts",
        params={"userLicenseKey": link["userLicenseKey"], "receiptToken": link["t"]},
        json={"email": link["email"], "pw": VICTIMS_PASSWORD, "language": "ko"},
    )
    assert owned.status_code == 200, owned.text
    assert owned.json()["emailConfirmed"] is True

    # The victim logs in and sees the licence and the payment; the stranger's password is worth nothing.
    victim = log_in(desk, VICTIM, VICTIMS_PASSWORD)
    assert (victim.status_code, victim.json()["scope"]) == (200, 1)
    desk.views_caught_up()
    mine = desk.guest_call("GET", "/licenses/mine", headers=bearer(victim)).json()
    assert [licence["id"] for licence in mine] == [bought["userLicenseId"]]
    assert mine[0]["devices"] == [], "nobody activated a device with the key"
    assert len(desk.guest_call("GET", "/payments/licenses", headers=bearer(victim)).json()) == 1
    assert log_in(desk, VICTIM, ATTACKERS_PASSWORD).json()["errorCode"] == -400


def test_a_claim_link_completes_only_the_claim_whose_password_is_typed(desk: Desk) -> None:
    bought = buy_as_guest(desk, VICTIM)
    # The stranger claims first; the victim registers afterwards from the site (not the receipt).
    for password in (ATTACKERS_PASSWORD, VICTIMS_PASSWORD):
        answer = desk.guest_call("POST", "/accounts", json={"email": VICTIM, "pw": password, "language": "en"})
        assert (answer.status_code, answer.json()["emailConfirmed"]) == (200, False)
    deliver_mails(desk.services)
    claim_mails = [mail for mail in mailbox(desk.services, VICTIM) if mail.links("/register/claim?")]
    assert len(claim_mails) == 2, "each registration mails its own link to the address, never to the registrant"
    strangers_link = claim_mails[0].link_query("/register/claim?")["t"]

    # Only the mailbox has the links; the stranger's guess at one is refused.
    assert desk.guest_call("GET", "/auth/claim", params={"t": strangers_link + "x"}).json()["errorCode"] == -405
    # The victim opens the first mail (the stranger's claim) and types their own password: their own claim wins.
    assert desk.guest_call("GET", "/auth/claim", params={"t": strangers_link}).json() == {"email": VICTIM}
    wrong = desk.guest_call("POST", "/auth/claim", json={"t": strangers_link, "pw": "guess1234"})
    assert wrong.json()["errorCode"] == -400
    taken = desk.guest_call("POST", "/auth/claim", json={"t": strangers_link, "pw": VICTIMS_PASSWORD})
    assert (taken.status_code, taken.json()["scope"], taken.json()["email"]) == (200, 1, VICTIM)
    desk.views_caught_up()
    mine = desk.guest_call("GET", "/licenses/mine", headers=bearer(taken)).json()
    assert [licence["id"] for licence in mine] == [bought["userLicenseId"]]

    # Every link is spent once the owner is in; the stranger's password never logs in.
    second_link = claim_mails[1].link_query("/register/claim?")["t"]
    late = desk.guest_call("POST", "/auth/claim", json={"t": second_link, "pw": ATTACKERS_PASSWORD})
    assert late.json()["errorCode"] == -405
    assert log_in(desk, VICTIM, ATTACKERS_PASSWORD).json()["errorCode"] == -400


def test_an_address_registered_before_the_guest_bought_with_it_is_taken_back_by_the_mailbox(desk: Desk) -> None:
    # The stranger registers the victim's address before the victim ever buys, and keeps a scope-0 session.
    early = desk.guest_call("POST", "/accounts", json={"email": VICTIM, "pw": ATTACKERS_PASSWORD, "language": "ko"})
    assert early.status_code == 200
    stranger = log_in(desk, VICTIM, ATTACKERS_PASSWORD)
    assert (stranger.status_code, stranger.json()["scope"]) == (200, 0)

    desk.clock.advance(timedelta(minutes=5))
    bought = buy_as_guest(desk, VICTIM)  # the purchase lands on the account holding the address
    desk.views_caught_up()
    for path in ("/licenses/mine", "/payments/licenses", f"/licenses/mine/{bought['userLicenseId']}"):
        answer = desk.guest_call("GET", path, headers=bearer(stranger))
        assert (answer.status_code, answer.json()["errorCode"]) == (403, -401), path
    activation = desk.guest_call("POST", "/licenses/open-beta", headers=bearer(stranger))
    assert activation.json()["errorCode"] == -401

    # The receipt's link takes the account from whoever registered it without proving the mailbox.
    deliver_mails(desk.services)
    [receipt] = [mail for mail in mailbox(desk.services, VICTIM) if bought["licenseKey"] in mail.text]
    link = receipt.link_query("/register?")
    owned = desk.guest_call(
        "POST",
        "/accounts",
        params={"receiptToken": link["t"]},
        json={"email": VICTIM, "pw": VICTIMS_PASSWORD, "language": "ko"},
    )
    assert (owned.status_code, owned.json()["emailConfirmed"]) == (200, True), owned.text
    victim = log_in(desk, VICTIM, VICTIMS_PASSWORD)
    desk.views_caught_up()
    mine = desk.guest_call("GET", "/licenses/mine", headers=bearer(victim)).json()
    assert [licence["id"] for licence in mine] == [bought["userLicenseId"]]
    assert log_in(desk, VICTIM, ATTACKERS_PASSWORD).json()["errorCode"] == -400
    desk.client.cookies.clear()
    assert desk.guest_call("GET", "/auth/refresh", cookies={"rt": stranger.cookies["rt"]}).status_code == 401


def test_a_licence_key_no_longer_tells_anyone_whose_it_is(desk: Desk) -> None:
    bought = buy_as_guest(desk, VICTIM)
    answer = desk.guest_call("GET", "/accounts/check/email", params={"userLicenseKey": bought["licenseKey"]})
    assert answer.json() == {"isRegistered": False, "emailConfirmed": False}
    assert VICTIM not in answer.text

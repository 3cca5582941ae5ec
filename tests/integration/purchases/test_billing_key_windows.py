"""Billing keys issued in a PG window (kakaopay, naverpay, a card window) through HTTP, against the sandbox.

The browser asks for a customerUid, the customer approves the PG window (request_pay with that
customerUid and an amount of 0), and the page hands the customerUid back to a subscription call.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, V1, Desk

pytestmark = pytest.mark.integration
MONTHLY = 111


def open_window(desk: Desk, request_type: str, *, guest: bool = False) -> dict[str, Any]:
    """GET /billingkeys/customerUid?requestType=…, as the subscriber or as a guest."""
    path = f"/billingkeys/customerUid?requestType={request_type}"
    response = desk.guest_call("GET", path) if guest else desk.call("GET", path)
    assert response.status_code == 200, response.text
    window: dict[str, Any] = response.json()
    return window


def subscribe_with(desk: Desk, window: dict[str, Any], *, guest_email: str | None = None) -> Any:
    """What the page posts after the window (or on the redirect return)."""
    body: dict[str, Any] = {"licenseId": MONTHLY, "countryCode": "KR", "customerUid": window["customerUid"]}
    path = "/payments/licenses/subscribe/new/new-billingkey/redirect"
    if guest_email is None:
        return desk.call("POST", path, json=body)
    return desk.guest_call("POST", path, json={**body, "email": guest_email})


def resume_with(desk: Desk, user_license_id: str, window: dict[str, Any]) -> Any:
    """Resume or re-subscribe a licence with the key a window issued; the answer's body."""
    body = {"userLicenseId": user_license_id, "customerUid": window["customerUid"]}
    return desk.call("POST", "/payments/licenses/re-subscribe/new-billingkey/redirect", json=body).json()


def test_a_member_subscribes_with_a_kakaopay_key_and_a_repeated_return_charges_nothing_more(desk: Desk) -> None:
    window = open_window(desk, "kakaopay")
    assert (window["pg"], window["payMethod"], window["amount"]) == ("kakaopay", "card", 0)
    assert window["customerUid"].startswith("cust-")
    assert desk.issue_key_in_window(window)["success"] is True

    started = subscribe_with(desk, window)
    assert started.status_code == 200, started.text
    state = started.json()
    assert (state["status"], state["isScheduled"], state["price"], state["email"]) == ("active", True, 2900, SUBSCRIBER)
    assert state["cardNumber"].endswith("1111") and "41111111" not in state["cardNumber"]
    assert state["accountCreated"] is False

    again = subscribe_with(desk, window).json()  # a reload of the redirect return
    assert (again["subscriptionId"], again["licenseKey"]) == (state["subscriptionId"], state["licenseKey"])
    assert [record["status"] for record in desk.history()] == ["paid"]

    [key] = desk.call("GET", "/billingkeys").json()["billingkeys"]
    assert (key["customerUid"], key["pg"], key["isDefault"]) == (window["customerUid"], "kakaopay", True)

    desk.clock.advance(timedelta(days=30))
    [renewal] = desk.beat()
    assert renewal.endswith("-2-1")
    assert [record["status"] for record in desk.history()] == ["paid", "paid"]


def test_a_guest_subscribes_through_a_naverpay_window_and_owns_it_after_registering(desk: Desk) -> None:
    window = open_window(desk, "naverpay", guest=True)
    assert window["customerUid"].startswith("cust-guest-")
    desk.issue_key_in_window(window)

    started = subscribe_with(desk, window, guest_email="Guest@Example.com")
    assert started.status_code == 200, started.text
    state = started.json()
    assert (state["email"], state["accountCreated"], state["status"]) == ("guest@example.com", True, "active")

    # Someone else replaying the same customerUid gets nothing of it.
    stranger = subscribe_with(desk, window, guest_email="stranger@example.com")
    assert (stranger.status_code, stranger.json()["errorCode"]) == (409, -308)

    # Registering with the address claims the passwordless account, licence and subscription included.
    desk.register("guest@example.com")
    mine = desk.call("GET", "/licenses/mine", as_email="guest@example.com").json()
    assert [licence["id"] for licence in mine] == [state["userLicenseId"]]
    renewing = desk.call(
        "GET", f"/payments/licenses/subscribe/{state['userLicenseId']}", as_email="guest@example.com"
    ).json()
    assert (renewing["isScheduled"], renewing["cardNumber"]) == (True, state["cardNumber"])


def test_a_guest_cannot_put_a_card_into_a_registered_account(desk: Desk) -> None:
    window = open_window(desk, "kakaopay", guest=True)
    desk.issue_key_in_window(window)
    refused = subscribe_with(desk, window, guest_email=SUBSCRIBER)
    assert (refused.status_code, refused.json()["errorCode"]) == (409, -402)
    assert desk.call("GET", "/billingkeys").json()["billingkeys"] == []
    assert desk.history() == []


def test_a_customer_uid_works_only_for_whom_it_was_issued_and_only_once_a_key_exists(desk: Desk) -> None:
    member_window = open_window(desk, "kakaopay")
    desk.issue_key_in_window(member_window)
    as_guest = subscribe_with(desk, member_window, guest_email="guest@example.com")
    assert (as_guest.status_code, as_guest.json()["errorCode"]) == (403, 403)
    desk.register("other@example.com")
    other = desk.call(
        "PUT", "/billingkeys", as_email="other@example.com", json={"customerUid": member_window["customerUid"]}
    )
    assert other.status_code == 403

    closed = open_window(desk, "naverpay")
    assert desk.issue_key_in_window(closed, action="close")["success"] is False
    never_issued = subscribe_with(desk, closed)
    assert (never_issued.status_code, never_issued.json()["errorCode"]) == (404, -304)

    unknown = desk.call("GET", "/billingkeys/customerUid?requestType=bitcoin")
    assert (unknown.status_code, unknown.json()["errorCode"]) == (400, -2)
    missing = subscribe_with(desk, {"customerUid": ""})
    assert missing.json()["errorCode"] == -1
    assert desk.history() == []


def test_a_key_refused_on_its_first_charge_is_recorded_once_and_stays_refused(desk: Desk) -> None:
    window = open_window(desk, "creditCard")
    assert window["pg"] == "kcp_billing"
    desk.issue_key_in_window(window, card="4111111111110003")  # issued, but recurring charges fail
    for _ in range(2):
        refused = subscribe_with(desk, window)
        assert (refused.status_code, refused.json()["errorCode"]) == (402, -303)
    [failed] = desk.history()
    assert (failed["status"], failed["failReason"]) == ("failed", "insufficient funds")
    assert desk.call("GET", "/licenses/mine").json() == []


def test_windows_resume_a_cancelled_subscription_change_its_card_and_re_subscribe_after_it_ended(
    desk: Desk,
) -> None:
    state = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": MONTHLY, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    licence_id = state["userLicenseId"]
    desk.call("DELETE", f"/payments/licenses/subscribe/{licence_id}")

    kakao = open_window(desk, "kakaopay")
    desk.issue_key_in_window(kakao, card="5555444433332222")
    resumed = resume_with(desk, licence_id, kakao)
    assert (resumed["status"], resumed["resumeComplete"]) == ("active", True)
    assert resumed["cardNumber"].endswith("2222")

    # A naverpay key joins the wallet (the same window twice is the same key) and becomes the payment method.
    naver = open_window(desk, "naverpay")
    desk.issue_key_in_window(naver, card="4000000000000077")
    added = desk.call("PUT", "/billingkeys", json={"customerUid": naver["customerUid"]}).json()
    assert desk.call("PUT", "/billingkeys", json={"customerUid": naver["customerUid"]}).json() == added
    assert added["pg"] == "naverpay" and added["isDefault"] is False
    changed = desk.call(
        "PUT", f"/payments/licenses/subscribe/{licence_id}/billingkey", json={"billingkeyId": added["billingkeyId"]}
    ).json()
    assert changed["cardNumber"].endswith("0077")
    assert len(desk.call("GET", "/billingkeys").json()["billingkeys"]) == 3

    # Cancelled and run out, it starts again with a key from another window: a new period is charged.
    desk.call("DELETE", f"/payments/licenses/subscribe/{licence_id}")
    desk.clock.advance(timedelta(days=31))
    assert desk.beat() == []
    assert desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()["status"] == "ended"
    card_window = open_window(desk, "creditCard")
    desk.issue_key_in_window(card_window, card="4242424242424242")
    again = resume_with(desk, licence_id, card_window)
    assert (again["status"], again["resumeComplete"], again["cardNumber"][-4:]) == ("active", True, "4242")
    assert [record["status"] for record in desk.history()] == ["paid", "paid"]


def test_the_wallet_lists_keys_for_the_caller_only(desk: Desk) -> None:
    assert desk.guest_call("GET", "/billingkeys").status_code == 401
    desk.call("PUT", "/billingkeys", json=GOOD_CARD)
    desk.register("other@example.com")
    assert desk.call("GET", "/billingkeys", as_email="other@example.com").json()["billingkeys"] == []
    [mine] = desk.call("GET", "/billingkeys").json()["billingkeys"]
    assert mine["cardNumber"].endswith("1111")


def test_ten_racing_returns_of_one_guest_window_start_one_subscription_and_charge_once(desk: Desk) -> None:
    window = open_window(desk, "kakaopay", guest=True)
    desk.issue_key_in_window(window)
    app = desk.client.app
    body = {"licenseId": MONTHLY, "countryCode": "KR", "customerUid": window["customerUid"]}
    body["email"] = "racer@example.com"

    def return_from_the_window(_: int) -> tuple[int, str]:
        with TestClient(app) as client:
            answer = client.post(f"{V1}/payments/licenses/subscribe/new/new-billingkey/redirect", json=body)
            return answer.status_code, answer.json().get("subscriptionId", answer.text)

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(return_from_the_window, range(10)))
    assert {status for status, _ in answers} == {200}, answers
    assert len({subscription for _, subscription in answers}) == 1
    topics = [n.topic for n in desk.services.store.recorder.select_notifications(start=1, limit=1000)]
    assert topics.count("subscription.Started") == 1
    assert topics.count("payment.Succeeded") == 1
    assert topics.count("account.Registered") == 2  # the desk's subscriber and the one guest

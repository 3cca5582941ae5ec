"""A renewal fails: the subscriber fixes the card and pays at once, or cancels, through HTTP.

The licence page offers what the subscription allows (allowedActions); the server is the one
that decides, so what it offers is exactly what it then accepts.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.integration.purchases.desk import GOOD_CARD, SOON_BROKE, Desk

pytestmark = pytest.mark.integration

ANOTHER_GOOD_CARD = {**GOOD_CARD, "cardNumber": "5555444433332222"}
DUNNING_FAILED = "[유니콘] 정기 결제에 실패했습니다"
ENDED = "[유니콘] 구독이 종료되었습니다"


def _past_due(desk: Desk) -> dict[str, Any]:
    """A monthly subscription whose first renewal was just refused (its card had no funds any more)."""
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    )
    assert started.status_code == 200, started.text
    broke = desk.call("PUT", "/billingkeys", json=SOON_BROKE).json()
    changed = desk.call(
        "PUT",
        f"/payments/licenses/subscribe/{started.json()['userLicenseId']}/billingkey",
        json={"billingkeyId": broke["billingkeyId"]},
    )
    assert changed.status_code == 200, changed.text
    desk.clock.advance(timedelta(days=30))
    assert len(desk.beat()) == 1
    state: dict[str, Any] = desk.call("GET", f"/payments/licenses/subscribe/{started.json()['userLicenseId']}").json()
    assert state["status"] == "past_due"
    return state


def test_a_past_due_subscriber_changes_the_card_and_the_due_period_is_paid_at_once(desk: Desk) -> None:
    state = _past_due(desk)
    licence_id = state["userLicenseId"]
    assert state["allowedActions"] == ["cancelAutoRenewal", "changePaymentMethod", "payNow"]
    listed = next(item for item in desk.call("GET", "/licenses/mine").json() if item["id"] == licence_id)
    assert {"cancelAutoRenewal", "changePaymentMethod", "payNow"} <= set(listed["allowedActions"])
    assert "resume" not in listed["allowedActions"]
    ends_before = desk.call("GET", f"/licenses/mine/{licence_id}").json()["expiresAt"]

    # Paying now with the same card fails again, and the dunning schedule stays as it was.
    refused = desk.call("POST", f"/payments/licenses/subscribe/{licence_id}/pay")
    assert (refused.status_code, refused.json()["errorCode"]) == (402, -303)
    after_refusal = desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()
    assert (after_refusal["status"], after_refusal["nextPaymentAt"]) == ("past_due", state["nextPaymentAt"])

    # A card that works pays the due period at once and becomes the card.
    key = desk.call("PUT", "/billingkeys", json=ANOTHER_GOOD_CARD).json()
    paid = desk.call(
        "PUT", f"/payments/licenses/subscribe/{licence_id}/billingkey", json={"billingkeyId": key["billingkeyId"]}
    )
    assert paid.status_code == 200, paid.text
    assert (paid.json()["status"], paid.json()["cardNumber"]) == ("active", key["cardNumber"])
    assert paid.json()["allowedActions"] == ["cancelAutoRenewal", "changePaymentMethod"]
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert datetime.fromisoformat(detail["expiresAt"]) == datetime.fromisoformat(ends_before) + timedelta(
        days=30
    )  # extended once

    # Dunning stopped: the retry dates pass without a charge, and one failure mail was all.
    for days in (1, 2, 4):
        desk.clock.advance(timedelta(days=days))
        assert desk.beat() == []
    history = desk.history()
    assert sorted((record["purchaseType"], record["status"]) for record in history) == [
        ("renewal", "failed"),  # the scheduled renewal
        ("renewal", "failed"),  # paying now with the same card
        ("renewal", "paid"),  # the new card
        ("subscription", "paid"),
    ]
    assert sorted(desk.deliver_mails()) == [DUNNING_FAILED]


def test_the_resume_button_of_a_past_due_subscription_pays_the_due_period_with_a_new_card(desk: Desk) -> None:
    state = _past_due(desk)
    licence_id = state["userLicenseId"]
    resumed = desk.call("POST", f"/payments/licenses/re-subscribe/{licence_id}/new-billingkey", json=ANOTHER_GOOD_CARD)
    assert resumed.status_code == 200, resumed.text
    assert (resumed.json()["status"], resumed.json()["resumeComplete"]) == ("active", True)
    assert desk.call("POST", f"/payments/licenses/subscribe/{licence_id}/pay").json()["errorCode"] == -306


def test_a_past_due_subscriber_may_cancel_and_nothing_is_charged_again(desk: Desk) -> None:
    state = _past_due(desk)
    licence_id = state["userLicenseId"]
    cancelled = desk.call("DELETE", f"/payments/licenses/subscribe/{licence_id}").json()
    assert (cancelled["status"], cancelled["isScheduled"], cancelled["allowedActions"]) == (
        "ended",
        False,
        ["resubscribe"],
    )
    for days in (1, 2, 4):
        desk.clock.advance(timedelta(days=days))
        assert desk.beat() == []
    assert desk.call("POST", f"/payments/licenses/subscribe/{licence_id}/pay").json()["errorCode"] == -306
    assert sorted(desk.deliver_mails()) == [DUNNING_FAILED]

"""The gateway misbehaves (slow, failing, losing answers); nobody is charged twice and every state is right.

The sandbox plays the faults (integrations/portone/sandbox/faults.py) on its REST API; the desk's
PortOne client gives up after one second. A charge whose answer is lost is read back by its
merchantUid; a charge the gateway never made is tried again later under the same merchantUid; a
customer whose confirm meets a failing gateway gets 503 (-1002) and nothing half-written.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from domain.payments.gateway import GatewayUnreachableError
from tests.integration.purchases.desk import GOOD_CARD, Desk

pytestmark = pytest.mark.integration

CHARGE = "/subscribe/payments/again"


@pytest.fixture
def portone_timeout() -> float:
    return 1.0


def subscribe(desk: Desk) -> str:
    """A monthly subscriber; the licence's id."""
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    )
    assert started.status_code == 200, started.text
    return str(started.json()["userLicenseId"])


def paid_records(desk: Desk) -> list[str]:
    return [record["merchantUid"] for record in desk.history() if record["status"] == "paid"]


@pytest.mark.parametrize(
    "fault",
    [{"lose_next": 1}, {"latency_seconds": 2.5}],
    ids=["answer-lost", "answer-after-the-client-gave-up"],
)
def test_a_renewal_charged_without_an_answer_is_read_back_and_recorded_once(desk: Desk, fault: dict[str, Any]) -> None:
    licence_id = subscribe(desk)
    desk.clock.advance(timedelta(days=30))
    desk.sandbox.plan_faults(path_prefix=CHARGE, **fault)

    [merchant_uid] = desk.beat()
    desk.sandbox.plan_faults()
    assert desk.sandbox.charges_for(merchant_uid) == ["paid"]
    assert desk.beat() == []  # recorded as paid: the next pass charges nobody
    assert merchant_uid in paid_records(desk) and len(paid_records(desk)) == 2
    licence = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert licence["expiresAt"].startswith((desk.clock() + timedelta(days=30)).isoformat()[:10])
    print(f"{fault}: {merchant_uid} charged once at the gateway, recorded paid once")


def test_a_renewal_the_gateway_failed_is_tried_again_under_the_same_order_and_charged_once(desk: Desk) -> None:
    subscribe(desk)
    desk.clock.advance(timedelta(days=30))
    desk.sandbox.plan_faults(path_prefix=CHARGE, fail_next=1)
    log_before = desk.services.store.max_notification_id()

    with pytest.raises(GatewayUnreachableError):  # the worker's task retries on this
        desk.beat()
    assert desk.services.store.max_notification_id() == log_before, "nothing recorded for a charge not made"

    [merchant_uid] = desk.beat()  # the retry, the gateway answering again
    assert merchant_uid.endswith("-2-1"), "the same attempt, not a new one"
    assert desk.sandbox.charges_for(merchant_uid) == ["paid"]
    assert len(paid_records(desk)) == 2


def test_a_first_charge_whose_answer_is_lost_starts_the_subscription_once(desk: Desk) -> None:
    key = desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()
    desk.sandbox.plan_faults(path_prefix=CHARGE, lose_next=1)
    body = {"licenseId": 111, "countryCode": "KR", "billingkeyId": key["billingkeyId"]}
    started = desk.call("POST", "/payments/licenses/subscribe/new", json=body)
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "active"
    [merchant_uid] = paid_records(desk)
    assert desk.sandbox.charges_for(merchant_uid) == ["paid"]


def test_a_confirm_that_meets_a_failing_gateway_answers_503_then_succeeds_once(desk: Desk) -> None:
    placed = desk.call(
        "POST", "/payments/licenses/new", json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard"}
    ).json()
    paid = desk.sandbox.checkout(
        pg=placed["pg"], pay_method=placed["payMethod"], merchant_uid=placed["merchantUid"], name=placed["name"],
        amount=placed["amount"], currency=placed["currency"], buyer_email=placed["buyerEmail"],
        card_number=GOOD_CARD["cardNumber"],
    )  # fmt: skip
    confirm = {"impUid": paid["imp_uid"], "merchantUid": placed["merchantUid"]}

    desk.sandbox.plan_faults(path_prefix="/payments/", fail_next=2)
    refused = desk.call("POST", "/payments/licenses/new/confirm", params={"localeCode": "ko"}, json=confirm)
    assert (refused.status_code, refused.json()["errorCode"]) == (503, -1002)
    desk.views_caught_up()
    assert desk.call("GET", "/licenses/mine").json() == []  # nothing half-written

    desk.sandbox.plan_faults(path_prefix="/payments/", latency_seconds=2.5)
    slow = desk.call("POST", "/payments/licenses/new/confirm", params={"localeCode": "ko"}, json=confirm)
    assert (slow.status_code, slow.json()["errorCode"]) == (503, -1002)

    desk.sandbox.plan_faults()
    confirmed = desk.call("POST", "/payments/licenses/new/confirm", params={"localeCode": "ko"}, json=confirm)
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["state"] == "paid"
    assert desk.sandbox.charges_for(placed["merchantUid"]) == ["paid"]
    assert paid_records(desk) == [placed["merchantUid"]]

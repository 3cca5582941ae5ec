"""Webhooks are hints, never facts: duplicated, reordered or forged notices record only the gateway's truth.

Anyone can post to the webhook address. Each notice is acknowledged, and the payment it names is read
back from the gateway by its imp_uid; what the notice itself claims counts for nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.purchases.desk import GOOD_CARD, Desk

pytestmark = pytest.mark.integration


def order(desk: Desk, method: str = "creditCard") -> dict[str, Any]:
    answer = desk.call(
        "POST", "/payments/licenses/new", json={"licenseId": 121, "countryCode": "KR", "paymentMethod": method}
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def pay_in_window(desk: Desk, placed: dict[str, Any], card: str = GOOD_CARD["cardNumber"]) -> str:
    paid = desk.sandbox.checkout(
        pg=placed["pg"], pay_method=placed["payMethod"], merchant_uid=placed["merchantUid"], name=placed["name"],
        amount=placed["amount"], currency=placed["currency"], buyer_email=placed["buyerEmail"], card_number=card,
    )  # fmt: skip
    return str(paid["imp_uid"])


def notice(desk: Desk, imp_uid: str, merchant_uid: str, status: str) -> bool:
    """Post a notice; whether the webhook took it as one (it answers 200 either way, so no retry storms)."""
    answer = desk.guest_call(
        "POST", "/payments/webhook", json={"imp_uid": imp_uid, "merchant_uid": merchant_uid, "status": status}
    )
    assert answer.status_code == 200, answer.text
    return bool(answer.json()["ok"])


def recorded_status(desk: Desk, merchant_uid: str) -> str | None:
    desk.views_caught_up()
    answer = desk.call("GET", f"/payments/licenses/{merchant_uid}")
    return str(answer.json()["status"]) if answer.status_code == 200 else None


def events_of(desk: Desk) -> int:
    return desk.services.store.max_notification_id()


def test_forged_notices_record_nothing(desk: Desk) -> None:
    unpaid = order(desk)
    other = order(desk)
    others_imp_uid = pay_in_window(desk, other)
    before = events_of(desk)

    notice(desk, "imp_000000000000", unpaid["merchantUid"], "paid")  # an imp_uid the gateway never issued
    notice(desk, others_imp_uid, unpaid["merchantUid"], "paid")  # another payment's imp_uid
    notice(desk, others_imp_uid, "merchant-of-someone-else", "paid")  # a merchant_uid we never issued
    assert recorded_status(desk, other["merchantUid"]) == "ordered"  # not even the payment the imp_uid is
    assert events_of(desk) == before
    notice(desk, others_imp_uid, other["merchantUid"], "paid")  # the one true notice
    assert notice(desk, "", unpaid["merchantUid"], "paid") is False  # no imp_uid at all: not a notice

    assert recorded_status(desk, unpaid["merchantUid"]) == "ordered"
    # Only the true notice, about the payment that really happened, settled anything: that payment.
    assert events_of(desk) > before
    assert recorded_status(desk, other["merchantUid"]) == "paid"
    print(f"4 forged notices: {unpaid['merchantUid']} still ordered; the real payment {other['merchantUid']} paid")


def test_a_notice_for_a_payment_of_another_amount_is_refused(desk: Desk) -> None:
    placed = order(desk)
    # The window is tampered with: it asks for 100 instead of the order's amount.
    tampered = pay_in_window(desk, {**placed, "amount": 100})
    notice(desk, tampered, placed["merchantUid"], "paid")
    notice(desk, tampered, placed["merchantUid"], "paid")
    # The gateway held the order's amount (prepared at init) and failed the charge; the notice's "paid" is
    # not believed, the order is recorded as cancelled, and no licence is made.
    with desk.sandbox.client() as gateway:
        assert gateway.get_payment(tampered).status == "failed"
    assert recorded_status(desk, placed["merchantUid"]) == "cancelled"
    assert desk.call("GET", "/licenses/mine").json() == []


def test_duplicated_and_reordered_notices_of_a_virtual_account_end_in_the_gateways_state(desk: Desk) -> None:
    placed = order(desk, "virtualAccount")
    imp_uid = pay_in_window(desk, placed)
    reserved = desk.call(
        "POST", "/payments/licenses/new/confirm", params={"localeCode": "ko"},
        json={"impUid": imp_uid, "merchantUid": placed["merchantUid"]},
    ).json()  # fmt: skip
    assert reserved["state"] == "reserved"

    notice(desk, imp_uid, placed["merchantUid"], "paid")  # arrives before the deposit: the gateway says ready
    assert recorded_status(desk, placed["merchantUid"]) == "reserved"

    assert desk.sandbox.deposit(imp_uid).status_code == 200
    for _ in range(3):  # the true notice, delivered three times
        notice(desk, imp_uid, placed["merchantUid"], "paid")
    settled = events_of(desk)
    notice(desk, imp_uid, placed["merchantUid"], "ready")  # the first notice, late and out of order
    notice(desk, imp_uid, placed["merchantUid"], "cancelled")  # a claim the gateway does not back

    assert recorded_status(desk, placed["merchantUid"]) == "paid"
    assert events_of(desk) == settled, "late, duplicate and false notices wrote nothing"
    licence = desk.call("GET", f"/licenses/mine/{reserved['userLicenseId']}").json()
    assert licence["state"] == "active"

"""Upgrades through HTTP against the PortOne sandbox, on each store: the plans and their credit, a purchased
licence upgraded through the card window (once, however many confirms race), two tabs, and subscriptions
upgraded with their card or a PG window's key, renewing on the new cycle as the clock moves."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.coupons.admin import open_group
from domain.coupons.group import ConstraintType, GroupRules, GroupType
from tests.integration.purchases.desk import GOOD_CARD, V1, Desk
from workers import operator

pytestmark = pytest.mark.integration

MONTHLY, ANNUAL, ANNUAL_3, LIFETIME, LIFETIME_3 = 111, 121, 123, 131, 133


def _buy(desk: Desk, licence_id: int) -> dict[str, Any]:
    """The subscriber buys a licence through the card window; the confirmation."""
    order = desk.call(
        "POST",
        "/payments/licenses/new",
        json={"licenseId": licence_id, "countryCode": "KR", "paymentMethod": "creditCard"},
    ).json()
    imp_uid = _pay(desk, order)
    confirmed = desk.call(
        "POST", "/payments/licenses/new/confirm", json={"impUid": imp_uid, "merchantUid": order["merchantUid"]}
    )
    assert confirmed.status_code == 200, confirmed.text
    result: dict[str, Any] = confirmed.json()
    return result


def _pay(desk: Desk, order: dict[str, Any]) -> str:
    paid = desk.sandbox.checkout(
        pg=order["pg"],
        pay_method=order["payMethod"],
        merchant_uid=order["merchantUid"],
        name=order["name"],
        amount=order["amount"],
        currency=order["currency"],
        buyer_email=order["buyerEmail"],
        card_number="4111111111111111",
    )
    imp_uid: str = paid["imp_uid"]
    return imp_uid


def _plans(desk: Desk, user_license_id: str) -> dict[str, Any]:
    answer = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{user_license_id}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _order_upgrade(desk: Desk, user_license_id: str, target: int, price: int | None = None) -> Any:
    body: dict[str, Any] = {"licenseId": target, "paymentMethod": "creditCard"}
    if price is not None:
        body["requestPrice"] = price
    return desk.call("POST", f"/payments/licenses/{user_license_id}/upgrade", json=body)


def test_a_monthly_licence_halfway_through_becomes_annual_3_devices_for_the_quote_less_exactly_the_credit(
    desk: Desk,
) -> None:
    bought = _buy(desk, MONTHLY)
    licence_id = bought["userLicenseId"]
    desk.clock.advance(timedelta(days=15))

    plans = _plans(desk, licence_id)
    assert (plans["upgradeMethod"], plans["currentLicenseId"], plans["defaultLife"]) == ("upgrade", MONTHLY, 365)
    assert plans["upgradableOptions"] == {"life": [30, 365, 36500], "maxDevicesCount": [1, 3]}
    assert plans["paymentMethods"] == ["creditCard", "bankTransfer", "kakaopay", "naverpay", "point"], "won: no vbank"
    annual_3 = next(plan for plan in plans["licenses"] if plan["id"] == ANNUAL_3)
    credit = annual_3["remainingCredit"]
    assert 1440 <= credit <= 1450  # 2,900 won × the unused half, less the seconds the test itself takes
    assert (annual_3["price"], annual_3["discountedPrice"], annual_3["discount"]) == (58800, 41160, "0.3")
    assert annual_3["remainingPrice"] == annual_3["requestPrice"] == 41160 - credit
    assert annual_3["coupon"] == "0"

    assert _order_upgrade(desk, licence_id, ANNUAL_3, price=1).json()["errorCode"] == -302
    order = _order_upgrade(desk, licence_id, ANNUAL_3, price=annual_3["requestPrice"])
    assert order.status_code == 200, order.text
    order_body = order.json()
    assert order_body["amount"] == 41160 - order_body["remainingCredit"]
    imp_uid = _pay(desk, order_body)
    app = desk.client.app
    token = desk.access_token("sub@example.com")

    def confirm(_: int) -> tuple[int, Any]:
        with TestClient(app) as client:
            answer = client.post(
                f"{V1}/payments/licenses/upgrade/confirm",
                json={"impUid": imp_uid, "merchantUid": order_body["merchantUid"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            return answer.status_code, answer.json()

    webhook = desk.guest_call(
        "POST", "/payments/webhook", json={"imp_uid": imp_uid, "merchant_uid": order_body["merchantUid"]}
    )
    assert webhook.json() == {"ok": True}
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(confirm, range(20)))
    assert {status for status, _ in answers} == {200}
    assert {(body["userLicenseId"], body["newLicenseId"], body["licenseKey"]) for _, body in answers} == {
        (licence_id, ANNUAL_3, bought["licenseKey"])
    }
    # The result page's summary: what was paid, the credit taken off, and the payment whose receipt it links to.
    assert {
        (body["merchantUid"], body["amount"], body["currency"], body["credit"], bool(body["licenseName"]))
        for _, body in answers
    } == {(order_body["merchantUid"], order_body["amount"], "KRW", order_body["remainingCredit"], True)}
    returned = desk.call(  # a phone's return from the window confirms on the purchase route: the same summary
        "POST", "/payments/licenses/new/confirm", json={"impUid": imp_uid, "merchantUid": order_body["merchantUid"]}
    )  # fmt: skip
    assert returned.status_code == 200, returned.text
    summary = returned.json()["upgrade"]
    assert (summary["merchantUid"], summary["amount"], summary["credit"]) == (
        order_body["merchantUid"], order_body["amount"], order_body["remainingCredit"]
    )  # fmt: skip
    upgrades = [
        n
        for n in desk.services.store.recorder.select_notifications(start=1, limit=1000)
        if n.topic == "licence.Upgraded"
    ]
    assert len(upgrades) == 1

    desk.views_caught_up()
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert (detail["newLicenseId"], detail["maxDevicesCount"], detail["life"]) == (ANNUAL_3, 3, 365)
    assert detail["licenseKey"] == bought["licenseKey"] and detail["isDisableUpgrade"] is False
    assert "upgrade" in detail["allowedActions"]  # lifetime is still bigger
    charged = {record["merchantUid"]: record for record in desk.history()}[order_body["merchantUid"]]
    assert (charged["amount"], charged["purchaseType"], charged["status"]) == (order_body["amount"], "upgrade", "paid")
    assert [factor["type"] for factor in charged["discountFactors"]] == ["base", "remaining"]


def test_upgrade_calls_answer_with_the_spec_codes(desk: Desk) -> None:
    bought = _buy(desk, LIFETIME_3)
    nothing = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{bought['userLicenseId']}")
    assert (nothing.status_code, nothing.json()["errorCode"]) == (404, -109)
    unknown = desk.call("GET", "/purchasable-licenses/upgrade/licenses/8a3c1c9e-0000-4000-8000-000000000000")
    assert unknown.status_code == 404
    desk.register("other@example.com")
    theirs = desk.call(
        "GET", f"/purchasable-licenses/upgrade/licenses/{bought['userLicenseId']}", as_email="other@example.com"
    )
    assert theirs.status_code == 404
    assert _order_upgrade(desk, bought["userLicenseId"], 131).json()["errorCode"] == -302  # fewer devices
    assert (
        desk.guest_call("GET", f"/purchasable-licenses/upgrade/licenses/{bought['userLicenseId']}").status_code == 401
    )


def test_of_two_tabs_upgrading_one_licence_the_second_is_cancelled_at_the_gateway(desk: Desk) -> None:
    bought = _buy(desk, MONTHLY)
    licence_id = bought["userLicenseId"]
    first = _order_upgrade(desk, licence_id, ANNUAL).json()
    second = _order_upgrade(desk, licence_id, ANNUAL_3).json()
    first_imp, second_imp = _pay(desk, first), _pay(desk, second)

    won = desk.call(
        "POST", "/payments/licenses/upgrade/confirm", json={"impUid": first_imp, "merchantUid": first["merchantUid"]}
    )
    lost = desk.call(
        "POST", "/payments/licenses/upgrade/confirm", json={"impUid": second_imp, "merchantUid": second["merchantUid"]}
    )

    assert won.status_code == 200 and won.json()["newLicenseId"] == ANNUAL
    assert (lost.status_code, lost.json()["errorCode"]) == (400, -302)
    assert desk.services.payments.get_payment(second_imp).status.value == "cancelled"
    desk.views_caught_up()
    assert desk.call("GET", f"/licenses/mine/{licence_id}").json()["newLicenseId"] == ANNUAL


def test_a_monthly_subscription_upgraded_halfway_charges_once_and_renews_yearly(desk: Desk) -> None:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": MONTHLY, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    licence_id = started["userLicenseId"]
    desk.clock.advance(timedelta(days=15))

    plans = _plans(desk, licence_id)
    assert plans["upgradeMethod"] == "subscribe"
    assert {plan["id"] for plan in plans["licenses"]} == {113, ANNUAL, ANNUAL_3, LIFETIME, LIFETIME_3}
    annual_3 = next(plan for plan in plans["licenses"] if plan["id"] == ANNUAL_3)
    upgraded = desk.call(
        "POST",
        f"/payments/licenses/{licence_id}/subscribe/upgrade",
        json={"licenseId": ANNUAL_3, "requestPrice": annual_3["requestPrice"]},
    )
    assert upgraded.status_code == 200, upgraded.text
    state = upgraded.json()
    assert (state["price"], state["status"]) == (41160, "active")
    upgraded_at = desk.clock()
    assert state["paidUntil"].startswith((upgraded_at + timedelta(days=365)).isoformat()[:16])

    desk.clock.advance(timedelta(days=16))
    assert desk.beat() == []  # the old monthly plan never charges again
    desk.clock.advance(timedelta(days=350))
    [renewal] = desk.beat()
    assert renewal.endswith("-3-1")
    assert desk.beat() == []
    paid = [record for record in desk.history() if record["status"] == "paid"]
    assert sorted(record["amount"] for record in paid) == sorted([2900, annual_3["requestPrice"], 41160])
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert detail["expiresAt"].startswith((upgraded_at + timedelta(days=730)).isoformat()[:16])
    assert (detail["newLicenseId"], detail["maxDevicesCount"]) == (ANNUAL_3, 3)


def test_a_subscription_upgraded_to_lifetime_is_bought_for_good_and_never_renews(desk: Desk) -> None:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": MONTHLY, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    licence_id = started["userLicenseId"]
    key_before = desk.call("GET", f"/licenses/mine/{licence_id}").json()["licenseKey"]
    desk.clock.advance(timedelta(days=15))
    lifetime = next(plan for plan in _plans(desk, licence_id)["licenses"] if plan["id"] == LIFETIME)
    assert lifetime["remainingCredit"] == 1450
    assert lifetime["requestPrice"] == lifetime["discountedPrice"] - 1450

    upgraded = desk.call(
        "POST",
        f"/payments/licenses/{licence_id}/subscribe/upgrade",
        json={"licenseId": LIFETIME, "requestPrice": lifetime["requestPrice"]},
    )

    assert upgraded.status_code == 200, upgraded.text
    assert (upgraded.json()["status"], upgraded.json()["isScheduled"]) == ("ended", False)
    assert upgraded.json()["allowedActions"] == []
    detail = desk.call("GET", f"/licenses/mine/{licence_id}").json()
    assert (detail["newLicenseId"], detail["isScheduled"], detail["scheduledPayment"]) == (LIFETIME, False, None)
    assert detail["licenseKey"] == key_before
    assert "resubscribe" not in detail["allowedActions"] and "upgrade" in detail["allowedActions"]
    # Now a bought licence: the next upgrade (more devices) goes through the payment window.
    assert _plans(desk, licence_id)["upgradeMethod"] == "upgrade"
    again = desk.call("POST", f"/payments/licenses/{licence_id}/subscribe/upgrade", json={"licenseId": LIFETIME_3})
    assert again.json()["errorCode"] == -302  # the subscription ended: it charges nothing any more
    for _ in range(4):
        desk.clock.advance(timedelta(days=100))
        assert desk.beat() == []
    paid = [record for record in desk.history() if record["status"] == "paid"]
    assert sorted(record["amount"] for record in paid) == sorted([2900, lifetime["requestPrice"]])


def test_a_subscription_upgraded_through_a_window_key_charges_once_however_often_the_phone_returns(desk: Desk) -> None:
    started = desk.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": MONTHLY, "countryCode": "KR", "card": GOOD_CARD},
    ).json()
    licence_id = started["userLicenseId"]
    window = desk.call("GET", "/billingkeys/customerUid?requestType=kakaopay").json()
    desk.issue_key_in_window(window, card="5555555555554444")
    body = {"userLicenseId": licence_id, "licenseId": ANNUAL, "customerUid": window["customerUid"]}

    first = desk.call("POST", "/payments/licenses/subscribe/upgrade/new-billingkey/redirect", json=body)
    again = desk.call("POST", "/payments/licenses/subscribe/upgrade/new-billingkey/redirect", json=body)

    assert first.status_code == 200, first.text
    assert again.status_code == 200, again.text
    assert first.json()["price"] == again.json()["price"] == 24360
    assert first.json()["cardNumber"] == again.json()["cardNumber"] and "4444" in first.json()["cardNumber"]
    upgrades = [record for record in desk.history() if record["purchaseType"] == "upgrade"]
    assert len(upgrades) == 1 and upgrades[0]["status"] == "paid"


def test_support_records_an_app_store_purchase_which_shows_but_is_not_upgraded_here(
    desk: Desk, capsys: pytest.CaptureFixture[str]
) -> None:
    args = operator.parse_args(["record-app-store-purchase", "sub@example.com", str(ANNUAL), "2000000987654321"])
    assert operator.run(args, desk.services) == 0
    assert operator.run(args, desk.services) == 0  # the same transaction again grants nothing more
    assert (
        operator.run(
            operator.parse_args(["record-app-store-purchase", "nobody@example.com", "121", "1"]), desk.services
        )
        == 2
    )
    assert "recorded apple-2000000987654321" in capsys.readouterr().out

    desk.views_caught_up()
    [licence] = desk.call("GET", "/licenses/mine").json()
    assert "upgrade" not in licence["allowedActions"]
    detail = desk.call("GET", f"/licenses/mine/{licence['id']}").json()
    assert detail["isDisableUpgrade"] is True
    assert [payment["appleTransactionId"] for payment in detail["payments"]] == ["2000000987654321"]
    refused = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{licence['id']}")
    assert refused.json()["errorCode"] == -109
    assert _order_upgrade(desk, licence["id"], ANNUAL_3).json()["errorCode"] == -302


def test_a_coupon_takes_its_share_off_an_upgrade_after_the_credit_and_counts_once_per_licence(desk: Desk) -> None:
    rules = GroupRules(
        name="upgrade week",
        group_type=GroupType.PUBLIC,
        constraint_type=ConstraintType.USER_LICENCE,
        factor=Decimal("0.1"),
        available_duration=365,  # annual plans only
        sub_issued_count=100,
    )
    open_group(desk.services.store, desk.clock(), rules, code="UPGRADE10")
    bought = _buy(desk, MONTHLY)
    licence_id = bought["userLicenseId"]
    desk.clock.advance(timedelta(days=15))

    unknown = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{licence_id}", params={"code": "NOPE"})
    assert (unknown.status_code, unknown.json()["errorCode"]) == (404, -601)
    listed = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{licence_id}", params={"code": "upgrade10"})
    plans = {plan["id"]: plan for plan in listed.json()["licenses"]}
    annual_3, lifetime_3 = plans[ANNUAL_3], plans[LIFETIME_3]
    assert (annual_3["coupon"], lifetime_3["coupon"]) == ("0.1", "0"), "the group discounts annual plans only"
    assert annual_3["requestPrice"] == annual_3["remainingPrice"] * 9 // 10, "after base discount and credit"

    refused = desk.call(
        "POST",
        f"/payments/licenses/{licence_id}/upgrade",
        json={"licenseId": LIFETIME_3, "paymentMethod": "creditCard", "code": "UPGRADE10"},
    )
    assert refused.json()["errorCode"] == -604
    order = desk.call(
        "POST",
        f"/payments/licenses/{licence_id}/upgrade",
        json={
            "licenseId": ANNUAL_3,
            "paymentMethod": "creditCard",
            "code": "UPGRADE10",
            "requestPrice": annual_3["requestPrice"],
        },
    ).json()
    assert order["amount"] == annual_3["requestPrice"]
    confirmed = desk.call(
        "POST",
        "/payments/licenses/upgrade/confirm",
        json={"impUid": _pay(desk, order), "merchantUid": order["merchantUid"]},
    )
    assert confirmed.status_code == 200, confirmed.text

    charged = {record["merchantUid"]: record for record in desk.history()}[order["merchantUid"]]
    assert charged["couponCode"] == "UPGRADE10"
    assert [factor["type"] for factor in charged["discountFactors"]] == ["base", "remaining", "coupon"]
    again = desk.call("GET", f"/purchasable-licenses/upgrade/licenses/{licence_id}", params={"code": "UPGRADE10"})
    assert again.json()["errorCode"] == -614, "once per user licence"

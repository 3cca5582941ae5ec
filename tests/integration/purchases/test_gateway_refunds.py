"""Refunds as the customer, support and finance meet them, over HTTP on both stores against the PortOne sandbox: a
payment refunded in part in PortOne's console and the rest from the back office (never a server error), a refund
PortOne refuses answered with a code staff can act on, a guest's purchase given back once the mailbox is theirs and
the guarantee given once per customer and product, a refunded subscription that no longer says it renews, and
revenue counted per plan whatever the buyer's language."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from domain.accounts.auth import find_account_id
from domain.payments.payment import Payment, PaymentState
from domain.payments.purchase import place_order, settle_payment
from events.payments import PaymentRefunded
from events.values import Language
from projections.payments import payments_ordered_between
from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, Desk
from tests.integration.purchases.test_back_office_support import buy, first_owner
from tests.security.test_guest_purchases_need_the_mailbox import buy_as_guest
from workers.tasks.payments import deliver_purchase_mail

pytestmark = pytest.mark.integration

START, FAR = datetime(2026, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)


def _refunds(desk: Desk, merchant_uid: str) -> list[tuple[str, int]]:
    events = desk.services.store.repository.event_store.get(Payment.id_for(merchant_uid))
    return [(event.source, event.amount) for event in events if isinstance(event, PaymentRefunded)]


def _at_the_gateway(desk: Desk, merchant_uid: str) -> int:
    payment: Payment = desk.services.store.repository.get(Payment.id_for(merchant_uid))
    assert payment.imp_uid is not None
    return desk.services.payments.get_payment(payment.imp_uid).cancel_amount


def test_a_payment_refunded_in_part_in_the_console_is_refunded_for_the_rest_from_the_back_office(desk: Desk) -> None:
    desk.services.settings = desk.services.settings.model_copy(update={"staff_refund_approval_limits": "USD=2500"})
    account_id = find_account_id(desk.services.store, SUBSCRIBER)
    assert account_id is not None
    merchant_uid, _, _ = buy(desk, account_id)
    payment: Payment = desk.services.store.repository.get(Payment.id_for(merchant_uid))
    with desk.sandbox.client() as console:  # someone refunds $10.00 in PortOne's console
        console.cancel(imp_uid=payment.imp_uid, amount=1000, checksum=4999, reason="console")

    owner = first_owner(desk)
    support = owner.invite("help@example.com", ["support"])
    finance = owner.invite("money@example.com", ["finance"])
    keep = {"reason": "goodwill", "licenceEffect": "keep"}
    refunded = support.call("POST", f"/payments/{merchant_uid}/refund", json={"amount": 1000, **keep})
    assert refunded.json() == {"refunded": 1000, "requestId": None, "state": "refunded", "licenceEffect": "keep"}
    assert _refunds(desk, merchant_uid) == [("gateway", 1000), ("store", 1000)], "the console's refund first"

    # Above the limit in all ($20.00 back already): a request, approved by finance after another console refund.
    waiting = support.call("POST", f"/payments/{merchant_uid}/refund", json={"amount": 1500, **keep}).json()
    assert waiting["state"] == "waiting"
    with desk.sandbox.client() as console:
        console.cancel(imp_uid=payment.imp_uid, amount=500, checksum=2999, reason="console again")
    approved = finance.call("POST", f"/refund-requests/{waiting['requestId']}/approve", json={"reason": "checked"})
    assert approved.status_code == 200, approved.text
    assert approved.json()["refunded"] == 1500
    assert _refunds(desk, merchant_uid)[-2:] == [("gateway", 500), ("store", 1500)]
    assert _at_the_gateway(desk, merchant_uid) == 4000
    recorded = support.call("POST", f"/payments/{merchant_uid}/gateway-refund", json={"reason": "check"})
    assert recorded.json() == {"recorded": 0}, "the log already holds everything the gateway did"

    desk.views_caught_up()
    [record] = [row for row in desk.history() if row["merchantUid"] == merchant_uid]
    assert (record["refundState"], record["cancelAmount"]) == ("partlyRefunded", 4000)
    assert [refund["source"] for refund in record["refunds"]] == ["gateway", "store", "gateway", "store"]


def test_a_refund_the_gateway_refuses_is_answered_with_a_code_and_nothing_is_recorded(desk: Desk) -> None:
    desk.services.settings = desk.services.settings.model_copy(update={"staff_refund_approval_limits": "KRW=100000"})
    services = desk.services
    account_id = find_account_id(services.store, SUBSCRIBER)
    assert account_id is not None
    order = place_order(
        services.store, services.clock, services.payments, services.catalogue, licence_id=131, country_code="KR",
        language=Language.KO, payment_method="virtualAccount", account_id=account_id, email=None,
    )  # fmt: skip
    issued = desk.sandbox.checkout(
        pg=order.pg, pay_method=order.pay_method, merchant_uid=order.merchant_uid, name=order.name,
        amount=order.amount, currency=order.currency, buyer_email=order.buyer_email,
    )  # fmt: skip
    settle_payment(
        services.store, services.clock, services.payments, imp_uid=issued["imp_uid"], merchant_uid=order.merchant_uid
    )
    assert desk.sandbox.deposit(issued["imp_uid"]).status_code == 200
    settle_payment(
        services.store, services.clock, services.payments, imp_uid=issued["imp_uid"], merchant_uid=order.merchant_uid
    )

    owner = first_owner(desk)
    # PortOne refunds a paid virtual account only to a bank account the call names, which a refund of ours does not.
    refused = owner.call("POST", f"/payments/{order.merchant_uid}/refund", json={"reason": "asked"})
    assert (refused.status_code, refused.json()["errorCode"]) == (409, -331), refused.text
    payment: Payment = services.store.repository.get(Payment.id_for(order.merchant_uid))
    assert (payment.state, payment.cancel_amount, payment.pending_refund) == (PaymentState.PAID, 0, None)
    topics = [type(event).__name__ for event in services.store.repository.event_store.get(payment.id)]
    assert topics[-2:] == ["RefundReserved", "RefundReleased"]


def test_a_guest_gets_the_money_back_once_the_mailbox_is_theirs_and_once_per_product_unless_unused_within_7_days(
    desk: Desk,
) -> None:
    bought = buy_as_guest(desk, "walk.in@example.com")
    [paid] = [row for row in payments_ordered_between(desk.services.views, START, FAR) if row["state"] == "paid"]
    bought["merchantUid"] = paid["merchant_uid"]
    assert deliver_purchase_mail(
        desk.services, task_id="receipt-1", payment_id=Payment.id_for(bought["merchantUid"]), kind="receipt"
    )
    [receipt] = [path for path in desk.services.settings.outbox_dir.glob("*.eml") if "walk.in" in path.read_text()]
    [link] = [word for word in receipt.read_text().split() if "/register?userLicenseKey=" in word]
    query = {name: values[0] for name, values in parse_qs(urlsplit(link).query).items()}
    registered = desk.guest_call(
        "POST",
        "/accounts",
        params={"userLicenseKey": query["userLicenseKey"], "receiptToken": query["t"]},
        json={"email": "walk.in@example.com", "pw": "abcd1234", "language": "ko"},
    )
    assert registered.status_code == 200, registered.text

    licence = desk.call("GET", f"/licenses/mine/{bought['userLicenseId']}", as_email="walk.in@example.com").json()
    offer = licence["moneyBack"]
    assert (offer["amount"], offer["atOnce"], offer["cardNumber"]) == (
        24360,
        True,
        licence["payments"][0]["cardNumber"],
    )
    asked = desk.call("POST", f"/payments/licenses/{bought['merchantUid']}/money-back", as_email="walk.in@example.com")
    assert (asked.status_code, asked.json()["state"], asked.json()["amount"]) == (200, "refunded", 24360), asked.text

    again = buy_as_guest(desk, "walk.in@example.com")  # the same product, bought again by the same mailbox
    second = desk.call("GET", f"/licenses/mine/{again['userLicenseId']}", as_email="walk.in@example.com").json()
    again["merchantUid"] = second["payments"][0]["merchantUid"]
    assert second["moneyBack"] is not None, "within 7 days, never used: the withdrawal right still gives it back"
    device = {"licenseKey": second["licenseKey"], "deviceId": "phone-1", "deviceName": "Phone", "platform": "android"}
    assert desk.guest_call("POST", "/licenses/activate", json=device).status_code == 200
    second = desk.call("GET", f"/licenses/mine/{again['userLicenseId']}", as_email="walk.in@example.com").json()
    assert second["moneyBack"] is None, "used, and the guarantee given already: no button where it can only be no"
    refused = desk.call("POST", f"/payments/licenses/{again['merchantUid']}/money-back", as_email="walk.in@example.com")
    assert (refused.status_code, refused.json()["errorCode"]) == (400, -342)
    history = {row["merchantUid"]: row for row in desk.history_of("walk.in@example.com")}
    assert history[bought["merchantUid"]]["refundState"] == "refunded"
    assert history[again["merchantUid"]]["refundState"] is None


def test_a_refunded_subscription_no_longer_says_it_renews(desk: Desk) -> None:
    started = desk.call(
        "POST", "/payments/licenses/subscribe/new/new-billingkey", json={"licenseId": 111, "card": GOOD_CARD}
    ).json()
    licence_id = started["userLicenseId"]
    [first] = [row for row in desk.history() if row["purchaseType"] == "subscription"]
    assert desk.call("POST", f"/payments/licenses/{first['merchantUid']}/money-back").json()["state"] == "refunded"

    state = desk.call("GET", f"/payments/licenses/subscribe/{licence_id}").json()
    assert (state["status"], state["isScheduled"], state["nextPaymentAt"], state["nextRenewalPrice"]) == (
        "ended", False, None, None
    )  # fmt: skip
    [listed] = desk.call("GET", "/licenses/mine").json()
    assert (listed["state"], listed["isScheduled"], listed["scheduledPayment"]) == ("revoked", False, None)
    assert desk.beat() == [], "and it is never charged again"


def test_revenue_counts_one_row_per_plan_whatever_the_buyers_language(desk: Desk) -> None:
    services = desk.services
    account_id = find_account_id(services.store, SUBSCRIBER)
    assert account_id is not None
    for language in (Language.KO, Language.EN, Language.JA):
        order = place_order(
            services.store, services.clock, services.payments, services.catalogue, licence_id=111, country_code="KR",
            language=language, payment_method="creditCard", account_id=account_id, email=None,
        )  # fmt: skip
        paid = desk.sandbox.checkout(
            pg=order.pg, pay_method=order.pay_method, merchant_uid=order.merchant_uid, name=order.name,
            amount=order.amount, currency=order.currency, buyer_email=order.buyer_email, card_number="4111111111111111",
        )  # fmt: skip
        settle_payment(
            services.store, services.clock, services.payments, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid
        )
    owner = first_owner(desk)
    desk.views_caught_up()
    ledger: dict[str, Any] = owner.call("GET", "/finance/ledger").json()
    plans = [(row["key"], row["label"], row["payments"]) for row in ledger["breakdown"]["plan"]]
    assert plans == [("111", services.catalogue.get(111).localization_for(Language.KO).name, 3)]  # type: ignore[union-attr]
    entries = owner.call("GET", "/finance/ledger/entries", params={"plan": "111"}).json()
    assert {entry["plan"] for entry in entries} == {"111"} and len(entries) == 3

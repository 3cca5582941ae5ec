"""Paying through the sandbox's PG window, and the server re-reading the payment."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from integrations.portone import PaymentNotFoundError, PaymentStatus, PortOneClient, PortOneError
from tests.integration.portone.harness import START, RunningSandbox, WebhookReceiver

pytestmark = pytest.mark.integration


def test_a_prepared_card_payment_is_paid_and_the_server_reads_it_back(
    sandbox: RunningSandbox, portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    portone.prepare("order-1001", 12_900)

    result = sandbox.checkout(
        pg="nice",
        pay_method="card",
        merchant_uid="order-1001",
        name="AdBlock Unicorn 1 year",
        amount=12_900,
        buyer_email="buyer@example.com",
        custom_data={"licenseId": 7},
        card_number="5365-1000-2000-3004",
    )

    assert result["success"] is True
    assert result["imp_uid"].startswith("imp_") and len(result["imp_uid"]) == 16
    payment = portone.get_payment(result["imp_uid"])
    assert payment.status is PaymentStatus.PAID
    assert (payment.merchant_uid, payment.amount, payment.currency) == ("order-1001", 12_900, "KRW")
    assert payment.paid_at == START
    assert payment.started_at == START
    assert payment.failed_at is None and payment.cancelled_at is None
    assert payment.card_number == "536510******3004"
    assert payment.pg_provider == "nice" and payment.channel == "pc"
    assert payment.buyer_email == "buyer@example.com"
    assert json.loads(payment.custom_data or "") == {"licenseId": 7}
    assert portone.find_payment("order-1001") == payment
    webhook_receiver.wait_for(imp_uid=payment.imp_uid, merchant_uid="order-1001", status="paid")


def test_the_receipt_url_points_at_the_sandbox_and_shows_the_payment(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    result = sandbox.checkout(merchant_uid="order-1", amount=5000, name="Licence")
    payment = portone.get_payment(result["imp_uid"])

    assert payment.receipt_url == f"{sandbox.base_url}/sandbox/receipts/{payment.imp_uid}"
    page = sandbox.http.get(payment.receipt_url)
    assert page.status_code == 200
    assert payment.imp_uid in page.text and "5000 KRW" in page.text


def test_a_card_ending_0002_is_declined(
    sandbox: RunningSandbox, portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    result = sandbox.checkout(merchant_uid="order-2", amount=5000, card_number="4111111111110002")

    assert result["success"] is False
    assert result["error_msg"] == "card declined"
    payment = portone.get_payment(result["imp_uid"])
    assert payment.status is PaymentStatus.FAILED
    assert payment.fail_reason == "card declined"
    assert payment.failed_at == START and payment.paid_at is None
    assert webhook_receiver.matching(imp_uid=payment.imp_uid) == []


def test_a_checkout_with_another_amount_than_prepared_is_refused(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    portone.prepare("order-3", 10_000)

    result = sandbox.checkout(merchant_uid="order-3", amount=100)

    assert result["success"] is False
    assert result["error_code"] == "AMOUNT_MISMATCH"
    assert portone.find_payment("order-3").status is PaymentStatus.FAILED
    with pytest.raises(PaymentNotFoundError):
        portone.find_payment("order-3", PaymentStatus.PAID)


def test_the_customer_closing_the_window_leaves_no_paid_payment(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    result = sandbox.checkout(merchant_uid="order-4", amount=5000, action="close")

    assert result["success"] is False and result["error_code"] == "USER_CANCEL"
    assert portone.get_payment(result["imp_uid"]).status is PaymentStatus.FAILED


def test_a_merchant_uid_that_is_already_paid_cannot_be_paid_twice(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    first = sandbox.checkout(merchant_uid="order-5", amount=5000)
    second = sandbox.checkout(merchant_uid="order-5", amount=5000)

    assert first["success"] is True
    assert second["success"] is False and second["imp_uid"] is None
    assert portone.find_payment("order-5").imp_uid == first["imp_uid"]


def test_find_returns_the_newest_payment_for_a_merchant_uid(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    declined = sandbox.checkout(merchant_uid="order-6", amount=5000, card_number="4111111111110002")
    paid = sandbox.checkout(merchant_uid="order-6", amount=5000)

    assert portone.find_payment("order-6").imp_uid == paid["imp_uid"]
    assert portone.find_payment("order-6", PaymentStatus.FAILED).imp_uid == declined["imp_uid"]


def test_an_unknown_payment_is_a_404(portone: PortOneClient) -> None:
    with pytest.raises(PaymentNotFoundError) as raised:
        portone.get_payment("imp_999999999999")
    with pytest.raises(PaymentNotFoundError):
        portone.find_payment("no-such-order")
    with pytest.raises(PaymentNotFoundError):
        portone.get_prepared("no-such-order")

    assert (raised.value.status_code, raised.value.code) == (404, -1)


def test_preparing_again_with_another_amount_is_refused(portone: PortOneClient) -> None:
    portone.prepare("order-7", 3000)
    assert portone.prepare("order-7", 3000).amount == 3000

    with pytest.raises(PortOneError) as raised:
        portone.prepare("order-7", 4000)

    assert raised.value.status_code == 200 and raised.value.code != 0
    assert portone.get_prepared("order-7").amount == 3000


def test_form_encoded_bodies_are_accepted(sandbox: RunningSandbox) -> None:
    token = sandbox.http.post(
        f"{sandbox.base_url}/users/getToken",
        data={"imp_key": "test-imp-key", "imp_secret": "test-imp-secret"},
    ).json()["response"]["access_token"]

    prepared = sandbox.http.post(
        f"{sandbox.base_url}/payments/prepare",
        data={"merchant_uid": "order-8", "amount": "7700"},
        headers={"Authorization": token},
    )
    checkout = sandbox.http.post(
        f"{sandbox.base_url}/sandbox/checkout", data={"merchant_uid": "order-8", "amount": "7700"}
    )

    assert prepared.json() == {
        "code": 0,
        "message": None,
        "response": {"merchant_uid": "order-8", "amount": 7700},
    }
    assert checkout.json()["success"] is True


def test_bad_parameters_are_refused_without_a_500(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    token = portone.get_token()
    response = sandbox.http.post(
        f"{sandbox.base_url}/payments/prepare",
        json={"merchant_uid": "order-9", "amount": "lots"},
        headers={"Authorization": f"Bearer {token}"},
    )
    checkout = sandbox.checkout(merchant_uid="order-9", amount=1000, pay_method="bitcoin")

    assert response.status_code == 400 and response.json()["code"] == -1
    assert checkout["success"] is False and checkout["error_code"] == "INVALID_REQUEST"


def test_the_checkout_page_plays_the_pg_window(sandbox: RunningSandbox) -> None:
    page = sandbox.http.get(
        f"{sandbox.base_url}/sandbox/checkout",
        params={
            "pg": "kakaopay",
            "pay_method": "card",
            "merchant_uid": "order-<script>",
            "amount": "9900",
            "name": "Licence",
            "m_redirect_url": "https://shop.example/ko/payments/complete",
        },
    )

    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for control in ("Approve", "Decline", "Close", "card_number"):
        assert control in page.text
    assert "order-<script>" not in page.text  # echoed parameters are escaped
    assert "imp_success" in page.text and "postMessage" in page.text


def test_timestamps_are_aware_utc(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    result = sandbox.checkout(merchant_uid="order-10", amount=1000)

    paid_at = portone.get_payment(result["imp_uid"]).paid_at

    assert paid_at is not None and paid_at.tzinfo is not None
    assert paid_at == datetime(2026, 11, 2, 3, 0, tzinfo=UTC)

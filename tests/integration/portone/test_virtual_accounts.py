"""Virtual accounts: issued (ready), deposited (paid), refunded to the buyer's account, webhooks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from integrations.portone import PaymentStatus, PortOneClient, PortOneError, RefundAccount
from tests.integration.portone.harness import (
    START,
    RunningSandbox,
    TestClock,
    WebhookReceiver,
    closed_port_url,
    wait_until,
)

pytestmark = pytest.mark.integration


def issue_vbank(sandbox: RunningSandbox, merchant_uid: str, amount: int, **extra: str) -> str:
    result = sandbox.checkout(pay_method="vbank", merchant_uid=merchant_uid, amount=amount, name="Licence", **extra)
    assert result["success"] is True, result
    imp_uid: str = result["imp_uid"]
    return imp_uid


def test_a_virtual_account_is_ready_until_the_deposit_makes_it_paid(
    sandbox: RunningSandbox, portone: PortOneClient, clock: TestClock, webhook_receiver: WebhookReceiver
) -> None:
    portone.prepare("order-1", 33_000)
    imp_uid = issue_vbank(sandbox, "order-1", 33_000)

    ready = portone.get_payment(imp_uid)
    assert ready.status is PaymentStatus.READY
    assert ready.vbank_num and ready.vbank_num.isdigit()
    assert ready.vbank_code and ready.vbank_name and ready.vbank_holder
    assert ready.vbank_issued_at == START
    assert ready.vbank_date == START + timedelta(days=3)
    assert ready.paid_at is None
    webhook_receiver.wait_for(imp_uid=imp_uid, merchant_uid="order-1", status="ready")

    clock.advance(timedelta(days=1))
    deposited = sandbox.deposit(imp_uid)

    assert deposited.status_code == 200 and deposited.json()["code"] == 0
    webhook_receiver.wait_for(imp_uid=imp_uid, merchant_uid="order-1", status="paid")
    paid = portone.get_payment(imp_uid)  # the webhook body is never trusted: re-read
    assert paid.status is PaymentStatus.PAID
    assert paid.paid_at == START + timedelta(days=1)
    assert paid.amount == 33_000


def test_the_buyer_can_be_given_a_deadline(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    imp_uid = issue_vbank(sandbox, "order-2", 10_000, vbank_due="202611051800")

    payment = portone.get_payment(imp_uid)

    assert payment.vbank_date == datetime(2026, 11, 5, 9, 0, tzinfo=UTC)  # 18:00 in Korea


def test_no_deposit_is_taken_after_the_deadline(
    sandbox: RunningSandbox, portone: PortOneClient, clock: TestClock
) -> None:
    imp_uid = issue_vbank(sandbox, "order-3", 10_000)

    clock.advance(timedelta(days=3, seconds=1))
    refused = sandbox.deposit(imp_uid)

    assert refused.status_code == 200 and refused.json()["code"] == 1
    assert portone.get_payment(imp_uid).status is PaymentStatus.READY


def test_a_deposit_only_applies_to_an_unpaid_virtual_account(sandbox: RunningSandbox) -> None:
    card = sandbox.checkout(merchant_uid="order-4", amount=1000)

    assert sandbox.deposit(card["imp_uid"]).json()["code"] == 1
    assert sandbox.deposit("imp_000000000000").status_code == 404


def test_refunding_a_deposited_account_needs_the_buyers_refund_account(
    sandbox: RunningSandbox, portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    imp_uid = issue_vbank(sandbox, "order-5", 20_000)
    sandbox.deposit(imp_uid)

    with pytest.raises(PortOneError) as refused:
        portone.cancel(imp_uid=imp_uid, checksum=20_000, reason="refund")
    assert refused.value.code == 1 and "refund" in refused.value.message

    cancelled = portone.cancel(
        imp_uid=imp_uid,
        checksum=20_000,
        reason="refund",
        refund=RefundAccount(holder="Hong Gildong", bank="004", account="12345678901234"),
    )
    assert cancelled.status is PaymentStatus.CANCELLED
    assert cancelled.cancel_amount == 20_000
    webhook_receiver.wait_for(imp_uid=imp_uid, status="cancelled")


def test_an_unpaid_virtual_account_can_be_withdrawn(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    imp_uid = issue_vbank(sandbox, "order-6", 20_000)

    cancelled = portone.cancel(imp_uid=imp_uid, reason="deadline passed")

    assert cancelled.status is PaymentStatus.CANCELLED
    assert cancelled.cancel_amount == 0 and cancelled.cancel_history == ()
    assert sandbox.deposit(imp_uid).json()["code"] == 1


def test_a_webhook_can_be_replayed(
    sandbox: RunningSandbox, portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    imp_uid = issue_vbank(sandbox, "order-7", 5_000)
    webhook_receiver.wait_for(imp_uid=imp_uid, status="ready")

    replay = sandbox.replay_webhook(imp_uid)

    assert replay.json()["response"]["status"] == "ready"
    assert wait_until(lambda: len(webhook_receiver.matching(imp_uid=imp_uid, status="ready")) == 2)


def test_an_unreachable_notice_url_does_not_break_the_sandbox(
    start_sandbox: Callable[..., RunningSandbox],
) -> None:
    sandbox = start_sandbox(notice_url=closed_port_url(), db_name="unreachable-webhooks.sqlite3")
    imp_uid = issue_vbank(sandbox, "order-8", 5_000)

    deposited = sandbox.deposit(imp_uid)

    assert deposited.json()["response"]["status"] == "paid"

    def failed_deliveries() -> list[dict[str, object]]:
        response = sandbox.http.get(f"{sandbox.base_url}/sandbox/webhooks").json()["response"]
        return [d for d in response if d["imp_uid"] == imp_uid and d["error"]]

    assert wait_until(lambda: len(failed_deliveries()) == 2)  # ready and paid, both logged
    with sandbox.client() as client:
        assert client.get_payment(imp_uid).status is PaymentStatus.PAID


def test_an_open_virtual_account_blocks_a_second_payment_until_it_expires(
    sandbox: RunningSandbox, clock: TestClock
) -> None:
    issue_vbank(sandbox, "order-9", 5_000)

    while_open = sandbox.checkout(merchant_uid="order-9", amount=5_000)
    clock.advance(timedelta(days=4))
    after_expiry = sandbox.checkout(merchant_uid="order-9", amount=5_000)

    assert while_open["success"] is False and while_open["error_code"] == "ALREADY_PAID"
    assert after_expiry["success"] is True

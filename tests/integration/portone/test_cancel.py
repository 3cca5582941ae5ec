"""Cancelling payments: partial and full, guarded by the checksum."""

from __future__ import annotations

from datetime import timedelta

import pytest

from integrations.portone import PaymentStatus, PortOneClient, PortOneError
from tests.integration.portone.harness import START, RunningSandbox, TestClock, WebhookReceiver

pytestmark = pytest.mark.integration


def paid(sandbox: RunningSandbox, merchant_uid: str, amount: int) -> str:
    result = sandbox.checkout(merchant_uid=merchant_uid, amount=amount, name="Licence")
    assert result["success"] is True
    imp_uid: str = result["imp_uid"]
    return imp_uid


def test_a_partial_then_a_full_cancel_refunds_everything_once(
    sandbox: RunningSandbox, portone: PortOneClient, clock: TestClock, webhook_receiver: WebhookReceiver
) -> None:
    imp_uid = paid(sandbox, "order-1", 10_000)

    clock.advance(timedelta(days=1))
    partial = portone.cancel(imp_uid=imp_uid, amount=3_000, checksum=10_000, reason="one device fewer")

    assert partial.status is PaymentStatus.PAID
    assert partial.cancel_amount == 3_000
    assert partial.cancelled_at == START + timedelta(days=1)
    assert [(e.amount, e.reason) for e in partial.cancel_history] == [(3_000, "one device fewer")]

    clock.advance(timedelta(days=1))
    full = portone.cancel(imp_uid=imp_uid, checksum=partial.amount - partial.cancel_amount, reason="refund")

    assert full.status is PaymentStatus.CANCELLED
    assert full.cancel_amount == 10_000
    assert full.cancel_reason == "refund"
    assert [e.amount for e in full.cancel_history] == [3_000, 7_000]
    assert full.cancel_history[1].cancelled_at == START + timedelta(days=2)
    assert portone.get_payment(imp_uid) == full
    webhook_receiver.wait_for(imp_uid=imp_uid, status="cancelled")


def test_a_cancel_with_a_stale_checksum_is_refused_and_changes_nothing(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    imp_uid = paid(sandbox, "order-2", 10_000)
    portone.cancel(imp_uid=imp_uid, amount=1_000, checksum=10_000)

    with pytest.raises(PortOneError) as raised:
        portone.cancel(imp_uid=imp_uid, amount=1_000, checksum=10_000)  # we believed nothing was refunded

    assert raised.value.status_code == 200 and raised.value.code not in (None, 0)
    assert "checksum" in raised.value.message
    assert portone.get_payment(imp_uid).cancel_amount == 1_000


def test_cancelling_more_than_is_left_is_refused(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    imp_uid = paid(sandbox, "order-3", 5_000)

    with pytest.raises(PortOneError):
        portone.cancel(imp_uid=imp_uid, amount=6_000)

    assert portone.get_payment(imp_uid).status is PaymentStatus.PAID


def test_a_cancel_of_nothing_is_http_200_with_code_1(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    imp_uid = paid(sandbox, "order-4", 5_000)
    portone.cancel(imp_uid=imp_uid)

    with pytest.raises(PortOneError) as already_cancelled:
        portone.cancel(imp_uid=imp_uid)
    with pytest.raises(PortOneError) as unknown:
        portone.cancel(imp_uid="imp_000000000000")

    for refused in (already_cancelled.value, unknown.value):
        assert (refused.status_code, refused.code) == (200, 1)
    declined = sandbox.checkout(merchant_uid="order-5", amount=5_000, card_number="4000000000000002")
    with pytest.raises(PortOneError) as failed_payment:
        portone.cancel(imp_uid=declined["imp_uid"])
    assert failed_payment.value.code == 1


def test_a_payment_can_be_cancelled_by_merchant_uid(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    imp_uid = paid(sandbox, "order-6", 8_000)

    cancelled = portone.cancel(merchant_uid="order-6", reason="tampering suspected")

    assert cancelled.imp_uid == imp_uid
    assert cancelled.status is PaymentStatus.CANCELLED

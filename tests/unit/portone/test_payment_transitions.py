"""How a sandbox payment moves: cancels (partial, full, checksum) and deposits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from integrations.portone.sandbox.errors import RefusedError
from integrations.portone.sandbox.records import PaymentRecord

T0 = 1_790_000_000


def card_payment(amount: int = 10_000) -> PaymentRecord:
    return PaymentRecord(
        imp_uid="imp_000000000001",
        merchant_uid="order-1",
        pay_method="card",
        amount=amount,
        status="paid",
        started_at=T0,
        paid_at=T0,
        pg_tid="tid-1",
        receipt_url="http://sandbox/receipts/imp_000000000001",
    )


def vbank_payment(status: str = "ready", amount: int = 10_000) -> PaymentRecord:
    return PaymentRecord(
        imp_uid="imp_000000000002",
        merchant_uid="order-2",
        pay_method="vbank",
        amount=amount,
        status=status,
        started_at=T0,
        vbank_date=T0 + 3 * 86_400,
        vbank_issued_at=T0,
    )


def cancel(payment: PaymentRecord, amount: int | None = None, checksum: int | None = None) -> PaymentRecord:
    return payment.cancel(amount=amount, checksum=checksum, reason="test", has_refund_account=False, now=T0 + 60)


def test_a_partial_cancel_keeps_the_payment_paid() -> None:
    after = cancel(card_payment(), amount=4_000, checksum=10_000)

    assert after.status == "paid"
    assert (after.cancel_amount, after.refundable) == (4_000, 6_000)
    assert after.cancelled_at == T0 + 60
    assert [(e.amount, e.pg_tid) for e in after.cancel_history] == [(4_000, "tid-1")]


def test_cancelling_the_rest_makes_it_cancelled() -> None:
    after = cancel(cancel(card_payment(), amount=4_000), checksum=6_000)

    assert after.status == "cancelled"
    assert after.cancel_amount == 10_000
    assert after.refundable == 0
    assert [e.amount for e in after.cancel_history] == [4_000, 6_000]


def test_a_checksum_other_than_the_refundable_balance_is_refused() -> None:
    partly = cancel(card_payment(), amount=4_000)

    with pytest.raises(RefusedError) as raised:
        cancel(partly, amount=1_000, checksum=10_000)

    assert raised.value.code == 1 and raised.value.http_status == 200


def test_more_than_the_balance_cannot_be_cancelled() -> None:
    with pytest.raises(RefusedError):
        cancel(card_payment(), amount=10_001)


@pytest.mark.parametrize("status", ["failed", "cancelled"])
def test_there_is_nothing_to_cancel_on_a_failed_or_cancelled_payment(status: str) -> None:
    payment = card_payment().model_copy(update={"status": status})

    with pytest.raises(RefusedError) as raised:
        cancel(payment)

    assert raised.value.code == 1


def test_a_paid_virtual_account_is_refunded_only_to_a_given_account() -> None:
    paid = vbank_payment().deposit(now=T0 + 100)

    with pytest.raises(RefusedError):
        cancel(paid)
    refunded = paid.cancel(amount=None, checksum=None, reason="refund", has_refund_account=True, now=T0 + 200)

    assert refunded.status == "cancelled" and refunded.cancel_amount == 10_000


def test_an_unpaid_virtual_account_is_withdrawn_whole_without_moving_money() -> None:
    withdrawn = cancel(vbank_payment())

    assert withdrawn.status == "cancelled"
    assert withdrawn.cancel_amount == 0 and withdrawn.cancel_history == ()
    with pytest.raises(RefusedError):
        cancel(vbank_payment(), amount=1_000)


def test_a_deposit_pays_a_ready_virtual_account_until_its_deadline() -> None:
    ready = vbank_payment()

    assert ready.deposit(now=T0 + 3 * 86_400).status == "paid"
    with pytest.raises(RefusedError):
        ready.deposit(now=T0 + 3 * 86_400 + 1)
    with pytest.raises(RefusedError):
        card_payment().deposit(now=T0)


def test_the_api_shape_hides_the_sandbox_only_notice_url() -> None:
    payment = card_payment().model_copy(update={"notice_url": "http://shop/webhook"})

    assert "notice_url" not in payment.to_api()
    assert payment.to_api()["cancel_history"] == []


@given(
    amount=st.integers(min_value=1, max_value=10_000_000),
    parts=st.lists(st.integers(min_value=1, max_value=10_000_000), max_size=12),
)
def test_cancels_never_refund_more_than_was_paid(amount: int, parts: list[int]) -> None:
    payment = card_payment(amount)
    for part in parts:
        try:
            payment = cancel(payment, amount=part, checksum=payment.refundable)
        except RefusedError:
            continue

    assert 0 <= payment.cancel_amount <= amount
    assert sum(e.amount for e in payment.cancel_history) == payment.cancel_amount
    assert (payment.status == "cancelled") == (payment.cancel_amount == amount)

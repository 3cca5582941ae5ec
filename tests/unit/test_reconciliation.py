"""Which gateway record agrees with which of ours, merchantUid by merchantUid."""

from __future__ import annotations

from domain.payments.gateway import GatewayPayment, GatewayStatus
from domain.payments.reconciliation import OurPayment, compare


def ours(state: str, amount: int = 2900, cancel_amount: int = 0) -> OurPayment:
    return OurPayment("m-1", state, amount, "KRW", cancel_amount)


def theirs(status: GatewayStatus, amount: int = 2900, cancel_amount: int = 0) -> GatewayPayment:
    return GatewayPayment("imp_1", "m-1", status, amount, "KRW", cancel_amount)


def kinds(our: OurPayment | None, their: GatewayPayment | None) -> list[str]:
    return [mismatch.kind for mismatch in compare("m-1", our, their)]


def test_a_paid_payment_agrees_with_a_paid_record_and_a_full_refund_with_a_cancelled_one() -> None:
    assert kinds(ours("paid"), theirs(GatewayStatus.PAID)) == []
    assert kinds(ours("paid", cancel_amount=900), theirs(GatewayStatus.PAID, cancel_amount=900)) == []
    assert kinds(ours("paid", cancel_amount=2900), theirs(GatewayStatus.CANCELLED, cancel_amount=2900)) == []


def test_money_the_gateway_took_for_an_order_we_never_saw_settle_is_a_status_mismatch() -> None:
    assert kinds(ours("ordered"), theirs(GatewayStatus.PAID)) == ["status"]
    assert kinds(ours("failed"), theirs(GatewayStatus.PAID)) == ["status"]
    assert kinds(ours("cancelled"), theirs(GatewayStatus.PAID)) == ["status"]


def test_an_abandoned_or_failed_order_needs_no_gateway_record_but_a_paid_one_does() -> None:
    assert kinds(ours("ordered"), None) == []
    assert kinds(ours("failed"), None) == []
    assert kinds(ours("paid"), None) == ["missing_at_gateway"]
    assert kinds(ours("reserved"), None) == ["missing_at_gateway"]
    assert kinds(None, theirs(GatewayStatus.PAID)) == ["missing_in_log"]
    assert kinds(None, None) == []


def test_amount_currency_and_refunded_amount_are_compared() -> None:
    assert kinds(ours("paid"), theirs(GatewayStatus.PAID, amount=2800)) == ["amount"]
    assert kinds(ours("paid", cancel_amount=100), theirs(GatewayStatus.PAID)) == ["cancel_amount"]
    assert kinds(ours("paid"), GatewayPayment("imp_1", "m-1", GatewayStatus.PAID, 2900, "USD")) == ["currency"]

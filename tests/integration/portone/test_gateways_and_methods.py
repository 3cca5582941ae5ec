"""The sandbox's PG windows take what PortOne's channels take: points on kcp (and the pay windows), foreign
currencies by card on kcp only, and refuse a pg or pay_method pair no channel has."""

from __future__ import annotations

import pytest

from integrations.portone import PaymentStatus, PortOneClient
from tests.integration.portone.harness import RunningSandbox, WebhookReceiver

pytestmark = pytest.mark.integration


def test_points_on_kcp_are_paid_at_once_with_no_card_and_the_webhook_says_so(
    sandbox: RunningSandbox, portone: PortOneClient, webhook_receiver: WebhookReceiver
) -> None:
    portone.prepare("order-points", 2900)
    result = sandbox.checkout(pg="kcp", pay_method="point", merchant_uid="order-points", name="Pro", amount=2900)

    assert result["success"] is True
    payment = portone.get_payment(result["imp_uid"])
    assert (payment.status, payment.pay_method, payment.pg_provider) == (PaymentStatus.PAID, "point", "kcp")
    assert payment.card_number is None and payment.amount == 2900
    webhook_receiver.wait_for(imp_uid=payment.imp_uid, merchant_uid="order-points", status="paid")


@pytest.mark.parametrize(("currency", "amount"), [("USD", 299), ("JPY", 330)])
def test_a_card_on_kcp_is_paid_in_dollars_or_yen(
    sandbox: RunningSandbox, portone: PortOneClient, currency: str, amount: int
) -> None:
    result = sandbox.checkout(
        pg="kcp.A52CY",
        pay_method="card",
        merchant_uid=f"order-{currency}",
        name="Pro",
        amount=amount,
        currency=currency,
        card_number="4111111111111111",
    )

    assert result["success"] is True
    payment = portone.get_payment(result["imp_uid"])
    assert (payment.pg_provider, payment.currency, payment.amount) == ("kcp", currency, amount)
    assert payment.card_number == "411111******1111"


def test_a_declined_card_is_declined_on_kcp_too(sandbox: RunningSandbox, portone: PortOneClient) -> None:
    result = sandbox.checkout(pg="kcp", merchant_uid="order-kcp-2", amount=5000, card_number="4111111111110002")

    assert (result["success"], result["error_msg"]) == (False, "card declined")
    assert portone.get_payment(result["imp_uid"]).status is PaymentStatus.FAILED


@pytest.mark.parametrize(
    ("pg", "pay_method", "currency", "why"),
    [
        ("nice", "point", "KRW", "nice does not take pay_method point"),
        ("kcp_billing", "trans", "KRW", "kcp_billing does not take pay_method trans"),
        ("paypal", "card", "USD", "unknown pg"),
        ("nice", "card", "USD", "nice card takes KRW only"),
        ("kcp", "point", "USD", "kcp point takes KRW only"),
        ("kcp", "vbank", "JPY", "kcp vbank takes KRW only"),
    ],
)
def test_a_window_no_channel_has_is_refused_before_anything_is_paid(
    sandbox: RunningSandbox, portone: PortOneClient, pg: str, pay_method: str, currency: str, why: str
) -> None:
    result = sandbox.checkout(
        pg=pg, pay_method=pay_method, merchant_uid="order-odd", name="Pro", amount=1000, currency=currency
    )

    assert (result["success"], result["error_code"]) == (False, "INVALID_REQUEST")
    assert why in result["error_msg"]
    assert result["imp_uid"] is None

"""The sandbox keeps its state in its SQLite file across restarts."""

from __future__ import annotations

import pytest

from integrations.portone import CardDetails, PaymentStatus
from tests.integration.portone.harness import RunningSandbox

pytestmark = pytest.mark.integration


def test_payments_billing_keys_and_tokens_survive_a_restart(sandbox: RunningSandbox) -> None:
    with sandbox.client() as before:
        before.prepare("order-1", 5_000)
        card_payment = sandbox.checkout(merchant_uid="order-1", amount=5_000)
        vbank = sandbox.checkout(merchant_uid="order-2", amount=7_000, pay_method="vbank")
        before.issue_billing_key("customer-1", CardDetails("4242-4242-4242-1111", "2030-01", "900101"), pg="nice")
        before.cancel(imp_uid=card_payment["imp_uid"], amount=1_000, checksum=5_000)
        token = before.get_token()

    sandbox.restart()

    with sandbox.client() as after:
        assert after.get_token() == token  # same token, still valid: tokens are stored too
        assert after.get_prepared("order-1").amount == 5_000
        payment = after.get_payment(card_payment["imp_uid"])
        assert (payment.status, payment.cancel_amount) == (PaymentStatus.PAID, 1_000)
        assert after.get_billing_key("customer-1").card_number == "424242******1111"
        assert sandbox.deposit(vbank["imp_uid"]).json()["response"]["status"] == "paid"
        assert after.find_payment("order-2").status is PaymentStatus.PAID

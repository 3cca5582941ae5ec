"""Cash receipts (현금영수증) as the sandbox plays PortOne V1's /receipts/{imp_uid}: issued for a paid bank transfer
or virtual account, for what it still holds; refused for a card, an unpaid account or a second time; cancelled and
issued again for the remainder after a partial refund."""

from __future__ import annotations

import pytest

from integrations.portone import PaymentNotFoundError, PortOneClient, PortOneError, RefundAccount
from tests.integration.portone.harness import RunningSandbox
from tests.integration.portone.test_virtual_accounts import issue_vbank

pytestmark = pytest.mark.integration

BUSINESS = {"identifier": "1248100998", "identifier_type": "business", "type": "company"}


def test_a_paid_virtual_account_gets_one_cash_receipt_cancelled_and_issued_again_for_the_remainder(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    imp_uid = issue_vbank(sandbox, "order-cr", 33_000)
    with pytest.raises(PortOneError):
        portone.issue_receipt(imp_uid, **BUSINESS)  # not paid yet
    with pytest.raises(PaymentNotFoundError):
        portone.get_receipt(imp_uid)
    assert sandbox.deposit(imp_uid).status_code == 200

    issued = portone.issue_receipt(imp_uid, **BUSINESS, buyer_email="buyer@example.com")
    assert (issued.amount, issued.vat, issued.type, issued.cancelled_at) == (33_000, 3_000, "company", None)
    assert issued.receipt_tid and issued.applied_at is not None
    with pytest.raises(PortOneError):
        portone.issue_receipt(imp_uid, **BUSINESS)  # one at a time
    assert portone.get_receipt(imp_uid) == issued

    account = RefundAccount(holder="홍길동", bank="04", account="12345678901234")
    portone.cancel(imp_uid=imp_uid, amount=13_000, checksum=33_000, reason="partial", refund=account)
    cancelled = portone.cancel_receipt(imp_uid)
    assert cancelled.receipt_tid == issued.receipt_tid and cancelled.cancelled_at is not None
    with pytest.raises(PortOneError):
        portone.cancel_receipt(imp_uid)  # already cancelled
    again = portone.issue_receipt(imp_uid, **BUSINESS)
    assert again.amount == 20_000 and again.receipt_tid != issued.receipt_tid


def test_a_card_payment_gets_no_cash_receipt_and_numbers_are_checked(
    sandbox: RunningSandbox, portone: PortOneClient
) -> None:
    paid = sandbox.checkout(pay_method="card", merchant_uid="order-card", amount=10_000, name="Licence",
                            card_number="4111111111111111")  # fmt: skip
    with pytest.raises(PortOneError):
        portone.issue_receipt(paid["imp_uid"], **BUSINESS)
    transfer = sandbox.checkout(pay_method="trans", merchant_uid="order-trans", amount=10_000, name="Licence")
    with pytest.raises(PortOneError):
        portone.issue_receipt(transfer["imp_uid"], identifier="12345", identifier_type="business", type="company")
    personal = portone.issue_receipt(transfer["imp_uid"], identifier="01012345678", identifier_type="phone",
                                     type="person")  # fmt: skip
    assert personal.amount == 10_000 and personal.type == "person"

"""The in-memory FakeGateway keeps PortOne's rules: the same stories run against it and the sandbox over HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from domain.payments.cards import Card
from domain.payments.gateway import (
    BillingKeyNotFoundAtGatewayError,
    BillingKeyRefusedError,
    CancelRefusedError,
    GatewayStatus,
    PaymentGateway,
    PaymentNotFoundAtGatewayError,
)
from integrations.portone.errors import PortOneError
from integrations.portone.gateway import PortOneGateway
from tests.fakes import DEFAULT_CARD, FakeGateway, ManualClock
from tests.integration.portone.harness import START, RunningSandbox

pytestmark = pytest.mark.integration


def card(number: str) -> Card:
    return Card(number, START.year + 3, 12, "12", "900101")


@dataclass
class Gateway:
    """The port, and the customer's side of the PG window (request_pay)."""

    port: PaymentGateway
    pay: Callable[[str, int, str], str]  # merchant_uid, amount, card number -> imp_uid
    issue_in_window: Callable[[str, str], object]  # customer_uid, card number
    window_accepts: Callable[[str, str, str], bool]  # pg, pay_method, currency: does a channel take it?


@pytest.fixture(params=["fake", "sandbox"])
def gateway(request: pytest.FixtureRequest) -> Iterator[Gateway]:
    if request.param == "fake":
        fake = FakeGateway(ManualClock(START))

        def fake_accepts(pg: str, pay_method: str, currency: str) -> bool:
            try:
                fake.pay(f"order-{pg}-{pay_method}-{currency}", 1000, pg=pg, pay_method=pay_method, currency=currency)
            except PortOneError:
                return False
            return True

        yield Gateway(
            fake,
            lambda uid, amount, number: fake.pay(uid, amount, card_number=number),
            fake.issue_in_window,
            fake_accepts,
        )
        return
    sandbox: RunningSandbox = request.getfixturevalue("sandbox")
    adapter = PortOneGateway(sandbox.client())

    def pay(merchant_uid: str, amount: int, number: str) -> str:
        imp_uid: str = sandbox.checkout(merchant_uid=merchant_uid, amount=amount, card_number=number)["imp_uid"]
        return imp_uid

    def issue_in_window(customer_uid: str, number: str) -> None:
        sandbox.checkout(
            pg="kakaopay", merchant_uid=f"issue-{customer_uid}", amount=0, customer_uid=customer_uid, card_number=number
        )

    def sandbox_accepts(pg: str, pay_method: str, currency: str) -> bool:
        order = f"order-{pg}-{pay_method}-{currency}"
        result = sandbox.checkout(pg=pg, pay_method=pay_method, merchant_uid=order, amount=1000, currency=currency)
        return result.get("error_code") != "INVALID_REQUEST"

    yield Gateway(adapter, pay, issue_in_window, sandbox_accepts)
    adapter.close()


def test_a_prepared_amount_is_paid_and_read_back_another_amount_fails(gateway: Gateway) -> None:
    gateway.port.prepare("order-1", 24360)
    gateway.port.prepare("order-1", 24360)  # the same amount again is fine
    with pytest.raises(PortOneError):
        gateway.port.prepare("order-1", 100)

    paid = gateway.port.get_payment(gateway.pay("order-1", 24360, DEFAULT_CARD))
    assert (paid.status, paid.merchant_uid, paid.amount, paid.currency) == (GatewayStatus.PAID, "order-1", 24360, "KRW")
    assert paid.card_number == "424242******4242"

    gateway.port.prepare("order-2", 24360)
    tampered = gateway.port.get_payment(gateway.pay("order-2", 1000, DEFAULT_CARD))
    assert tampered.status is GatewayStatus.FAILED
    declined = gateway.port.get_payment(gateway.pay("order-3", 1000, "4111111111110002"))
    assert (declined.status, declined.fail_reason) == (GatewayStatus.FAILED, "card declined")
    with pytest.raises(PaymentNotFoundAtGatewayError):
        gateway.port.get_payment("imp_000000000000")


def test_a_cancel_wants_the_refundable_balance_as_checksum(gateway: Gateway) -> None:
    imp_uid = gateway.pay("order-1", 1000, DEFAULT_CARD)
    with pytest.raises(CancelRefusedError):
        gateway.port.cancel(imp_uid, 300, 999, "wrong checksum")

    partly = gateway.port.cancel(imp_uid, 300, 1000, "one device fewer")
    assert (partly.status, partly.cancel_amount) == (GatewayStatus.PAID, 300)
    with pytest.raises(CancelRefusedError):
        gateway.port.cancel(imp_uid, 800, 700, "more than is left")

    whole = gateway.port.cancel(imp_uid, None, 700, "the rest")
    assert (whole.status, whole.cancel_amount) == (GatewayStatus.CANCELLED, 1000)
    with pytest.raises(CancelRefusedError):
        gateway.port.cancel(imp_uid, None, None, "nothing left")


def test_a_billing_key_is_charged_once_per_merchant_uid(gateway: Gateway) -> None:
    issued = gateway.port.issue_billing_key("cust-1", card("4111111111111111"), "kcp_billing")
    assert (issued.customer_uid, issued.pg, issued.card_name, issued.card_number) == (
        "cust-1",
        "kcp_billing",
        "VISA",
        "411111******1111",
    )

    first = gateway.port.charge_billing_key("cust-1", "sub-1-1-1", 9900, "Pro monthly")
    again = gateway.port.charge_billing_key("cust-1", "sub-1-1-1", 9900, "Pro monthly")
    assert (first.status, first.amount) == (GatewayStatus.PAID, 9900)
    assert again.imp_uid == first.imp_uid
    with pytest.raises(PortOneError):
        gateway.port.charge_billing_key("cust-unknown", "sub-1-2-1", 9900, "Pro monthly")


def test_test_cards_decline_keys_or_later_charges(gateway: Gateway) -> None:
    with pytest.raises(BillingKeyRefusedError):
        gateway.port.issue_billing_key("cust-declined", card("4111111111110002"), "kcp_billing")

    gateway.port.issue_billing_key("cust-broke", card("4111111111110003"), "kcp_billing")
    charge = gateway.port.charge_billing_key("cust-broke", "sub-2-1-1", 9900, "Pro monthly")
    assert (charge.status, charge.fail_reason) == (GatewayStatus.FAILED, "insufficient funds")


def test_a_pg_window_issues_a_key_the_server_reads_back(gateway: Gateway) -> None:
    gateway.issue_in_window("cust-window", "5555555555554444")
    key = gateway.port.billing_key("cust-window")
    assert (key.pg, key.card_number) == ("kakaopay", "555555******4444")

    gateway.issue_in_window("cust-declined", "4111111111110002")
    for never_issued in ("cust-declined", "cust-closed"):
        with pytest.raises(BillingKeyNotFoundAtGatewayError):
            gateway.port.billing_key(never_issued)


def test_both_take_the_windows_portone_channels_take_and_refuse_the_others(gateway: Gateway) -> None:
    accepted = [("kcp", "point", "KRW"), ("kcp", "card", "USD"), ("nice", "trans", "KRW"), ("kakaopay", "card", "KRW")]
    refused = [("nice", "point", "KRW"), ("nice", "card", "JPY"), ("kcp", "point", "USD"), ("paypal", "card", "USD")]
    for window in accepted:
        assert gateway.window_accepts(*window), window
    for window in refused:
        assert not gateway.window_accepts(*window), window

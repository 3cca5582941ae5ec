"""The webhook asks the gateway only when a notice could change the order: a notice of an order the log does not
hold, or holds as paid by the notice's imp_uid, is answered from the log (a renewal's own notice is one of
these); every other notice is still read back from the gateway and checked against the order."""

from __future__ import annotations

from typing import Any

import pytest

from domain.catalogue.licences import Catalogue
from domain.errors import DomainError, ErrorCode
from domain.payments.gateway import GatewayPayment
from domain.payments.payment import Payment, PaymentState
from domain.payments.purchase import Order, place_order, settle_notice
from domain.store import Storefront
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from tests.integration.portone.harness import RunningSandbox
from tests.integration.purchases.conftest import SharedClock

pytestmark = pytest.mark.integration


class CountingGateway:
    """The real sandbox gateway, counting the payments it is asked to read back."""

    def __init__(self, gateway: PortOneGateway) -> None:
        self.gateway = gateway
        self.reads: list[str] = []

    def get_payment(self, imp_uid: str) -> GatewayPayment:
        self.reads.append(imp_uid)
        return self.gateway.get_payment(imp_uid)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.gateway, name)


def _order(store: Storefront, clock: SharedClock, gateway: PortOneGateway, catalogue: Catalogue) -> Order:
    return place_order(
        store, clock, gateway, catalogue, licence_id=131, country_code="US", language=Language.EN,
        payment_method="creditCard", account_id=None, email="notice@example.com",
    )  # fmt: skip


def _pay(sandbox: RunningSandbox, order: Order, amount: int | None = None) -> str:
    paid = sandbox.checkout(
        pg=order.pg, pay_method=order.pay_method, merchant_uid=order.merchant_uid, name=order.name,
        amount=order.amount if amount is None else amount, currency=order.currency, buyer_email=order.buyer_email,
        card_number="4111111111111111",
    )  # fmt: skip
    return str(paid["imp_uid"])


def _state(store: Storefront, merchant_uid: str) -> PaymentState:
    payment: Payment = store.repository.get(Payment.id_for(merchant_uid))
    return payment.state


def test_the_first_notice_is_read_back_and_a_repeat_of_a_paid_order_is_answered_from_the_log(
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    order = _order(store, domain_clock, gateway, catalogue)
    imp_uid = _pay(sandbox, order)
    counting = CountingGateway(gateway)

    settle_notice(store, domain_clock, counting, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert counting.reads == [imp_uid]  # the order was only ordered: the gateway's word settles it
    assert _state(store, order.merchant_uid) is PaymentState.PAID
    settled = store.max_notification_id()

    for _ in range(3):
        settle_notice(store, domain_clock, counting, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert counting.reads == [imp_uid], "repeats of a paid order's notice did not ask the gateway"
    assert store.max_notification_id() == settled


def test_a_notice_naming_another_payment_of_a_paid_order_is_still_read_back_and_changes_nothing(
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    paid = _order(store, domain_clock, gateway, catalogue)
    paid_imp_uid = _pay(sandbox, paid)
    settle_notice(store, domain_clock, gateway, imp_uid=paid_imp_uid, merchant_uid=paid.merchant_uid)
    other = _order(store, domain_clock, gateway, catalogue)
    others_imp_uid = _pay(sandbox, other)
    counting = CountingGateway(gateway)
    before = store.max_notification_id()

    with pytest.raises(DomainError) as refused:  # the imp_uid is another order's: the gateway says so
        settle_notice(store, domain_clock, counting, imp_uid=others_imp_uid, merchant_uid=paid.merchant_uid)
    assert refused.value.code is ErrorCode.PAYMENT_DIFFERS_FROM_INIT
    assert counting.reads == [others_imp_uid]
    assert store.max_notification_id() == before
    assert _state(store, paid.merchant_uid) is PaymentState.PAID
    assert _state(store, other.merchant_uid) is PaymentState.ORDERED


def test_a_notice_of_an_order_the_log_does_not_hold_settles_nothing_without_asking(
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    order = _order(store, domain_clock, gateway, catalogue)
    imp_uid = _pay(sandbox, order)
    counting = CountingGateway(gateway)
    before = store.max_notification_id()

    with pytest.raises(DomainError) as refused:
        settle_notice(store, domain_clock, counting, imp_uid=imp_uid, merchant_uid="merchant-never-ordered")
    assert refused.value.code is ErrorCode.NOT_FOUND
    assert counting.reads == []
    assert store.max_notification_id() == before
    assert _state(store, order.merchant_uid) is PaymentState.ORDERED  # the real payment waits for its own notice


def test_a_notice_of_a_tampered_amount_is_still_read_back_and_cancels_the_order(
    sandbox: RunningSandbox,
    gateway: PortOneGateway,
    domain_clock: SharedClock,
    catalogue: Catalogue,
    store: Storefront,
) -> None:
    order = _order(store, domain_clock, gateway, catalogue)
    tampered = _pay(sandbox, order, amount=100)
    counting = CountingGateway(gateway)

    for _ in range(2):
        with pytest.raises(DomainError):
            settle_notice(store, domain_clock, counting, imp_uid=tampered, merchant_uid=order.merchant_uid)
    assert counting.reads == [tampered, tampered]  # not paid in the log: each notice is read back
    assert _state(store, order.merchant_uid) is PaymentState.CANCELLED

"""Stories of how a buyer pays: which payment methods each currency takes and where they go (the method
tables), and an order with nothing left to pay, settled without the gateway as a payment of method none."""

from __future__ import annotations

from decimal import Decimal

import pytest

from domain.coupons.admin import open_group
from domain.coupons.group import UNLIMITED_USES, ConstraintType, GroupRules, GroupType
from domain.errors import ErrorCode
from domain.payments.methods import GatewayChoice, gateway_choice, methods_for
from domain.payments.payment import PaymentState
from domain.payments.purchase import confirm_payment, no_gateway_imp_uid, settle_payment
from domain.payments.reconciliation import OurPayment, compare
from domain.payments.upgrade import upgrade_methods_for
from tests.unit.billing_world import ANNUAL, MONTHLY, World, refused


@pytest.fixture
def world() -> World:
    return World()


def free_coupon(world: World, code: str = "FREEMONTH", **overrides: object) -> None:
    """A promotion that takes the whole price of a month's licence off (factor 1)."""
    values: dict[str, object] = {
        "name": "free month",
        "group_type": GroupType.PUBLIC,
        "constraint_type": ConstraintType.NONE,
        "factor": Decimal(1),
        "available_duration": 30,
        "sub_issued_count": UNLIMITED_USES,
    }
    values.update(overrides)
    open_group(world.store, world.clock.now(), GroupRules(**values), code=code)  # type: ignore[arg-type]


# -- the method tables ---------------------------------------------------------------------


def test_won_prices_take_every_method_and_points_go_through_kcp() -> None:
    assert list(methods_for("KRW")) == [
        "creditCard",
        "bankTransfer",
        "virtualAccount",
        "kakaopay",
        "naverpay",
        "point",
    ]
    assert gateway_choice("point", "KRW") == GatewayChoice("kcp", "point")
    assert gateway_choice("creditCard", "KRW") == GatewayChoice("nice", "card")
    assert gateway_choice("virtualAccount", "KRW") == GatewayChoice("nice", "vbank")


@pytest.mark.parametrize("currency", ["USD", "JPY"])
def test_dollar_and_yen_prices_are_paid_by_card_on_kcp_and_nothing_else(currency: str) -> None:
    assert list(methods_for(currency)) == ["creditCard"]
    assert gateway_choice("creditCard", currency) == GatewayChoice("kcp", "card")
    for won_only in ("bankTransfer", "virtualAccount", "kakaopay", "naverpay", "point"):
        with refused(ErrorCode.INVALID_VALUE):
            gateway_choice(won_only, currency)


def test_none_is_never_a_method_a_buyer_can_choose() -> None:
    with refused(ErrorCode.INVALID_VALUE):
        gateway_choice("none", "KRW")


def test_an_order_is_sent_to_the_gateway_its_price_currency_takes(world: World) -> None:
    assert (world.order(email="a@example.com", method="point").pg, "point") == ("kcp", "point")
    abroad = world.order(email="b@example.com", country="US")
    assert (abroad.currency, abroad.pg, abroad.pay_method) == ("USD", "kcp", "card")
    fallback = world.order(email="c@example.com", country="DE")
    assert (fallback.currency, fallback.amount, fallback.pg) == ("USD", abroad.amount, "kcp"), "DE pays the US price"
    with refused(ErrorCode.INVALID_VALUE):
        world.order(email="d@example.com", country="JP", method="virtualAccount")


def test_points_pay_an_order_like_a_card_and_the_record_says_point_on_kcp(world: World) -> None:
    order = world.order(ANNUAL, email="points@example.com", method="point")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount, pay_method="point", pg="kcp")
    confirmed = settle_payment(
        world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid
    )
    payment = world.payment(confirmed.merchant_uid)
    assert (payment.state, payment.pay_method, payment.pg_provider) == (PaymentState.PAID, "point", "kcp")


# -- nothing left to pay ----------------------------------------------------------------------


def test_an_order_a_coupon_makes_free_is_paid_with_method_none_and_never_reaches_the_gateway(world: World) -> None:
    free_coupon(world)
    member = world.member()
    order = world.order(MONTHLY, account_id=member, code="FREEMONTH", method="creditCard")
    assert (order.amount, order.pg, order.pay_method) == (0, "none", "none")
    assert order.imp_uid == no_gateway_imp_uid(order.merchant_uid)
    assert world.gateway.prepared(order.merchant_uid) is None, "nothing was prepared at the gateway"

    confirmed = confirm_payment(
        world.store,
        world.clock,
        world.gateway,
        imp_uid=order.imp_uid,
        merchant_uid=order.merchant_uid,
        caller_account_id=member,
    )

    payment = world.payment(order.merchant_uid)
    assert (payment.state, payment.amount, payment.pay_method, payment.pg_provider) == (
        PaymentState.PAID,
        0,
        "none",
        "none",
    )
    assert payment.coupon_code == "FREEMONTH"
    assert world.licence(confirmed.user_licence_id).account_id == member
    again = settle_payment(
        world.store, world.clock, world.gateway, imp_uid=order.imp_uid, merchant_uid=order.merchant_uid
    )
    assert again.user_licence_id == confirmed.user_licence_id, "a repeat answers what the first settled"


def test_a_guests_free_order_opens_their_account_like_a_paid_one(world: World) -> None:
    free_coupon(world)
    order = world.order(MONTHLY, email="free-guest@example.com", code="FREEMONTH")
    assert order.imp_uid is not None
    confirmed = settle_payment(
        world.store, world.clock, world.gateway, imp_uid=order.imp_uid, merchant_uid=order.merchant_uid
    )
    assert confirmed.account_created is True


def test_an_order_with_money_to_pay_cannot_be_settled_as_none(world: World) -> None:
    order = world.order(ANNUAL, email="cheat@example.com")
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        settle_payment(
            world.store,
            world.clock,
            world.gateway,
            imp_uid=no_gateway_imp_uid(order.merchant_uid),
            merchant_uid=order.merchant_uid,
        )
    assert world.payment(order.merchant_uid).state is PaymentState.ORDERED


def test_a_free_order_can_only_be_settled_with_its_own_id(world: World) -> None:
    free_coupon(world)
    first = world.order(MONTHLY, email="one@example.com", code="FREEMONTH")
    second = world.order(MONTHLY, email="two@example.com", code="FREEMONTH")
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        settle_payment(
            world.store,
            world.clock,
            world.gateway,
            imp_uid=no_gateway_imp_uid(first.merchant_uid),
            merchant_uid=second.merchant_uid,
        )


def test_reconciliation_expects_no_gateway_record_of_a_payment_of_nothing() -> None:
    assert compare("unc-free", OurPayment("unc-free", "paid", 0, "KRW", 0), None) == []
    [missing] = compare("unc-paid", OurPayment("unc-paid", "paid", 100, "KRW", 0), None)
    assert missing.kind == "missing_at_gateway"


def test_an_upgrade_is_paid_at_once_so_never_by_virtual_account_and_abroad_only_by_card() -> None:
    assert upgrade_methods_for("KRW") == ["creditCard", "bankTransfer", "kakaopay", "naverpay", "point"]
    assert upgrade_methods_for("USD") == ["creditCard"]

"""Stories of coupon groups and codes: what a code takes off, who may use it, and when it is refused
(at the order and again when the payment settles)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest

from domain.business_time import BUSINESS_TIME
from domain.coupons.admin import change_group, group_codes, open_group
from domain.coupons.codes import CouponCode
from domain.coupons.group import UNLIMITED_USES, ConstraintType, GroupRules, GroupType
from domain.coupons.redemption import check_for_buyer, find_coupon
from domain.errors import ErrorCode
from domain.payments.gateway import GatewayStatus
from domain.payments.payment import PaymentState
from domain.payments.purchase import lapse_if_unpaid, settle_payment
from domain.pricing.quotes import DiscountKind
from events.payments import PaymentOrdered
from tests.support import START
from tests.unit.billing_world import ANNUAL, MONTHLY, World, refused


@pytest.fixture
def world() -> World:
    return World()


def rules(**overrides: Any) -> GroupRules:
    """The spec's test group (a month's licence at 30% off, practically unlimited), changed as a story needs."""
    values: dict[str, Any] = {
        "name": "test",
        "group_type": GroupType.PUBLIC,
        "constraint_type": ConstraintType.NONE,
        "factor": Decimal("0.3"),
        "available_duration": 30,
        "sub_issued_count": UNLIMITED_USES,
        "currency": "KRW",
    }
    values.update(overrides)
    return GroupRules(**values)


def group(world: World, code: str = "WELCOME", **overrides: Any) -> UUID:
    return open_group(world.store, world.clock.now(), rules(**overrides), code=code).group_id


def uses(world: World, code: str) -> int:
    issued: CouponCode = world.store.repository.get(CouponCode.id_for(code))
    return issued.used


def test_the_test_group_takes_30_percent_off_a_months_licence_and_the_payment_keeps_the_code(world: World) -> None:
    group(world)
    member = world.member()
    order = world.order(MONTHLY, account_id=member, code=" welcome ")
    assert order.amount == 2030, "2,900 won less 30%"
    confirmed = world.buy(MONTHLY, account_id=member, code="WELCOME")
    payment = world.payment(confirmed.merchant_uid)
    assert payment.state is PaymentState.PAID
    assert payment.coupon_code == "WELCOME"
    assert [(item.kind, item.factor) for item in payment.discount_factors] == [(DiscountKind.COUPON, Decimal("0.3"))]
    assert uses(world, "WELCOME") == 1, "only the paid order counts; the unpaid one holds nothing"


def test_a_coupon_applies_after_the_base_discount_each_step_rounded_down(world: World) -> None:
    group(world, available_duration=0, factor=Decimal("0.15"))
    order = world.order(ANNUAL, account_id=world.member(), code="WELCOME")
    # 34,800 less the 30% base = 24,360; less 15% = 20,706
    assert order.amount == 20706


def test_a_code_is_refused_with_the_reason_it_cannot_be_used(world: World) -> None:
    member = world.member()
    with refused(ErrorCode.COUPON_NOT_FOUND):
        world.order(MONTHLY, account_id=member, code="NOPE")
    group(world, "LIFE30")
    with refused(ErrorCode.CODE_CANNOT_BE_USED):
        world.order(ANNUAL, account_id=member, code="LIFE30")
    group(world, "OFF", enabled=False)
    with refused(ErrorCode.COUPON_UNUSABLE):
        world.order(MONTHLY, account_id=member, code="OFF")
    group(world, "LATER", start_at=START + timedelta(days=1))
    with refused(ErrorCode.CODE_CANNOT_BE_USED):
        world.order(MONTHLY, account_id=member, code="LATER")
    group(world, "OVER", exp_at=START)
    with refused(ErrorCode.CODE_EXPIRED):
        world.order(MONTHLY, account_id=member, code="OVER")
    group(world, "JAPAN", countries=("JP",))
    with refused(ErrorCode.CODE_CANNOT_BE_USED):
        world.order(MONTHLY, account_id=member, code="JAPAN")
    assert world.order(MONTHLY, account_id=member, code="JAPAN", country="JP").amount == 231, "330 yen less 30%"


def test_apply_default_country_admits_buyers_paying_the_fallback_price(world: World) -> None:
    group(world, "KRONLY", countries=("KR",), apply_default_country=True)
    member = world.member()
    assert world.order(MONTHLY, account_id=member, code="KRONLY", country="FR").amount == 209, "US$2.99 less 30%"
    with refused(ErrorCode.CODE_CANNOT_BE_USED):
        world.order(MONTHLY, account_id=member, code="KRONLY", country="JP")


def test_coupon_dates_are_read_in_korean_time(world: World) -> None:
    # Midnight of 1 November in Korea is 15:00 on 31 October UTC: the window is already open at START.
    opened = group(world, "KST", start_at=START.astimezone(BUSINESS_TIME).replace(tzinfo=None) - timedelta(hours=8))
    assert check_for_buyer(world.store, world.clock.now(), "KST", buyer_email="a@example.com").group_id == opened
    assert find_coupon(world.store, "kst").rules.start_at.utcoffset() == timedelta(hours=9)


def test_a_one_use_code_is_used_up_by_its_first_payment(world: World) -> None:
    group(world, "ONCE", sub_issued_count=1)
    world.buy(MONTHLY, account_id=world.member("first@example.com"), code="ONCE")
    with refused(ErrorCode.COUPON_USAGE_EXCEEDED):
        world.order(MONTHLY, account_id=world.member("second@example.com"), code="ONCE")


def test_two_buyers_of_a_one_use_code_both_pay_and_the_later_is_refunded(world: World) -> None:
    group(world, "ONCE", sub_issued_count=1)
    buyers = [world.member("first@example.com"), world.member("second@example.com")]
    orders = [world.order(MONTHLY, account_id=buyer, code="ONCE") for buyer in buyers]
    paid = [world.gateway.pay(order.merchant_uid, order.amount) for order in orders]
    first = settle_payment(
        world.store, world.clock, world.gateway, imp_uid=paid[0], merchant_uid=orders[0].merchant_uid
    )
    assert first.state is PaymentState.PAID
    with refused(ErrorCode.COUPON_USAGE_EXCEEDED):
        settle_payment(world.store, world.clock, world.gateway, imp_uid=paid[1], merchant_uid=orders[1].merchant_uid)
    assert world.payment(orders[1].merchant_uid).state is PaymentState.CANCELLED
    assert world.gateway.get_payment(paid[1]).status is GatewayStatus.CANCELLED, "the money went back"
    assert uses(world, "ONCE") == 1


def test_an_account_constrained_group_is_used_once_per_address_and_a_recipients_code_once(world: World) -> None:
    opened = open_group(
        world.store,
        world.clock.now(),
        rules(group_type=GroupType.PRIVATE, constraint_type=ConstraintType.ACCOUNT, issued_count=2, sub_issued_count=1),
    )
    first, second = (code for code, _ in opened.codes)
    member = world.member()
    world.buy(MONTHLY, account_id=member, code=first)
    with refused(ErrorCode.PROMOTION_ALREADY_USED_BY_ACCOUNT):
        world.order(MONTHLY, account_id=member, code=second)
    with refused(ErrorCode.PROMOTION_ALREADY_USED_BY_ACCOUNT):
        world.order(MONTHLY, email="MEMBER@example.com", code=second)  # the same address, as a guest
    assert world.buy(MONTHLY, email="guest@example.com", code=second).state is PaymentState.PAID
    with refused(ErrorCode.PROMOTION_ALREADY_USED):
        world.order(MONTHLY, account_id=world.member("third@example.com"), code=first)  # a recipient's code


def test_a_second_use_racing_the_first_is_refunded_at_settlement(world: World) -> None:
    group(world, "ONEPER", constraint_type=ConstraintType.ACCOUNT)
    member = world.member()
    orders = [world.order(MONTHLY, account_id=member, code="ONEPER") for _ in range(2)]
    paid = [world.gateway.pay(order.merchant_uid, order.amount) for order in orders]
    settle_payment(world.store, world.clock, world.gateway, imp_uid=paid[0], merchant_uid=orders[0].merchant_uid)
    with refused(ErrorCode.PROMOTION_ALREADY_USED_BY_ACCOUNT):
        settle_payment(world.store, world.clock, world.gateway, imp_uid=paid[1], merchant_uid=orders[1].merchant_uid)
    assert world.gateway.get_payment(paid[1]).status is GatewayStatus.CANCELLED


def test_a_guests_second_use_racing_the_first_is_refused_for_the_address_and_refunded(world: World) -> None:
    group(world, "ONEPER", constraint_type=ConstraintType.ACCOUNT)
    orders = [world.order(MONTHLY, email="guest@example.com", code="ONEPER") for _ in range(2)]
    paid = [world.gateway.pay(order.merchant_uid, order.amount) for order in orders]
    settle_payment(world.store, world.clock, world.gateway, imp_uid=paid[0], merchant_uid=orders[0].merchant_uid)
    with refused(ErrorCode.PROMOTION_ALREADY_USED_BY_EMAIL):
        settle_payment(world.store, world.clock, world.gateway, imp_uid=paid[1], merchant_uid=orders[1].merchant_uid)
    assert world.gateway.get_payment(paid[1]).status is GatewayStatus.CANCELLED


def test_rules_are_checked_again_when_the_payment_settles(world: World) -> None:
    opened = group(world, "SHORT")
    order = world.order(MONTHLY, account_id=world.member(), code="SHORT")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount)
    change_group(world.store, world.clock.now(), opened, {"enabled": False})
    with refused(ErrorCode.COUPON_UNUSABLE):
        settle_payment(world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert world.payment(order.merchant_uid).state is PaymentState.CANCELLED
    assert uses(world, "SHORT") == 0


def test_a_guest_checking_an_account_constrained_code_must_give_an_email(world: World) -> None:
    group(world, "ONEPER", constraint_type=ConstraintType.ACCOUNT)
    with refused(ErrorCode.INVALID_VALUE):
        check_for_buyer(world.store, world.clock.now(), "ONEPER", buyer_email=None)
    assert check_for_buyer(world.store, world.clock.now(), "ONEPER", buyer_email="guest@example.com").code == "ONEPER"


def test_a_user_licence_constraint_is_checked_against_the_licence_given(world: World) -> None:
    group(world, "PERLICENCE", constraint_type=ConstraintType.USER_LICENCE, available_duration=0)
    confirmed = world.buy(ANNUAL, account_id=world.member(), code="PERLICENCE")
    now = world.clock.now()
    with refused(ErrorCode.PROMOTION_ALREADY_USED_BY_LICENSE):
        check_for_buyer(world.store, now, "PERLICENCE", buyer_email=None, user_licence_id=confirmed.user_licence_id)
    assert check_for_buyer(world.store, now, "PERLICENCE", buyer_email=None, user_licence_id=UUID(int=7))


def test_an_unpaid_virtual_account_gives_its_coupon_use_back(world: World) -> None:
    group(world, "ONCE", sub_issued_count=1, constraint_type=ConstraintType.ACCOUNT)
    member = world.member()
    order = world.order(MONTHLY, account_id=member, code="ONCE", method="virtualAccount")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount, pay_method="vbank")
    settle_payment(world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert uses(world, "ONCE") == 1, "a reserved virtual account holds the code until its deadline"
    world.later(days=8)
    assert lapse_if_unpaid(world.store, world.clock, world.gateway, merchant_uid=order.merchant_uid)
    assert uses(world, "ONCE") == 0
    assert world.buy(MONTHLY, account_id=member, code="ONCE").state is PaymentState.PAID


def test_a_private_group_issues_its_codes_and_can_issue_more(world: World) -> None:
    opened = open_group(world.store, world.clock.now(), rules(group_type=GroupType.PRIVATE, issued_count=3))
    assert len({code for code, _ in opened.codes}) == 3
    change_group(world.store, world.clock.now(), opened.group_id, {"issued_count": 5})
    assert len(group_codes(world.store, opened.group_id).codes) == 5
    with refused(ErrorCode.INVALID_VALUE):
        change_group(world.store, world.clock.now(), opened.group_id, {"issued_count": 4})


def test_a_code_belongs_to_one_group(world: World) -> None:
    group(world, "SAME")
    with refused(ErrorCode.DUPLICATE_PARAMETER):
        group(world, "same")


def test_orders_recorded_before_coupons_read_back_without_a_code() -> None:
    state: dict[str, Any] = {"country_code": "KR"}
    PaymentOrdered.upcast_v2_v3(state)
    assert state == {"country_code": "KR", "coupon_code": None, "buyer_country": "KR"}

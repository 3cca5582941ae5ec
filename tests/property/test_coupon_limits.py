"""Random buyers ordering, paying and settling in any interleaving never break a coupon group's limits,
and a coupon never raises a price, never takes it below zero, and what is charged is what was quoted."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.coupons.admin import open_group
from domain.coupons.codes import CouponCode, CouponConstraint
from domain.coupons.group import ConstraintType, GroupRules, GroupType
from domain.coupons.redemption import find_coupon
from domain.errors import DomainError
from domain.payments.payment import PaymentState
from domain.payments.purchase import settle_payment
from domain.pricing.quotes import DiscountKind, quote_licence
from tests.unit.billing_world import MONTHLY, World

EMAILS = ["a@example.com", "b@example.com", "c@example.com"]

step = st.tuples(st.sampled_from(["order", "pay", "settle"]), st.integers(0, 7), st.sampled_from(EMAILS))


@settings(max_examples=25)
@given(
    limit=st.integers(1, 3),
    constraint=st.sampled_from([ConstraintType.NONE, ConstraintType.ACCOUNT]),
    steps=st.lists(step, max_size=24),
)
def test_redemptions_never_exceed_the_groups_limits_and_every_coupon_price_has_a_redemption(
    limit: int, constraint: ConstraintType, steps: list[tuple[str, int, str]]
) -> None:
    world = World()
    rules = GroupRules(
        name="prop",
        group_type=GroupType.PUBLIC,
        constraint_type=constraint,
        factor=Decimal("0.3"),
        sub_issued_count=limit,
    )
    group_id = open_group(world.store, world.clock.now(), rules, code="PROP").group_id
    orders: list[tuple[str, int, str]] = []  # merchantUid, amount quoted, email
    paid: dict[str, str] = {}  # merchantUid -> imp_uid
    for action, index, email in steps:
        try:
            if action == "order":
                order = world.order(MONTHLY, email=email, code="PROP")
                orders.append((order.merchant_uid, order.amount, email))
            elif orders and action == "pay":
                merchant_uid, amount, _ = orders[index % len(orders)]
                if merchant_uid not in paid:
                    paid[merchant_uid] = world.gateway.pay(merchant_uid, amount)
            elif paid and action == "settle":
                merchant_uid = sorted(paid)[index % len(paid)]
                settle_payment(
                    world.store, world.clock, world.gateway, imp_uid=paid[merchant_uid], merchant_uid=merchant_uid
                )
        except DomainError:
            pass
    code: CouponCode = world.store.repository.get(CouponCode.id_for("PROP"))
    assert code.used <= limit
    settled = [(uid, amount, email) for uid, amount, email in orders if world.payment(uid).state is PaymentState.PAID]
    assert sorted(code.redemptions) == sorted(uid for uid, _, _ in settled), "a coupon price always has its redemption"
    for merchant_uid, amount, _ in settled:
        assert world.gateway.get_payment(paid[merchant_uid]).amount == amount == world.payment(merchant_uid).amount
    if constraint is ConstraintType.ACCOUNT:
        emails = [email for _, _, email in settled]
        assert len(emails) == len(set(emails)), "once per account"
        for email in set(emails):
            claim: CouponConstraint = world.store.repository.get(CouponConstraint.id_for(group_id, f"account:{email}"))
            assert claim.merchant_uid in code.redemptions
    for merchant_uid, imp_uid in paid.items():
        if world.payment(merchant_uid).state is PaymentState.CANCELLED:
            assert world.gateway.get_payment(imp_uid).cancel_amount == world.payment(merchant_uid).amount
    assert find_coupon(world.store, "PROP").used == code.used


@settings(max_examples=60)
@given(
    licence_index=st.integers(0, 23),
    country=st.sampled_from(["KR", "US", "JP", "FR"]),
    factor=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("1"), places=2),
)
def test_a_coupon_never_raises_a_price_nor_takes_it_below_zero(
    licence_index: int, country: str, factor: Decimal
) -> None:
    world = World()
    licence = world.catalogue.select()[licence_index]
    plain = quote_licence(licence, country)
    with_coupon = plain.with_coupon(factor)
    assert 0 <= with_coupon.amount <= plain.amount
    assert with_coupon.price_after(DiscountKind.REMAINING) == plain.amount
    assert with_coupon.factor(DiscountKind.COUPON) == factor
    assert (with_coupon.amount == 0) == (factor == 1), "only a whole-price coupon makes it free"

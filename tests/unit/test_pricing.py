"""Quotes: what a licence costs, discount by discount, rounded down to the minor unit."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.catalogue.licences import load_catalogue
from domain.pricing.quotes import (
    DiscountFactor,
    DiscountKind,
    Quote,
    discounted,
    factors_from_records,
    quote_licence,
)
from events.values import Currency


def test_an_annual_licence_is_quoted_with_its_base_discount_rounded_down() -> None:
    annual = load_catalogue().get(121)
    assert annual is not None
    korea = quote_licence(annual, "KR")
    assert (korea.list_price, korea.amount, korea.currency) == (34800, 24360, Currency.KRW)  # 34,800 won less 30%
    assert korea.factors == (DiscountFactor(DiscountKind.BASE, Decimal("0.3")),)
    united_states = quote_licence(annual, "US")
    assert (united_states.list_price, united_states.amount) == (3588, 2511)  # $35.88 less 30% = $25.116 -> $25.11


def test_a_monthly_licence_has_no_discount_and_an_unknown_country_pays_the_us_price() -> None:
    monthly = load_catalogue().get(111)
    assert monthly is not None
    quote = quote_licence(monthly, "FR")
    assert (quote.country_code, quote.currency, quote.amount, quote.factors) == ("US", Currency.USD, 299, ())


def test_discounts_apply_in_order_each_rounded_down_to_the_minor_unit() -> None:
    quote = Quote(
        licence_id=1,
        country_code="KR",
        currency=Currency.KRW,
        list_price=10001,
        factors=(
            DiscountFactor(DiscountKind.BASE, Decimal("0.3")),
            DiscountFactor(DiscountKind.COUPON, Decimal("0.5")),
        ),
    )
    assert quote.price_after(DiscountKind.BASE) == 7000  # 7000.7 -> 7000
    assert quote.price_after(DiscountKind.REMAINING) == 7000  # no remaining credit
    assert quote.amount == 3500
    assert quote.factor(DiscountKind.COUPON) == Decimal("0.5")
    assert quote.factor(DiscountKind.REMAINING) == 0


def test_discounts_out_of_order_or_twice_are_refused() -> None:
    coupon = DiscountFactor(DiscountKind.COUPON, Decimal("0.1"))
    base = DiscountFactor(DiscountKind.BASE, Decimal("0.3"))
    with pytest.raises(ValueError, match="order"):
        Quote(1, "KR", Currency.KRW, 1000, (coupon, base))
    with pytest.raises(ValueError, match="order"):
        Quote(1, "KR", Currency.KRW, 1000, (base, base))


def test_a_discount_outside_zero_to_one_is_refused_and_a_whole_one_makes_it_free() -> None:
    with pytest.raises(ValueError, match="fraction"):
        discounted(1000, Decimal("1.01"))
    with pytest.raises(ValueError, match="fraction"):
        DiscountFactor(DiscountKind.BASE, Decimal("-0.1"))
    assert discounted(1000, Decimal("1")) == 0


def test_factors_survive_their_plain_form() -> None:
    quote = quote_licence(load_catalogue().get(121) or pytest.fail("no licence 121"), "JP")
    assert factors_from_records(quote.factor_records()) == quote.factors


@given(
    list_price=st.integers(min_value=1, max_value=10**9),
    fractions=st.lists(st.decimals(min_value=0, max_value="0.99", places=2), min_size=0, max_size=3),
)
def test_a_quote_never_charges_more_than_the_list_price_nor_less_than_zero(
    list_price: int, fractions: list[Decimal]
) -> None:
    factors = tuple(DiscountFactor(kind, fraction) for kind, fraction in zip(DiscountKind, fractions, strict=False))
    quote = Quote(1, "KR", Currency.KRW, list_price, factors)
    assert 0 <= quote.amount <= list_price
    exact = Decimal(list_price)
    for factor in factors:
        exact *= 1 - factor.factor
    assert quote.amount <= exact  # rounding only ever favours the customer

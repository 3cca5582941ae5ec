"""What a licence costs: a quote of its list price, each discount applied, and the amount charged.

One quote prices an order and travels with the payment it priced, so the purchase
history shows the factors a payment was really charged with, and the amount the
gateway is asked for is always the quote's amount.

Discounts apply in a fixed order: the catalogue's base discount, then the credit for
the unused part of a licence being upgraded (remaining), then a coupon. Each step is
a fraction of the price before it, and each step's price is rounded down to the
currency's minor unit, so rounding never costs the customer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_FLOOR, Decimal
from enum import Enum
from typing import Any

from domain.catalogue.licences import Price, PurchasableLicence
from events.values import Currency


class DiscountKind(Enum):
    """Where a discount comes from (spec: base, remaining and coupon discounts)."""

    BASE = "base"
    REMAINING = "remaining"
    COUPON = "coupon"


# The order in which discounts apply, and in which the spec's discount text lists them.
DISCOUNT_ORDER = (DiscountKind.BASE, DiscountKind.REMAINING, DiscountKind.COUPON)


@dataclass(frozen=True)
class DiscountFactor:
    """One discount: a fraction in [0, 1] of the price it applies to (1: a coupon that makes it free)."""

    kind: DiscountKind
    factor: Decimal

    def __post_init__(self) -> None:
        if not Decimal(0) <= self.factor <= Decimal(1):
            raise ValueError("a discount factor is a fraction in [0, 1]")

    def as_record(self) -> dict[str, Any]:
        """The plain form events and records carry: ``{"type": "base", "factor": Decimal("0.3")}``."""
        return {"type": self.kind.value, "factor": self.factor}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> DiscountFactor:
        """Read the plain form back."""
        return cls(DiscountKind(record["type"]), Decimal(str(record["factor"])))


def discounted(amount: int, fraction: Decimal) -> int:
    """``amount`` less ``fraction`` of it, rounded down to a whole minor unit."""
    if not Decimal(0) <= fraction <= Decimal(1):
        raise ValueError("a discount is a fraction in [0, 1]")
    return int((Decimal(amount) * (Decimal(1) - fraction)).to_integral_value(rounding=ROUND_FLOOR))


@dataclass(frozen=True)
class Quote:
    """The price of one licence for one buyer: list price, discounts in order, and the amount to charge."""

    licence_id: int
    country_code: str
    currency: Currency
    list_price: int
    factors: tuple[DiscountFactor, ...]
    # The remaining step takes off exactly this many minor units (an upgrade's credit, see
    # ``with_remaining_credit``); its factor in ``factors`` is what the history displays.
    credit: int = 0

    def __post_init__(self) -> None:
        kinds = [factor.kind for factor in self.factors]
        if kinds != sorted(kinds, key=DISCOUNT_ORDER.index) or len(kinds) != len(set(kinds)):
            raise ValueError("discounts apply once each, in the order base, remaining, coupon")

    def price_after(self, kind: DiscountKind) -> int:
        """The price once every discount up to and including ``kind`` applied (spec: discountedPrice is
        the price after ``BASE``, remainingPrice after ``REMAINING``)."""
        price = self.list_price
        for factor in self.factors:
            if DISCOUNT_ORDER.index(factor.kind) > DISCOUNT_ORDER.index(kind):
                continue
            if factor.kind is DiscountKind.REMAINING and self.credit:
                price = max(price - self.credit, 0)
            else:
                price = discounted(price, factor.factor)
        return price

    @property
    def amount(self) -> int:
        """What the customer pays."""
        return self.price_after(DISCOUNT_ORDER[-1])

    def factor(self, kind: DiscountKind) -> Decimal:
        """The fraction of one kind of discount (0 when it does not apply)."""
        return next((item.factor for item in self.factors if item.kind is kind), Decimal(0))

    def with_coupon(self, fraction: Decimal) -> Quote:
        """This quote with a coupon's discount as its last step (a fraction of the price after base and
        remaining discounts); a coupon already on the quote is replaced."""
        kept = tuple(item for item in self.factors if item.kind is not DiscountKind.COUPON)
        if not fraction:
            return replace(self, factors=kept)
        return replace(self, factors=(*kept, DiscountFactor(DiscountKind.COUPON, fraction)))

    def factor_records(self) -> list[dict[str, Any]]:
        """The discounts in the plain form events carry."""
        return [factor.as_record() for factor in self.factors]


def factors_from_records(records: Iterable[Mapping[str, Any]]) -> tuple[DiscountFactor, ...]:
    """Discount factors from their plain form (as events and records carry them)."""
    return tuple(DiscountFactor.from_record(record) for record in records)


def quote_licence(licence: PurchasableLicence, country_code: str) -> Quote:
    """The quote for buying a catalogue licence in a country (its price with the country fallback)."""
    return quote_price(licence, licence.price_for(country_code))


def quote_price(licence: PurchasableLicence, price: Price) -> Quote:
    """The quote for one of a licence's prices: the list price less the licence's base discount."""
    factors: Sequence[DiscountFactor] = (
        (DiscountFactor(DiscountKind.BASE, licence.base_discount),) if licence.base_discount else ()
    )
    return Quote(licence.id, price.country_code, price.currency, price.price, tuple(factors))


REMAINING_FACTOR_PLACES = Decimal("0.0001")


def with_remaining_credit(quote: Quote, credit: int) -> Quote:
    """``quote`` with an upgrade's credit as its remaining step: exactly ``credit`` minor units off the
    price after the base discount (and before any coupon). The recorded factor is that credit as a
    fraction of the price it came off, rounded down to four places, for display only. The credit must
    leave something to pay (``domain.licences.upgrades`` refuses an upgrade it would cover)."""
    base_price = quote.price_after(DiscountKind.BASE)
    if not 0 <= credit < base_price:
        raise ValueError("a remaining credit is at least 0 and less than the price it comes off")
    if credit == 0:
        return quote
    fraction = (Decimal(credit) / Decimal(base_price)).quantize(REMAINING_FACTOR_PLACES, rounding=ROUND_FLOOR)
    factors = tuple(
        sorted(
            (*quote.factors, DiscountFactor(DiscountKind.REMAINING, fraction)),
            key=lambda item: DISCOUNT_ORDER.index(item.kind),
        )
    )
    return Quote(quote.licence_id, quote.country_code, quote.currency, quote.list_price, factors, credit)

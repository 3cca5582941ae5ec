"""Upgrade rules: which plans a licence may move to, and the credit for the unused part of what was paid.

- A target is an upgrade when it is the same product with more devices, a longer life (monthly ->
  annual -> lifetime) or both, never less of either (``Catalogue.upgrade_targets``).
- The credit is what was paid for the current period (net of refunds) times the unused fraction of that
  period, rounded down to the minor unit. A lifetime licence's period is its whole life.
- The target is quoted in the country the credited payment was made in, so quote and credit share a
  currency; a target whose price there is in another currency is not offered (no conversion).
- The charge is the target's quote with the credit as its remaining step. A credit that would cover the
  whole price does not make a free upgrade: such a target is not offered (today's catalogue never
  prices a bigger plan below the unused value of a smaller one).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.catalogue.licences import Catalogue, PurchasableLicence
from domain.errors import DomainError, ErrorCode
from domain.pricing.quotes import DiscountKind, Quote, quote_price, with_remaining_credit
from events.values import Currency


@dataclass(frozen=True)
class PaidPeriod:
    """The period a licence runs in now and the payment that paid for it."""

    merchant_uid: str
    paid: int  # what that payment still holds: amount less refunds and credit spent before
    currency: Currency
    country_code: str
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class UpgradeOffer:
    """One plan the licence may move to now, at its quote less the credit."""

    target: PurchasableLicence
    credit: int
    quote: Quote

    @property
    def amount(self) -> int:
        """What the upgrade charges."""
        return self.quote.amount


def _micros(delta: timedelta) -> int:
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def remaining_credit(period: PaidPeriod, now: datetime) -> int:
    """The unused part of what was paid for ``period`` at ``now``, rounded down (integers only)."""
    total = _micros(period.ends_at - period.starts_at)
    if total <= 0 or period.paid <= 0:
        return 0
    unused = min(max(_micros(period.ends_at - now), 0), total)
    return period.paid * unused // total


def offer(target: PurchasableLicence, period: PaidPeriod, now: datetime) -> UpgradeOffer | None:
    """The upgrade to ``target`` now, or None when it cannot be priced in the period's currency or the
    credit would cover it all."""
    price = target.price_for(period.country_code)
    if price.currency is not period.currency:
        return None
    quote = quote_price(target, price)
    credit = remaining_credit(period, now)
    if credit >= quote.price_after(DiscountKind.BASE):
        return None
    return UpgradeOffer(target, credit, with_remaining_credit(quote, credit))


def offers(
    catalogue: Catalogue, product_code: str, life: int, max_devices_count: int, period: PaidPeriod, now: datetime
) -> list[UpgradeOffer]:
    """Every upgrade the licence may take now, in catalogue order."""
    found = (offer(target, period, now) for target in catalogue.upgrade_targets(product_code, life, max_devices_count))
    return [item for item in found if item is not None]


def chosen_offer(
    catalogue: Catalogue,
    product_code: str,
    life: int,
    max_devices_count: int,
    period: PaidPeriod,
    now: datetime,
    target_id: int,
) -> UpgradeOffer:
    """The offer for ``target_id``; -302 when it is not an upgrade of this licence now."""
    for item in offers(catalogue, product_code, life, max_devices_count, period, now):
        if item.target.id == target_id:
            return item
    raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {target_id} is not an upgrade of this licence")

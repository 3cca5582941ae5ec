"""The renewal price rule (docs/catalogue.md): what a subscriber pays when the catalogue's price of their plan changes.

Existing subscribers keep their price. After a price cut, the next renewal charges the new price. After a price
rise, the new price is charged only at the first renewal at least ``NOTICE_PERIOD`` (30 days) after a price-rise
notice mailed to the subscriber (``subscription.PriceRiseNoticed``) that announced at least that price; until then
they keep paying what they paid.

``renewal_price`` is the one place that decides; ``price_rise_to_notice`` says which notice a subscriber is owed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.catalogue.licences import Catalogue
from domain.catalogue.versions import CatalogueVersion, CatalogueVersions
from domain.pricing.quotes import Quote, quote_price

NOTICE_PERIOD = timedelta(days=30)


@dataclass(frozen=True)
class PriceNotice:
    """A price-rise notice a subscriber was mailed: the price it announced and when."""

    catalogue_version: int
    amount: int
    currency: str
    noticed_at: datetime

    def covers(self, quote: Quote) -> bool:
        """Did this notice announce at least ``quote``'s price (in its currency)?"""
        return self.currency == quote.currency.value and self.amount >= quote.amount


@dataclass(frozen=True)
class RenewalPrice:
    """What a renewal charges, and under which catalogue version."""

    quote: Quote
    catalogue_version: int


def plan_quote(catalogue: Catalogue, licence_id: int, country_code: str) -> Quote | None:
    """The catalogue's price of a plan in a country, less its base discount (None when not on sale, or when the
    country's price is not the country's own: a subscriber is never moved across countries)."""
    licence = catalogue.get(licence_id)
    if licence is None:
        return None
    price = next((item for item in licence.prices if item.country_code == country_code), None)
    return quote_price(licence, price) if price is not None else None


def _same_price(one: Quote, other: Quote) -> bool:
    return (one.currency, one.list_price, one.factors) == (other.currency, other.list_price, other.factors)


def renewal_price(
    kept: Quote, kept_version: int, in_force: CatalogueVersion, notices: Sequence[PriceNotice], at: datetime
) -> RenewalPrice:
    """THE rule: what a renewal charged at ``at`` costs a subscriber paying ``kept`` (priced under ``kept_version``)
    when ``in_force`` is the catalogue version in force then and ``notices`` the price-rise notices they were mailed.

    - the plan is not on sale in their country in that version, or in another currency: they keep their price;
    - the same price or a cut: the version's price (a cut applies at the next renewal);
    - a rise: the version's price only when a notice announcing at least it was mailed ``NOTICE_PERIOD`` or more
      before ``at``; otherwise they keep their price.
    """
    offered = plan_quote(in_force.catalogue, kept.licence_id, kept.country_code)
    if offered is None or offered.currency != kept.currency or _same_price(offered, kept):
        return RenewalPrice(kept, kept_version)
    if offered.amount <= kept.amount:
        return RenewalPrice(offered, in_force.version)
    if any(notice.covers(offered) and at >= notice.noticed_at + NOTICE_PERIOD for notice in notices):
        return RenewalPrice(offered, in_force.version)
    return RenewalPrice(kept, kept_version)


@dataclass(frozen=True)
class DueNotice:
    """A price-rise notice a subscriber is owed: the version that raises their price, and the raised quote."""

    version: CatalogueVersion
    quote: Quote


def price_rise_to_notice(
    kept: Quote, versions: CatalogueVersions, notices: Sequence[PriceNotice], now: datetime
) -> DueNotice | None:
    """The notice a subscriber paying ``kept`` is owed now: of the version in force and those scheduled later, the
    highest price above theirs that no notice announced yet (one notice covers every lower rise); None when none."""
    owed: DueNotice | None = None
    for version in versions.ahead_of(now):
        offered = plan_quote(version.catalogue, kept.licence_id, kept.country_code)
        if offered is None or offered.currency != kept.currency or offered.amount <= kept.amount:
            continue
        if any(notice.covers(offered) for notice in notices):
            continue
        if owed is None or offered.amount > owed.quote.amount:
            owed = DueNotice(version, offered)
    return owed

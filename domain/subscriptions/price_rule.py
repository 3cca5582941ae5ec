"""The renewal price rule (docs/catalogue.md): what a subscriber pays when the catalogue's price of their plan changes.

Existing subscribers keep their price. After a price cut, the next renewal charges the new price. A price rise (or a
free period turning into a paid one: a rise from 0) is **asked**, never assumed (Korea's E-Commerce Act Art. 13(6)):
each renewing subscriber it would reach gets a request for consent (``subscription.PriceRiseAsked``), at least
``NOTICE_PERIOD`` (30 days) before the first renewal it may apply to. From then on:

- renewals falling due before the change keep the old price;
- the renewal at the change charges the new price only when the subscriber agreed (``subscription.PriceRiseAgreed``);
- a subscriber who did not agree by then is **never charged the higher price**: nothing is charged, and auto-renewal
  stops at the end of the paid period (``subscription.PriceRiseLapsed``, then ``subscription.Ended``).

A subscriber who declined is not asked again, nor reminded, for ``QUIET_AFTER_DECLINE`` (7 days: repeated
interference is forbidden). One reminder goes to a renewing subscriber who has not agreed, ``REMINDER_LEAD`` (7 days)
before the change.

``renewal_price`` is the one place that decides; ``price_rise_to_ask`` says which request a subscriber is owed, and
``reminder_due`` when the one reminder goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum

from domain.catalogue.licences import Catalogue
from domain.catalogue.versions import CatalogueVersion, CatalogueVersions
from domain.pricing.quotes import Quote, quote_price

NOTICE_PERIOD = timedelta(days=30)  # a request goes out at least this long before the renewal it may reprice
QUIET_AFTER_DECLINE = timedelta(days=7)  # no request and no reminder this long after a decline
REMINDER_LEAD = timedelta(days=7)  # the one reminder, this long before the change


class RiseKind(Enum):
    """What a request asks consent to: a higher price, or a free period turning into a paid one (a rise from 0)."""

    PRICE_RISE = "price-rise"
    FREE_TO_PAID = "free-to-paid"

    @staticmethod
    def of(previous_amount: int) -> RiseKind:
        """A rise from nothing is a free-to-paid conversion; any other rise a price rise."""
        return RiseKind.FREE_TO_PAID if previous_amount == 0 else RiseKind.PRICE_RISE


class Answer(Enum):
    """Where a request stands."""

    PENDING = "pending"  # not answered (a link followed answers nothing)
    AGREED = "agreed"
    DECLINED = "declined"  # the subscriber stopped auto-renewal instead
    LAPSED = "lapsed"  # the change came without an agreement: auto-renewal stopped at the paid period's end


@dataclass(frozen=True)
class PriceRiseAsk:
    """A request for consent to a higher price: the price asked for, from which renewal, and its answer."""

    catalogue_version: int
    kind: RiseKind
    amount: int
    previous_amount: int
    currency: str
    effective_at: datetime  # when the catalogue version takes effect
    applies_from: datetime  # the earliest renewal due date it may reprice: the later of effective_at and asked_at + 30d
    asked_at: datetime
    answer: Answer = Answer.PENDING
    answered_at: datetime | None = None
    reminded_at: datetime | None = None

    def covers(self, quote: Quote) -> bool:
        """Did this request ask for at least ``quote``'s price (in its currency)?"""
        return self.currency == quote.currency.value and self.amount >= quote.amount

    @property
    def agreed(self) -> bool:
        """Did the subscriber agree (the only answer that lets the higher price be charged)?"""
        return self.answer is Answer.AGREED

    def answered(self, answer: Answer, at: datetime) -> PriceRiseAsk:
        """The request with ``answer`` given at ``at``."""
        return replace(self, answer=answer, answered_at=at)


@dataclass(frozen=True)
class RenewalPrice:
    """What a renewal charges, and under which catalogue version. ``awaiting``: the renewal would charge a higher
    price its subscriber has not agreed to: it charges nothing, and auto-renewal stops instead."""

    quote: Quote
    catalogue_version: int
    awaiting: PriceRiseAsk | None = None


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
    kept: Quote, kept_version: int, in_force: CatalogueVersion, asks: Sequence[PriceRiseAsk], at: datetime
) -> RenewalPrice:
    """THE rule: what a renewal falling due at ``at`` costs a subscriber paying ``kept`` (priced under
    ``kept_version``) when ``in_force`` is the catalogue version in force then and ``asks`` the requests for consent
    they were sent.

    - the plan is not on sale in their country in that version, or in another currency: they keep their price;
    - the same price or a cut: the version's price (a cut applies at the next renewal);
    - a rise no request covers yet, or whose request applies only to later renewals: they keep their price;
    - a rise a request covers from this renewal on: the new price when they agreed; otherwise ``awaiting`` (nothing
      is charged: auto-renewal stops).
    """
    offered = plan_quote(in_force.catalogue, kept.licence_id, kept.country_code)
    if offered is None or offered.currency != kept.currency or _same_price(offered, kept):
        return RenewalPrice(kept, kept_version)
    if offered.amount <= kept.amount:
        return RenewalPrice(offered, in_force.version)
    covering = [ask for ask in asks if ask.covers(offered) and ask.applies_from <= at]
    if not covering:
        return RenewalPrice(kept, kept_version)
    if any(ask.agreed and (ask.answered_at is None or ask.answered_at <= at) for ask in covering):
        return RenewalPrice(offered, in_force.version)
    return RenewalPrice(offered, in_force.version, awaiting=covering[-1])


@dataclass(frozen=True)
class DueAsk:
    """A request a subscriber is owed: the version that raises their price, and the raised quote."""

    version: CatalogueVersion
    quote: Quote


def quiet_after(declined_at: datetime | None, now: datetime) -> bool:
    """Is ``now`` within the quiet days after a decline (no request, no reminder)?"""
    return declined_at is not None and now < declined_at + QUIET_AFTER_DECLINE


def price_rise_to_ask(
    kept: Quote,
    versions: CatalogueVersions,
    asks: Sequence[PriceRiseAsk],
    now: datetime,
    declined_at: datetime | None = None,
) -> DueAsk | None:
    """The request a subscriber paying ``kept`` is owed now: of the version in force and those scheduled later, the
    highest price above theirs that no request asked for yet (one request covers every lower rise); None when none,
    or within 7 days after they last declined one (``declined_at``)."""
    if quiet_after(declined_at, now):
        return None
    owed: DueAsk | None = None
    for version in versions.ahead_of(now):
        offered = plan_quote(version.catalogue, kept.licence_id, kept.country_code)
        if offered is None or offered.currency != kept.currency or offered.amount <= kept.amount:
            continue
        if any(ask.covers(offered) for ask in asks):
            continue
        if owed is None or offered.amount > owed.quote.amount:
            owed = DueAsk(version, offered)
    return owed


def applies_from(effective_at: datetime, asked_at: datetime) -> datetime:
    """The earliest renewal due date a request made at ``asked_at`` may reprice."""
    return max(effective_at, asked_at + NOTICE_PERIOD)


def first_renewal_from(paid_until: datetime, period: timedelta, moment: datetime) -> datetime:
    """The first renewal due at or after ``moment`` of a subscription paid until ``paid_until`` renewing every
    ``period``: the date a request names as the change."""
    if paid_until >= moment:
        return paid_until
    periods = -((paid_until - moment) // period)  # ceiling of (moment - paid_until) / period
    return paid_until + periods * period


def reminder_due(ask: PriceRiseAsk, changes_at: datetime, now: datetime, declined_at: datetime | None) -> bool:
    """Is the one reminder of ``ask`` due now: not agreed, not reminded yet, within the 7 days before the change at
    ``changes_at``, and not within 7 days after a decline?"""
    if ask.agreed or ask.answer is Answer.LAPSED or ask.reminded_at is not None:
        return False
    return changes_at - REMINDER_LEAD <= now < changes_at and not quiet_after(declined_at, now)

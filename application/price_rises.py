"""Consent before a price rise (docs/catalogue.md; Korea's E-Commerce Act Art. 13(6)), as beat, the reactor, the API
and the back office ask for it: the sweep that asks every renewing subscriber a scheduled rise would reach (found in
the subscriptions view), the one reminder before the change (found in the price-rises view), the subscriber's answer
on their licence page, and who agreed, declined or has not answered, per rise. The rule is
``domain/subscriptions/price_rule.py``'s; the log is written through ``domain/subscriptions/price_asks.py``."""

from __future__ import annotations

from uuid import UUID

from domain.clock import Clock
from domain.store import Storefront
from domain.subscriptions import price_asks
from domain.subscriptions.price_rule import REMINDER_LEAD
from eventlog.database import ViewDatabase
from projections.price_rises import PriceRiseAnswers, RiseSummary, answers_to, awaiting_reminder, rises
from projections.subscriptions import renewing_subscription_pages


def ask_every_price_rise(store: Storefront, views: ViewDatabase, clock: Clock) -> int:
    """Record the request every renewing subscriber is owed now (a version was scheduled; beat, hourly, for those
    started, resumed or out of their 7 quiet days since); how many were asked."""
    return sum(len(price_asks.ask_price_rises(store, clock, page)) for page in renewing_subscription_pages(views))


def remind_price_rises(store: Storefront, views: ViewDatabase, clock: Clock) -> int:
    """Record the one reminder of every request not agreed to whose change is 7 days away or less; how many."""
    return price_asks.remind_price_rises(store, clock, awaiting_reminder(views, clock.now(), REMINDER_LEAD))


def agree_to_price_rise(store: Storefront, clock: Clock, *, account_id: UUID, subscription_id: UUID) -> int:
    """The subscriber presses "agree" on their licence page (-360 when nothing is asked); the log position."""
    return price_asks.answer_price_rise(
        store, clock, account_id=account_id, subscription_id=subscription_id, agree=True
    )


def decline_price_rise(store: Storefront, clock: Clock, *, account_id: UUID, subscription_id: UUID) -> int:
    """The subscriber presses "stop auto-renewal" on the notice: declined, and auto-renewal stops at the end of the
    paid period (-360 when nothing is asked); the log position."""
    return price_asks.answer_price_rise(
        store, clock, account_id=account_id, subscription_id=subscription_id, agree=False
    )


def price_rises(views: ViewDatabase) -> list[RiseSummary]:
    """Every rise asked, newest first, with how many agreed, declined, have not answered or lapsed."""
    return rises(views)


def price_rise_answers(views: ViewDatabase, catalogue_version: int) -> list[PriceRiseAnswers]:
    """Who was asked for consent to version ``catalogue_version``'s rise, and what each answered."""
    return answers_to(views, catalogue_version)

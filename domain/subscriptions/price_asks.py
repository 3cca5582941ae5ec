"""Consent before a price rise (docs/catalogue.md), one subscription at a time: each renewing subscriber owed a request
(``price_rule.price_rise_to_ask``) gets a ``subscription.PriceRiseAsked`` event (its mail goes from the log); the one
reminder falls due 7 days before the change; the subscriber agrees or declines on their licence page. Safe to repeat
and to race: a request recorded covers that rise, a reminder is recorded once, a racing save conflicts and re-reads."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from uuid import UUID

from domain.catalogue.versions import load_versions
from domain.clock import Clock
from domain.store import Storefront
from domain.subscriptions.charging import load_subscription
from domain.subscriptions.price_rule import price_rise_to_ask
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from events.concurrency import retry_on_conflict

ASKED_STATUSES = (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE)


def ask_price_rises(store: Storefront, clock: Clock, subscription_ids: Sequence[UUID]) -> list[UUID]:
    """Record a request for consent on every renewing subscription of ``subscription_ids`` that is owed one now; the
    ids of those asked."""
    versions = load_versions(store)
    if len(versions.versions) == 1:
        return []  # the shipped catalogue alone: nothing ever rose
    asked: list[UUID] = []
    found = store.get_many(list(dict.fromkeys(subscription_ids)))
    for subscription_id, subscription in found.items():
        if not isinstance(subscription, Subscription) or subscription.status not in ASKED_STATUSES:
            continue
        owed = price_rise_to_ask(
            subscription.own_quote, versions, subscription.price_asks, clock.now(), subscription.declined_at
        )
        if owed is not None and _ask(store, clock, subscription_id):
            asked.append(subscription_id)
    return asked


def _ask(store: Storefront, clock: Clock, subscription_id: UUID) -> bool:
    def attempt() -> bool:
        subscription: Subscription = store.repository.get(subscription_id)
        now = clock.now()
        due = price_rise_to_ask(
            subscription.own_quote, load_versions(store), subscription.price_asks, now, subscription.declined_at
        )
        if due is None or subscription.status not in ASKED_STATUSES:
            return False
        subscription.ask_price_rise(due, now)
        store.save(subscription)
        return True

    return retry_on_conflict(attempt)


def remind_price_rises(store: Storefront, clock: Clock, subscription_ids: Sequence[UUID]) -> int:
    """Record the one reminder of each of ``subscription_ids`` whose reminder falls due now; how many."""

    def remind(subscription_id: UUID) -> bool:
        subscription = load_subscription(store, subscription_id)
        if not subscription.remind_price_rise(clock.now()):
            return False
        store.save(subscription)
        return True

    return sum(retry_on_conflict(partial(remind, key)) for key in dict.fromkeys(subscription_ids))


def answer_price_rise(
    store: Storefront, clock: Clock, *, account_id: UUID | None, subscription_id: UUID, agree: bool
) -> int:
    """The subscriber agrees to the price asked for, or declines it and stops auto-renewal (-360 when nothing is
    asked); the log position (``account_id`` None: anyone's)."""

    def attempt() -> int:
        subscription = load_subscription(store, subscription_id, account_id)
        now = clock.now()
        if agree:
            subscription.agree_to_price_rise(now)
        else:
            subscription.decline_price_rise(now)
        recordings = store.save(subscription)
        return recordings[-1].notification.id if recordings else store.max_notification_id()

    return retry_on_conflict(attempt)

"""Telling subscribers of a price rise: each one owed a notice (``price_rule.price_rise_to_notice``) gets a
``subscription.PriceRiseNoticed`` event, which sends the mail (workers/reactions.py). Safe to repeat: a notice
recorded covers that rise, so a second pass records nothing for it."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from domain.catalogue.versions import load_versions
from domain.clock import Clock
from domain.store import Storefront
from domain.subscriptions.price_rule import price_rise_to_notice
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from events.concurrency import retry_on_conflict

NOTICED_STATUSES = (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE)


def notice_price_rises(store: Storefront, clock: Clock, subscription_ids: Sequence[UUID]) -> list[UUID]:
    """Record a price-rise notice on every renewing subscription of ``subscription_ids`` that is owed one now;
    the ids of those noticed."""
    versions = load_versions(store)
    if len(versions.versions) == 1:
        return []  # the shipped catalogue alone: nothing ever rose
    noticed: list[UUID] = []
    found = store.get_many(list(dict.fromkeys(subscription_ids)))
    for subscription_id, subscription in found.items():
        if not isinstance(subscription, Subscription) or subscription.status not in NOTICED_STATUSES:
            continue
        owed = price_rise_to_notice(subscription.own_quote, versions, subscription.price_notices, clock.now())
        if owed is not None and _notice(store, clock, subscription_id):
            noticed.append(subscription_id)
    return noticed


def _notice(store: Storefront, clock: Clock, subscription_id: UUID) -> bool:
    def attempt() -> bool:
        subscription: Subscription = store.repository.get(subscription_id)
        now = clock.now()
        due = price_rise_to_notice(subscription.own_quote, load_versions(store), subscription.price_notices, now)
        if due is None or subscription.status not in NOTICED_STATUSES:
            return False
        subscription.price_rise_noticed(due, now)
        store.save(subscription)
        return True

    return retry_on_conflict(attempt)

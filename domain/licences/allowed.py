"""Everything a customer may do with a licence now: the one answer the licence list, the licence detail and
the subscription's state give (as ``allowedActions``).

The parts are decided where their facts live (``licence_actions`` for the licence, ``subscription_actions``
for its subscription); this module puts them together, so no caller combines them its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.catalogue.licences import Catalogue
from domain.licences.actions import Action, LicenceFacts, in_display_order, licence_actions
from domain.subscriptions.subscription import (
    Subscription,
    SubscriptionStatus,
    subscription_actions,
    with_subscription,
)


@dataclass(frozen=True)
class SubscriptionFacts:
    """What the subscription rules look at (from the aggregate, or from a subscriptions-view row)."""

    status: SubscriptionStatus
    paid_until: datetime
    replaced_by_lifetime: bool = False

    @classmethod
    def of(cls, subscription: Subscription) -> SubscriptionFacts:
        """From the loaded aggregate."""
        return cls(subscription.status, subscription.paid_until, subscription.replaced_by_lifetime)

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> SubscriptionFacts:
        """From a subscriptions-view row (a replaced subscription's licence no longer names it, see
        ``allowed_actions``)."""
        return cls(SubscriptionStatus(row["status"]), datetime.fromisoformat(row["paid_until"]))


def subscriber_actions(subscription: SubscriptionFacts, licence_state: str, now: datetime) -> list[Action]:
    """What the subscriber may do with the subscription itself, in display order."""
    return in_display_order(
        subscription_actions(
            subscription.status,
            subscription.paid_until,
            now,
            licence_state,
            replaced_by_lifetime=subscription.replaced_by_lifetime,
        )
    )


def allowed_actions(
    licence: LicenceFacts,
    subscription: SubscriptionFacts | None,
    catalogue: Catalogue,
    now: datetime,
    *,
    bought_in_app_store: bool = False,
) -> list[Action]:
    """What the customer may do with the licence now, in display order: its own actions (a licence bought in
    Apple's App Store is never upgraded here), as its subscription allows them, and the subscription's.

    A licence upgraded from a subscription to a lifetime plan was bought for good: its ended subscription no
    longer speaks for it."""
    allowed = licence_actions(licence, catalogue, now)
    if bought_in_app_store:
        allowed.discard(Action.UPGRADE)
    if subscription is not None and licence.source == "subscription":
        allowed = with_subscription(allowed, subscription.status)
        allowed.update(subscriber_actions(subscription, licence.state, now))
    return in_display_order(allowed)

"""What a customer may do with a licence right now.

The API returns these with the licence list and detail (with the subscription's own, see
``domain.subscriptions.subscription.subscription_actions``), and the web shows a button for
each; nothing outside the domain re-derives them from states. The rules read plain facts, so
the same rule answers for a loaded aggregate and for a view row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from domain.catalogue.licences import Catalogue

# Licences someone paid for; an open-beta licence has nothing to upgrade from.
PAID_SOURCES = ("purchase", "subscription")


class Action(Enum):
    """Something a customer can ask for on the licence page (values are the API's names)."""

    REGISTER_DEVICE = "registerDevice"
    RENAME_DEVICE = "renameDevice"
    REMOVE_DEVICE = "removeDevice"
    UPGRADE = "upgrade"
    CANCEL_AUTO_RENEWAL = "cancelAutoRenewal"
    RESUME = "resume"
    RESUBSCRIBE = "resubscribe"
    CHANGE_PAYMENT_METHOD = "changePaymentMethod"
    PAY_NOW = "payNow"


_DISPLAY_ORDER = tuple(Action)  # iterating the enum class itself is slow, and every licence on a page does it


def in_display_order(actions: Iterable[Action]) -> list[Action]:
    """Some actions in the enum's order (the order the licence page lists them)."""
    chosen = set(actions)
    return [action for action in _DISPLAY_ORDER if action in chosen]


@dataclass(frozen=True)
class LicenceFacts:
    """What the licence rules look at (from the aggregate, or from a licences-view row)."""

    state: str  # "active", "reserved", "lapsed" or "revoked"
    expires_at: datetime | None
    devices_count: int
    max_devices_count: int
    source: str  # "purchase", "subscription" or "open-beta"
    product_code: str
    life: int

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> LicenceFacts:
        """From a licences-view row (with its devices)."""
        return cls(
            state=row["state"],
            expires_at=datetime.fromisoformat(row["expires_at"]) if row["expires_at"] else None,
            devices_count=len(row["devices"]),
            max_devices_count=row["max_devices_count"],
            source=row["source"],
            product_code=row["product_code"],
            life=row["life"],
        )

    def is_valid(self, now: datetime) -> bool:
        """Active and not yet expired."""
        return self.state == "active" and self.expires_at is not None and now < self.expires_at


def licence_actions(facts: LicenceFacts, catalogue: Catalogue, now: datetime) -> set[Action]:
    """What the licence itself allows: devices while it is valid, and an upgrade when the catalogue has a
    bigger plan of the same product for a licence someone paid for."""
    allowed: set[Action] = set()
    valid = facts.is_valid(now)
    if valid and facts.devices_count < facts.max_devices_count:
        allowed.add(Action.REGISTER_DEVICE)
    if facts.devices_count:
        allowed |= {Action.RENAME_DEVICE, Action.REMOVE_DEVICE}
    targets = catalogue.upgrade_targets(facts.product_code, facts.life, facts.max_devices_count)
    if facts.source == "subscription":  # a subscription moves to another subscription plan
        targets = [target for target in targets if target.is_subscription]
    if valid and facts.source in PAID_SOURCES and targets:
        allowed.add(Action.UPGRADE)
    return allowed

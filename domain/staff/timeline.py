"""A customer's timeline for support: every event of their account, licences, payments, subscriptions and refund
requests, and every staff action on them, oldest first, read from the log itself, each with its log position, so
the back office links it to its inclusion proof (``GET /staff/proofs/{notificationId}``).

A proof carries the event's whole stored record (the leaf is its hash), so events that hold a secret (a password
hash, a session's secret hash, a sealed one-time-code secret) get no proof from the back office: their fields are
hidden from support, and finance proves them with ``python -m eventlog.audit prove``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any
from uuid import UUID

from domain.staff.member import list_members
from domain.store import Storefront
from events.contract import registered_topics
from events.staff import StaffActed

# Fields a timeline never shows (the masked card number is the gateway's, but support has no need of it).
HIDDEN = frozenset({"card_number", "password_hash", "secret_hash", "sealed_secret", "public_key"})
# Fields that are secrets: an event holding one is never handed out whole (its proof would carry it).
SECRETS = frozenset({"password_hash", "secret_hash", "sealed_secret"})


def provable(topic: str) -> bool:
    """May the back office hand out this kind of event's inclusion proof (its whole record)? Not when it holds a
    secret, nor for a topic nobody registered."""
    event_class = registered_topics().get(topic)
    if event_class is None:
        return False
    fields: set[str] = set()
    for klass in event_class.__mro__:
        fields |= set(getattr(klass, "__annotations__", {}))
    return not fields & SECRETS


@dataclass(frozen=True)
class Entry:
    """One event: when, what (its stored topic), on which aggregate, its version there, its plain fields, and its
    position in the log (its notification id) when its proof may be handed out."""

    at: datetime
    topic: str
    aggregate_id: UUID
    version: int
    fields: dict[str, Any]
    notification_id: int | None = None


def _plain(value: Any) -> Any:
    if isinstance(value, UUID | datetime | Decimal):
        return str(value) if not isinstance(value, datetime) else value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _entry(event: Any) -> Entry:
    fields = {
        name: _plain(value)
        for name, value in vars(event).items()
        if name not in ("originator_id", "originator_version", "timestamp", "originator_topic") and name not in HIDDEN
    }
    return Entry(event.timestamp, type(event).TOPIC, event.originator_id, event.originator_version, fields)


def timeline(store: Storefront, aggregate_ids: Iterable[UUID], account_id: UUID) -> list[Entry]:
    """Every event of the aggregates, and the staff actions naming the customer or one of them, oldest first."""
    ids = set(aggregate_ids)
    entries = [_entry(event) for aggregate_id in ids for event in store.repository.event_store.get(aggregate_id)]
    subjects = {str(aggregate_id) for aggregate_id in ids}
    for member in list_members(store):
        for event in store.repository.event_store.get(member.id):
            if not isinstance(event, StaffActed):
                continue
            details = getattr(event, "details", {}) or {}
            if details.get("account_id") == str(account_id) or getattr(event, "subject", None) in subjects:
                entries.append(_entry(event))
    positions = store.positions_of({entry.aggregate_id for entry in entries})
    placed = [
        replace(entry, notification_id=positions.get((entry.aggregate_id, entry.version)))
        if provable(entry.topic)
        else entry
        for entry in entries
    ]
    return sorted(placed, key=lambda entry: (entry.at, str(entry.aggregate_id), entry.version))

"""A customer's timeline for support: every event of their account, licences, payments, subscriptions and refund
requests, and every staff action on them, oldest first, read from the log itself."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any
from uuid import UUID

from domain.staff.member import list_members
from domain.store import Storefront
from events.staff import StaffActed

# Fields a timeline never shows (the masked card number is the gateway's, but support has no need of it).
HIDDEN = frozenset({"card_number", "password_hash", "secret_hash", "sealed_secret", "public_key"})


@dataclass(frozen=True)
class Entry:
    """One event: when, what (its stored topic), on which aggregate, its version there, and its plain fields."""

    at: datetime
    topic: str
    aggregate_id: UUID
    version: int
    fields: dict[str, Any]


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
    return sorted(entries, key=lambda entry: (entry.at, str(entry.aggregate_id), entry.version))

"""A customer's timeline for support: every event of their account, licences, payments, subscriptions and refund
requests, and every staff action on them, oldest first, read from the log itself, each with its log position, so
the back office links it to its inclusion proof (``GET /staff/proofs/{notificationId}``).

A proof carries the event's whole stored record (the leaf is its hash), so an event holding a field the member may
not see whole (domain/staff/disclosure.py: a password hash, a session's secret hash, a sealed one-time-code secret,
and for some roles a card's mask or a licence key) gets no proof for them, and its fields show as the declaration
says; finance proves such events with ``python -m eventlog.audit prove``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any
from uuid import UUID

from domain.staff.disclosure import Disclosure
from domain.staff.member import list_members
from domain.store import Storefront
from events.staff import StaffActed


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


def _entry(event: Any, disclosure: Disclosure) -> Entry:
    fields = {
        name: _plain(value)
        for name, value in vars(event).items()
        if name not in ("originator_id", "originator_version", "timestamp", "originator_topic")
    }
    shown = disclosure.fields(fields)
    return Entry(event.timestamp, type(event).TOPIC, event.originator_id, event.originator_version, shown)


def timeline(store: Storefront, aggregate_ids: Iterable[UUID], account_id: UUID, disclosure: Disclosure) -> list[Entry]:
    """Every event of the aggregates, and the staff actions naming the customer or one of them, oldest first, as the
    member the ``disclosure`` is for may see them (a proof's position only where they may have the proof)."""
    ids = set(aggregate_ids)
    entries = [
        _entry(event, disclosure) for aggregate_id in ids for event in store.repository.event_store.get(aggregate_id)
    ]
    subjects = {str(aggregate_id) for aggregate_id in ids}
    for member in list_members(store):
        for event in store.repository.event_store.get(member.id):
            if not isinstance(event, StaffActed):
                continue
            details = getattr(event, "details", {}) or {}
            if details.get("account_id") == str(account_id) or getattr(event, "subject", None) in subjects:
                entries.append(_entry(event, disclosure))
    positions = store.positions_of({entry.aggregate_id for entry in entries})
    placed = [
        replace(entry, notification_id=positions.get((entry.aggregate_id, entry.version)))
        if disclosure.may_prove(entry.topic)
        else entry
        for entry in entries
    ]
    return sorted(placed, key=lambda entry: (entry.at, str(entry.aggregate_id), entry.version))

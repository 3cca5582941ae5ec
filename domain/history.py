"""Point-in-time reads: a licence, subscription or payment as the log said it was at a past moment.

The aggregate is rebuilt from its events recorded at or before the moment (by the events' own
timestamps, which come from the clock of the use case that recorded them), so the answer is what
anyone would have read then.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any
from uuid import UUID

from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.payments.payment import Payment
from domain.store import Storefront
from domain.subscriptions.subscription import Subscription

KINDS: dict[str, type[Any]] = {"licence": UserLicence, "subscription": Subscription, "payment": Payment}


@dataclass(frozen=True)
class AsOf:
    """What an aggregate was at ``at``: its version then and its fields."""

    kind: str
    id: UUID
    at: datetime
    version: int
    recorded_at: datetime
    state: dict[str, Any]


def aggregate_id(kind: str, key: str) -> UUID:
    """The aggregate a reference names: a payment by its merchantUid, the others by their id."""
    if kind not in KINDS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"kind must be one of {', '.join(KINDS)}")
    if kind == "payment":
        return Payment.id_for(key)
    try:
        return UUID(key)
    except ValueError as malformed:
        raise DomainError(ErrorCode.INVALID_VALUE, f"not a {kind} id") from malformed


def as_of(store: Storefront, kind: str, key: str, at: datetime) -> AsOf:
    """The licence, subscription or payment ``key`` as it was at ``at`` (NOT_FOUND if it did not exist yet)."""
    if at.tzinfo is None:
        raise DomainError(ErrorCode.INVALID_VALUE, "the moment needs a time zone")
    identity = aggregate_id(kind, key)
    version, recorded_at = 0, at
    events: Iterable[Any] = store.events.get(identity)
    for event in events:
        if event.timestamp > at:
            break
        version, recorded_at = event.originator_version, event.timestamp
    if version == 0:
        raise DomainError(ErrorCode.NOT_FOUND, f"no {kind} {key} at {at.isoformat()}")
    aggregate: Any = store.repository.get(identity, version=version)
    if not isinstance(aggregate, KINDS[kind]):
        raise DomainError(ErrorCode.NOT_FOUND, f"{key} is not a {kind}")
    return AsOf(kind, identity, at, version, recorded_at, _plain(aggregate))


def _plain(aggregate: Any) -> dict[str, Any]:
    fields = {name: value for name, value in vars(aggregate).items() if not name.startswith("_")}
    return {"id": str(aggregate.id), **{name: _json(value) for name, value in sorted(fields.items())}}


def _json(value: Any) -> Any:
    if isinstance(value, Enum):
        return _json(value.value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, UUID | Decimal):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _json(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): _json(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_json(item) for item in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)

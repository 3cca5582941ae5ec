"""Events of a login session: one refresh-token family, rotated on every use."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class SessionStarted(StoredCreation):
    """A login opened a refresh-token family; only the hash of its first secret is kept."""

    TOPIC = "session.Started"
    account_id: UUID
    secret_hash: str
    expires_at: datetime


class SessionRotated(StoredEvent):
    """The current refresh secret was used and replaced (only its hash is kept)."""

    TOPIC = "session.Rotated"
    secret_hash: str
    expires_at: datetime


class SessionRevoked(StoredEvent):
    """The family can no longer be refreshed (logout, reuse of an old token, account gone)."""

    TOPIC = "session.Revoked"
    reason: str

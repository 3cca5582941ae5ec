"""A login session: one refresh-token family that rotates on every use.

Presenting the current secret rotates it. Presenting an older secret of the
family means the token was copied: the whole family is revoked, so neither the
thief nor the owner can refresh again (the owner logs in again).
"""

from __future__ import annotations

from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.accounts.tokens import REFRESH_TOKEN_LIFETIME, same_hash
from events.sessions import SessionRevoked, SessionRotated, SessionStarted

REUSE = "reuse"
LOGOUT = "logout"
ACCOUNT_CLOSED = "account-closed"


class Session(Aggregate):
    """A refresh-token family, keyed by its family id."""

    @classmethod
    def start(cls, *, family_id: UUID, account_id: UUID, secret_hash: str, at: datetime) -> Session:
        """A new family whose first secret has the given hash."""
        return cls._create(
            SessionStarted,
            id=family_id,
            timestamp=at,
            account_id=account_id,
            secret_hash=secret_hash,
            expires_at=at + REFRESH_TOKEN_LIFETIME,
        )

    def is_usable(self, at: datetime) -> bool:
        """Not revoked and not past its expiry."""
        return not self.revoked and at < self.expires_at

    def matches(self, secret_hash: str) -> bool:
        """True when the presented secret is the current one."""
        return same_hash(self.secret_hash, secret_hash)

    def refresh(
        self, presented_hash: str, new_secret_hash: str, credentials_changed_at: datetime | None, at: datetime
    ) -> str | None:
        """Rotate to ``new_secret_hash`` when ``presented_hash`` is the current secret; else say why not.

        An ended or expired family refuses. An older secret of the family means the token was
        copied: the whole family is revoked. A family that outlived its account (gone or deleted:
        ``credentials_changed_at`` None) or predates a change of its credentials (a new password, a reset, a new
        address, a claim by the mailbox) is revoked too. Returns the
        refusal (None when rotated); what it recorded must be saved either way.
        """
        if not self.is_usable(at):
            return "session ended"
        if not self.matches(presented_hash):
            self.revoke(REUSE, at)
            return "refresh token reused"
        if credentials_changed_at is None or self.started_at < credentials_changed_at:
            self.revoke(ACCOUNT_CLOSED, at)
            return "the account closed or its credentials changed since the login"
        self.trigger_event(
            SessionRotated, timestamp=at, secret_hash=new_secret_hash, expires_at=at + REFRESH_TOKEN_LIFETIME
        )
        return None

    def revoke(self, reason: str, at: datetime) -> None:
        """End the family (no-op when already revoked)."""
        if not self.revoked:
            self.trigger_event(SessionRevoked, timestamp=at, reason=reason)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _started(self, event: SessionStarted) -> None:
        self.account_id = event.account_id
        self.secret_hash = event.secret_hash
        self.expires_at = event.expires_at
        self.started_at = event.timestamp
        self.revoked = False
        self.revoked_reason = ""

    @when.register
    def _rotated(self, event: SessionRotated) -> None:
        self.secret_hash = event.secret_hash
        self.expires_at = event.expires_at

    @when.register
    def _revoked(self, event: SessionRevoked) -> None:
        self.revoked = True
        self.revoked_reason = event.reason

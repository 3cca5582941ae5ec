"""Which recorded events end access tokens before they expire, and a list of the ones that did.

An access token lives 30 minutes and is checked without a database read. A session that ends (logout, reuse of
an old refresh token) ends the tokens issued for it; an account whose credentials change (a new password, a reset,
a new address, a guest's account claimed by its mailbox) or that is deleted ends every token of a session opened
before.
``RevocationList`` keeps these, for as long as a token they end could still be alive, and answers a token in
two dictionary look-ups.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any
from uuid import UUID

from domain.accounts.tokens import ACCESS_TOKEN_LIFETIME, AccessClaims
from events.accounts import AccountClaimed, AccountDeleted, EmailChanged, PasswordChanged, PasswordResetCompleted
from events.sessions import SessionRevoked

# How long after its revocation an entry is still kept: the tokens it ends are dead by then (with a margin for
# clocks of different processes that disagree a little).
KEPT_FOR = ACCESS_TOKEN_LIFETIME.total_seconds() + 300


class Ends(Enum):
    """What a revocation ends."""

    SESSION = "session"  # the tokens of one session (refresh-token family)
    ACCOUNT = "account"  # every token of the account issued before it


@dataclass(frozen=True)
class Revocation:
    """One event's revocation: of a session or of an account's earlier tokens, at a moment (epoch seconds)."""

    ends: Ends
    subject: UUID
    at: float


SESSION_EVENTS: tuple[type[Any], ...] = (SessionRevoked,)
ACCOUNT_EVENTS: tuple[type[Any], ...] = (
    PasswordChanged,
    PasswordResetCompleted,
    EmailChanged,
    AccountClaimed,
    AccountDeleted,
)
REVOKING_TOPICS = frozenset(cls.TOPIC for cls in (*SESSION_EVENTS, *ACCOUNT_EVENTS))


def revocation_of(event: Any) -> Revocation | None:
    """The revocation an event makes (None for most events)."""
    if isinstance(event, SESSION_EVENTS):
        return Revocation(Ends.SESSION, event.originator_id, event.timestamp.timestamp())
    if isinstance(event, ACCOUNT_EVENTS):
        return Revocation(Ends.ACCOUNT, event.originator_id, event.timestamp.timestamp())
    return None


class RevocationList:
    """The sessions ended and the accounts whose earlier tokens ended, each with when."""

    def __init__(self) -> None:
        self._sessions: dict[UUID, float] = {}
        self._accounts: dict[UUID, float] = {}

    def note(self, revocation: Revocation) -> None:
        """Remember a revocation (noting one twice, or an older one after a newer, changes nothing)."""
        kept = self._sessions if revocation.ends is Ends.SESSION else self._accounts
        if revocation.at > kept.get(revocation.subject, float("-inf")):
            kept[revocation.subject] = revocation.at

    def ends(self, claims: AccessClaims) -> bool:
        """Is the token of these claims ended: its session revoked, or its account's credentials changed (or the
        account deleted) after its session started? (The rule ``Session.refresh`` applies to refresh tokens.)"""
        if claims.session_id in self._sessions:
            return True
        changed = self._accounts.get(claims.account_id)
        return changed is not None and claims.session_started_at < changed

    def forget_before(self, moment: float) -> None:
        """Drop what was revoked before ``moment`` less ``KEPT_FOR``: every token it ended has expired."""
        cutoff = moment - KEPT_FOR
        for kept in (self._sessions, self._accounts):
            for subject in [subject for subject, at in kept.items() if at < cutoff]:
                del kept[subject]

    def __len__(self) -> int:
        return len(self._sessions) + len(self._accounts)

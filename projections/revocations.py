"""The revocations view: the sessions ended and the accounts whose earlier access tokens ended, lately.

An API process keeps these in memory and follows the log for new ones (api/revocations.py); this view is where
it starts from, so that it does not read the whole log when it starts. Rows older than any token they could end
are pruned as newer revocations are written (by the events' own times, so a rebuild gives the same rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from domain.accounts.revocations import KEPT_FOR, Ends, Revocation, revocation_of
from eventlog.database import ViewCursor, ViewDatabase
from events.accounts import AccountClaimed, AccountDeleted, EmailChanged, PasswordChanged, PasswordResetCompleted
from events.sessions import SessionRevoked
from projections.view import View

# Rows are pruned well after the API stops loading them (it loads the last KEPT_FOR seconds).
PRUNED_AFTER = 2 * KEPT_FOR


class RevocationsView(View):
    """One row per session ended and per account whose credentials changed (the latest time), lately."""

    name = "revocations"
    tables = ("revocations_view",)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS revocations_view ("
            "ends TEXT NOT NULL, "
            "subject TEXT NOT NULL, "
            "revoked_at_us BIGINT NOT NULL, "
            "PRIMARY KEY (ends, subject))",
            "CREATE INDEX IF NOT EXISTS revocations_view_at ON revocations_view (revoked_at_us)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register(SessionRevoked)
    @apply.register(PasswordChanged)
    @apply.register(PasswordResetCompleted)
    @apply.register(EmailChanged)
    @apply.register(AccountClaimed)
    @apply.register(AccountDeleted)
    def _revoked(self, event: Any, cursor: ViewCursor) -> None:
        revocation = revocation_of(event)
        if revocation is None:
            return
        cursor.execute(
            "INSERT INTO revocations_view (ends, subject, revoked_at_us) VALUES (%(ends)s, %(subject)s, %(at)s) "
            "ON CONFLICT (ends, subject) DO UPDATE SET revoked_at_us = CASE "
            "WHEN excluded.revoked_at_us > revocations_view.revoked_at_us THEN excluded.revoked_at_us "
            "ELSE revocations_view.revoked_at_us END",
            {"ends": revocation.ends.value, "subject": str(revocation.subject), "at": _microseconds(revocation.at)},
        )
        cursor.execute(
            "DELETE FROM revocations_view WHERE revoked_at_us < %(cutoff)s",
            {"cutoff": _microseconds(revocation.at - PRUNED_AFTER)},
        )


def _microseconds(epoch_seconds: float) -> int:
    """Moments are kept as whole microseconds: views keep to the column types a page read carries exactly."""
    return round(epoch_seconds * 1_000_000)


@dataclass(frozen=True)
class RecentRevocations:
    """The revocations since a moment, and the log position the view had reached when they were read (every
    revocation recorded up to it is among them)."""

    position: int
    revocations: list[Revocation]


def recent_revocations(db: ViewDatabase, application_name: str, since: float) -> RecentRevocations:
    """What the view holds from ``since`` (epoch seconds) on, with its position read first: rows written after
    that position may be among them too, which does no harm (noting a revocation twice changes nothing)."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT notification_id FROM view_tracking WHERE view_name = %(view)s AND application_name = %(app)s",
            {"view": RevocationsView.name, "app": application_name},
        )
        row = cursor.fetchone()
        position = int(row["notification_id"]) if row else 0
        cursor.execute(
            "SELECT ends, subject, revoked_at_us FROM revocations_view WHERE revoked_at_us >= %(since)s",
            {"since": _microseconds(since)},
        )
        rows = cursor.fetchall()
    found = [Revocation(Ends(row["ends"]), UUID(row["subject"]), int(row["revoked_at_us"]) / 1_000_000) for row in rows]
    return RecentRevocations(position, found)

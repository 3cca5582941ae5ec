"""The accounts view: who is registered, with which address, language and profile."""

from __future__ import annotations

from dataclasses import dataclass
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventlog.database import ViewCursor, ViewDatabase
from events.accounts import (
    AccountClaimed,
    AccountDeleted,
    AccountRegistered,
    EmailChanged,
    EmailConfirmed,
    LoggedIn,
    ProfileChanged,
)
from projections.view import View


class AccountsView(View):
    """One row per live account (a deleted account's row is removed)."""

    name = "accounts"
    tables = ("accounts_view",)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS accounts_view ("
            "account_id TEXT PRIMARY KEY, "
            "email TEXT NOT NULL, "
            "language TEXT NOT NULL, "
            "email_confirmed BOOLEAN NOT NULL, "
            "marketing_push_enabled BOOLEAN NOT NULL, "
            "name TEXT, "
            "last_logged_in_at TEXT, "
            "registered_at TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS accounts_view_email ON accounts_view (email)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _registered(self, event: AccountRegistered, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO accounts_view (account_id, email, language, email_confirmed, "
            "marketing_push_enabled, registered_at) VALUES (%(id)s, %(email)s, %(language)s, "
            "%(confirmed)s, %(marketing)s, %(at)s)",
            {
                "id": str(event.originator_id),
                "email": event.email,
                "language": event.language.value,
                "confirmed": False,
                "marketing": event.marketing_push_enabled,
                "at": event.timestamp.isoformat(),
            },
        )

    @apply.register
    def _email_confirmed(self, event: EmailConfirmed, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE accounts_view SET email_confirmed = %(confirmed)s, email = %(email)s WHERE account_id = %(id)s",
            {"id": str(event.originator_id), "confirmed": True, "email": event.email},
        )

    @apply.register
    def _claimed(self, event: AccountClaimed, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE accounts_view SET email_confirmed = %(confirmed)s, language = %(language)s, "
            "marketing_push_enabled = %(marketing)s WHERE account_id = %(id)s",
            {
                "id": str(event.originator_id),
                "confirmed": True,
                "language": event.language.value,
                "marketing": event.marketing_push_enabled,
            },
        )

    @apply.register
    def _email_changed(self, event: EmailChanged, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE accounts_view SET email = %(email)s, email_confirmed = %(confirmed)s WHERE account_id = %(id)s",
            {"id": str(event.originator_id), "email": event.email, "confirmed": True},
        )

    @apply.register
    def _logged_in(self, event: LoggedIn, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE accounts_view SET last_logged_in_at = %(at)s WHERE account_id = %(id)s",
            {"id": str(event.originator_id), "at": event.timestamp.isoformat()},
        )

    @apply.register
    def _profile_changed(self, event: ProfileChanged, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE accounts_view SET name = %(name)s, language = %(language)s, "
            "marketing_push_enabled = %(marketing)s WHERE account_id = %(id)s",
            {
                "id": str(event.originator_id),
                "name": event.name,
                "language": event.language.value,
                "marketing": event.marketing_push_enabled,
            },
        )

    @apply.register
    def _deleted(self, event: AccountDeleted, cursor: ViewCursor) -> None:
        cursor.execute("DELETE FROM accounts_view WHERE account_id = %(id)s", {"id": str(event.originator_id)})


@dataclass(frozen=True)
class AccountRow:
    """An account as the account-settings page shows it."""

    account_id: UUID
    email: str
    language: str
    email_confirmed: bool
    marketing_push_enabled: bool
    name: str | None
    last_logged_in_at: str | None
    registered_at: str


def find_account(db: ViewDatabase, account_id: UUID) -> AccountRow | None:
    """One account's row, if the view has it."""
    with db.read() as cursor:
        cursor.execute("SELECT * FROM accounts_view WHERE account_id = %(id)s", {"id": str(account_id)})
        row = cursor.fetchone()
    if row is None:
        return None
    return AccountRow(
        account_id=UUID(row["account_id"]),
        email=row["email"],
        language=row["language"],
        email_confirmed=bool(row["email_confirmed"]),
        marketing_push_enabled=bool(row["marketing_push_enabled"]),
        name=row["name"],
        last_logged_in_at=row["last_logged_in_at"],
        registered_at=row["registered_at"],
    )

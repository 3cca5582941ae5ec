"""The accounts view: who is registered, with which address and language."""

from __future__ import annotations

from functools import singledispatchmethod
from typing import Any

from domain.accounts.account import normalise_email
from events.accounts import AccountRegistered
from projections.database import ViewCursor, ViewDatabase
from projections.view import View


class AccountsView(View):
    """One row per account."""

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


def is_email_registered(db: ViewDatabase, email: str) -> bool:
    """True when an account uses this address."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT 1 AS found FROM accounts_view WHERE email = %(email)s",
            {"email": normalise_email(email)},
        )
        return cursor.fetchone() is not None


def count_accounts(db: ViewDatabase) -> int:
    """How many accounts the view holds."""
    with db.read() as cursor:
        cursor.execute("SELECT COUNT(*) AS n FROM accounts_view")
        row = cursor.fetchone()
        return int(row["n"]) if row else 0

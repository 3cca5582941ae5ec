"""Grants of paid licence time waiting for a second member (domain/staff/grants.py), and their decisions."""

from __future__ import annotations

import json
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventlog.database import ViewCursor, ViewDatabase
from events.staff import GrantApproved, GrantDeclined, GrantRequested
from projections.reports import utc_text
from projections.view import View


class GrantRequestsView(View):
    """Every grant request: what it would grant, to whom, who asked and why, and the decision."""

    name = "grant_requests"
    tables = ("grant_requests_view",)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS grant_requests_view ("
            "request_id TEXT PRIMARY KEY, kind TEXT NOT NULL, account_id TEXT NOT NULL, subject TEXT NOT NULL, "
            "details TEXT NOT NULL, reason TEXT NOT NULL, requested_by TEXT NOT NULL, state TEXT NOT NULL, "
            "requested_at TEXT NOT NULL, decided_by TEXT, decision_reason TEXT)",
            "CREATE INDEX IF NOT EXISTS grant_requests_view_state ON grant_requests_view (state, requested_at)",
            "CREATE INDEX IF NOT EXISTS grant_requests_view_account ON grant_requests_view (account_id)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _requested(self, event: GrantRequested, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO grant_requests_view (request_id, kind, account_id, subject, details, reason, requested_by, "
            "state, requested_at) VALUES (%(id)s, %(kind)s, %(account)s, %(subject)s, %(details)s, %(reason)s, "
            "%(by)s, 'waiting', %(at)s)",
            {
                "id": str(event.originator_id),
                "kind": event.kind,
                "account": str(event.account_id),
                "subject": event.subject,
                "details": json.dumps(event.details, sort_keys=True),
                "reason": event.reason,
                "by": str(event.requested_by),
                "at": utc_text(event.timestamp),
            },
        )

    @apply.register
    def _approved(self, event: GrantApproved, cursor: ViewCursor) -> None:
        self._decided(cursor, event.originator_id, "granted", event.actor_id, event.reason)

    @apply.register
    def _declined(self, event: GrantDeclined, cursor: ViewCursor) -> None:
        self._decided(cursor, event.originator_id, "declined", event.actor_id, event.reason)

    @staticmethod
    def _decided(cursor: ViewCursor, request_id: UUID, state: str, actor_id: UUID, reason: str) -> None:
        cursor.execute(
            "UPDATE grant_requests_view SET state = %(state)s, decided_by = %(by)s, decision_reason = %(reason)s "
            "WHERE request_id = %(id)s",
            {"id": str(request_id), "state": state, "by": str(actor_id), "reason": reason},
        )


def grant_requests(db: ViewDatabase, state: str | None = None, account_id: UUID | None = None) -> list[dict[str, Any]]:
    """Grant requests, oldest first (only those in ``state``, or of one customer, when given)."""
    where = " AND ".join(
        condition
        for condition, wanted in (("state = %(state)s", state), ("account_id = %(account)s", account_id))
        if wanted is not None
    )
    with db.read() as cursor:
        cursor.execute(
            f"SELECT * FROM grant_requests_view {'WHERE ' + where if where else ''} ORDER BY requested_at, request_id",
            {"state": state, "account": str(account_id) if account_id else None},
        )
        rows = cursor.fetchall()
    return [{**row, "details": json.loads(row["details"])} for row in rows]

"""What the back office reads: customers found by any of their identifiers, and refunds waiting for a decision."""

from __future__ import annotations

from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventlog.database import ViewCursor, ViewDatabase
from events.staff import RefundAccepted, RefundApproved, RefundRefused, RefundReopened, RefundRequested
from projections.reports import utc_text
from projections.view import View

SEARCH_LIMIT = 50


class RefundRequestsView(View):
    """Every refund request (a staff member's above the limit, a customer's money-back) and its decision."""

    name = "refund_requests"
    tables = ("refund_requests_view",)
    version = 2  # 2: accepted (reserved, the gateway not answered yet) and reopened requests; the maker's choice

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS refund_requests_view ("
            "request_id TEXT PRIMARY KEY, merchant_uid TEXT NOT NULL, account_id TEXT, amount BIGINT NOT NULL, "
            "currency TEXT NOT NULL, reason TEXT NOT NULL, requested_by TEXT, source TEXT NOT NULL, "
            "state TEXT NOT NULL, requested_at TEXT NOT NULL, decided_by TEXT, decision_reason TEXT, "
            "refunded BIGINT NOT NULL, licence_effect TEXT)",
            "CREATE INDEX IF NOT EXISTS refund_requests_view_state ON refund_requests_view (state, requested_at)",
            "CREATE INDEX IF NOT EXISTS refund_requests_view_merchant ON refund_requests_view (merchant_uid)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _requested(self, event: RefundRequested, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO refund_requests_view (request_id, merchant_uid, account_id, amount, currency, reason, "
            "requested_by, source, state, requested_at, refunded, licence_effect) VALUES (%(id)s, %(merchant)s, "
            "%(account)s, %(amount)s, %(currency)s, %(reason)s, %(by)s, %(source)s, 'waiting', %(at)s, 0, %(effect)s)",
            {
                "id": str(event.originator_id),
                "merchant": event.merchant_uid,
                "account": str(event.account_id) if event.account_id else None,
                "amount": event.amount,
                "currency": event.currency,
                "reason": event.reason,
                "by": str(event.requested_by) if event.requested_by else None,
                "source": event.source,
                "at": utc_text(event.timestamp),
                "effect": event.licence_effect,
            },
        )

    @apply.register
    def _accepted(self, event: RefundAccepted, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE refund_requests_view SET state = 'accepted', decided_by = %(by)s, decision_reason = %(reason)s "
            "WHERE request_id = %(id)s",
            {
                "id": str(event.originator_id),
                "by": str(event.actor_id) if event.actor_id else None,
                "reason": event.reason,
            },
        )

    @apply.register
    def _reopened(self, event: RefundReopened, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE refund_requests_view SET state = 'waiting', decided_by = NULL, decision_reason = %(reason)s "
            "WHERE request_id = %(id)s",
            {"id": str(event.originator_id), "reason": event.reason},
        )

    @apply.register
    def _approved(self, event: RefundApproved, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE refund_requests_view SET state = 'refunded', decided_by = %(by)s, decision_reason = %(reason)s, "
            "refunded = %(refunded)s WHERE request_id = %(id)s",
            {
                "id": str(event.originator_id),
                "by": str(event.actor_id) if event.actor_id else None,
                "reason": event.reason,
                "refunded": event.refunded,
            },
        )

    @apply.register
    def _refused(self, event: RefundRefused, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE refund_requests_view SET state = 'refused', decided_by = %(by)s, decision_reason = %(reason)s "
            "WHERE request_id = %(id)s",
            {
                "id": str(event.originator_id),
                "by": str(event.actor_id) if event.actor_id else None,
                "reason": event.reason,
            },
        )


def refund_requests(db: ViewDatabase, state: str | None = None) -> list[dict[str, Any]]:
    """Refund requests, oldest first (only those in ``state`` when given)."""
    where = "WHERE state = %(state)s " if state else ""
    with db.read() as cursor:
        cursor.execute(f"SELECT * FROM refund_requests_view {where}ORDER BY requested_at, request_id", {"state": state})
        return cursor.fetchall()


def money_back_requests_of(db: ViewDatabase, account_id: UUID) -> list[dict[str, Any]]:
    """A customer's money-back requests, newest first."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM refund_requests_view WHERE account_id = %(account)s AND source = 'money-back' "
            "ORDER BY requested_at DESC",
            {"account": str(account_id)},
        )
        return cursor.fetchall()


def find_customers(db: ViewDatabase, query: str) -> list[dict[str, Any]]:
    """Accounts matching ``query`` as an address or name (part of it, any case: ``%`` and ``_`` are the characters
    themselves, never wildcards), or exactly as a licence key, a merchantUid, an imp_uid or a device id; each with
    what matched."""
    text = query.strip()
    if not text or "\x00" in text:
        return []
    found: dict[str, str] = {}
    like = "%" + text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    lookups = [
        ("email", "SELECT account_id FROM accounts_view WHERE lower(email) LIKE %(like)s ESCAPE '\\'"),
        ("name", "SELECT account_id FROM accounts_view WHERE lower(name) LIKE %(like)s ESCAPE '\\'"),
        ("licence key", "SELECT account_id FROM licences_view WHERE upper(licence_key) = upper(%(exact)s)"),
        ("merchantUid", "SELECT account_id FROM payments_view WHERE merchant_uid = %(exact)s"),
        ("imp_uid", "SELECT account_id FROM payments_view WHERE imp_uid = %(exact)s"),
        (
            "device id",
            "SELECT l.account_id FROM licence_devices_view d JOIN licences_view l "
            "ON l.user_licence_id = d.user_licence_id WHERE d.device_id = %(exact)s",
        ),
    ]
    with db.read() as cursor:
        for matched, statement in lookups:
            cursor.execute(statement, {"like": like, "exact": text})
            for row in cursor.fetchall():
                if row["account_id"]:
                    found.setdefault(str(row["account_id"]), matched)
        if not found:
            return []
        ids = sorted(found)[:SEARCH_LIMIT]
        marks = ", ".join(f"%(id{index})s" for index in range(len(ids)))
        cursor.execute(
            f"SELECT account_id, email, name, email_confirmed, registered_at FROM accounts_view "
            f"WHERE account_id IN ({marks}) ORDER BY email",
            {f"id{index}": account_id for index, account_id in enumerate(ids)},
        )
        rows = cursor.fetchall()
    return [{**row, "matched": found[str(row["account_id"])]} for row in rows]


def customer_aggregates(db: ViewDatabase, account_id: UUID) -> dict[str, list[str]]:
    """The ids of what belongs to a customer: their licences, payments (merchantUids), subscriptions, refund
    requests and reports."""
    account = {"account": str(account_id)}
    with db.read() as cursor:
        cursor.execute("SELECT user_licence_id FROM licences_view WHERE account_id = %(account)s", account)
        licences = [str(row["user_licence_id"]) for row in cursor.fetchall()]
        cursor.execute("SELECT merchant_uid FROM payments_view WHERE account_id = %(account)s", account)
        payments = [str(row["merchant_uid"]) for row in cursor.fetchall()]
        cursor.execute("SELECT subscription_id FROM subscriptions_view WHERE account_id = %(account)s", account)
        subscriptions = [str(row["subscription_id"]) for row in cursor.fetchall()]
        cursor.execute("SELECT request_id FROM refund_requests_view WHERE account_id = %(account)s", account)
        requests = [str(row["request_id"]) for row in cursor.fetchall()]
        cursor.execute("SELECT report_id FROM reports_view WHERE account_id = %(account)s", account)
        reports = [str(row["report_id"]) for row in cursor.fetchall()]
    return {
        "licences": licences,
        "payments": payments,
        "subscriptions": subscriptions,
        "refund_requests": requests,
        "reports": reports,
    }

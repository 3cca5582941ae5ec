"""The ledger: every movement of money the log records (domain/payments/revenue.py says what counts), summed by
day, currency, product and payment method. Amounts are integers in the currency's minor unit.
"""

from __future__ import annotations

import io
from datetime import date
from functools import singledispatchmethod
from typing import Any

from domain.payments.revenue import Movement, movement
from eventlog import csv_files
from eventlog.database import ViewCursor, ViewDatabase
from events.payments import PaymentOrdered, PaymentRefunded, PaymentSucceeded
from projections.view import View

SUMMARY_COLUMNS = ("day", "currency", "product_code", "pay_method", "revenue", "refunds", "net", "payments", "refunded")


class LedgerView(View):
    """One row per movement of money (``ledger_entries``), and what each payment was for (``ledger_payments``)."""

    name = "ledger"
    tables = ("ledger_entries", "ledger_payments")

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS ledger_payments ("
            "payment_id TEXT PRIMARY KEY, merchant_uid TEXT NOT NULL, product_code TEXT NOT NULL, "
            "currency TEXT NOT NULL, amount BIGINT NOT NULL, pay_method TEXT)",
            "CREATE TABLE IF NOT EXISTS ledger_entries ("
            "entry_id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, merchant_uid TEXT NOT NULL, kind TEXT NOT NULL, "
            "day TEXT NOT NULL, at TEXT NOT NULL, currency TEXT NOT NULL, product_code TEXT NOT NULL, "
            "pay_method TEXT NOT NULL, amount BIGINT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS ledger_entries_day ON ledger_entries (day)",
            "CREATE INDEX IF NOT EXISTS ledger_entries_merchant_uid ON ledger_entries (merchant_uid)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        """Events that move no money change nothing here."""

    @apply.register
    def _ordered(self, event: PaymentOrdered, cursor: ViewCursor) -> None:
        cursor.execute(
            "INSERT INTO ledger_payments (payment_id, merchant_uid, product_code, currency, amount) "
            "VALUES (%(id)s, %(uid)s, %(product)s, %(currency)s, %(amount)s) ON CONFLICT (payment_id) DO NOTHING",
            {
                "id": str(event.originator_id),
                "uid": event.merchant_uid,
                "product": event.product_code,
                "currency": event.currency.value,
                "amount": event.amount,
            },
        )

    @apply.register
    def _succeeded(self, event: PaymentSucceeded, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE ledger_payments SET pay_method = %(method)s WHERE payment_id = %(id)s",
            {"method": event.pay_method, "id": str(event.originator_id)},
        )
        self._enter(cursor, movement(event))

    @apply.register
    def _refunded(self, event: PaymentRefunded, cursor: ViewCursor) -> None:
        self._enter(cursor, movement(event))

    def _enter(self, cursor: ViewCursor, moved: Movement) -> None:
        """One movement of money (once: its entry id is its own)."""
        payment_id = moved.payment_id
        cursor.execute(
            "SELECT merchant_uid, product_code, currency, amount, pay_method FROM ledger_payments "
            "WHERE payment_id = %(id)s",
            {"id": str(payment_id)},
        )
        payment = cursor.fetchone()
        if payment is None:  # pragma: no cover  (every payment is ordered before it moves money)
            return
        cursor.execute(
            "INSERT INTO ledger_entries (entry_id, payment_id, merchant_uid, kind, day, at, currency, product_code, "
            "pay_method, amount) VALUES (%(entry)s, %(id)s, %(uid)s, %(kind)s, %(day)s, %(at)s, %(currency)s, "
            "%(product)s, %(method)s, %(amount)s) ON CONFLICT (entry_id) DO NOTHING",
            {
                "entry": moved.entry_id,
                "id": str(payment_id),
                "uid": payment["merchant_uid"],
                "kind": moved.kind,
                "day": moved.day.isoformat(),
                "at": moved.at.isoformat(),
                "currency": payment["currency"],
                "product": payment["product_code"],
                "method": payment["pay_method"] or "",
                "amount": moved.amount_of(int(payment["amount"])),
            },
        )


def ledger_summary(db: ViewDatabase, since: date | None = None, until: date | None = None) -> list[dict[str, Any]]:
    """Revenue, refunds and net by day, currency, product and payment method, for days in ``[since, until)``."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT day, currency, product_code, pay_method, "
            "SUM(CASE WHEN kind = 'revenue' THEN amount ELSE 0 END) AS revenue, "
            "SUM(CASE WHEN kind = 'refund' THEN amount ELSE 0 END) AS refunds, "
            "SUM(CASE WHEN kind = 'revenue' THEN 1 ELSE 0 END) AS payments, "
            "SUM(CASE WHEN kind = 'refund' THEN 1 ELSE 0 END) AS refunded "
            "FROM ledger_entries WHERE day >= %(since)s AND day < %(until)s "
            "GROUP BY day, currency, product_code, pay_method ORDER BY day, currency, product_code, pay_method",
            {"since": (since or date.min).isoformat(), "until": (until or date.max).isoformat()},
        )
        rows = cursor.fetchall()
    return [
        {
            "day": row["day"],
            "currency": row["currency"],
            "product_code": row["product_code"],
            "pay_method": row["pay_method"],
            "revenue": int(row["revenue"]),
            "refunds": int(row["refunds"]),
            "net": int(row["revenue"]) - int(row["refunds"]),
            "payments": int(row["payments"]),
            "refunded": int(row["refunded"]),
        }
        for row in rows
    ]


def ledger_entries(db: ViewDatabase, day: date | None = None) -> list[dict[str, Any]]:
    """Every movement of money (of one business day when given), in time order."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT merchant_uid, kind, day, at, currency, product_code, pay_method, amount FROM ledger_entries "
            "WHERE %(day)s = '' OR day = %(day)s ORDER BY at, entry_id",
            {"day": day.isoformat() if day else ""},
        )
        return [{**row, "amount": int(row["amount"])} for row in cursor.fetchall()]


def summary_csv(rows: list[dict[str, Any]]) -> str:
    """The summary as CSV for operators (amounts in minor units)."""
    out = io.StringIO()
    writer = csv_files.DictWriter(out, fieldnames=SUMMARY_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()

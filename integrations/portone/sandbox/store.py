"""The sandbox's state in one SQLite file: one JSON document per payment, billing key,
prepared amount and token.

One connection guarded by a re-entrant lock: a ``transaction()`` holds the lock from
its first read to its commit, so read-modify-write sequences (idempotent charges,
cancels) are safe under uvicorn's worker threads.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from integrations.portone.sandbox.records import (
    CustomerRecord,
    PaymentRecord,
    PreparedRecord,
    TokenRecord,
)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS payments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    imp_uid TEXT NOT NULL UNIQUE,
    merchant_uid TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_by_merchant_uid ON payments (merchant_uid, seq);
CREATE TABLE IF NOT EXISTS customers (customer_uid TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS prepared (merchant_uid TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cash_receipts (imp_uid TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    access_token TEXT PRIMARY KEY,
    imp_key TEXT NOT NULL,
    expired_at INTEGER NOT NULL
);
"""


class SandboxStore:
    """Persistent, thread-safe store of the sandbox's records."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._depth = 0
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        with self._lock:
            # Deleted rows are overwritten on disk, not merely unlinked.
            self._conn.execute("PRAGMA secure_delete = ON")
            self._conn.executescript(_SCHEMA)
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[SandboxStore]:
        """Hold the lock and one SQLite transaction; commit on success, roll back on error."""
        with self._lock:
            outermost = self._depth == 0
            if outermost:
                self._conn.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self
            except BaseException:
                self._depth -= 1
                if outermost:
                    self._conn.execute("ROLLBACK")
                raise
            self._depth -= 1
            if outermost:
                self._conn.execute("COMMIT")

    def _one(self, sql: str, *params: object) -> str | None:
        with self._lock:
            row = self._conn.execute(sql, params).fetchone()
        return None if row is None else str(row[0])

    def _write(self, sql: str, *params: object) -> None:
        with self.transaction():
            self._conn.execute(sql, params)

    # -- payments ---------------------------------------------------------------------

    def get_payment(self, imp_uid: str) -> PaymentRecord | None:
        """The payment with this imp_uid."""
        data = self._one("SELECT data FROM payments WHERE imp_uid = ?", imp_uid)
        return None if data is None else PaymentRecord.model_validate_json(data)

    def newest_payment(self, merchant_uid: str, status: str | None = None) -> PaymentRecord | None:
        """The most recently created payment for merchant_uid (optionally with status)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT data FROM payments WHERE merchant_uid = ? ORDER BY seq DESC",
                (merchant_uid,),
            ).fetchall()
        for (data,) in rows:
            record = PaymentRecord.model_validate_json(data)
            if status is None or record.status == status:
                return record
        return None

    def payments_started_between(self, start: int, end: int, status: str | None = None) -> list[PaymentRecord]:
        """Payments requested in ``[start, end)`` (unix seconds), newest first, optionally with one status."""
        with self._lock:
            rows = self._conn.execute("SELECT data FROM payments ORDER BY seq DESC").fetchall()
        records = [PaymentRecord.model_validate_json(data) for (data,) in rows]
        return [
            record
            for record in records
            if start <= record.started_at < end and (status is None or record.status == status)
        ]

    def has_imp_uid(self, imp_uid: str) -> bool:
        """Whether an imp_uid is taken."""
        return self._one("SELECT 1 FROM payments WHERE imp_uid = ?", imp_uid) is not None

    def put_payment(self, record: PaymentRecord) -> None:
        """Insert or replace a payment (its creation order is kept)."""
        self._write(
            "INSERT INTO payments (imp_uid, merchant_uid, data) VALUES (?, ?, ?) "
            "ON CONFLICT (imp_uid) DO UPDATE SET data = excluded.data",
            record.imp_uid,
            record.merchant_uid,
            record.model_dump_json(),
        )

    # -- billing keys -----------------------------------------------------------------

    def get_customer(self, customer_uid: str) -> CustomerRecord | None:
        """The billing key registered under customer_uid."""
        data = self._one("SELECT data FROM customers WHERE customer_uid = ?", customer_uid)
        return None if data is None else CustomerRecord.model_validate_json(data)

    def put_customer(self, record: CustomerRecord) -> None:
        """Insert or replace a billing key."""
        self._write(
            "INSERT OR REPLACE INTO customers (customer_uid, data) VALUES (?, ?)",
            record.customer_uid,
            record.model_dump_json(),
        )

    def delete_customer(self, customer_uid: str) -> None:
        """Forget a billing key."""
        self._write("DELETE FROM customers WHERE customer_uid = ?", customer_uid)

    # -- prepared amounts -------------------------------------------------------------

    def get_prepared(self, merchant_uid: str) -> PreparedRecord | None:
        """The amount pre-registered for merchant_uid."""
        data = self._one("SELECT data FROM prepared WHERE merchant_uid = ?", merchant_uid)
        return None if data is None else PreparedRecord.model_validate_json(data)

    def put_prepared(self, record: PreparedRecord) -> None:
        """Insert or replace a prepared amount."""
        self._write(
            "INSERT OR REPLACE INTO prepared (merchant_uid, data) VALUES (?, ?)",
            record.merchant_uid,
            record.model_dump_json(),
        )

    # -- cash receipts ----------------------------------------------------------------

    def get_receipt(self, imp_uid: str) -> dict[str, Any] | None:
        """The cash receipt last issued for a payment (receipts.py), as stored."""
        data = self._one("SELECT data FROM cash_receipts WHERE imp_uid = ?", imp_uid)
        return None if data is None else dict(json.loads(data))

    def put_receipt(self, imp_uid: str, data: dict[str, Any]) -> None:
        """Insert or replace a payment's cash receipt."""
        self._write("INSERT OR REPLACE INTO cash_receipts (imp_uid, data) VALUES (?, ?)", imp_uid, json.dumps(data))

    # -- tokens -----------------------------------------------------------------------

    def get_token(self, access_token: str) -> TokenRecord | None:
        """The token record for an access token."""
        with self._lock:
            row = self._conn.execute(
                "SELECT access_token, imp_key, expired_at FROM tokens WHERE access_token = ?",
                (access_token,),
            ).fetchone()
        return None if row is None else TokenRecord(access_token=row[0], imp_key=row[1], expired_at=row[2])

    def latest_token(self, imp_key: str) -> TokenRecord | None:
        """The token issued last to imp_key."""
        with self._lock:
            row = self._conn.execute(
                "SELECT access_token, imp_key, expired_at FROM tokens WHERE imp_key = ? "
                "ORDER BY expired_at DESC LIMIT 1",
                (imp_key,),
            ).fetchone()
        return None if row is None else TokenRecord(access_token=row[0], imp_key=row[1], expired_at=row[2])

    def put_token(self, record: TokenRecord) -> None:
        """Insert or update a token."""
        self._write(
            "INSERT OR REPLACE INTO tokens (access_token, imp_key, expired_at) VALUES (?, ?, ?)",
            record.access_token,
            record.imp_key,
            record.expired_at,
        )

    def delete_expired_tokens(self, now: int) -> None:
        """Drop tokens that can no longer be used."""
        self._write("DELETE FROM tokens WHERE expired_at <= ?", now)

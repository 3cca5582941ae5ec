"""The log on each store, its audit tools, and a way to change stored events behind the app's back."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from config.settings import Settings
from domain.store import Storefront
from eventlog.audit import Audit
from tests.integration.portone.conftest import clock, sandbox, start_sandbox, webhook_receiver
from tests.integration.purchases.conftest import catalogue, domain_clock, gateway

__all__ = ["catalogue", "clock", "domain_clock", "gateway", "sandbox", "start_sandbox", "webhook_receiver"]

ORIGIN = "books.example/storefront/log"


@pytest.fixture
def signing_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def audit(settings: Settings, store: Storefront, signing_key: Ed25519PrivateKey) -> Iterator[Audit]:
    opened = Audit.open(settings.event_store_env, signing_key, ORIGIN, settings.var_dir / "checkpoints", log=store)
    yield opened
    opened.close()


@dataclass
class Intruder:
    """Someone with write access to the database who edits stored events without the app."""

    settings: Settings
    table: str

    def _execute(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        if self.settings.uses_postgres:
            with psycopg.connect(self.settings.database_url) as conn:
                for sql, params in statements:
                    conn.execute(sql.replace("?", "%s").replace("rowid", "notification_id"), params)
            return
        conn = sqlite3.connect(self.settings.event_store_env["SQLITE_DBNAME"])
        try:
            with conn:
                for sql, params in statements:
                    conn.execute(sql, params)
        finally:
            conn.close()

    def state_of(self, notification_id: int) -> bytes:
        if self.settings.uses_postgres:
            with psycopg.connect(self.settings.database_url) as conn:
                row = conn.execute(
                    f"SELECT state FROM {self.table} WHERE notification_id = %s", (notification_id,)
                ).fetchone()
        else:
            conn = sqlite3.connect(self.settings.event_store_env["SQLITE_DBNAME"])
            try:
                row = conn.execute(f"SELECT state FROM {self.table} WHERE rowid = ?", (notification_id,)).fetchone()
            finally:
                conn.close()
        assert row is not None
        return bytes(row[0])

    def change_one_byte(self, notification_id: int, old: bytes, new: bytes) -> None:
        state = self.state_of(notification_id)
        assert len(old) == len(new) == 1 and old in state
        self._execute(
            (f"UPDATE {self.table} SET state = ? WHERE rowid = ?", (state.replace(old, new, 1), notification_id))
        )

    def delete(self, notification_id: int) -> None:
        self._execute((f"DELETE FROM {self.table} WHERE rowid = ?", (notification_id,)))

    def swap(self, first: int, second: int) -> None:
        self._execute(
            (f"UPDATE {self.table} SET rowid = ? WHERE rowid = ?", (-1, first)),
            (f"UPDATE {self.table} SET rowid = ? WHERE rowid = ?", (first, second)),
            (f"UPDATE {self.table} SET rowid = ? WHERE rowid = ?", (second, -1)),
        )

    def rewrite_tree(self) -> None:
        """Throw the tree away so that it is built again over the edited log (a rewritten history)."""
        self._execute(
            ("DELETE FROM merkle_leaves", ()),
            ("DELETE FROM merkle_nodes", ()),
            ("UPDATE view_tracking SET notification_id = 0 WHERE view_name = ?", ("transparency_log",)),
        )


@pytest.fixture
def intruder(settings: Settings, store: Storefront) -> Intruder:
    return Intruder(settings, store.recorder.events_table_name)

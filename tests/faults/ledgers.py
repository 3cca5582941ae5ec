"""What a stack under test holds afterwards: the sandbox gateway's payments, the views' rows, and whether the views
equal a rebuild of them from the log."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from eventlog.database import ViewDatabase
from projections.catalogue import all_views
from tests.faults.stack import ROOT


def gateway_payments(sandbox_db: Path) -> list[dict[str, Any]]:
    """Every payment the sandbox gateway holds, oldest first."""
    with sqlite3.connect(sandbox_db) as db:
        return [json.loads(data) for (data,) in db.execute("SELECT data FROM payments ORDER BY seq")]


def renewal_charges(sandbox_db: Path, subscribers: int) -> int:
    """Paid billing-key charges after each of the ``subscribers``' first."""
    paid = [p for p in gateway_payments(sandbox_db) if p["status"] == "paid" and p.get("customer_uid")]
    return len(paid) - subscribers


def paid_once_and_recorded(sandbox_db: Path, db: ViewDatabase) -> Counter[str]:
    """Check that each paid charge at the gateway is paid once and recorded in the payments view; the charges."""
    gateway_paid = Counter(p["merchant_uid"] for p in gateway_payments(sandbox_db) if p["status"] == "paid")
    assert max(gateway_paid.values()) == 1, "a charge paid twice"
    with db.read() as cursor:
        cursor.execute("SELECT merchant_uid FROM payments_view WHERE state = 'paid'")
        recorded = Counter(row["merchant_uid"] for row in cursor.fetchall())
    assert recorded == gateway_paid, "the gateway's paid charges are the payments view's"
    return recorded


def view_rows(db: ViewDatabase) -> dict[str, list[tuple[str, ...]]]:
    """Every row of every view, in a fixed order."""
    rows = {}
    with db.read() as cursor:
        for table in (table for view in all_views() for table in view.tables):
            cursor.execute(f"SELECT * FROM {table}")
            rows[table] = sorted(tuple(str(value) for value in row.values()) for row in cursor.fetchall())
    return rows


def assert_views_equal_a_rebuild(db: ViewDatabase, database_url: str, var_dir: Path) -> None:
    """No view row missing or doubled: the live views (of a stopped stack) equal a rebuild from the log."""
    live = view_rows(db)
    environment = {"DATABASE_URL": database_url, "APP_VAR_DIR": str(var_dir)}
    plain = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_", "CI"))}
    rebuild = [sys.executable, "-m", "projections", "rebuild"]
    subprocess.run(rebuild, cwd=ROOT, env={**plain, **environment}, check=True, timeout=120, capture_output=True)
    assert view_rows(db) == live

"""Where each view has got to in the log, and waiting for views to catch up.

A view's position moves by compare-and-set inside the same transaction as its
rows, so an event is applied exactly once even if two runners (or a runner and a
rebuild) process the same view: the loser's transaction rolls back.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from eventlog.database import ViewCursor, ViewDatabase

TRACKING_DDL = (
    "CREATE TABLE IF NOT EXISTS view_tracking ("
    "view_name TEXT NOT NULL, "
    "application_name TEXT NOT NULL, "
    "notification_id BIGINT NOT NULL, "
    "PRIMARY KEY (view_name, application_name))"
)


VERSIONS_DDL = (
    "CREATE TABLE IF NOT EXISTS view_versions ("
    "view_name TEXT NOT NULL, "
    "application_name TEXT NOT NULL, "
    "version INTEGER NOT NULL, "
    "PRIMARY KEY (view_name, application_name))"
)


class PositionMovedError(Exception):
    """Someone else moved the view's position (another runner, or a rebuild)."""


def ensure_tracking_row(cursor: ViewCursor, view_name: str, application_name: str) -> None:
    """Create the tracking table and this view's row (at position 0) if missing."""
    cursor.execute(TRACKING_DDL)
    cursor.execute(
        "INSERT INTO view_tracking (view_name, application_name, notification_id) "
        "VALUES (%(view)s, %(app)s, 0) ON CONFLICT (view_name, application_name) DO NOTHING",
        {"view": view_name, "app": application_name},
    )


def advance(cursor: ViewCursor, view_name: str, application_name: str, expected: int, new: int) -> None:
    """Move the position from ``expected`` to ``new`` or raise PositionMovedError."""
    cursor.execute(
        "UPDATE view_tracking SET notification_id = %(new)s "
        "WHERE view_name = %(view)s AND application_name = %(app)s "
        "AND notification_id = %(expected)s",
        {"new": new, "view": view_name, "app": application_name, "expected": expected},
    )
    if cursor.rowcount != 1:
        raise PositionMovedError(f"{view_name} is no longer at {expected}")


def reset(cursor: ViewCursor, view_name: str, application_name: str) -> None:
    """Put the view back at the start of the log (used by a rebuild)."""
    ensure_tracking_row(cursor, view_name, application_name)
    cursor.execute(
        "UPDATE view_tracking SET notification_id = 0 WHERE view_name = %(view)s AND application_name = %(app)s",
        {"view": view_name, "app": application_name},
    )


def built_version(cursor: ViewCursor, view_name: str, application_name: str) -> int:
    """The version of the view's code its rows were built by (1 for views built before versions were kept)."""
    cursor.execute(VERSIONS_DDL)
    cursor.execute(
        "SELECT version FROM view_versions WHERE view_name = %(view)s AND application_name = %(app)s",
        {"view": view_name, "app": application_name},
    )
    row = cursor.fetchone()
    return int(row["version"]) if row else 1


def record_version(cursor: ViewCursor, view_name: str, application_name: str, version: int) -> None:
    """Remember which version of the view's code built its rows."""
    cursor.execute(VERSIONS_DDL)
    cursor.execute(
        "INSERT INTO view_versions (view_name, application_name, version) VALUES (%(view)s, %(app)s, %(version)s) "
        "ON CONFLICT (view_name, application_name) DO UPDATE SET version = %(version)s",
        {"view": view_name, "app": application_name, "version": version},
    )


def positions(db: ViewDatabase, application_name: str) -> dict[str, int]:
    """Every view's position in the log."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT view_name, notification_id FROM view_tracking WHERE application_name = %(app)s",
            {"app": application_name},
        )
        return {row["view_name"]: int(row["notification_id"]) for row in cursor.fetchall()}


def wait_for_views(
    db: ViewDatabase,
    application_name: str,
    view_names: Iterable[str],
    notification_id: int,
    timeout: float,
) -> bool:
    """Block until every named view has reached ``notification_id``; False on timeout."""
    names = set(view_names)
    deadline = time.monotonic() + timeout
    interval = 0.005
    while True:
        reached = positions(db, application_name)
        if all(reached.get(name, 0) >= notification_id for name in names):
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        time.sleep(min(interval, remaining))
        interval = min(interval * 2, 0.02)  # views follow a busy log within ~10-30 ms: look often, the query is cheap

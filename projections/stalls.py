"""Stalled followers, written down where the API's health check can read them.

The projector and the reactor note here each follower that is waiting to retry an event (its
position, the error, how many attempts, since when) and remove the note once it moves again. Writing
is best effort: when the database itself is what failed, the note waits for the next attempt.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from eventlog.database import ViewDatabase

log = logging.getLogger(__name__)

STALLS_DDL = (
    "CREATE TABLE IF NOT EXISTS view_stalls ("
    "view_name TEXT NOT NULL, "
    "application_name TEXT NOT NULL, "
    "position BIGINT NOT NULL, "
    "error TEXT NOT NULL, "
    "attempts INTEGER NOT NULL, "
    "since TEXT NOT NULL, "
    "PRIMARY KEY (view_name, application_name))"
)


def ensure_stalls_table(db: ViewDatabase) -> None:
    """Create the table if it is missing. The projector and the reactor start together: on PostgreSQL the second
    of two concurrent ``CREATE TABLE IF NOT EXISTS`` can fail on the catalogue's unique index although the table now
    exists (the deployment story saw the reactor die of it), so a failed first try is followed by one more."""
    try:
        with db.transaction() as cursor:
            cursor.execute(STALLS_DDL)
    except Exception:  # the driver's error, whichever store: the second try answers whether the table is there
        log.info("view_stalls was being created by another process; trying again")
        with db.transaction() as cursor:
            cursor.execute(STALLS_DDL)


def note_stall(
    db: ViewDatabase, application_name: str, name: str, position: int, error: str, attempts: int, since: datetime
) -> None:
    """Write down (or update) that ``name`` is stalled after ``position``; best effort."""
    row = {
        "view": name,
        "app": application_name,
        "position": position,
        "error": error[:500],
        "attempts": attempts,
        "since": since.isoformat(),
    }
    try:
        with db.transaction() as cursor:
            cursor.execute("DELETE FROM view_stalls WHERE view_name = %(view)s AND application_name = %(app)s", row)
            cursor.execute(
                "INSERT INTO view_stalls (view_name, application_name, position, error, attempts, since) "
                "VALUES (%(view)s, %(app)s, %(position)s, %(error)s, %(attempts)s, %(since)s)",
                row,
            )
    except Exception:  # the database may be what failed: the next attempt writes it
        log.debug("could not write down the stall of %s", name, exc_info=True)


def clear_stall(db: ViewDatabase, application_name: str, name: str) -> None:
    """``name`` moved again; best effort."""
    try:
        with db.transaction() as cursor:
            cursor.execute(
                "DELETE FROM view_stalls WHERE view_name = %(view)s AND application_name = %(app)s",
                {"view": name, "app": application_name},
            )
    except Exception:
        log.debug("could not clear the stall of %s", name, exc_info=True)


def stalled(db: ViewDatabase, application_name: str) -> dict[str, dict[str, Any]]:
    """Every stalled follower: where it stopped, why, how many attempts, since when."""
    ensure_stalls_table(db)
    with db.read() as cursor:
        cursor.execute(
            "SELECT view_name, position, error, attempts, since FROM view_stalls WHERE application_name = %(app)s",
            {"app": application_name},
        )
        return {
            row["view_name"]: {
                "position": int(row["position"]),
                "error": row["error"],
                "attempts": int(row["attempts"]),
                "since": row["since"],
            }
            for row in cursor.fetchall()
        }

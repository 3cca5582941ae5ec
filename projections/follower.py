"""Views following the log: each view is a processor of ``events.follower`` whose rows and position commit
together."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from events.database import ViewCursor, ViewDatabase
from events.follower import BATCH_SIZE, Processor, follow, notifications_after, process_until
from events.tracking import (
    advance,
    built_version,
    ensure_tracking_row,
    record_version,
    reset,
)
from projections.view import View

__all__ = ["BATCH_SIZE", "Processor", "ViewProcessor", "follow", "notifications_after", "process_until"]

log = logging.getLogger(__name__)


class ViewProcessor:
    """Applies events to one view; rows and position commit in one transaction."""

    def __init__(self, view: View, db: ViewDatabase, application_name: str) -> None:
        self.view = view
        self.name = view.name
        self._db = db
        self._application_name = application_name

    def setup(self) -> None:
        """Create the view's tables and tracking row if they are missing; a view whose rows an older
        version of its code built is emptied and rewound, so it is rebuilt from the log."""
        with self._db.transaction() as cursor:
            ensure_tracking_row(cursor, self.name, self._application_name)
            if built_version(cursor, self.name, self._application_name) != self.view.version:
                log.info("%s: rebuilding for version %s of the view", self.name, self.view.version)
                self._empty(cursor)
            for statement in self.view.schema():
                cursor.execute(statement)

    def position(self) -> int:
        with self._db.read() as cursor:
            cursor.execute(
                "SELECT notification_id FROM view_tracking WHERE view_name = %(view)s AND application_name = %(app)s",
                {"view": self.name, "app": self._application_name},
            )
            row = cursor.fetchone()
            return int(row["notification_id"]) if row else 0

    def process(self, event: Any, notification_id: int, previous: int) -> None:
        with self._db.transaction() as cursor:
            advance(cursor, self.name, self._application_name, previous, notification_id)
            self.view.apply(event, cursor)

    def process_batch(self, items: Sequence[tuple[Any, int]], previous: int) -> None:
        """Apply several events in log order and move the position past the last, in one transaction (a rebuild
        catching up): exactly once still, because rows and position commit or roll back together."""
        with self._db.transaction() as cursor:
            advance(cursor, self.name, self._application_name, previous, items[-1][1])
            for event, _notification_id in items:
                self.view.apply(event, cursor)

    def drop_and_reset(self) -> None:
        """Empty the view and put it back at the start of the log."""
        with self._db.transaction() as cursor:
            self._empty(cursor)
            for statement in self.view.schema():
                cursor.execute(statement)

    def _empty(self, cursor: ViewCursor) -> None:
        for table in self.view.tables:
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
        reset(cursor, self.name, self._application_name)
        record_version(cursor, self.name, self._application_name, self.view.version)

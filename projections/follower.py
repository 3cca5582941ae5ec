"""Views following the log: each view is a processor of ``eventlog.follower`` whose rows and position commit
together."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.utils import resolve_topic

from eventlog.database import ViewCursor, ViewDatabase
from eventlog.passed_over import PassedOver
from eventlog.tracking import (
    PositionMovedError,
    advance,
    built_version,
    ensure_tracking_row,
    record_version,
    reset,
)
from projections.view import View

log = logging.getLogger(__name__)


class ViewProcessor:
    """Applies events to one view; rows and position commit in one transaction.

    Events the view does not use write no rows: they are passed over (``eventlog.passed_over``), and the position
    moves past them with the next event the view uses or when the projector's flusher finds them waiting.
    """

    def __init__(self, view: View, db: ViewDatabase, application_name: str) -> None:
        self.view = view
        self.name = view.name
        self._db = db
        self._application_name = application_name
        self._lock = threading.Lock()
        self._uses: dict[type, bool] = {}
        self._wanted_topics: dict[str, bool] = {}
        self._passed_over = PassedOver(db, self.name, application_name)

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
        with self._lock:
            if not self._used(event):
                self._passed_over.note(notification_id, previous)
                return
            start = self._passed_over.start(previous)
            try:
                with self._db.transaction() as cursor:
                    advance(cursor, self.name, self._application_name, start, notification_id)
                    self.view.apply_at(event, notification_id, cursor)
            except PositionMovedError:
                self._passed_over.forget()
                raise
            except Exception:
                # Stall exactly before the event that failed: the events passed over before it are done with.
                try:
                    self._passed_over.record()
                except Exception:  # the database itself may be what failed; they are passed over again
                    log.debug("%s: could not move past the events before the failed one", self.name)
                raise
            self._passed_over.forget()

    def process_batch(self, items: Sequence[tuple[Any, int]], previous: int) -> None:
        """Apply several events in log order and move the position past the last, in one transaction (a rebuild,
        or a busy log followed live): exactly once still, because rows and position commit or roll back together.
        A batch of events the view does not use is passed over like a single one."""
        with self._lock:
            used = [(event, notification_id) for event, notification_id in items if self._used(event)]
            if not used:
                self._passed_over.note(items[-1][1], previous)  # the run now ends with the batch's last event
                return
            start = self._passed_over.start(previous)
            try:
                with self._db.transaction() as cursor:
                    advance(cursor, self.name, self._application_name, start, items[-1][1])
                    for event, notification_id in used:
                        self.view.apply_at(event, notification_id, cursor)
            except PositionMovedError:
                self._passed_over.forget()
                raise
            self._passed_over.forget()

    def forget_passed_over(self) -> None:
        """Drop what this process passed over (its position is read again from the database)."""
        with self._lock:
            self._passed_over.forget()

    def flush(self, waited: float = 0.0) -> None:
        """Commit the position past the events passed over, once the first of them has waited ``waited`` seconds."""
        with self._lock:
            self._passed_over.flush(waited)

    def wants(self, topic: str) -> bool:
        """Does this view use events of ``topic``? Asked before an event is decoded: a follower decodes only the
        events its view uses (each view follows the log on its own, and most events concern few views)."""
        wanted = self._wanted_topics.get(topic)
        if wanted is None:
            wanted = self._wanted_topics[topic] = self.view.uses(resolve_topic(topic))
        return wanted

    def _used(self, event: Any) -> bool:
        if event is None:  # not decoded: its topic is one the view does not use
            return False
        kind = type(event)
        if kind not in self._uses:
            self._uses[kind] = self.view.uses(kind)
        return self._uses[kind]

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

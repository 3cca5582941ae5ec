"""Following the log: read notifications in order and hand each event to a processor.

On PostgreSQL the library's LISTEN/NOTIFY subscription wakes us; SQLite cannot
notify, so we poll. Processors keep their own position, so a follower killed at
any moment resumes exactly where its last committed transaction left off.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any, Protocol

from eventsourcing.persistence import Notification

from events.application import EventLog
from projections.database import ViewCursor, ViewDatabase
from projections.tracking import (
    PositionMovedError,
    advance,
    built_version,
    ensure_tracking_row,
    record_version,
    reset,
)
from projections.view import View

log = logging.getLogger(__name__)

BATCH_SIZE = 200


class Processor(Protocol):
    """Something that handles events in log order and remembers how far it got."""

    name: str

    def position(self) -> int: ...

    def process(self, event: Any, notification_id: int, previous: int) -> None: ...


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


def _poll(log_app: EventLog, after: int, stop: threading.Event, interval: float) -> Iterator[Notification]:
    position = after
    while not stop.is_set():
        batch = log_app.recorder.select_notifications(start=position + 1, limit=BATCH_SIZE)
        for notification in batch:
            yield notification
            position = notification.id
        if len(batch) < BATCH_SIZE:
            stop.wait(interval)


def _listen(subscription: Any, stop: threading.Event) -> Iterator[Notification]:
    finished = threading.Event()

    def stop_when_asked() -> None:
        while not (stop.wait(0.1) or finished.is_set()):
            pass
        subscription.stop()

    threading.Thread(target=stop_when_asked, daemon=True).start()
    try:
        with subscription:
            yield from subscription
    finally:
        finished.set()


def notifications_after(
    log_app: EventLog, after: int, stop: threading.Event, poll_interval: float
) -> Iterator[Notification]:
    """Every notification after ``after``, then each new one as it is recorded, until stopped."""
    try:
        subscription = log_app.recorder.subscribe(gt=after)
    except NotImplementedError:
        return _poll(log_app, after, stop, poll_interval)
    return _listen(subscription, stop)


def follow(
    log_app: EventLog,
    processor: Processor,
    stop: threading.Event,
    poll_interval: float = 0.1,
) -> None:
    """Feed ``processor`` every event after its position until ``stop`` is set."""
    while not stop.is_set():
        previous = processor.position()
        notifications = notifications_after(log_app, previous, stop, poll_interval)
        try:
            for notification in notifications:
                event = log_app.mapper.to_domain_event(notification)
                processor.process(event, notification.id, previous)
                previous = notification.id
        except PositionMovedError:
            log.info("%s: position moved underneath us, resuming from the stored one", processor.name)
        finally:
            close = getattr(notifications, "close", None)
            if close is not None:
                close()

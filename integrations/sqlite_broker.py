"""The embedded Celery broker: a kombu transport over one SQLite file (the default when REDIS_URL is empty).

Every operation is one SQLite statement, so one transaction: a published message is whole or absent, and
exactly one consumer takes it. Taking a message does not remove it: it leases it for the visibility timeout
(``visible_at``); an ack deletes it, a requeue or a clean shutdown ends the lease, and the lease of a consumer
that died runs out, so the message is delivered again (``redelivered``), as on Redis. This replaced kombu's
file-system transport, whose publisher creates the message file before it writes it, so a reader could take it
empty and the worker died on a JSONDecodeError (kombu issue 1551).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from queue import Empty
from typing import Any

from kombu.transport import virtual
from kombu.utils.json import dumps, loads

SCHEME = "sqlite-queue"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    queue TEXT NOT NULL,
    tag TEXT NOT NULL,
    payload TEXT NOT NULL,
    visible_at REAL NOT NULL DEFAULT 0,
    deliveries INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS messages_ready ON messages (queue, visible_at, id);
CREATE INDEX IF NOT EXISTS messages_tag ON messages (tag);
"""

# Lease the oldest ready message of a queue, in one statement.
_TAKE = """
UPDATE messages SET visible_at = :until, deliveries = deliveries + 1
WHERE id = (SELECT id FROM messages WHERE queue = :queue AND visible_at <= :now ORDER BY id LIMIT 1)
RETURNING payload, deliveries
"""


class QoS(virtual.QoS):
    """Acks delete the message; requeues and shutdowns end its lease instead of publishing it again."""

    def ack(self, delivery_tag: str) -> None:
        """The message was handled: it is gone."""
        self.channel.forget(delivery_tag)
        super().ack(delivery_tag)  # type: ignore[no-untyped-call]
        self.channel.settled()

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        """Requeued, it is ready again at once (a pool process that died, with reject-on-worker-lost);
        else dropped."""
        if requeue:
            self.channel.release(delivery_tag)
        else:
            self.channel.forget(delivery_tag)
        self._quick_ack(delivery_tag)
        self.channel.settled()

    def restore_unacked(self) -> list[tuple[BaseException, Any]]:
        """At a clean shutdown every message still held is ready again at once (only by the process that took
        them: a forked pool process inherits this state but holds nothing)."""
        self._flush()  # type: ignore[no-untyped-call]
        errors: list[tuple[BaseException, Any]] = []
        if os.getpid() != self.channel.owner_pid:
            self._delivered.clear()
            return errors
        while self._delivered:
            tag, message = self._delivered.popitem()
            try:
                self.channel.release(tag)
            except Exception as error:  # kept for kombu's report; the lease still runs out
                errors.append((error, message))
        return errors


class Channel(virtual.Channel):
    """A channel on the broker's SQLite file (one connection per process, shared by its threads)."""

    QoS = QoS
    from_transport_options = (*virtual.Channel.from_transport_options, "database", "visibility_timeout")  # type: ignore[assignment]
    database = "broker.sqlite3"
    visibility_timeout = 3600.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._lock = threading.RLock()
        self._connection: sqlite3.Connection | None = None
        self._connection_pid = 0
        self.owner_pid = os.getpid()
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]

    def _db(self) -> sqlite3.Connection:
        # A pool process forked from a worker opens its own: a SQLite connection must not cross a fork.
        if self._connection is None or self._connection_pid != os.getpid():
            connection = sqlite3.connect(self.database, timeout=30, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.executescript(_SCHEMA)
            self._connection, self._connection_pid = connection, os.getpid()
        return self._connection

    def _execute(self, sql: str, parameters: Any = ()) -> list[Any]:
        with self._lock:
            return self._db().execute(sql, parameters).fetchall()

    def _put(self, queue: str, message: dict[str, Any], **kwargs: Any) -> None:
        """Publish: one INSERT, visible to consumers only once it is whole."""
        self._execute(
            "INSERT INTO messages (queue, tag, payload) VALUES (?, ?, ?)",
            (queue, message["properties"]["delivery_tag"], dumps(message)),  # type: ignore[no-untyped-call]
        )

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        """Lease the oldest ready message of ``queue`` for the visibility timeout."""
        now = time.time()
        with self._lock:
            db = self._db()
            ready = db.execute(
                "SELECT 1 FROM messages WHERE queue = ? AND visible_at <= ? LIMIT 1", (queue, now)
            ).fetchone()
            taken = (
                db.execute(_TAKE, {"queue": queue, "now": now, "until": now + self.visibility_timeout}).fetchone()
                if ready
                else None
            )
        if taken is None:
            raise Empty()
        payload, deliveries = taken
        message: dict[str, Any] = loads(payload)  # type: ignore[no-untyped-call]
        if deliveries > 1:  # its last consumer died, requeued it or shut down holding it
            message["redelivered"] = True
            message["properties"].setdefault("delivery_info", {})["redelivered"] = True
        return message

    def forget(self, delivery_tag: str) -> None:
        """Delete a handled message."""
        self._execute("DELETE FROM messages WHERE tag = ?", (delivery_tag,))

    def release(self, delivery_tag: str) -> None:
        """End a message's lease: it is ready again."""
        self._execute("UPDATE messages SET visible_at = 0 WHERE tag = ?", (delivery_tag,))

    def settled(self) -> None:
        """A message was acknowledged or rejected: a consumer waiting for room may take the next one now."""
        transport = self.connection
        if transport is not None:
            transport.room.set()

    def _size(self, queue: str) -> int:
        rows = self._execute("SELECT count(*) FROM messages WHERE queue = ? AND visible_at <= ?", (queue, time.time()))
        return int(rows[0][0])

    def _purge(self, queue: str) -> int:
        rows = self._execute(
            "DELETE FROM messages WHERE queue = ? AND visible_at <= ? RETURNING id", (queue, time.time())
        )
        return len(rows)

    def _delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        self._execute("DELETE FROM messages WHERE queue = ?", (queue,))

    def close(self) -> None:
        """Close the channel (ending the leases it holds), then its connection."""
        super().close()  # type: ignore[no-untyped-call]
        with self._lock:
            if self._connection is not None and self._connection_pid == os.getpid():
                self._connection.close()
            self._connection = None


class Transport(virtual.Transport):
    """kombu's transport for ``sqlite-queue://`` (direct and topic exchanges; no fanout, so no remote control)."""

    Channel = Channel
    driver_type = "sqlite"
    driver_name = "sqlite3"
    polling_interval = 0.1
    # A database locked for longer than the busy timeout makes a worker reconnect, not die.
    connection_errors = (*virtual.Transport.connection_errors, sqlite3.OperationalError)  # type: ignore[assignment]
    channel_errors = (*virtual.Transport.channel_errors, sqlite3.DatabaseError)  # type: ignore[assignment]

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)  # type: ignore[no-untyped-call]
        self.room = threading.Event()

    def drain_events(self, connection: Any, timeout: float | None = None, **kwargs: Any) -> None:
        """Deliver one message, polling every ``polling_interval``; a poll comes early when this process settles a
        message, as a worker holding its prefetch limit waits for room (an ack from a pool thread), not a pause."""
        cycle = self.cycle
        assert cycle is not None
        started = time.monotonic()
        pause = min(self.polling_interval, timeout) if timeout else self.polling_interval
        while True:
            self.room.clear()
            try:
                cycle.get(self._deliver, timeout=timeout)  # type: ignore[no-untyped-call]
                return
            except Empty:
                if timeout is not None and time.monotonic() - started >= timeout:
                    raise TimeoutError from None  # socket.timeout, which kombu's callers expect
                self.room.wait(pause)

    def driver_version(self) -> str:
        """The SQLite library's version."""
        return sqlite3.sqlite_version

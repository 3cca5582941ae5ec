"""One active runner per view: projector replicas share the views by PostgreSQL advisory locks.

Every projector process wants every view. A ``PostgresLeases`` keeper holds one connection of its own and, every
``CHECK_SECONDS``, tries ``pg_try_advisory_lock`` for each view it does not hold yet; a lock it wins is held for as
long as that session lives. The session ends when the process dies (SIGKILL included) or the database drops the
connection, and PostgreSQL then releases every lock of it, so a standing-by replica wins the views on its next try.
A keeper that finds its own connection broken gives up every lease at once (its view threads stop following) and
starts over, so two runners of one view overlap at most for the moment it takes to notice.

The lock is about not doing the work twice, not about correctness: a view's rows and position still commit together
by compare-and-set (``eventlog.tracking.advance``), so even two runners in that moment apply each event once.
On SQLite (one machine, one process) every lease is held by whoever asks (``AlwaysHeld``).
"""

from __future__ import annotations

import logging
import os
import threading
import zlib
from collections.abc import Iterable
from typing import Protocol

import psycopg

log = logging.getLogger(__name__)

CHECK_SECONDS = 0.5
# The first key of every projector lock (PostgreSQL's two-int advisory locks): the ASCII of "VIEW".
LOCK_CLASS = 0x56494557


class Leases(Protocol):
    """Which named runners this process may run now."""

    def tenure(self, name: str, stop: threading.Event) -> threading.Event | None:
        """Wait until this process holds ``name`` (or ``stop`` is set: None); the event returned is set when it
        loses ``name`` again or ``stop`` is set."""
        ...

    def close(self) -> None: ...


class AlwaysHeld:
    """Leases of a single-process store (SQLite): every one held, until ``stop``."""

    def tenure(self, name: str, stop: threading.Event) -> threading.Event | None:
        return None if stop.is_set() else stop

    def close(self) -> None:
        return None


def lock_key(application_name: str, name: str) -> int:
    """The advisory lock's second key for one runner of one log (a signed 32-bit CRC of both names)."""
    value = zlib.crc32(f"{application_name}/{name}".encode())
    return value - (1 << 32) if value >= 1 << 31 else value


class PostgresLeases:
    """Advisory locks, one per runner name, held on a connection of this keeper's own (see the module)."""

    def __init__(
        self, conninfo: str, application_name: str, names: Iterable[str], check_seconds: float = CHECK_SECONDS
    ) -> None:
        self._conninfo = conninfo
        self._application_name = application_name
        self._names = list(names)
        self._check_seconds = check_seconds
        self._guard = threading.Condition()
        self._held: dict[str, threading.Event] = {}
        self._closed = threading.Event()
        self._connection: psycopg.Connection[tuple[object, ...]] | None = None
        self._thread = threading.Thread(target=self._keep, name="view-leases", daemon=True)
        self._thread.start()

    def tenure(self, name: str, stop: threading.Event) -> threading.Event | None:
        """Block until ``name`` is ours; the event is set when it is lost or ``stop`` is set."""
        with self._guard:
            while not stop.is_set() and not self._closed.is_set():
                if name in self._held:
                    lost = self._held[name]
                    threading.Thread(target=_set_when, args=(stop, lost), daemon=True).start()
                    return lost
                self._guard.wait(self._check_seconds)
        return None

    def held(self) -> list[str]:
        """The names this process runs now."""
        with self._guard:
            return sorted(self._held)

    def close(self) -> None:
        """Let every lease go (closing the session releases its locks)."""
        self._closed.set()
        self._thread.join(timeout=5)
        self._lose_all()

    def _keep(self) -> None:
        while not self._closed.is_set():
            try:
                self._try_all()
            except Exception as error:  # the database went away, or anything else: stand by rather than run blind
                if self._held:
                    log.warning("lost the view leases (%s); standing by", error)
                self._lose_all()
            self._closed.wait(self._check_seconds)

    def _try_all(self) -> None:
        connection = self._connect()
        won = []
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")  # the session (and so every lock held) is still there
            for name in self._names:
                if name in self._held:
                    continue
                key = lock_key(self._application_name, name)
                cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, key))
                row = cursor.fetchone()
                if row is not None and row[0]:
                    won.append(name)
        if won:
            log.info("running %s (pid %s)", ", ".join(won), os.getpid())
            with self._guard:
                for name in won:
                    self._held[name] = threading.Event()
                self._guard.notify_all()

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        if self._connection is None or self._connection.closed:
            self._connection = psycopg.connect(
                self._conninfo, autocommit=True, application_name=f"projector-leases-{os.getpid()}"
            )
        return self._connection

    def _lose_all(self) -> None:
        with self._guard:
            for lost in self._held.values():
                lost.set()
            self._held.clear()
            self._guard.notify_all()
        if self._connection is not None:
            try:
                self._connection.close()
            except psycopg.Error:
                log.debug("the lease connection was already gone")
            self._connection = None


def _set_when(stop: threading.Event, lost: threading.Event) -> None:
    """Set ``lost`` once ``stop`` is set (whichever comes first ends the tenure)."""
    while not lost.is_set():
        if stop.wait(CHECK_SECONDS):
            lost.set()

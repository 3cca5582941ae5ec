"""The projector: keeps every view following the log, one thread per view.

A view that fails on an event (a bug in the view, the database going away) stalls alone: it logs
the error, waits (0.5 s, doubling to 30 s) and tries the same event again, for as long as it takes.
While the database is unreachable it tries every 0.5 s instead, so that it is back within a moment of
the database (a request waiting to read its own write should not wait out a long back-off).
It never skips an event, and the other views keep going. Once the cause is gone (the database is
back, the fixed view is deployed) it resumes where it stopped, each event applied exactly once,
because its position only moves with the rows the event wrote. ``stalls`` says which views wait.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
import psycopg_pool
from eventsourcing import persistence

from eventlog.application import EventLog
from eventlog.database import ViewDatabase
from eventlog.follower import Processor, follow, process_until
from eventlog.passed_over import keep_flushing
from projections.follower import ViewProcessor
from projections.leases import AlwaysHeld, Leases
from projections.stalls import clear_stall, ensure_stalls_table, note_stall
from projections.view import View

log = logging.getLogger(__name__)

# Given a view's name and how many events it has to apply, the callback to tell how many it applied.
ProgressFactory = Callable[[str, int], Callable[[int], None]]

FIRST_RETRY_SECONDS = 0.5
LONGEST_RETRY_SECONDS = 30.0
# How long a view's position may stay before events it did not use (they write nothing) before it is moved on.
FLUSH_SECONDS = 0.02
# The database could not be reached, or dropped the connection: it will be back, so retry soon.
OUTAGES: tuple[type[BaseException], ...] = (
    persistence.OperationalError,
    persistence.InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    psycopg_pool.PoolTimeout,
)


@dataclass(frozen=True)
class Stall:
    """A view waiting to retry the event after ``position``."""

    view: str
    position: int
    error: str
    attempts: int
    since: datetime  # the first failure


def is_outage(error: BaseException) -> bool:
    """Did ``error`` come from a database that could not be reached or went away (rather than a bug)?"""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, OUTAGES):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def retrying(work: Callable[[], None], stop: threading.Event, failed: Callable[[Exception], int]) -> None:
    """Run ``work`` until it returns or ``stop`` is set. After each failure ``failed`` is told (and says
    which attempt that was: 1 starts the back-off over), then we wait 0.5 s, doubling to 30 s; while the
    database is out of reach, 0.5 s each time."""
    delay = FIRST_RETRY_SECONDS
    while not stop.is_set():
        try:
            work()
            return
        except Exception as error:
            if failed(error) == 1 or is_outage(error):
                delay = FIRST_RETRY_SECONDS
        if stop.wait(delay):
            return
        delay = min(delay * 2, LONGEST_RETRY_SECONDS)


def keep_following(
    log_app: EventLog, processor: Processor, stop: threading.Event, poll_interval: float, stalls: StallLog
) -> None:
    """Follow the log until ``stop``; when the processor fails, note the stall in ``stalls`` and retry the
    same event with back-off (``retrying``), for as long as it takes. Nothing is ever skipped."""
    watched = _ClearsStallOnProgress(processor, stalls.clear)

    def failed(error: Exception) -> int:
        stall = stalls.record(processor, error)
        log.exception("%s stalled after %s (attempt %s); retrying", stall.view, stall.position, stall.attempts)
        return stall.attempts

    retrying(lambda: follow(log_app, watched, stop, poll_interval), stop, failed)


class StallLog:
    """Which processors are stalled, where, why and since when (thread-safe); with a database, also
    written down there for the API's health check (``projections.stalls``)."""

    def __init__(self, db: ViewDatabase | None = None, application_name: str = "") -> None:
        self._lock = threading.Lock()
        self._stalls: dict[str, Stall] = {}
        self._db = db
        self._application_name = application_name
        if db is not None:
            ensure_stalls_table(db)

    def current(self) -> dict[str, Stall]:
        with self._lock:
            return dict(self._stalls)

    def record(self, processor: Processor, error: Exception) -> Stall:
        """Note that ``processor`` failed again (its position read when the database allows)."""
        with self._lock:
            earlier = self._stalls.get(processor.name)
        try:
            position = processor.position()
        except Exception:  # the database itself may be what failed
            position = earlier.position if earlier else -1
        stall = Stall(
            view=processor.name,
            position=position,
            error=f"{type(error).__name__}: {error}",
            attempts=earlier.attempts + 1 if earlier else 1,
            # Wall-clock time for people reading the health report; no business rule depends on it.
            since=earlier.since if earlier else datetime.now(UTC),
        )
        with self._lock:
            self._stalls[processor.name] = stall
        if self._db is not None:
            note_stall(
                self._db, self._application_name, stall.view, stall.position, stall.error, stall.attempts, stall.since
            )
        return stall

    def clear(self, name: str) -> None:
        """``name`` applied an event: it is no longer stalled."""
        if name in self._stalls:  # a plain read first: the common case takes no lock
            with self._lock:
                stall = self._stalls.pop(name, None)
            if stall is not None:
                log.info("%s resumed after %s attempts", name, stall.attempts)
                if self._db is not None:
                    clear_stall(self._db, self._application_name, name)


class _ClearsStallOnProgress:
    """A processor that tells the projector when it applies an event again."""

    def __init__(self, processor: Processor, progressed: Callable[[str], None]) -> None:
        self._processor = processor
        self._progressed = progressed
        self.name = processor.name
        wants = getattr(processor, "wants", None)
        if wants is not None:  # decoding only what the processor uses, like the processor itself
            self.wants = wants
        batch = getattr(processor, "process_batch", None)
        if batch is not None:  # followed in batches like the processor itself

            def process_batch(items: Sequence[tuple[Any, int]], previous: int) -> None:
                batch(items, previous)
                progressed(self.name)

            self.process_batch = process_batch

    def position(self) -> int:
        return self._processor.position()

    def process(self, event: Any, notification_id: int, previous: int) -> None:
        self._processor.process(event, notification_id, previous)
        self._progressed(self.name)


class Projector:
    """Runs a set of views against one log and one view database."""

    def __init__(
        self,
        log_app: EventLog,
        db: ViewDatabase,
        views: Sequence[View],
        poll_interval: float = 0.1,
        leases: Leases | None = None,
    ) -> None:
        self._log = log_app
        self._poll_interval = poll_interval
        self.processors = {view.name: ViewProcessor(view, db, log_app.name) for view in views}
        self._stalls = StallLog(db, log_app.name)
        # Replicas of the projector run each view in one of them at a time (``projections.leases``).
        self._leases: Leases = leases or AlwaysHeld()
        self._running: set[str] = set()

    @property
    def stalls(self) -> dict[str, Stall]:
        """The views that are waiting to retry an event, by name."""
        return self._stalls.current()

    def setup(self) -> None:
        """Create every view's tables (idempotent)."""
        for processor in self.processors.values():
            processor.setup()

    def run(self, stop: threading.Event) -> None:
        """Follow the log until ``stop`` is set; a view that fails retries alone (see the module)."""
        self.setup()
        threads = [
            threading.Thread(target=self._follow, args=(processor, stop), name=f"view-{name}")
            for name, processor in self.processors.items()
        ]
        threads.append(
            threading.Thread(
                target=keep_flushing, args=(self._running_processors, stop, FLUSH_SECONDS), name="view-positions"
            )
        )
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _running_processors(self) -> list[ViewProcessor]:
        """The views this replica follows at the moment (it holds their leases)."""
        return [self.processors[name] for name in list(self._running)]

    def _follow(self, processor: ViewProcessor, stop: threading.Event) -> None:
        """Follow the view whenever this replica holds its lease; stand by while another one does."""
        while (tenure := self._leases.tenure(processor.name, stop)) is not None:
            processor.forget_passed_over()  # another replica may have moved it meanwhile
            self._running.add(processor.name)
            try:
                keep_following(self._log, processor, tenure, self._poll_interval, self._stalls)
            finally:
                self._running.discard(processor.name)
            if not stop.is_set():
                log.info("%s: lease lost; standing by", processor.name)

    def rebuild(self, names: Sequence[str]) -> None:
        """Empty the named views (all when none named) and rewind them to the start of the log."""
        chosen = names or list(self.processors)
        unknown = [name for name in chosen if name not in self.processors]
        if unknown:
            raise KeyError(f"unknown views: {', '.join(unknown)}")
        for name in chosen:
            self.processors[name].setup()
            self.processors[name].drop_and_reset()

    def catch_up(self, names: Sequence[str] = (), progress: ProgressFactory | None = None) -> None:
        """Process everything recorded so far, then return; with ``progress``, each view reports how far it got
        (``progress(view name, events to apply)`` gives the callback told how many were applied)."""
        target = self._log.max_notification_id()
        for name in names or list(self.processors):
            processor = self.processors[name]
            progressed = progress(name, max(target - processor.position(), 0)) if progress else None
            process_until(self._log, processor, target, progressed)
            processor.flush()

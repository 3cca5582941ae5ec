"""Events a follower passes over: an event that makes a follower write nothing and send nothing gets no
transaction of its own.

The follower's position moves past such events with the next event it does act on, or, once the first of them has
waited a moment, from a flusher thread (``keep_flushing``), so a follower reads as caught up soon after the log goes
quiet. A crash before either leaves the committed position before them, and they are passed over again, which
does nothing. The views and the reactor follow the log this way.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from eventlog.database import ViewDatabase
from eventlog.tracking import PositionMovedError, advance

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Run:
    start: int  # the committed position before the first event passed over
    last: int  # the last event passed over
    since: float  # when the first was passed over (monotonic seconds)


class PassedOver:
    """The run of events one follower passed over since its committed position.

    Not thread-safe on its own: the follower holds its own lock around a whole ``process`` or ``flush``.
    """

    def __init__(self, db: ViewDatabase, name: str, application_name: str) -> None:
        self._db = db
        self._name = name
        self._application_name = application_name
        self._run: _Run | None = None

    def start(self, previous: int) -> int:
        """The committed position to move from: before the run, or ``previous`` when nothing was passed over."""
        return self._run.start if self._run else previous

    def note(self, notification_id: int, previous: int) -> None:
        """Pass over the event ``notification_id`` (the follower's last event was ``previous``)."""
        since = self._run.since if self._run else time.monotonic()
        self._run = _Run(self.start(previous), notification_id, since)

    def forget(self) -> None:
        """Drop the run: it was recorded with another event, or the position is to be read again."""
        self._run = None

    def record(self) -> None:
        """Move the committed position past the run now (PositionMovedError when someone else moved it)."""
        if self._run is None:
            return
        run = self._run
        try:
            with self._db.transaction() as cursor:
                advance(cursor, self._name, self._application_name, run.start, run.last)
        except PositionMovedError:
            self._run = None
            raise
        self._run = None

    def flush(self, waited: float = 0.0) -> None:
        """Record the run once its first event has waited ``waited`` seconds. A position someone else moved
        (another replica, a rebuild) is left to them: the follower resumes from the stored one."""
        if self._run is None or time.monotonic() - self._run.since < waited:
            return
        try:
            self.record()
        except PositionMovedError:
            log.info("%s: position moved underneath us; resuming from the recorded one", self._name)


class Flushable(Protocol):
    """A follower whose passed-over events a flusher records."""

    name: str

    def flush(self, waited: float = 0.0) -> None: ...


def keep_flushing(followers: Callable[[], Iterable[Flushable]], stop: threading.Event, waited: float) -> None:
    """Until ``stop``, record each follower's passed-over events once they have waited ``waited`` seconds (looking
    twice as often); when stopped, record what is left whatever it waited. ``followers`` is asked each time, so
    a projector replica flushes only the views it runs at that moment."""
    while not stop.wait(waited / 2):
        _flush_each(followers(), waited)
    _flush_each(followers(), 0.0)


def _flush_each(followers: Iterable[Flushable], waited: float) -> None:
    for follower in followers:
        try:
            follower.flush(waited)
        except Exception:  # the database is away: the follower itself stalls and reports it; passed over again
            log.debug("could not move %s past the events it passed over", follower.name, exc_info=True)

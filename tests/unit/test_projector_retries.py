"""How the projector waits before trying a failed event again: a bug backs off (0.5 s doubling to 30 s), while
a database that went away is tried again every 0.5 s, so the views are back within a moment of it."""

from __future__ import annotations

import threading

import psycopg
from eventsourcing import persistence

from projections.runner import FIRST_RETRY_SECONDS, is_outage, retrying


class RecordingStop(threading.Event):
    """A stop flag that records each wait instead of sleeping, and stops after ``waits`` of them."""

    def __init__(self, waits: int) -> None:
        super().__init__()
        self.delays: list[float] = []
        self._waits = waits

    def wait(self, timeout: float | None = None) -> bool:
        assert timeout is not None
        self.delays.append(timeout)
        if len(self.delays) >= self._waits:
            self.set()
        return self.is_set()


def _failing_with(error: Exception, stop: RecordingStop) -> list[float]:
    attempts = iter(range(1, 100))

    def work() -> None:
        raise error

    retrying(work, stop, lambda _error: next(attempts))
    return stop.delays


def test_a_failing_view_backs_off_doubling() -> None:
    delays = _failing_with(ValueError("this view cannot handle that address"), RecordingStop(waits=5))
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0]


def test_a_database_that_went_away_is_tried_again_every_half_second() -> None:
    try:
        raise psycopg.OperationalError("server closed the connection unexpectedly")
    except psycopg.OperationalError as dropped:
        wrapped = persistence.ProgrammingError("could not select notifications")
        wrapped.__cause__ = dropped
    delays = _failing_with(wrapped, RecordingStop(waits=6))
    assert delays == [FIRST_RETRY_SECONDS] * 6


def test_only_errors_of_reaching_the_database_count_as_an_outage() -> None:
    assert is_outage(persistence.OperationalError("consuming input failed"))
    assert is_outage(psycopg.InterfaceError("the connection is closed"))
    assert not is_outage(ValueError("a bug in a view"))
    assert not is_outage(persistence.IntegrityError("duplicate key"))

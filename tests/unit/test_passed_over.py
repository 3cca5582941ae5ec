"""A follower passes over the events it does nothing for: their position is recorded with the next event it acts
on, or by the flusher once they have waited, and never over a position someone else moved."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventlog.database import SQLiteViewDatabase
from eventlog.passed_over import PassedOver, keep_flushing
from eventlog.tracking import PositionMovedError, advance, ensure_tracking_row, positions


@pytest.fixture
def db(tmp_path: Path) -> Iterator[SQLiteViewDatabase]:
    database = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    with database.transaction() as cursor:
        ensure_tracking_row(cursor, "mailer", "Storefront")
    yield database
    database.close()


def _recorded(db: SQLiteViewDatabase) -> int:
    return positions(db, "Storefront")["mailer"]


class Follower:
    """What the views and the reactor do with a PassedOver, reduced to that."""

    name = "mailer"

    def __init__(self, db: SQLiteViewDatabase) -> None:
        self.passed_over = PassedOver(db, self.name, "Storefront")
        self.flushes = 0

    def flush(self, waited: float = 0.0) -> None:
        self.flushes += 1
        self.passed_over.flush(waited)


def test_a_run_of_passed_over_events_starts_at_the_committed_position(db: SQLiteViewDatabase) -> None:
    passed_over = PassedOver(db, "mailer", "Storefront")
    assert passed_over.start(previous=0) == 0
    passed_over.note(1, previous=0)
    passed_over.note(2, previous=1)
    assert passed_over.start(previous=2) == 0, "the next event moves the position from before the run"
    assert _recorded(db) == 0, "nothing written while passing over"
    passed_over.record()
    assert _recorded(db) == 2
    assert passed_over.start(previous=2) == 2


def test_a_run_is_flushed_only_once_its_first_event_has_waited(db: SQLiteViewDatabase) -> None:
    passed_over = PassedOver(db, "mailer", "Storefront")
    passed_over.note(1, previous=0)
    passed_over.flush(waited=60)
    assert _recorded(db) == 0
    passed_over.flush(waited=0)
    assert _recorded(db) == 1


def test_a_position_someone_else_moved_is_left_to_them(db: SQLiteViewDatabase) -> None:
    passed_over = PassedOver(db, "mailer", "Storefront")
    passed_over.note(1, previous=0)
    with db.transaction() as cursor:
        advance(cursor, "mailer", "Storefront", 0, 5)  # another replica got there first
    passed_over.flush()
    assert _recorded(db) == 5
    assert passed_over.start(previous=7) == 7, "the run is forgotten: the follower reads the stored position"

    passed_over.note(8, previous=7)
    with pytest.raises(PositionMovedError):
        passed_over.record()


def test_the_flusher_records_what_waited_and_everything_left_when_stopped(db: SQLiteViewDatabase) -> None:
    follower = Follower(db)
    stop = threading.Event()
    flusher = threading.Thread(target=keep_flushing, args=(lambda: [follower], stop, 0.02))
    flusher.start()
    try:
        follower.passed_over.note(1, previous=0)
        deadline = time.monotonic() + 5
        while _recorded(db) != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _recorded(db) == 1, "recorded by the flusher within moments"
    finally:
        follower.passed_over.note(2, previous=1)
        stop.set()
        flusher.join(timeout=5)
    assert _recorded(db) == 2, "the last flush at stop does not wait"


def test_the_flusher_asks_each_time_which_followers_to_flush(db: SQLiteViewDatabase) -> None:
    follower = Follower(db)
    running: list[Follower] = []
    stop = threading.Event()
    flusher = threading.Thread(target=keep_flushing, args=(lambda: list(running), stop, 0.02))
    flusher.start()
    time.sleep(0.1)
    assert follower.flushes == 0, "a view another replica runs is not flushed here"
    running.append(follower)
    deadline = time.monotonic() + 5
    while follower.flushes == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    flusher.join(timeout=5)
    assert follower.flushes > 0

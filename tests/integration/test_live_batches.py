"""A view following a busy log takes what the log holds in one transaction, each event still applied once; a
batch it cannot apply is applied one event at a time, so it stalls exactly before the event that fails; on
PostgreSQL a commit wakes the follower at once (LISTEN/NOTIFY), not its poll interval."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, ClassVar

import pytest

from config.settings import Settings
from domain.store import Storefront
from eventlog.database import ViewCursor, ViewDatabase, open_view_database
from eventlog.follower import follow
from eventlog.tracking import positions
from events.accounts import AccountRegistered
from projections.follower import ViewProcessor
from projections.view import View
from tests.support import register

pytestmark = pytest.mark.integration


class CountedTransactions:
    """The view database, counting the write transactions opened through it."""

    def __init__(self, db: ViewDatabase) -> None:
        self._db = db
        self.opened = 0

    def transaction(self) -> AbstractContextManager[ViewCursor]:
        self.opened += 1
        return self._db.transaction()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


class Addresses(View):
    """Each registered address once (a primary key: an event applied twice fails), but not ``refused``."""

    name: ClassVar[str] = "addresses"
    tables: ClassVar[tuple[str, ...]] = ("batch_addresses",)
    refused: ClassVar[str | None] = None

    def schema(self) -> list[str]:
        return ["CREATE TABLE IF NOT EXISTS batch_addresses (email TEXT PRIMARY KEY)"]

    def apply(self, event: Any, cursor: ViewCursor) -> None:
        if not isinstance(event, AccountRegistered):
            return
        if event.email == self.refused:
            raise ValueError("this view cannot take that address")
        cursor.execute("INSERT INTO batch_addresses (email) VALUES (%(email)s)", {"email": event.email})


@pytest.fixture
def db(settings: Settings) -> Iterator[ViewDatabase]:
    database = open_view_database(settings.view_store_env)
    yield database
    database.close()


def _following(
    store: Storefront, processor: ViewProcessor, poll_interval: float = 0.02
) -> tuple[threading.Event, threading.Thread, list[BaseException]]:
    stop = threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            follow(store, processor, stop, poll_interval)
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return stop, thread, failures


def _until(condition: Callable[[], bool], what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.01)


def _emails(db: ViewDatabase) -> list[str]:
    with db.read() as cursor:
        cursor.execute("SELECT email FROM batch_addresses ORDER BY email")
        return [row["email"] for row in cursor.fetchall()]


def test_a_view_behind_a_busy_log_applies_what_the_log_holds_in_one_transaction_each_event_once(
    store: Storefront, db: ViewDatabase
) -> None:
    Addresses.refused = None
    emails = [f"buyer{number:02}@example.com" for number in range(60)]
    for email in emails:
        register(store, email)
    counted = CountedTransactions(db)
    processor = ViewProcessor(Addresses(), counted, store.name)  # type: ignore[arg-type]
    processor.setup()
    opened_by_setup = counted.opened
    stop, thread, failures = _following(store, processor)
    try:
        _until(lambda: positions(db, store.name).get("addresses") == store.max_notification_id(), "caught up")
    finally:
        stop.set()
        thread.join(timeout=10)
    assert failures == []
    assert _emails(db) == emails
    assert counted.opened - opened_by_setup == 1, "one transaction for the 60 registrations and the events between"


def test_a_batch_that_fails_is_applied_one_event_at_a_time_and_stalls_exactly_before_the_failing_event(
    store: Storefront, db: ViewDatabase
) -> None:
    Addresses.refused = "refused@example.com"
    before = [f"before{number}@example.com" for number in range(5)]
    for email in [*before, "refused@example.com", "after@example.com"]:
        register(store, email)
    processor = ViewProcessor(Addresses(), db, store.name)
    processor.setup()
    stop, thread, failures = _following(store, processor)
    thread.join(timeout=20)
    stop.set()
    assert len(failures) == 1 and isinstance(failures[0], ValueError), "the follower stops at the failing event"
    assert _emails(db) == sorted(before), "the events before it are applied, once"
    refused_at = next(
        item.id
        for item in store.recorder.select_notifications(start=1, limit=1000)
        if "refused@example.com" in item.state.decode("utf-8", errors="replace")
    )
    assert positions(db, store.name)["addresses"] < refused_at, "nothing at or after the failing event is skipped"

    Addresses.refused = None  # fixed: following again resumes there
    stop, thread, failures = _following(store, processor)
    try:
        _until(lambda: positions(db, store.name)["addresses"] == store.max_notification_id(), "resumed")
    finally:
        stop.set()
        thread.join(timeout=10)
    assert failures == []
    assert _emails(db) == sorted([*before, "refused@example.com", "after@example.com"])


def test_a_commit_wakes_the_follower_at_once_rather_than_its_next_poll(
    store: Storefront, db: ViewDatabase, store_kind: str
) -> None:
    Addresses.refused = None
    processor = ViewProcessor(Addresses(), db, store.name)
    processor.setup()
    stop, thread, failures = _following(store, processor, poll_interval=60)  # a poll would come a minute late
    try:
        time.sleep(0.3)  # the follower has read the empty log and waits
        started = time.monotonic()
        register(store, "prompt@example.com")
        _until(lambda: _emails(db) == ["prompt@example.com"], f"the {store_kind} follower is woken", seconds=10)
        print(f"seen by the {store_kind} follower {(time.monotonic() - started) * 1000:.0f} ms after the commit")
    finally:
        asked_to_stop = time.monotonic()
        stop.set()
        thread.join(timeout=70)
        stopping = time.monotonic() - asked_to_stop
    assert failures == []
    assert stopping < 5, f"a stopped follower ends within seconds, not at its next poll a minute on ({stopping:.1f} s)"

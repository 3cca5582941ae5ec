"""A view follower on SQLite hears of a commit from another process's log at once, not at its next poll."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from domain.store import Storefront
from eventlog.follower import follow
from events.accounts import AccountRegistered
from tests.support import register

pytestmark = pytest.mark.integration

A_POLL_NOBODY_WAITS_FOR = 60.0


class Registrations:
    """A processor that only notes the registrations it is handed."""

    name = "registrations"

    def __init__(self) -> None:
        self.emails: list[str] = []
        self.seen = threading.Event()
        self._position = 0

    def position(self) -> int:
        return self._position

    def process(self, event: Any, notification_id: int, previous: int) -> None:
        if isinstance(event, AccountRegistered):
            self.emails.append(event.email)
            self.seen.set()
        self._position = notification_id


def test_a_follower_polling_once_a_minute_sees_a_registration_as_soon_as_it_is_committed(tmp_path: Path) -> None:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite3")}
    follower_log = Storefront(env)
    writer_log = Storefront(env)  # as the API's own process would hold it
    processor = Registrations()
    stop = threading.Event()
    thread = threading.Thread(target=follow, args=(follower_log, processor, stop, A_POLL_NOBODY_WAITS_FOR))
    thread.start()
    try:
        time.sleep(0.3)  # the follower has read the empty log and is waiting
        register(writer_log, "rang@example.com")

        assert processor.seen.wait(10), "the follower waited for its poll instead of being rung"
        assert processor.emails == ["rang@example.com"]
    finally:
        stop.set()
        assert writer_log.doorbell is not None
        writer_log.doorbell.ring()  # wakes it to see the stop
        thread.join(timeout=10)
    assert not thread.is_alive()

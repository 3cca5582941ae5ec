"""Events a view does not use write nothing, so they get no transaction of their own: the view's position moves
past them with the next event it uses, or once they have waited a moment, and a failure stalls the view exactly
before the event that failed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import singledispatchmethod
from pathlib import Path
from typing import Any

import pytest

from eventlog.database import SQLiteViewDatabase, ViewCursor
from eventlog.tracking import positions
from projections.follower import ViewProcessor
from projections.view import View


@dataclass(frozen=True)
class Registered:
    email: str


@dataclass(frozen=True)
class LoggedIn:
    email: str


class Addresses(View):
    """Uses registrations only; fails on the address it is told to."""

    name = "addresses"
    tables = ("addresses_view",)
    fail_on = ""

    def schema(self) -> list[str]:
        return ["CREATE TABLE IF NOT EXISTS addresses_view (email TEXT NOT NULL)"]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _registered(self, event: Registered, cursor: ViewCursor) -> None:
        if event.email == self.fail_on:
            raise ValueError("this view cannot handle that address")
        cursor.execute("INSERT INTO addresses_view (email) VALUES (%(email)s)", {"email": event.email})


@pytest.fixture
def db(tmp_path: Path) -> Iterator[SQLiteViewDatabase]:
    database = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    yield database
    database.close()


def _position(db: SQLiteViewDatabase) -> int:
    return positions(db, "Storefront")["addresses"]


def test_a_view_says_which_events_it_uses() -> None:
    assert Addresses().uses(Registered) and not Addresses().uses(LoggedIn)


def test_the_position_moves_past_unused_events_with_the_next_used_one(db: SQLiteViewDatabase) -> None:
    processor = ViewProcessor(Addresses(), db, "Storefront")
    processor.setup()
    processor.process(LoggedIn("a@example.com"), 1, 0)
    processor.process(LoggedIn("a@example.com"), 2, 1)
    assert _position(db) == 0  # nothing written for them yet
    processor.process(Registered("b@example.com"), 3, 2)
    assert _position(db) == 3


def test_unused_events_are_passed_over_once_they_have_waited(db: SQLiteViewDatabase) -> None:
    processor = ViewProcessor(Addresses(), db, "Storefront")
    processor.setup()
    processor.process(Registered("a@example.com"), 1, 0)
    processor.process(LoggedIn("a@example.com"), 2, 1)
    processor.flush(waited=60)
    assert _position(db) == 1  # not waited long enough
    processor.flush()
    assert _position(db) == 2


def test_a_failure_stalls_the_view_exactly_before_the_event_that_failed(db: SQLiteViewDatabase) -> None:
    view = Addresses()
    view.fail_on = "poison@example.com"
    processor = ViewProcessor(view, db, "Storefront")
    processor.setup()
    processor.process(Registered("a@example.com"), 1, 0)
    processor.process(LoggedIn("a@example.com"), 2, 1)
    with pytest.raises(ValueError, match="cannot handle"):
        processor.process(Registered("poison@example.com"), 3, 2)
    assert _position(db) == 2
    with db.read() as cursor:
        cursor.execute("SELECT email FROM addresses_view")
        assert [row["email"] for row in cursor.fetchall()] == ["a@example.com"]

"""Read routes read the views on the event loop: what they see is what a thread's read sees, one snapshot per read."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from config.settings import Settings
from eventlog.database import ViewDatabase, open_view_database

pytestmark = pytest.mark.integration


@pytest.fixture
def views(settings: Settings) -> Iterator[ViewDatabase]:
    db = open_view_database(settings.view_store_env)
    with db.transaction() as cursor:
        cursor.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        cursor.execute("INSERT INTO notes (id, body) VALUES (1, 'first')")
    try:
        yield db
    finally:
        db.close()


async def _bodies(db: ViewDatabase) -> list[str]:
    async with db.read_async() as cursor:
        await cursor.execute("SELECT body FROM notes ORDER BY id")
        return [row["body"] for row in await cursor.fetchall()]


def test_a_read_on_the_loop_sees_what_was_committed_before_it(views: ViewDatabase) -> None:
    async def server() -> list[list[str]]:
        await views.open_async()  # as the app does when it starts
        try:
            before = await _bodies(views)
            with views.transaction() as cursor:  # the projector commits between two requests
                cursor.execute("INSERT INTO notes (id, body) VALUES (2, 'second')")
            return [before, await _bodies(views)]
        finally:
            await views.close_async()

    assert asyncio.run(server()) == [["first"], ["first", "second"]]


def test_reads_interleaved_on_one_loop_each_keep_their_own_connection(views: ViewDatabase) -> None:
    async def one(wait: float) -> list[str]:
        async with views.read_async() as cursor:
            await cursor.execute("SELECT body FROM notes WHERE id = %(id)s", {"id": 1})
            await asyncio.sleep(wait)  # another request's read runs meanwhile
            first = await cursor.fetchone()
            await cursor.execute("SELECT COUNT(*) AS n FROM notes")
            count = await cursor.fetchone()
        return [first["body"] if first else "", str(count["n"] if count else 0)]

    async def server() -> list[list[str]]:
        await views.open_async()
        try:
            return list(await asyncio.gather(*(one(0.01 * n) for n in range(8))))
        finally:
            await views.close_async()

    assert asyncio.run(server()) == [["first", "1"]] * 8


def test_a_loop_the_app_never_started_on_still_reads_through_worker_threads(views: ViewDatabase) -> None:
    # A test client used without its context manager runs each request on a loop of its own, with no pool opened.
    assert asyncio.run(_bodies(views)) == ["first"]
    assert asyncio.run(_bodies(views)) == ["first"]

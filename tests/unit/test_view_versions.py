"""A view whose code changed (a new version) is rebuilt from the log when it starts; one that did not keeps
its rows and its place."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from eventlog.database import SQLiteViewDatabase, ViewCursor
from eventlog.tracking import positions
from projections.follower import ViewProcessor
from projections.view import View


class Greetings(View):
    name = "greetings"
    tables = ("greetings_view",)
    version: ClassVar[int] = 1

    def schema(self) -> list[str]:
        return ["CREATE TABLE IF NOT EXISTS greetings_view (text TEXT NOT NULL)"]

    def apply(self, event: Any, cursor: ViewCursor) -> None:
        cursor.execute("INSERT INTO greetings_view (text) VALUES (%(text)s)", {"text": str(event)})


class GreetingsWithLanguage(Greetings):
    version: ClassVar[int] = 2

    def schema(self) -> list[str]:
        return ["CREATE TABLE IF NOT EXISTS greetings_view (text TEXT NOT NULL, language TEXT NOT NULL)"]


def _rows(db: SQLiteViewDatabase) -> list[dict[str, Any]]:
    with db.read() as cursor:
        cursor.execute("SELECT * FROM greetings_view")
        return cursor.fetchall()


def test_a_new_version_of_a_view_starts_again_from_the_start_of_the_log(tmp_path: Path) -> None:
    db = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    try:
        first = ViewProcessor(Greetings(), db, "Storefront")
        first.setup()
        first.process("hello", 1, 0)
        first.process("annyeong", 2, 1)

        ViewProcessor(Greetings(), db, "Storefront").setup()  # restarted, same code
        assert len(_rows(db)) == 2 and positions(db, "Storefront")["greetings"] == 2

        ViewProcessor(GreetingsWithLanguage(), db, "Storefront").setup()  # restarted with new code
        assert _rows(db) == [] and positions(db, "Storefront")["greetings"] == 0
        with db.read() as cursor:
            cursor.execute("SELECT language FROM greetings_view")  # the new table, not the old one
        ViewProcessor(GreetingsWithLanguage(), db, "Storefront").setup()
        assert positions(db, "Storefront")["greetings"] == 0
    finally:
        db.close()

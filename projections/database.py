"""The read-model database lives in ``events.database`` (the transparency log keeps its tree in the log's
database through it); these names stay importable from here."""

from events.database import (
    AsyncViewCursor,
    PostgresViewDatabase,
    SQLiteViewDatabase,
    ViewCursor,
    ViewDatabase,
    open_view_database,
)
from events.page_reads import Statement

__all__ = [
    "AsyncViewCursor",
    "PostgresViewDatabase",
    "SQLiteViewDatabase",
    "Statement",
    "ViewCursor",
    "ViewDatabase",
    "open_view_database",
]

"""The read-model database lives in ``eventlog.database`` (the transparency log keeps its tree in the log's
database through it); these names stay importable from here."""

from eventlog.database import (
    AsyncViewCursor,
    PostgresViewDatabase,
    SQLiteViewDatabase,
    ViewCursor,
    ViewDatabase,
    open_view_database,
)
from eventlog.page_reads import Statement

__all__ = [
    "AsyncViewCursor",
    "PostgresViewDatabase",
    "SQLiteViewDatabase",
    "Statement",
    "ViewCursor",
    "ViewDatabase",
    "open_view_database",
]

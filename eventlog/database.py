"""A database for rows kept beside the log: the read models, and the transparency log's tree.

SQLite (embedded default) or PostgreSQL behind one small API. SQL is written once with ``%(name)s``
placeholders and portable types; the SQLite side rewrites placeholders to ``:name``. A transaction
commits rows and their tracking position together, or neither.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, Protocol

from eventlog.page_reads import PLACEHOLDER, CoalescedReads, Statement
from eventlog.pools import checked_when_idle, checked_when_idle_async

# What makes several reads of a page one snapshot on PostgreSQL (its READ COMMITTED would give each its own).
_SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
# The event loops' pools only read, so their connections are set read-only once, with no BEGIN and COMMIT to send
# and run per read (measured: a page's reads 15-30% slower with them); a page read (eventlog.page_reads) is one
# statement, which reads one snapshot at any level.
_READS_ONLY = (
    "SET default_transaction_isolation = 'repeatable read'",
    "SET default_transaction_read_only = on",
)
# A pooled PostgreSQL connection idle longer than this is tested before it is used again.
IDLE_CHECK_SECONDS = 1.0


class ViewCursor(Protocol):
    """The part of a DB-API cursor that views use; rows come back as dicts."""

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None: ...

    def fetchone(self) -> dict[str, Any] | None: ...

    def fetchall(self) -> list[dict[str, Any]]: ...

    @property
    def rowcount(self) -> int: ...


class AsyncViewCursor(Protocol):
    """The reading part of a view cursor, for reads on an event loop."""

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None: ...

    async def fetchone(self) -> dict[str, Any] | None: ...

    async def fetchall(self) -> list[dict[str, Any]]: ...


class ViewDatabase(Protocol):
    """A place where views keep their rows and tracking positions."""

    dialect: str

    def transaction(self) -> AbstractContextManager[ViewCursor]: ...

    def read(self) -> AbstractContextManager[ViewCursor]: ...

    def read_async(self) -> AbstractAsyncContextManager[AsyncViewCursor]: ...

    def read_many(self, *statements: Statement) -> list[list[dict[str, Any]]]: ...

    async def read_many_async(self, *statements: Statement) -> list[list[dict[str, Any]]]: ...

    async def open_async(self) -> None: ...

    async def close_async(self) -> None: ...

    def close(self) -> None: ...


class _SQLiteCursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        self._cursor.execute(PLACEHOLDER.sub(r":\1", sql), dict(params or {}))

    def fetchone(self) -> dict[str, Any] | None:
        row = self._cursor.fetchone()
        return dict(row) if row is not None else None

    def fetchall(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self._cursor.fetchall()]

    @property
    def rowcount(self) -> int:
        return int(self._cursor.rowcount)


class _SQLiteAsyncCursor:
    """SQLite answers a view read in microseconds, in process: cheaper on the loop than a thread hop."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = _SQLiteCursor(cursor)

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        self._cursor.execute(sql, params)

    async def fetchone(self) -> dict[str, Any] | None:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[dict[str, Any]]:
        return self._cursor.fetchall()


class SQLiteViewDatabase:
    """Views in a SQLite file (WAL mode, one connection per thread)."""

    dialect = "sqlite"

    def __init__(self, path: str, lock_timeout: float = 10.0) -> None:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._lock_timeout = lock_timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        # Connections for reads on event loops: one per read in progress, so reads interleaved at their awaits
        # never share a snapshot; kept for the next read.
        self._idle_for_loops: list[sqlite3.Connection] = []

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, timeout=self._lock_timeout, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        with self._guard:
            self._connections.append(conn)
        return conn

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    @contextmanager
    def transaction(self) -> Iterator[ViewCursor]:
        """A write transaction (BEGIN IMMEDIATE): commit on success, roll back on error."""
        conn = self._connection()
        cursor = conn.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            yield _SQLiteCursor(cursor)
        except BaseException:
            conn.rollback()
            raise
        else:
            conn.commit()
        finally:
            cursor.close()

    @contextmanager
    def read(self) -> Iterator[ViewCursor]:
        """A read-only snapshot (deferred transaction; WAL lets writers carry on)."""
        conn = self._connection()
        cursor = conn.cursor()
        cursor.execute("BEGIN")
        try:
            yield _SQLiteCursor(cursor)
        finally:
            conn.rollback()
            cursor.close()

    @asynccontextmanager
    async def read_async(self) -> AsyncIterator[AsyncViewCursor]:
        """A read-only snapshot read on the running event loop (no thread hop)."""
        with self._guard:
            conn = self._idle_for_loops.pop() if self._idle_for_loops else None
        if conn is None:
            conn = self._connect()
        cursor = conn.cursor()
        try:
            cursor.execute("BEGIN")
            yield _SQLiteAsyncCursor(cursor)
        finally:
            conn.rollback()
            cursor.close()
            with self._guard:
                if conn in self._connections:  # not closed meanwhile
                    self._idle_for_loops.append(conn)

    def read_many(self, *statements: Statement) -> list[list[dict[str, Any]]]:
        """Each statement's rows, all read in one snapshot."""
        with self.read() as cursor:
            results = []
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall())
            return results

    async def read_many_async(self, *statements: Statement) -> list[list[dict[str, Any]]]:
        """Each statement's rows, all read in one snapshot, on the running event loop."""
        async with self.read_async() as cursor:
            results = []
            for sql, params in statements:
                await cursor.execute(sql, params)
                results.append(await cursor.fetchall())
            return results

    async def open_async(self) -> None:
        """Nothing to open: reads on a loop use connections of their own, made when first needed."""

    async def close_async(self) -> None:
        """Nothing to close before ``close``."""

    def close(self) -> None:
        with self._guard:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
            self._idle_for_loops.clear()
        self._local = threading.local()


class _PostgresCursor:
    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        self._cursor.execute(sql, dict(params or {}))

    def fetchone(self) -> dict[str, Any] | None:
        row: dict[str, Any] | None = self._cursor.fetchone()  # dict_row: a dict of its own already
        return row

    def fetchall(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self._cursor.fetchall()
        return rows

    @property
    def rowcount(self) -> int:
        return int(self._cursor.rowcount)


class _PostgresAsyncCursor:
    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        await self._cursor.execute(sql, dict(params or {}))

    async def fetchone(self) -> dict[str, Any] | None:
        row: dict[str, Any] | None = await self._cursor.fetchone()  # dict_row: a dict of its own already
        return row

    async def fetchall(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await self._cursor.fetchall()
        return rows


class _InThreads:
    """An async cursor over a sync one, each call in a worker thread: for loops that have no pool of their own."""

    def __init__(self, cursor: ViewCursor) -> None:
        self._cursor = cursor

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        await asyncio.to_thread(self._cursor.execute, sql, params)

    async def fetchone(self) -> dict[str, Any] | None:
        return self._cursor.fetchone()  # already fetched by execute: no I/O

    async def fetchall(self) -> list[dict[str, Any]]:
        return self._cursor.fetchall()


class PostgresViewDatabase:
    """Views in PostgreSQL, through a psycopg 3 connection pool.

    Connections are in autocommit mode: ``transaction`` opens a transaction block, while ``read`` runs its
    statements without one (PostgreSQL's READ COMMITTED gives each statement its own snapshot inside a block too,
    so a BEGIN and a ROLLBACK around reads were two round trips that changed nothing). A page that needs several
    reads in one snapshot sends them together with ``read_many_async``.
    """

    dialect = "postgres"

    def __init__(self, conninfo: str, max_size: int = 5) -> None:
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        self._max_size = max_size
        # AsyncConnectionPools by the event loop they serve (opened by ``open_async``), with how many opened each,
        # and the page reads sent through each.
        self._async_pools: dict[asyncio.AbstractEventLoop, tuple[Any, int]] = {}
        self._page_reads: dict[asyncio.AbstractEventLoop, CoalescedReads] = {}
        self.conninfo = conninfo  # what else needs a connection of its own (the projector's leases)
        # check: a connection that sat in the pool a while is tested as it leaves, so one broken by a database
        # restart is replaced instead of failing a request (the pool recovers without restarting the process).
        # One taken out a moment ago is not: under load that test was a round trip per read. A connection that broke
        # while in use is not put back (psycopg_pool drops it).
        self._pool = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=max_size,
            kwargs={"row_factory": dict_row, "autocommit": True},
            check=checked_when_idle(ConnectionPool.check_connection, IDLE_CHECK_SECONDS),
            open=True,
        )

    @contextmanager
    def transaction(self) -> Iterator[ViewCursor]:
        """One transaction on a pooled connection."""
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            yield _PostgresCursor(cursor)

    @contextmanager
    def read(self) -> Iterator[ViewCursor]:
        """Reads on a pooled connection, each statement seeing what was committed when it started."""
        with self._pool.connection() as conn, conn.cursor() as cursor:
            yield _PostgresCursor(cursor)

    async def open_async(self) -> None:
        """Open the pool that ``read_async`` uses on the running loop (the API does as it starts; an app started
        twice on one loop shares it)."""
        from psycopg import AsyncConnection
        from psycopg.rows import dict_row
        from psycopg_pool import AsyncConnectionPool

        loop = asyncio.get_running_loop()
        if loop in self._async_pools:
            pool, opened = self._async_pools[loop]
            self._async_pools[loop] = (pool, opened + 1)
            return
        pool = AsyncConnectionPool[AsyncConnection[Any]](
            self.conninfo,
            min_size=0,  # connected by the first read: a test client's short-lived loop may never read
            max_size=self._max_size,
            kwargs={"row_factory": dict_row, "autocommit": True},
            check=checked_when_idle_async(AsyncConnectionPool.check_connection, IDLE_CHECK_SECONDS),
            configure=_for_reads_only,
            open=False,
        )
        await pool.open()
        self._async_pools[loop] = (pool, 1)
        self._page_reads[loop] = CoalescedReads(pool)

    async def close_async(self) -> None:
        """Close the running loop's pool once every ``open_async`` on it is matched (the API does as it stops)."""
        loop = asyncio.get_running_loop()
        pool, opened = self._async_pools.pop(loop, (None, 0))
        if opened > 1:
            self._async_pools[loop] = (pool, opened - 1)
        elif pool is not None:
            self._page_reads.pop(loop, None)
            await pool.close()

    @asynccontextmanager
    async def read_async(self) -> AsyncIterator[AsyncViewCursor]:
        """Reads as ``read`` makes them, without leaving the event loop when ``open_async`` opened a pool on it;
        on another loop (a test client that never started the app) each statement runs in a worker thread."""
        opened = self._async_pools.get(asyncio.get_running_loop())
        if opened is None:
            reading = self.read()
            cursor = await asyncio.to_thread(reading.__enter__)
            try:
                yield _InThreads(cursor)
            except BaseException as error:
                if not reading.__exit__(type(error), error, error.__traceback__):
                    raise
            else:
                reading.__exit__(None, None, None)
            return
        async with opened[0].connection() as conn, conn.cursor() as async_cursor:
            yield _PostgresAsyncCursor(async_cursor)

    def read_many(self, *statements: Statement) -> list[list[dict[str, Any]]]:
        """Each statement's rows, read in one snapshot (an explicit read-only REPEATABLE READ transaction) and one
        round trip (a pipeline), on a pooled connection."""
        return self._read_many(statements)

    async def read_many_async(self, *statements: Statement) -> list[list[dict[str, Any]]]:
        """Each statement's rows, read in one snapshot and one round trip: the statements are one query whose
        columns are each statement's rows as JSON, shared with the pages other requests ask for in the same turn
        of the loop (``eventlog.page_reads``). On a loop with no pool of its own, the statements in a worker thread,
        in an explicit read-only REPEATABLE READ transaction."""
        loop = asyncio.get_running_loop()
        if loop not in self._async_pools:
            return await asyncio.to_thread(self._read_many, statements)
        return await self._page_reads[loop].read(statements)

    def _read_many(self, statements: tuple[Statement, ...]) -> list[list[dict[str, Any]]]:
        # The thread pool's connections also write: the snapshot is asked for by this transaction only. A
        # statement that fails leaves it open and aborted: the pool rolls it back as it takes the connection back.
        with self._pool.connection() as conn:
            cursors = [conn.cursor() for _ in statements]
            with conn.pipeline():
                conn.execute(_SNAPSHOT)
                for cursor, (sql, params) in zip(cursors, statements, strict=True):
                    cursor.execute(sql, params)
                conn.execute("COMMIT")
            return [cursor.fetchall() for cursor in cursors]

    def close(self) -> None:
        self._pool.close()


async def _for_reads_only(conn: Any) -> None:
    for setting in _READS_ONLY:
        await conn.execute(setting)


def open_view_database(env: Mapping[str, str]) -> ViewDatabase:
    """Open the view database described by an eventsourcing-style environment."""
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        conninfo = " ".join(
            f"{key}='{value}'"
            for key, value in {
                "dbname": env["POSTGRES_DBNAME"],
                "host": env["POSTGRES_HOST"],
                "port": env["POSTGRES_PORT"],
                "user": env["POSTGRES_USER"],
                "password": env.get("POSTGRES_PASSWORD", ""),
                "connect_timeout": env.get("POSTGRES_CONNECT_TIMEOUT", "5"),
            }.items()
            if value
        )
        return PostgresViewDatabase(conninfo)
    return SQLiteViewDatabase(env["SQLITE_DBNAME"], float(env.get("SQLITE_LOCK_TIMEOUT", "10")))

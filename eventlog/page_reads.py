"""Page reads on PostgreSQL, coalesced: the pages an event loop is asked for while it is busy go out as one query.

A page (``read_many_async``) is a few statements, such as a customer's licences, their devices and their
subscriptions. Under load many requests of one API process ask for their pages in the same turn of its event loop,
and each query and round trip cost the process more CPU in psycopg's client than the rest of the request
(bench/RESULTS.md). So the pages of one kind asked for in a turn (up to MOST_PAGES) are one query: their parameters go
as arrays, one element a page, and each statement is a subquery of the row ``unnest`` makes for each page, whose
rows come back as one JSON column (``page_query``). The query's text depends only on the kind of page, so
PostgreSQL plans it once (it is prepared) however many pages it carries.

A page still reads one snapshot (a statement reads one); a query starts only after every page in it was asked for,
so it sees every commit a request waited for; and a query that fails is tried again page by page, so one page's
failure is never another's.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

# A named parameter of a psycopg statement, %(name)s.
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
# One SQL statement and its parameters.
Statement = tuple[str, Mapping[str, Any]]
Rows = list[dict[str, Any]]
MOST_PAGES = 64  # a busier turn's pages go out in several queries


def page_query(sqls: tuple[str, ...], pages: Sequence[Sequence[Statement]]) -> Statement:
    """The query reading ``pages`` made of the statements ``sqls``, and its parameters: the pages' numbers, then for
    each statement's placeholders an array of the pages' values. The placeholders become columns of the page's row
    (``page.s<number>_<name>``), so two statements may give one name different values.

    JSON carries the views' column types exactly (text, integer, bigint, boolean; decimals are read back as
    Decimal); a test holds every view to those types. Each statement's ORDER BY holds: a sorted subquery feeds
    its aggregate in order when the query above it does nothing else (no join, no grouping), as here."""
    params: dict[str, list[Any]] = {"pages": list(range(len(pages)))}
    types = []
    for number, name in _placeholders(sqls):
        values = [page[number][1][name] for page in pages]
        whole = all(isinstance(value, int) and not isinstance(value, bool) for value in values)
        params[f"s{number}_{name}"] = values if whole else [None if value is None else str(value) for value in values]
        types.append("bigint" if whole else "text")
    return _query_text(sqls, tuple(types)), params


@functools.lru_cache(maxsize=128)
def _placeholders(sqls: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """``(statement number, name)`` of each placeholder of ``sqls``, once each, in order."""
    return tuple(dict.fromkeys((number, name) for number, sql in enumerate(sqls) for name in PLACEHOLDER.findall(sql)))


@functools.lru_cache(maxsize=128)
def _query_text(sqls: tuple[str, ...], types: tuple[str, ...]) -> str:
    """The text of ``page_query``: one text per kind of page, however many pages (PostgreSQL plans it once)."""
    columns = ", ".join(
        f"(SELECT coalesce(json_agg(q), '[]'::json) FROM ({_on_page(sql, number)}) q)::text"
        for number, sql in enumerate(sqls)
    )
    arrays = [f"s{number}_{name}" for number, name in _placeholders(sqls)]
    unnested = ", ".join(
        ["%(pages)s::int[]", *(f"%({array})s::{kind}[]" for array, kind in zip(arrays, types, strict=True))]
    )
    return f"SELECT {columns} FROM unnest({unnested}) AS page({', '.join(['number', *arrays])}) ORDER BY page.number"


def _on_page(sql: str, number: int) -> str:
    """Statement ``number`` with its placeholders made columns of the page's row."""
    return PLACEHOLDER.sub(rf"page.s{number}_\1", sql)


class CoalescedReads:
    """The page reads of one event loop, sent a turn's worth at a time through ``pool`` (a psycopg
    AsyncConnectionPool whose connections only read)."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._waiting: list[tuple[Sequence[Statement], asyncio.Future[list[Rows]]]] = []
        self._sending: set[asyncio.Task[None]] = set()
        self.queries = 0  # how many queries carried how many pages (for tests and profiles)
        self.pages = 0

    async def read(self, statements: Sequence[Statement]) -> list[Rows]:
        """Each statement's rows, read in one snapshot, in a query shared with the other pages of this turn."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[list[Rows]] = loop.create_future()
        self._waiting.append((statements, answer))
        if len(self._waiting) == 1:
            loop.call_soon(self._send)  # once this turn's other requests have asked too
        elif len(self._waiting) >= MOST_PAGES:
            self._send()
        return await answer

    def _send(self) -> None:
        waiting, self._waiting = self._waiting, []
        kinds: dict[tuple[str, ...], list[tuple[Sequence[Statement], asyncio.Future[list[Rows]]]]] = {}
        for page in waiting:
            kinds.setdefault(tuple(sql for sql, _ in page[0]), []).append(page)
        for sqls, pages in kinds.items():
            task = asyncio.get_running_loop().create_task(self._answer(sqls, pages))
            self._sending.add(task)  # kept until done: the loop holds tasks only weakly
            task.add_done_callback(self._sending.discard)

    async def _answer(
        self, sqls: tuple[str, ...], pages: list[tuple[Sequence[Statement], asyncio.Future[list[Rows]]]]
    ) -> None:
        try:
            try:
                answers = await self._query(sqls, [statements for statements, _ in pages])
            except Exception:
                if len(pages) == 1:
                    raise
                for page in pages:  # each page alone: a page that fails fails only itself
                    if not page[1].done():
                        await self._answer(sqls, [page])
                return
            self.queries += 1
            self.pages += len(pages)
            for (_, answer), columns in zip(pages, answers, strict=True):
                if not answer.done():  # a request that gave up (its budget ran out) no longer waits
                    answer.set_result(columns)
        except BaseException as error:
            for _, answer in pages:
                if not answer.done():
                    if isinstance(error, Exception):
                        answer.set_exception(error)
                    else:
                        answer.cancel()
            if not isinstance(error, Exception):
                raise

    async def _query(self, sqls: tuple[str, ...], pages: Sequence[Sequence[Statement]]) -> list[list[Rows]]:
        from psycopg.rows import tuple_row

        sql, params = page_query(sqls, pages)
        async with self._pool.connection() as conn:
            cursor = conn.cursor(row_factory=tuple_row)
            await cursor.execute(sql, params, prepare=True)
            rows = await cursor.fetchall()
        return [[json.loads(column, parse_float=Decimal) for column in row] for row in rows]

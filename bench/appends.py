"""The log's one-writer ceiling: events appended per second through our log (``eventlog.application.EventLog``,
the eventsourcing Application the store is) by 1, 8, 32 and 128 concurrent writers, against bare committed
``INSERT``s of rows of the same size into a plain table on the same database, in the same run.

Each writer is a thread saving one-event aggregates, one transaction each, for the run's seconds. eventsourcing's
PostgreSQL recorder takes ``LOCK TABLE ... IN EXCLUSIVE MODE`` in every writing transaction (so notification ids
commit in order, without gaps a follower could pass over), so our log has one writer at a time however many wait;
the bare table has only its sequence and primary key. The prototype beside them (``BENCH_APPEND_SHARDS``, 8; 0 for
none) is the design of docs/adr/0026-one-writer-ceiling.md: the same events spread by aggregate id over that many
logs (EventLog applications of other names: a table, a lock and a notification sequence each).

Connections: at most ``BENCH_APPEND_CONNECTIONS`` (20) in use at a time on each side (the shared server allows a
hundred), so 32 and 128 writers queue for a connection as well as for the lock; the shards share the same number.
``BENCH_APPEND_WRITERS`` (``1,8,32,128``) sets the writer counts. On SQLite (one writer per file by design) ours is
the log in a file and the baseline a plain table in another file, both with the stack's settings.
Figures are ratios: ours / bare at each writer count (the issue's target: what bare INSERTs reach, at 32 writers
at least 5,000 events/s on this machine). The note gives the CPU this process spent per append (the writers'
own Python, GIL-bound on two cores: a bound on every side's figure).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from eventsourcing.domain import Aggregate, event

from bench.harness import Result, smallest
from eventlog.application import EventLog
from tests.conftest import make_settings

WRITERS = tuple(int(item) for item in os.environ.get("BENCH_APPEND_WRITERS", "1,8,32,128").split(","))
SHARDS = int(os.environ.get("BENCH_APPEND_SHARDS", "8"))
CONNECTIONS = int(os.environ.get("BENCH_APPEND_CONNECTIONS", "20"))
TARGET = 0.9  # of the bare rate: "what bare INSERTs reach" (issue 48), less a tenth for the event's own work
PAYLOAD = b"x" * 160  # about the size of a one-event aggregate's stored state


class Tick(Aggregate):
    """A one-event aggregate, as the issue measured."""

    @event("Ticked")
    def __init__(self, writer: int) -> None:
        self.writer = writer


def _in_threads(writers: int, seconds: float, work: Callable[[int], object]) -> tuple[int, float, float]:
    """``work(writer)`` over and over in ``writers`` threads for ``seconds``: how many finished, the wall seconds
    and the CPU seconds this process spent."""
    done = [0] * writers
    start = threading.Barrier(writers + 1)
    deadline = [0.0]

    def loop(number: int) -> None:
        start.wait()
        while time.monotonic() < deadline[0]:
            work(number)
            done[number] += 1

    threads = [threading.Thread(target=loop, args=(number,)) for number in range(writers)]
    for thread in threads:
        thread.start()
    began, cpu = time.monotonic(), time.process_time()
    deadline[0] = began + seconds
    start.wait()
    for thread in threads:
        thread.join()
    return sum(done), time.monotonic() - began, time.process_time() - cpu


def _log_env(store_env: dict[str, str], folder: Path, name: str, connections: int) -> dict[str, str]:
    """The stack's log settings for one log of the benchmark's (its own file on SQLite; ``connections`` kept open
    and no more on PostgreSQL)."""
    env = {**store_env, "CREATE_TABLE": "y"}
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        env["SQLITE_DBNAME"] = str(folder / f"{name}.sqlite3")
    else:
        env |= {"POSTGRES_POOL_SIZE": str(connections), "POSTGRES_MAX_OVERFLOW": "0", "POSTGRES_POOL_TIMEOUT": "60"}
    return env


@contextmanager
def _logs(store_env: dict[str, str], folder: Path, shards: int) -> Iterator[list[EventLog]]:
    """Our log (``shards`` 1), or ``shards`` logs of other names, each with its own table and lock, sharing
    CONNECTIONS connections; each has recorded one event (tables made, statements prepared)."""
    if shards == 1:
        kinds: list[type[EventLog]] = [EventLog]
    else:
        kinds = [type(f"AppendShard{n}", (EventLog,), {"name": f"AppendShard{n}"}) for n in range(shards)]
    apps = []
    try:
        for kind in kinds:
            connections = max(1, CONNECTIONS // len(kinds))
            apps.append(kind(_log_env(store_env, folder, kind.name, connections)))
            apps[-1].save(Tick(-1))
        yield apps
    finally:
        for app in apps:
            app.close()


def _ours(
    store_env: dict[str, str], folder: Path, writers: int, seconds: float, shards: int = 1
) -> tuple[float, float]:
    """Events appended per second by ``writers`` threads through our log (over ``shards`` logs, each aggregate to
    the log its id picks), and the CPU milliseconds per append in this process."""
    with _logs(store_env, folder, shards) as apps:

        def append(writer: int) -> None:
            tick = Tick(writer)
            apps[tick.id.int % len(apps)].save(tick)

        done, wall, cpu = _in_threads(writers, seconds, append)
    return done / wall, cpu * 1000 / max(done, 1)


BARE_TABLE = "bare_appends"
BARE_DDL = (
    f"CREATE TABLE IF NOT EXISTS {BARE_TABLE} (id {{serial}} PRIMARY KEY, originator_id {{uuid}} NOT NULL, "
    "originator_version INTEGER NOT NULL, topic TEXT NOT NULL, state {blob} NOT NULL)"
)


def _bare(
    store_env: dict[str, str], folder: Path, writers: int, seconds: float, notify: bool = False
) -> tuple[float, float]:
    """Committed INSERTs per second of rows like the log's into a plain table, by ``writers`` threads over at
    most CONNECTIONS connections, and the CPU milliseconds per insert in this process; with ``notify`` (PostgreSQL),
    each transaction also NOTIFYs a channel, as the log's does: PostgreSQL then serialises the commits of every
    notifying transaction of the server behind one lock (``PreCommit_Notify``), whatever table they wrote."""
    row = (Tick.__qualname__, PAYLOAD)
    if store_env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        path = folder / "bare.sqlite3"
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(BARE_DDL.format(serial="INTEGER", uuid="TEXT", blob="BLOB"))
        local = threading.local()

        def insert_sqlite(writer: int) -> None:
            if not hasattr(local, "db"):
                local.db = sqlite3.connect(path, timeout=30, check_same_thread=False)
                local.db.execute("PRAGMA synchronous=NORMAL")  # as the stack's connections have it
            with local.db:
                local.db.execute(
                    f"INSERT INTO {BARE_TABLE} (originator_id, originator_version, topic, state) VALUES (?, 1, ?, ?)",
                    (uuid.uuid4().hex, *row),
                )

        done, wall, cpu = _in_threads(writers, seconds, insert_sqlite)
        return done / wall, cpu * 1000 / max(done, 1)
    from psycopg_pool import ConnectionPool

    url = _postgres_url(store_env)
    with ConnectionPool(
        url, min_size=min(writers, CONNECTIONS), max_size=min(writers, CONNECTIONS), timeout=60
    ) as pool:
        with pool.connection() as conn:
            conn.execute(BARE_DDL.format(serial="BIGSERIAL", uuid="UUID", blob="BYTEA"))

        def insert(writer: int) -> None:
            with pool.connection() as conn:  # one committed transaction each
                conn.execute(
                    f"INSERT INTO {BARE_TABLE} (originator_id, originator_version, topic, state) "
                    "VALUES (%s, 1, %s, %s)",
                    (uuid.uuid4(), *row),
                    prepare=True,
                )
                if notify:
                    conn.execute(f"NOTIFY {BARE_TABLE}")

        done, wall, cpu = _in_threads(writers, seconds, insert)
    return done / wall, cpu * 1000 / max(done, 1)


def _postgres_url(env: dict[str, str]) -> str:
    """A libpq connection string for the log's database."""
    parts = {
        "host": env.get("POSTGRES_HOST", "127.0.0.1"),
        "port": env.get("POSTGRES_PORT", "5432"),
        "user": env.get("POSTGRES_USER", "postgres"),
        "dbname": env.get("POSTGRES_DBNAME", "postgres"),
    }
    if env.get("POSTGRES_PASSWORD"):
        parts["password"] = env["POSTGRES_PASSWORD"]
    return " ".join(f"{key}={value}" for key, value in parts.items())


def ratios_table(rows: list[dict[str, Any]]) -> str:
    """Writers x events/s: ours, the sharded prototype, bare INSERTs and bare INSERTs that NOTIFY, with ratios."""
    columns = ("ours", "sharded", "bare", "notifying")
    header = f"{'writers':>7} " + " ".join(f"{name + '/s':>12}" for name in columns)
    header += f" {'ours/bare':>10} {'sharded/bare':>13} {'notifying/bare':>15}"
    lines = [header]
    for row in rows:
        shown = [f"{row[name]:,.0f}" if row.get(name) else "-" for name in columns]
        ratios = [
            f"{row[name] / row['bare']:.2f}" if row.get(name) else "-" for name in ("ours", "sharded", "notifying")
        ]
        lines.append(
            f"{row['writers']:>7} "
            + " ".join(f"{cell:>12}" for cell in shown)
            + f" {ratios[0]:>10} {ratios[1]:>13} {ratios[2]:>15}"
        )
    return "\n".join(lines)


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, **_: object) -> list[Result]:
    """For each writer count: our log, the sharded prototype (on PostgreSQL) and bare INSERTs, ``seconds`` each
    (at most 3: the figure settles within a second or two and the server is shared)."""
    del connections  # the writer counts are the issue's; their connections are CONNECTIONS at most
    span = smallest(max(0.5, min(float(seconds), 3.0)), 0.3)
    results, rows = [], []
    with tempfile.TemporaryDirectory(prefix="bench-appends-") as tmp:
        folder = Path(tmp)
        store_env = dict(make_settings(folder, **env).event_store_env)
        shards = smallest(SHARDS, 2)
        sharding = shards > 1 and store_env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
        for writers in smallest(WRITERS, (1, 2)):
            bare, bare_cpu = _bare(store_env, folder, writers, span)
            ours, ours_cpu = _ours(store_env, folder, writers, span)
            row: dict[str, Any] = {"writers": writers, "ours": ours, "bare": bare}
            note = (
                f"{min(writers, CONNECTIONS)} connections; CPU per append in the writers' process: "
                f"ours {ours_cpu:.2f} ms, bare {bare_cpu:.2f} ms"
            )
            if sharding:  # (PostgreSQL)
                row["notifying"] = _bare(store_env, folder, writers, span, notify=True)[0]
                note += f"; bare INSERTs that NOTIFY: {row['notifying']:,.0f}/s"
                row["sharded"], sharded_cpu = _ours(store_env, folder, writers, span, shards)
                note += f"; {shards} sharded logs: {row['sharded']:,.0f}/s ({sharded_cpu:.2f} ms)"
                results.append(
                    Result(f"appends/s, {writers} writers, {shards} sharded logs", store, "events/s",
                           row["sharded"], bare, TARGET)
                )  # fmt: skip
            rows.append(row)
            results.insert(
                len(results) - (1 if sharding else 0),
                Result(f"appends/s, {writers} writers", store, "events/s", ours, bare, TARGET, note=note),
            )
            print(f"  {writers} writers: ours {ours:,.0f}/s, bare {bare:,.0f}/s", flush=True)
    print(ratios_table(rows), flush=True)
    return results

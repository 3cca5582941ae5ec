"""Our followers against eventsourcing 9.5's own, ``eventsourcing.projection``, on one log and one simple view
(why we keep ours: docs/adr/0025-our-own-followers.md).

The log: ``BENCH_FOLLOWERS_EVENTS`` (20,000; ``python -m bench followers --events N``) events of a small aggregate
of this module, in four topics, recorded 500 a transaction; one event in ten is a ``Shipped``, the only topic the
view uses (it counts shipments by destination). Ours is the view as ``projections/`` writes one (``View``, followed
by ``projections.runner.Projector``); theirs is the same view as the library's documentation writes one: a
``Projection`` whose ``topics`` are the view's, over a ``TrackingRecorder`` whose method writes the row and the
tracking record in one transaction (as ``eventsourcing/tests/projection.py`` has it), run by ``ProjectionRunner``.

Every figure is ours against theirs, measured in the same run on the same log (ratio ours / theirs):
- *catch-up*: events of the log per second to bring the empty view to the log's end; ours is ``Projector.catch_up``
  (the path of ``python -m projections rebuild``), theirs ``ProjectionRunner`` until its tracking reaches the last
  event it uses. On SQLite the runner cannot start (the SQLite recorder has no subscriptions), so theirs is the same
  projection and recorder fed by a loop that reads as their subscription reads (500 notifications of its topics at a
  time). Their SQLite connections are given ``synchronous=NORMAL``, as ours have; the library's own setting (FULL)
  is measured once more for the note.
- *catch-up, position over every event*: theirs without ``topics`` (the projection then writes a tracking record for
  each event it does not use, which is what its position needs to cover them), over the first 2,000 events.
  Each catch-up also counts the transactions it took per 1,000 events of the log.
- *live lag*: 200 ``Shipped`` events written one a transaction (each after an event the view does not use), both
  followers running: the time from ``save`` returning to the view's rows showing it (0: they already showed it),
  p50 and p95 (PostgreSQL only for theirs). Not where ours claims to differ: within a fifth of theirs is the target.
- *read your writes*: how long each one's own wait (ours ``eventlog.tracking.wait_for_views``, as the API waits;
  theirs ``ProjectionRunner.wait``) takes to return after a write, for an event the view uses and for one it does
  not (a command none of the waited-for views cares about: ``see_latest_write``). Theirs gives up at 1 s.
- *checks* (PostgreSQL): two replicas of one view running at once, and an event the view fails on once.

Not part of ``make test``; the default run takes about two minutes on this machine, both stores, when busy.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import os
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from functools import singledispatchmethod
from pathlib import Path
from typing import Any, ClassVar

import psycopg
from eventsourcing import dispatch
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import InfrastructureFactory, Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.projection import Projection, ProjectionRunner
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from eventsourcing.utils import Environment, get_topic
from psycopg.sql import SQL, Identifier

from bench.harness import Result, smallest
from eventlog.application import EventLog
from eventlog.database import ViewCursor, ViewDatabase, open_view_database
from eventlog.tracking import advance, wait_for_views
from projections.leases import PostgresLeases
from projections.runner import Projector
from projections.view import View
from tests.conftest import make_settings

EVENTS = 20_000  # BENCH_FOLLOWERS_EVENTS, read as the benchmark runs (``--events`` sets it)
LIVE = int(os.environ.get("BENCH_FOLLOWERS_LIVE", "200"))
WAITS = 20  # read-your-writes waits on an event the view uses, each side
UNUSED_WAITS = 5  # ... and on one it does not use (theirs each cost THEIR_WAIT_TIMEOUT)
THEIR_WAIT_TIMEOUT = 1.0
PER_TRANSACTION = 500
DESTINATIONS = ("seoul", "busan", "daegu", "incheon", "gwangju")
# Live lag is not where ours claims to differ (both wake on LISTEN/NOTIFY): within a fifth counts as equal.
LAG_TARGET = 1.2
EVERY_EVENT_SAMPLE = 2_000  # theirs without topics is timed over the first this many events of the log
POLL_SECONDS = 0.001
GIVE_UP_SECONDS = 300.0
# Transactions their recorders have opened (each ``ship`` and ``insert_tracking`` is one).
THEIR_TRANSACTIONS = [0]


class Gadget(Aggregate):
    """The benchmark's aggregate: ten events each, one of them a shipment."""

    @event("Made")
    def __init__(self, name: str, owner: str) -> None:
        self.name = name
        self.owner = owner

    @event("Noted")
    def note(self, text: str) -> None:
        self.text = text

    @event("Priced")
    def price(self, amount: int, currency: str) -> None:
        self.amount = amount

    class Shipped(Aggregate.Event):
        """The one event of the ten that the view uses."""

        destination: str
        parcel: str

    @event(Shipped)
    def ship(self, destination: str, parcel: str) -> None:
        self.destination = destination


def _gadget(number: int) -> Gadget:
    """A gadget with its ten events: made, noted five times, priced three times, shipped once."""
    gadget = Gadget(name=f"gadget {number}", owner=f"owner-{number % 97}@example.com")
    gadget.note(text="unpacked and checked")
    gadget.price(amount=19_900 + number % 13 * 100, currency="KRW")
    gadget.note(text="photographed for the catalogue")
    gadget.price(amount=18_900, currency="KRW")
    gadget.note(text="a customer asked about the colour")
    gadget.ship(destination=DESTINATIONS[number % len(DESTINATIONS)], parcel=f"P{number:08d}")
    gadget.price(amount=17_900, currency="KRW")
    gadget.note(text="delivered")
    gadget.note(text="reviewed: five stars")
    return gadget


SHIPPED = get_topic(Gadget.Shipped)
UPSERT = (
    "INSERT INTO {table} (destination, shipped) VALUES ({value}, 1) "
    "ON CONFLICT (destination) DO UPDATE SET shipped = {table}.shipped + 1"
)
ROWS = "CREATE TABLE IF NOT EXISTS {table} (destination TEXT PRIMARY KEY, shipped BIGINT NOT NULL)"


# Ours: a view as projections/ writes one.


class Shipments(View):
    """Shipments by destination (uses one event in ten)."""

    name: ClassVar[str] = "bench_shipments"
    tables: ClassVar[tuple[str, ...]] = ("bench_shipments",)

    def __init__(self) -> None:
        self.applied = 0

    def schema(self) -> list[str]:
        return [ROWS.format(table=self.tables[0])]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _shipped(self, event: Gadget.Shipped, cursor: ViewCursor) -> None:
        cursor.execute(UPSERT.format(table=self.tables[0], value="%(destination)s"), {"destination": event.destination})
        self.applied += 1


# Theirs: the same view as eventsourcing's documentation and tests write one.


class TheirRowsPostgres(PostgresTrackingRecorder):
    """The view's rows beside the library's tracking table; each event one transaction."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.rows_table = self.tracking_table_name.removesuffix("_tracking") + "_rows"
        self.sql_create_statements.append(SQL(ROWS.format(table="{0}.{1}")).format(
            Identifier(self.datastore.schema), Identifier(self.rows_table)
        ))  # fmt: skip
        self._upsert = SQL(UPSERT.format(table="{0}.{1}", value="%(destination)s")).format(
            Identifier(self.datastore.schema), Identifier(self.rows_table)
        )

    def ship(self, destination: str, tracking: Tracking) -> None:
        THEIR_TRANSACTIONS[0] += 1
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._upsert, {"destination": destination}, prepare=True)
            self._insert_tracking(curs, tracking)

    def insert_tracking(self, tracking: Tracking) -> None:
        THEIR_TRANSACTIONS[0] += 1
        super().insert_tracking(tracking)


class TheirRowsSQLite(SQLiteTrackingRecorder):
    """The same on SQLite (a file of its own, like our views.sqlite3)."""

    rows_table = "their_rows"
    synchronous: ClassVar[str | None] = "NORMAL"  # as our view database has it; None: the library's own (FULL)

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._set: set[int] = set()

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), ROWS.format(table=self.rows_table)]

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Any]:
        THEIR_TRANSACTIONS[0] += 1
        with self.datastore.get_connection(commit=True) as conn:
            if self.synchronous and id(conn) not in self._set:
                conn._sqlite_conn.execute(f"PRAGMA synchronous={self.synchronous}")
                self._set.add(id(conn))
            with conn.transaction(commit=True) as curs:
                yield curs

    def ship(self, destination: str, tracking: Tracking) -> None:
        with self._transaction() as curs:
            curs.execute(UPSERT.format(table=self.rows_table, value=":destination"), {"destination": destination})
            self._insert_tracking(curs, tracking)

    def insert_tracking(self, tracking: Tracking) -> None:
        with self._transaction() as curs:
            self._insert_tracking(curs, tracking)


class TheirRowsSQLiteFull(TheirRowsSQLite):
    synchronous = None


class TheirShipments(Projection[Any]):
    """Shipments by destination: the events of its topics only (the library's recommended form)."""

    name = "their_shipments"
    topics: tuple[str, ...] = (SHIPPED,)

    @dispatch.singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.insert_tracking(tracking)

    @process_event.register
    def _shipped(self, domain_event: Gadget.Shipped, tracking: Tracking) -> None:
        self.view.ship(domain_event.destination, tracking)


class TheirEveryEvent(TheirShipments):
    """The same without ``topics``: every event comes through, and each unused one is a tracking write."""

    name = "their_every"
    topics = ()


class TheirFull(TheirShipments):
    name = "their_full"


# Measuring.


class _CountingTransactions:
    """Our view database, counting the transactions opened through it."""

    def __init__(self, db: ViewDatabase) -> None:
        self._db = db
        self.count = 0

    def transaction(self) -> Any:
        self.count += 1
        return self._db.transaction()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


class _Rows:
    """Reads a view's shipped total and a tracking position on a connection of the bench's own."""

    def __init__(self, store: str, conninfo: str, views_file: str, tmp: Path) -> None:
        self._store = store
        self._conninfo = conninfo
        self._views_file = views_file
        self._tmp = tmp
        self._connections: dict[str, Any] = {}

    def _conn(self, file: str) -> Any:
        if file not in self._connections:
            if self._store == "postgres":
                self._connections[file] = psycopg.connect(self._conninfo, autocommit=True)
            else:
                self._connections[file] = sqlite3.connect(file, isolation_level=None, timeout=30)
        return self._connections[file]

    def _one(self, file: str, sql: str, params: tuple[Any, ...] = ()) -> int:
        if self._store != "postgres":
            sql = sql.replace("%s", "?")
        try:
            row = self._conn(file).execute(sql, params).fetchone()
        except (sqlite3.OperationalError, psycopg.errors.UndefinedTable):
            return 0  # not created yet
        return int(row[0] or 0) if row else 0

    def total(self, table: str) -> int:
        """The shipments one of our views shows."""
        return self._one(self._views_file, f"SELECT SUM(shipped) FROM {table}")

    def ours(self) -> int:
        return self.total(Shipments.tables[0])

    def theirs(self, name: str) -> int:
        table = f"{name}_rows" if self._store == "postgres" else TheirRowsSQLite.rows_table
        return self._one(self.their_file(name), f"SELECT SUM(shipped) FROM {table}")

    def their_position(self, name: str, application: str) -> int:
        table = f"{name}_tracking" if self._store == "postgres" else "tracking"
        return self._one(
            self.their_file(name), f"SELECT notification_id FROM {table} WHERE application_name = %s", (application,)
        )

    def their_file(self, name: str) -> str:
        return self._views_file if self._store == "postgres" else str(self._tmp / f"{name}.sqlite3")

    def close(self) -> None:
        for conn in self._connections.values():
            conn.close()


def _until(check: Callable[[], bool], what: str, seconds: float = GIVE_UP_SECONDS, every: float = 0.01) -> float:
    """Poll ``check`` every ``every`` seconds until true; the ``perf_counter`` moment it was seen true."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        time.sleep(every)
    return time.perf_counter()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def _record(log: EventLog, events: int) -> tuple[int, int]:
    """Record the log; (shipments in it, the notification id of the last one)."""
    per_save = PER_TRANSACTION // 10
    shipped, last_shipped = 0, 0
    for first in range(0, events // 10, per_save):
        gadgets = [_gadget(number) for number in range(first, min(first + per_save, events // 10))]
        for recording in log.save(*gadgets):
            if isinstance(recording.domain_event, Gadget.Shipped):
                shipped += 1
                last_shipped = recording.notification.id
    return shipped, last_shipped


def _their_factory_env(store: str, env: dict[str, str], tmp: Path, name: str) -> dict[str, str]:
    if store == "postgres":
        return dict(env)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / f"{name}.sqlite3")}


def _their_view(env: dict[str, str], projection: type[Projection[Any]], view: type[Any]) -> Any:
    """The projection's recorder as ``ProjectionRunner`` makes it (its environment over the process's)."""
    named = Environment(projection.name, {**os.environ, **env})
    return InfrastructureFactory.construct(env=named).tracking_recorder(view)


def _feed(log: EventLog, projection: Projection[Any], until: int) -> None:
    """Their projection fed as their subscription and runner feed it (``ListenNotifySubscription._pull``,
    ``ApplicationSubscription.__next__``, ``BaseProjectionRunner._process_events_loop``), without the threads."""
    last = projection.view.max_tracking_id(log.name) or 0
    while last < until:
        batch = log.recorder.select_notifications(
            start=last, limit=500, stop=until, topics=projection.topics, inclusive_of_start=False
        )
        if not batch:
            return
        for notification in batch:
            projection.process_event(log.mapper.to_domain_event(notification), Tracking(log.name, notification.id))
        last = batch[-1].id


def _their_catch_up(
    store: str, env: dict[str, str], tmp: Path, log: EventLog, rows: _Rows,
    projection: type[TheirShipments], target: int, view: type[Any] | None = None,
) -> tuple[float, ProjectionRunner[Any, Any] | None, float]:  # fmt: skip
    """Seconds for theirs to reach ``target`` from an empty view; on PostgreSQL the runner, still running; the
    transactions it took per 1,000 events of the log it covered."""
    their_env = _their_factory_env(store, env, tmp, projection.name)
    THEIR_TRANSACTIONS[0] = 0
    if store == "postgres":
        # Timed from the runner made: it starts following as it is made, so its start-up is not counted (its
        # subscription may even have read a first batch by then), as ours is timed without Projector.setup.
        runner: ProjectionRunner[Any, Any] = ProjectionRunner(
            application_class=EventLog, projection_class=projection, view_class=TheirRowsPostgres, env=their_env
        )
        started = time.perf_counter()
        runner.__enter__()
        try:
            seen = _until(lambda: rows.their_position(projection.name, log.name) >= target, f"{projection.name}")
            transactions = THEIR_TRANSACTIONS[0]  # it goes on: count what it took to cover where it is
            covered = rows.their_position(projection.name, log.name)
        except BaseException:
            with contextlib.suppress(Exception):
                runner.__exit__(None, None, None)
            raise
        return seen - started, runner, transactions * 1000 / covered
    recorder = _their_view(their_env, projection, view or TheirRowsSQLite)
    started = time.perf_counter()
    _feed(log, projection(view=recorder), target)
    elapsed = time.perf_counter() - started
    recorder.datastore.close()
    return elapsed, None, THEIR_TRANSACTIONS[0] * 1000 / target


class _Live:
    """The live phase's writer: one gadget a step, its Made (unused) then its Shipped (used), each one save."""

    def __init__(self, log: EventLog) -> None:
        self._log = log
        self._numbers = itertools.count(10_000_000)

    def unused(self) -> int:
        number = next(self._numbers)
        self._gadget = Gadget(name=f"live {number}", owner="live@example.com")
        return self._log.save(self._gadget)[-1].notification.id

    def used(self, parcel: str = "LIVE") -> int:
        self.unused()
        self._gadget.ship(destination=DESTINATIONS[0], parcel=parcel)
        return self._log.save(self._gadget)[-1].notification.id


def _live_lag(
    live: _Live, rows: _Rows, sides: dict[str, Callable[[], int]], steps: int
) -> dict[str, list[float]]:  # fmt: skip
    """Milliseconds from ``save`` returning to each side's rows showing the shipment, over ``steps`` shipments."""
    lags: dict[str, list[float]] = {side: [] for side in sides}
    for _ in range(steps):
        before = {side: total() for side, total in sides.items()}
        live.used()
        written = time.perf_counter()
        waiting = set(sides)
        deadline = time.monotonic() + 10
        while waiting and time.monotonic() < deadline:
            for side in list(waiting):
                if sides[side]() > before[side]:
                    lags[side].append((time.perf_counter() - written) * 1000)
                    waiting.discard(side)
            time.sleep(POLL_SECONDS)
        for side in waiting:
            lags[side].append(10_000.0)  # did not show within 10 s
        time.sleep(0.005)
    return lags


def _timed(call: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    try:
        outcome: object = call()
    except TimeoutError as error:
        outcome = error
    return (time.perf_counter() - started) * 1000, outcome


def _replicas(
    log: EventLog, views: ViewDatabase, rows: _Rows, runner: ProjectionRunner[Any, Any], env: dict[str, str]
) -> list[str]:
    """Two replicas of one view at once, 30 shipments written: who ran, what failed, were the rows right."""
    conninfo = str(getattr(views, "conninfo"))  # noqa: B009  (PostgresViewDatabase's; not on the protocol)
    findings = []
    live = _Live(log)
    # Theirs: a second runner of the same projection beside the one already running.
    before = rows.theirs(TheirShipments.name)
    second = ProjectionRunner(
        application_class=EventLog, projection_class=TheirShipments, view_class=TheirRowsPostgres, env=env
    )
    second.__enter__()
    for _ in range(30):
        live.used()
        time.sleep(0.01)
    time.sleep(0.5)
    failed = []
    for label, each in (("first", runner), ("second", second)):
        try:
            each.run_forever(timeout=0)
        except Exception as error:
            failed.append(f"the {label} stopped with {type(error).__name__}: {str(error)[:70]}")
    with contextlib.suppress(Exception):
        second.__exit__(None, None, None)
    shown = rows.theirs(TheirShipments.name) - before
    findings.append(f"theirs, two runners: {'; '.join(failed) or 'neither stopped'}; rows show {shown} of 30 shipments")
    # Ours: two projectors with their leases (projections/leases.py), as two replicas run.
    stop = threading.Event()
    replicas = []
    for _ in range(2):
        leases = PostgresLeases(conninfo, log.name, [Shipments.name], check_seconds=0.05)
        view = Shipments()
        projector = Projector(log, views, [view], leases=leases)
        thread = threading.Thread(target=projector.run, args=(stop,), daemon=True)
        thread.start()
        replicas.append((leases, view, projector, thread))
    # They catch up on what the other test wrote, then count afresh.
    if not wait_for_views(views, log.name, [Shipments.name], log.max_notification_id(), 30):
        raise TimeoutError("our replicas did not catch up")
    time.sleep(0.2)
    before = rows.ours()
    for _leases, view, _projector, _thread in replicas:
        view.applied = 0
    for _ in range(30):
        live.used()
        time.sleep(0.01)
    _until(lambda: rows.ours() - before >= 30, "our replicas", 30)
    stop.set()
    for leases, _view, _projector, thread in replicas:
        thread.join(timeout=10)
        leases.close()
    applied = [view.applied for _leases, view, _projector, _thread in replicas]
    stalls = sum(len(projector.stalls) for _leases, _view, projector, _thread in replicas)
    findings.append(
        f"ours, two replicas: shipments applied by each {applied[0]} / {applied[1]}, stalls {stalls}; rows show "
        f"{rows.ours() - before} of 30"
    )
    return findings


BROKEN = "BROKEN"  # the parcel of the shipment a view fails on, its first FAILURES attempts
FAILURES = 2  # ours: once in its batch (rolled back, then given alone), once alone: a stall


class _Fails:
    """A failure on the shipment of parcel BROKEN, its first FAILURES attempts."""

    def __init__(self) -> None:
        self.attempts = 0
        self.first: float | None = None

    def check(self, event: Gadget.Shipped) -> None:
        if event.parcel == BROKEN and self.attempts < FAILURES:
            self.attempts += 1
            self.first = self.first or time.perf_counter()
            raise RuntimeError("a deliberate bug")


class FlakyShipments(Shipments):
    name: ClassVar[str] = "bench_flaky"
    tables: ClassVar[tuple[str, ...]] = ("bench_flaky",)
    failure: ClassVar[_Fails] = _Fails()

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _shipped(self, event: Gadget.Shipped, cursor: ViewCursor) -> None:
        self.failure.check(event)
        cursor.execute(UPSERT.format(table=self.tables[0], value="%(destination)s"), {"destination": event.destination})


class TheirFlaky(TheirShipments):
    name = "their_flaky"
    failure: ClassVar[_Fails] = _Fails()

    @dispatch.singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.insert_tracking(tracking)

    @process_event.register
    def _shipped(self, domain_event: Gadget.Shipped, tracking: Tracking) -> None:
        self.failure.check(domain_event)
        self.view.ship(domain_event.destination, tracking)


def _failing_event(log: EventLog, views: ViewDatabase, rows: _Rows, env: dict[str, str]) -> list[str]:
    """A view that fails on the third of 6 shipments, its first two attempts: ours retries it, theirs stops."""
    live = _Live(log)
    head = log.max_notification_id()
    # Ours, from the log's head.
    view = FlakyShipments()
    projector = Projector(log, views, [view])
    projector.setup()
    with views.transaction() as cursor:
        advance(cursor, view.name, log.name, 0, head)
    stop = threading.Event()
    thread = threading.Thread(target=projector.run, args=(stop,), daemon=True)
    quiet = logging.getLogger("projections.runner")
    quiet.disabled = True  # its stall is expected: no traceback on the bench's output
    thread.start()
    for number in range(6):
        live.used(BROKEN if number == 2 else "LIVE")
    seen = _until(lambda: rows.total(FlakyShipments.tables[0]) >= 6, "ours", 30, every=POLL_SECONDS)
    stop.set()
    thread.join(timeout=10)
    quiet.disabled = False
    failure = FlakyShipments.failure
    assert failure.first is not None
    ours = (
        f"ours: failed {failure.attempts} times on the third shipment, stalled, retried it by itself and went on: "
        f"all 6 applied {(seen - failure.first) * 1000:.0f} ms after the first failure"
    )
    # Theirs, from the log's head (its subscription starts where its tracking is as the runner is made).
    recorder = _their_view(env, TheirFlaky, TheirRowsPostgres)
    recorder.insert_tracking(Tracking(log.name, log.max_notification_id()))
    recorder.datastore.close()
    runner = ProjectionRunner(
        application_class=EventLog, projection_class=TheirFlaky, view_class=TheirRowsPostgres, env=env
    )
    runner.__enter__()
    time.sleep(0.2)
    for number in range(6):
        live.used(BROKEN if number == 2 else "LIVE")
    time.sleep(1.0)
    try:
        runner.run_forever(timeout=0)
        stopped = "still running"
    except RuntimeError as error:
        stopped = f"stopped with RuntimeError ({error})"
    shown = rows.theirs(TheirFlaky.name)
    with contextlib.suppress(Exception):
        runner.__exit__(None, None, None)
    return [ours, f"theirs: {stopped}; {shown} of 6 applied a second later, and none will be until it is restarted"]


class _Report:
    """What one store's run found: the harness's results, the comparison table, and the checks."""

    def __init__(self, store: str) -> None:
        self.store = store
        self.results: list[Result] = []
        self.rows: list[tuple[str, str, str, str]] = []
        self.findings: list[str] = []

    def compare(self, label: str, ours: float, theirs: float, unit: str, *, lower: bool = False, note: str = "",
                shown: str = "", target: float = 1.0) -> None:  # fmt: skip
        """A figure of both: a row of the table and a result of the harness (ours against theirs as baseline)."""
        digits = 0 if unit == "events/s" else 1
        self.rows.append((f"{label}, {unit}", f"{ours:,.{digits}f}", shown or f"{theirs:,.{digits}f}",
                          f"{ours / theirs:.2f}"))  # fmt: skip
        self.results.append(Result(f"followers: {label}", self.store, unit, ours, theirs, target,
                                   higher_is_better=not lower, note=note))  # fmt: skip

    def print(self) -> None:
        header = (f"followers on {self.store}", "ours", "eventsourcing.projection", "ours/theirs")
        widths = [max(len(row[column]) for row in [header, *self.rows]) for column in range(4)]
        for row in [header, *self.rows]:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        for finding in self.findings:
            print(f"  - {finding}")


def _catch_up(
    report: _Report, log: EventLog, views: ViewDatabase, rows: _Rows, log_env: dict[str, str], tmp: Path
) -> tuple[Projector, ProjectionRunner[Any, Any] | None]:
    """(a) Both from an empty view to the log's end; ours' projector and theirs' runner (PostgreSQL), ready to go on."""
    kind = report.store
    started = time.perf_counter()
    shipped, last_shipped = _record(log, smallest(int(os.environ.get("BENCH_FOLLOWERS_EVENTS", EVENTS)), 500))
    head = log.max_notification_id()
    appended = head / (time.perf_counter() - started)

    counting = _CountingTransactions(views)
    projector = Projector(log, counting, [Shipments()])
    projector.setup()
    counting.count = 0
    started = time.perf_counter()
    projector.catch_up()
    ours_rate = head / (time.perf_counter() - started)
    ours_per = counting.count * 1000 / head

    their_seconds, runner, their_per = _their_catch_up(kind, log_env, tmp, log, rows, TheirShipments, last_shipped)
    if not rows.ours() == rows.theirs(TheirShipments.name) == shipped:
        report.findings.append(
            f"ROWS DIFFER: ours {rows.ours()}, theirs {rows.theirs(TheirShipments.name)}, the log {shipped}"
        )
    part = min(head, smallest(EVERY_EVENT_SAMPLE, 100))
    every_seconds, every_runner, every_per = _their_catch_up(kind, log_env, tmp, log, rows, TheirEveryEvent, part)
    if every_runner is not None:
        with contextlib.suppress(Exception):
            every_runner.__exit__(None, None, None)
    note = f"{head:,} events, {shipped:,} used; the log appends {appended:,.0f}/s"
    if kind == "sqlite":
        full_seconds, _, _ = _their_catch_up(
            kind, log_env, tmp, log, rows, TheirFull, last_shipped, TheirRowsSQLiteFull
        )
        note += (
            "; theirs fed by a loop (their runner cannot start on SQLite); theirs with the library's own "
            f"synchronous=FULL {head / full_seconds:,.0f}/s"
        )
    report.compare("catch-up", ours_rate, head / their_seconds, "events/s", note=note)
    report.rows.append(("  transactions per 1,000 events", f"{ours_per:.1f}", f"{their_per:.1f}",
                        f"{ours_per / their_per:.2f}"))  # fmt: skip
    report.compare("catch-up, position over every event", ours_rate, part / every_seconds, "events/s",
                   note=f"theirs without topics, over the first {part:,} events of the log")  # fmt: skip
    report.rows.append(("  transactions per 1,000 events", f"{ours_per:.1f}", f"{every_per:.1f}",
                        f"{ours_per / every_per:.2f}"))  # fmt: skip
    return projector, runner


def _no_sqlite_runner(report: _Report, log_env: dict[str, str], tmp: Path) -> None:
    """(c) Can their runner follow a SQLite log at all?"""
    probe = {f"{TheirShipments.name.upper()}_SQLITE_DBNAME": str(tmp / "their_probe.sqlite3")}
    try:
        with ProjectionRunner(
            application_class=EventLog, projection_class=TheirShipments, view_class=TheirRowsSQLite,
            env=log_env | probe,
        ):  # fmt: skip
            report.findings.append("theirs: ProjectionRunner started on SQLite")
    except NotImplementedError as error:
        report.findings.append(
            f"theirs cannot follow a SQLite log: ProjectionRunner raises NotImplementedError ({error})"
        )


def _live(
    report: _Report, log: EventLog, views: ViewDatabase, rows: _Rows, runner: ProjectionRunner[Any, Any] | None
) -> None:
    """(b) Live lag, both followers running; (c) read your writes through each one's own wait."""
    live = _Live(log)
    sides: dict[str, Callable[[], int]] = {"ours": rows.ours}
    if runner is not None:
        sides["theirs"] = lambda: rows.theirs(TheirShipments.name)
    shipments = smallest(LIVE, 5)
    lags = _live_lag(live, rows, sides, shipments)
    for label, share in (("p50", 0.5), ("p95", 0.95)):
        ours = _percentile(lags["ours"], share)
        if runner is None:
            report.rows.append((f"live lag {label}, ms", f"{ours:.1f}", "cannot run", "-"))
            continue
        theirs = _percentile(lags["theirs"], share)
        report.compare(f"live lag {label}", ours, theirs, "ms", lower=True, target=LAG_TARGET,
                       note=f"{shipments} shipments, one a transaction, measured from save() returning")  # fmt: skip

    def ours_wait(position: int) -> object:
        return wait_for_views(views, log.name, [Shipments.name], position, 2.0) or TimeoutError("2 s")

    def theirs_wait(position: int) -> object:
        assert runner is not None
        runner.wait(position, timeout=THEIR_WAIT_TIMEOUT)
        return None

    waits: dict[str, Callable[[int], object]] = {"ours": ours_wait}
    if runner is not None:
        waits["theirs"] = theirs_wait
    writes: list[tuple[str, Callable[[], int], int]] = [
        ("uses", live.used, smallest(WAITS, 2)),
        ("does not use", live.unused, smallest(UNUSED_WAITS, 1)),
    ]
    for what, write, count in writes:
        waited: dict[str, list[tuple[float, object]]] = {side: [] for side in waits}
        for _ in range(count):
            for side, wait in waits.items():  # alternately, each on a write of its own
                position = write()
                waited[side].append(_timed(functools.partial(wait, position)))
            time.sleep(0.01)
        label = f"read your writes, event the view {what}"
        timeouts = {side: sum(isinstance(outcome, Exception) for _, outcome in each) for side, each in waited.items()}
        medians = {side: statistics.median(ms for ms, _ in each) for side, each in waited.items()}
        if runner is None:
            report.rows.append((f"{label}, ms", f"{medians['ours']:.1f}", "cannot run", "-"))
            continue
        shown = f"{medians['theirs']:,.0f}" + (
            f" ({timeouts['theirs']}/{count} timed out)" if timeouts["theirs"] else ""
        )
        note = f"median of {count} each; timed out: ours {timeouts['ours']}, theirs {timeouts['theirs']} (at 1 s)"
        report.compare(label, medians["ours"], medians["theirs"], "ms", lower=True, note=note, shown=shown)


def run(store: str, env: dict[str, str], *, seconds: int = 0, connections: int = 0, **_: object) -> list[Result]:
    """Record the log, then measure both followers on it (see the module)."""
    del seconds, connections  # sized by BENCH_FOLLOWERS_EVENTS
    report = _Report("postgres" if env.get("DATABASE_URL") else "sqlite")  # postgres+redis: Redis plays no part
    with tempfile.TemporaryDirectory(prefix="bench-followers-") as tmp_name:
        tmp = Path(tmp_name)
        settings = make_settings(tmp, **env)
        log = EventLog(settings.event_store_env)
        views = open_view_database(settings.view_store_env)
        log_env = dict(settings.event_store_env)
        rows = _Rows(
            report.store, getattr(views, "conninfo", ""), settings.view_store_env.get("SQLITE_DBNAME", ""), tmp
        )
        runner: ProjectionRunner[Any, Any] | None = None
        stop = threading.Event()
        following = None
        try:
            projector, runner = _catch_up(report, log, views, rows, log_env, tmp)
            if report.store == "sqlite":
                _no_sqlite_runner(report, log_env, tmp)
            following = threading.Thread(target=projector.run, args=(stop,), daemon=True)
            following.start()
            time.sleep(0.3)
            _live(report, log, views, rows, runner)
            stop.set()
            following.join(timeout=10)
            if runner is not None:  # (c) replicas and a failing event, where replicas run
                report.findings += _replicas(log, views, rows, runner, log_env)
                report.findings += _failing_event(log, views, rows, log_env)
        finally:
            stop.set()
            if following is not None:
                following.join(timeout=10)
            if runner is not None:
                with contextlib.suppress(Exception):
                    runner.__exit__(None, None, None)
            rows.close()
            views.close()
            log.close()
    report.print()
    return report.results

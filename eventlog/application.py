"""The one eventsourcing Application that holds the transactional core's log."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar
from uuid import UUID

import psycopg
from eventsourcing.application import AggregateNotFoundError, Application, project_aggregate
from eventsourcing.persistence import InterfaceError, JSONTranscoder, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

import events  # noqa: F401  (registers every event topic before anything is read)
from eventlog.doorbell import Doorbell, doorbells_supported
from events.transcodings import storefront_transcodings


class EventLog(Application[Any]):
    """The ordered log of every licence, subscription, payment and account event.

    One application means one total order (notification ids) for finance and one
    transaction for a purchase that touches several aggregates. The domain layer
    subclasses it to declare snapshotting intervals for its long-lived aggregates.
    """

    name = "Storefront"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "0"}

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        given = dict(env or {})
        with _schema_turn(self.construct_env(self.name, given)):
            super().__init__(given)
        self.doorbell = _doorbell_of(self.env)

    def _notify(self, recordings: list[Any]) -> None:
        # After each commit: on a SQLite file the followers are woken by the doorbell instead of their next poll.
        super()._notify(recordings)
        if self.doorbell is not None and recordings:
            self.doorbell.ring()

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for transcoding in storefront_transcodings():
            transcoder.register(transcoding)

    def max_notification_id(self) -> int:
        """Position of the newest event in the log (0 when empty)."""
        return self.recorder.max_notification_id() or 0

    def last_notification_of(self, originator_id: UUID, at_most: int) -> int | None:
        """The log position of the aggregate's latest event at or before ``at_most`` (None when it has none)."""
        recorder = self.recorder
        if isinstance(recorder, PostgresAggregateRecorder):
            statement = SQL(
                "SELECT MAX(notification_id) AS last FROM {schema}.{table} "
                "WHERE originator_id = %s AND notification_id <= %s"
            ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
            with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
                cursor.execute(statement, [originator_id, at_most])
                row = cursor.fetchone()
            return None if row is None or row["last"] is None else int(row["last"])
        table = recorder.events_table_name  # type: ignore[attr-defined]
        with recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute(
                f"SELECT MAX(rowid) AS last FROM {table} WHERE originator_id IN (?, ?) AND rowid <= ?",
                [originator_id.hex, str(originator_id), at_most],  # stored as hex here; either form is found
            )
            found = cursor.fetchone()
        return None if found is None or found["last"] is None else int(found["last"])

    def positions_of(self, originator_ids: Iterable[UUID]) -> dict[tuple[UUID, int], int]:
        """The log position (notification id) of every event of the aggregates, by (aggregate id, version)."""
        ids = list(dict.fromkeys(originator_ids))
        if not ids:
            return {}
        recorder = self.recorder
        found: dict[tuple[UUID, int], int] = {}
        if isinstance(recorder, PostgresAggregateRecorder):
            statement = SQL(
                "SELECT originator_id, originator_version, notification_id FROM {schema}.{table} "
                "WHERE originator_id = ANY(%s)"
            ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
            with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
                cursor.execute(statement, [ids])
                for row in cursor.fetchall():
                    found[(UUID(str(row["originator_id"])), int(row["originator_version"]))] = int(
                        row["notification_id"]
                    )
            return found
        table = recorder.events_table_name  # type: ignore[attr-defined]
        keys = [form for originator_id in ids for form in (originator_id.hex, str(originator_id))]
        marks = ", ".join("?" for _ in keys)
        with recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute(
                f"SELECT originator_id, originator_version, rowid AS position FROM {table} "
                f"WHERE originator_id IN ({marks})",
                keys,
            )
            for row in cursor.fetchall():
                found[(UUID(str(row["originator_id"])), int(row["originator_version"]))] = int(row["position"])
        return found

    def get_many(self, aggregate_ids: Iterable[UUID]) -> dict[UUID, Any]:
        """The current state of several aggregates, read in one query on PostgreSQL (one read each elsewhere);
        an id nobody recorded is left out. Every event is replayed (snapshots only shorten single reads)."""
        ids = list(dict.fromkeys(aggregate_ids))
        recorder = self.recorder
        if not isinstance(recorder, PostgresAggregateRecorder):
            found: dict[UUID, Any] = {}
            for aggregate_id in ids:
                try:
                    found[aggregate_id] = self.repository.get(aggregate_id)
                except AggregateNotFoundError:
                    continue
            return found
        histories: dict[UUID, list[Any]] = {}
        for stored in _select_events_of(recorder, ids):
            histories.setdefault(UUID(str(stored.originator_id)), []).append(self.mapper.to_domain_event(stored))
        return {aggregate_id: project_aggregate(None, history) for aggregate_id, history in histories.items()}


SCHEMA_LOCK = 7_362_001  # the advisory lock held while a process creates the log's tables and functions


@contextlib.contextmanager
def _schema_turn(env: Mapping[str, str]) -> Iterator[None]:
    """On PostgreSQL, one process at a time opens the log: eventsourcing creates its tables and replaces its insert
    function as it opens, and processes starting together on a new database (the API, the projector, the workers)
    failed each other with "tuple concurrently updated" on the function. Elsewhere, nothing to wait for."""
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        yield
        return
    with psycopg.connect(
        dbname=env.get("POSTGRES_DBNAME", "postgres"),
        host=env.get("POSTGRES_HOST", "127.0.0.1"),
        port=env.get("POSTGRES_PORT", "5432"),
        user=env.get("POSTGRES_USER", "postgres"),
        password=env.get("POSTGRES_PASSWORD", ""),
        connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT", "5"))),
        autocommit=True,
        application_name="storefront-schema",
    ) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        yield  # the lock ends with the session


def _doorbell_of(env: Mapping[str, str]) -> Doorbell | None:
    """The doorbell of a log kept in a SQLite file (PostgreSQL notifies; an in-memory log has no other process)."""
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite" or not doorbells_supported():
        return None
    path = env.get("SQLITE_DBNAME", "")
    if not path or ":memory:" in path or "mode=memory" in path:
        return None
    return Doorbell(path)


@retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
def _select_events_of(recorder: PostgresAggregateRecorder, ids: list[UUID]) -> list[StoredEvent]:
    """Every stored event of ``ids``, each aggregate's in version order (retried as the recorder's own reads are,
    so a PostgreSQL restart reads as a wait)."""
    statement = SQL(
        "SELECT originator_id, originator_version, topic, state FROM {schema}.{table} "
        "WHERE originator_id = ANY(%s) ORDER BY originator_id, originator_version"
    ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
    with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
        cursor.execute(statement, [ids], prepare=True)
        return [
            StoredEvent(
                originator_id=row["originator_id"],
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=bytes(row["state"]),
            )
            for row in cursor.fetchall()
        ]

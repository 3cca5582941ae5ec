"""The transparency log: every stored event is a leaf of an append-only RFC 9162 Merkle tree, in log order.

A leaf is the SHA-256 leaf hash of the stored record's canonical encoding (``canonical_record``). The tree's
complete subtree hashes live in the log's own database (``merkle_leaves``, ``merkle_nodes``), appended by a
follower whose position (``view_tracking`` row ``transparency_log``) moves by compare-and-set in the same
transaction as the nodes, so each event becomes a leaf exactly once, in notification-id order.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Notification

from eventlog import merkle
from eventlog.database import ViewCursor, ViewDatabase
from eventlog.tracking import PositionMovedError, advance, ensure_tracking_row

log = logging.getLogger(__name__)

TRACKER = "transparency_log"
BATCH_SIZE = 500

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS merkle_leaves ("
    "leaf_index BIGINT PRIMARY KEY, "
    "notification_id BIGINT NOT NULL UNIQUE, "
    "leaf_hash TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS merkle_nodes ("
    "level INTEGER NOT NULL, "
    "node_index BIGINT NOT NULL, "
    "hash TEXT NOT NULL, "
    "PRIMARY KEY (level, node_index))",
)


def canonical_record(
    originator_id: UUID | str, originator_version: int, topic: str, state: bytes, notification_id: int
) -> bytes:
    """The bytes a leaf hashes: the stored record as JSON with sorted keys, no spaces, ASCII only.

    ``state`` is the stored bytes exactly as recorded, in base64, so any byte changed in the
    database changes the leaf; the originator id is the UUID's canonical hyphenated form.
    """
    record = {
        "notification_id": int(notification_id),
        "originator_id": str(UUID(str(originator_id))),
        "originator_version": int(originator_version),
        "state": base64.b64encode(bytes(state)).decode("ascii"),
        "topic": topic,
    }
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def leaf_of(notification: Notification) -> bytes:
    """The leaf hash of one stored event."""
    return merkle.leaf_hash(
        canonical_record(
            notification.originator_id,
            notification.originator_version,
            notification.topic,
            notification.state,
            notification.id,
        )
    )


def read_log(recorder: ApplicationRecorder, after: int = 0, stop_at: int | None = None) -> Iterator[Notification]:
    """Every stored event after ``after`` (up to ``stop_at`` when given), in notification-id order, in batches."""
    position = after
    while True:
        batch = recorder.select_notifications(start=position + 1, limit=BATCH_SIZE, stop=stop_at)
        yield from batch
        if len(batch) < BATCH_SIZE:
            return
        position = batch[-1].id


@dataclass(frozen=True)
class Leaf:
    """One leaf of the stored tree."""

    index: int
    notification_id: int
    hash: bytes


class TransparencyLog:
    """The stored tree of one log, in the log's database."""

    def __init__(self, recorder: ApplicationRecorder, db: ViewDatabase, application_name: str) -> None:
        self.recorder = recorder
        self.db = db
        self.application_name = application_name

    def setup(self) -> None:
        """Create the tree's tables and the follower's tracking row (idempotent)."""
        with self.db.transaction() as cursor:
            for statement in SCHEMA:
                cursor.execute(statement)
            ensure_tracking_row(cursor, TRACKER, self.application_name)

    def position(self) -> int:
        """The notification id of the newest event in the tree (0 when empty)."""
        with self.db.read() as cursor:
            return self._position(cursor)

    def _position(self, cursor: ViewCursor) -> int:
        cursor.execute(
            "SELECT notification_id FROM view_tracking WHERE view_name = %(view)s AND application_name = %(app)s",
            {"view": TRACKER, "app": self.application_name},
        )
        row = cursor.fetchone()
        return int(row["notification_id"]) if row else 0

    def size(self) -> int:
        """How many leaves the tree has."""
        with self.db.read() as cursor:
            return _size(cursor)

    def extend(self) -> int:
        """Append every event recorded since the last run, a batch per transaction; returns the tree size.

        Safe to run from several processes at once: a batch another runner committed first makes
        this one's transaction roll back, and it carries on from the stored position.
        """
        while True:
            previous = self.position()
            batch = self.recorder.select_notifications(start=previous + 1, limit=BATCH_SIZE)
            if not batch:
                return self.size()
            try:
                self.append(batch, previous)
            except PositionMovedError:
                log.info("transparency log: another runner appended first; resuming from its position")

    def append(self, notifications: Sequence[Notification], previous: int) -> None:
        """Add these events (the ones right after ``previous``) as leaves, with every node they complete."""
        with self.db.transaction() as cursor:
            advance(cursor, TRACKER, self.application_name, previous, notifications[-1].id)
            size = _size(cursor)
            cache: dict[tuple[int, int], bytes] = {}

            def node(level: int, index: int) -> bytes:
                key = (level, index)
                if key not in cache:
                    cache[key] = _read_node(cursor, level, index)
                return cache[key]

            leaves: list[tuple[int, int, bytes]] = []
            nodes: list[tuple[int, int, bytes]] = []
            for offset, notification in enumerate(notifications):
                index = size + offset
                leaf = leaf_of(notification)
                leaves.append((index, notification.id, leaf))
                cache[(0, index)] = leaf
                level, position, current = 0, index, leaf
                while position & 1:
                    current = merkle.node_hash(node(level, position - 1), current)
                    level, position = level + 1, position >> 1
                    cache[(level, position)] = current
                    nodes.append((level, position, current))
            _insert_many(cursor, self.db.dialect, "merkle_leaves (leaf_index, notification_id, leaf_hash)", leaves)
            _insert_many(cursor, self.db.dialect, "merkle_nodes (level, node_index, hash)", nodes)

    def follow(self, stop: threading.Event, poll_interval: float = 0.5) -> None:
        """Keep appending new events until ``stop`` is set."""
        self.setup()
        while not stop.is_set():
            self.extend()
            stop.wait(poll_interval)

    def root(self, size: int | None = None) -> tuple[int, bytes]:
        """``(size, root hash)`` of the tree's first ``size`` leaves (the whole tree by default)."""
        with self.db.read() as cursor:
            tree_size = _size(cursor)
            wanted = tree_size if size is None else size
            if not 0 <= wanted <= tree_size:
                raise ValueError(f"the tree has {tree_size} leaves, not {wanted}")
            return wanted, merkle.root_hash(_reader(cursor), wanted)

    def leaf(self, notification_id: int) -> Leaf | None:
        """The leaf recorded for an event, if the tree has it."""
        with self.db.read() as cursor:
            cursor.execute(
                "SELECT leaf_index, notification_id, leaf_hash FROM merkle_leaves WHERE notification_id = %(nid)s",
                {"nid": notification_id},
            )
            row = cursor.fetchone()
        if row is None:
            return None
        return Leaf(int(row["leaf_index"]), int(row["notification_id"]), bytes.fromhex(row["leaf_hash"]))

    def leaves(self, start_index: int = 0) -> Iterator[Leaf]:
        """The stored leaves in order from ``start_index``, in batches."""
        index = start_index
        while True:
            with self.db.read() as cursor:
                cursor.execute(
                    "SELECT leaf_index, notification_id, leaf_hash FROM merkle_leaves "
                    "WHERE leaf_index >= %(index)s ORDER BY leaf_index LIMIT %(limit)s",
                    {"index": index, "limit": BATCH_SIZE * 4},
                )
                rows = cursor.fetchall()
            for row in rows:
                yield Leaf(int(row["leaf_index"]), int(row["notification_id"]), bytes.fromhex(row["leaf_hash"]))
            if len(rows) < BATCH_SIZE * 4:
                return
            index = int(rows[-1]["leaf_index"]) + 1

    def inclusion_proof(self, leaf_index: int, size: int) -> list[bytes]:
        """The audit path of a leaf in the tree of ``size`` leaves."""
        with self.db.read() as cursor:
            return merkle.inclusion_proof(_reader(cursor), leaf_index, size)

    def consistency_proof(self, old_size: int, new_size: int) -> list[bytes]:
        """The proof that the tree of ``old_size`` leaves is a prefix of the tree of ``new_size``."""
        with self.db.read() as cursor:
            tree_size = _size(cursor)
            if new_size > tree_size:
                raise ValueError(f"the tree has {tree_size} leaves, not {new_size}")
            return merkle.consistency_proof(_reader(cursor), old_size, new_size)


def _insert_many(cursor: ViewCursor, dialect: str, table: str, rows: Sequence[tuple[int, int, bytes]]) -> None:
    """One INSERT for the whole batch (a round trip per batch, not per row); hashes stored as hex."""
    if not rows:
        return
    if dialect == "postgres":  # three array parameters: cheaper to send and parse than thousands of scalars
        firsts, seconds, digests = zip(*rows, strict=True)
        cursor.execute(
            f"INSERT INTO {table} SELECT * FROM unnest(%(a)s::bigint[], %(b)s::bigint[], %(h)s::text[])",
            {"a": list(firsts), "b": list(seconds), "h": [digest.hex() for digest in digests]},
        )
        return
    values = ", ".join(f"(%(a{n})s, %(b{n})s, %(h{n})s)" for n in range(len(rows)))
    params: dict[str, object] = {}
    for n, (first, second, digest) in enumerate(rows):
        params.update({f"a{n}": first, f"b{n}": second, f"h{n}": digest.hex()})
    cursor.execute(f"INSERT INTO {table} VALUES {values}", params)


def _size(cursor: ViewCursor) -> int:
    cursor.execute("SELECT COUNT(*) AS n FROM merkle_leaves")
    row = cursor.fetchone()
    return int(row["n"]) if row else 0


def _read_node(cursor: ViewCursor, level: int, index: int) -> bytes:
    if level == 0:
        cursor.execute("SELECT leaf_hash AS hash FROM merkle_leaves WHERE leaf_index = %(index)s", {"index": index})
    else:
        cursor.execute(
            "SELECT hash FROM merkle_nodes WHERE level = %(level)s AND node_index = %(index)s",
            {"level": level, "index": index},
        )
    row = cursor.fetchone()
    if row is None:
        raise LookupError(f"the stored tree has no node ({level}, {index})")
    return bytes.fromhex(row["hash"])


def _reader(cursor: ViewCursor) -> merkle.NodeReader:
    return lambda level, index: _read_node(cursor, level, index)


def notifications_of(recorder: ApplicationRecorder, originator_ids: Iterable[UUID]) -> list[int]:
    """The notification ids of every event of the given aggregates, in log order."""
    wanted = {str(UUID(str(originator_id))) for originator_id in originator_ids}
    return [n.id for n in read_log(recorder) if str(UUID(str(n.originator_id))) in wanted]

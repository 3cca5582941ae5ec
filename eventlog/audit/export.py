"""Exporting the log for finance: chosen events as JSONL, CSV or Parquet, with a manifest naming the checkpoint.

Every exported row is a leaf of the signed tree the manifest names: its ``record`` is the canonical
encoding whose ``SHA-256(0x00 || record)`` is ``leaf_hash``, at ``leaf_index``, so an export can be
checked row by row against the checkpoint without our code. A row the back office exported with fields withheld
(``withheld`` names them; domain/staff/disclosure.py decides) has no ``record``: its ``leaf_hash`` still places it
in the tree, and the command line's export has it whole.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from eventlog import csv_files
from eventlog.application import EventLog
from eventlog.checkpoints import SignedCheckpoint
from eventlog.merkle import leaf_hash
from eventlog.transparency import TransparencyLog, canonical_record, read_log


class ExportFormat(StrEnum):
    """Every format an export is written in: the API's choice of format and the back office's list of them come from
    here (through the OpenAPI schema)."""

    JSONL = "jsonl"
    CSV = "csv"
    PARQUET = "parquet"


FORMATS = tuple(ExportFormat)
CONTENT_TYPES = {
    ExportFormat.JSONL: "application/x-ndjson",
    ExportFormat.CSV: "text/csv; charset=utf-8",
    ExportFormat.PARQUET: "application/octet-stream",
}
COLUMNS = (
    "notification_id",
    "leaf_index",
    "timestamp",
    "topic",
    "originator_id",
    "originator_version",
    "state",
    "record",
    "leaf_hash",
    "withheld",
)
PARQUET_BATCH = 5000


@dataclass(frozen=True)
class Selection:
    """Which events to export: a half-open time range ``[since, until)`` and topics (``payment.*`` for a family)."""

    since: datetime | None = None
    until: datetime | None = None
    topics: Sequence[str] = ()

    def wants_topic(self, topic: str) -> bool:
        """Whether an event of this topic is exported."""
        if not self.topics:
            return True
        return any(topic == t or (t.endswith("*") and topic.startswith(t[:-1])) for t in self.topics)

    def wants_time(self, timestamp: datetime) -> bool:
        """Whether an event recorded at this time is exported."""
        return (self.since is None or timestamp >= self.since) and (self.until is None or timestamp < self.until)


def rows(
    log: EventLog,
    tree: TransparencyLog,
    checkpoint: SignedCheckpoint,
    selection: Selection,
    advance: Callable[[int], object] = lambda _: None,
) -> Iterator[dict[str, Any]]:
    """The selected events of the signed tree, in log order, as export rows."""
    size = checkpoint.checkpoint.size
    notifications = read_log(log.recorder)
    for leaf in tree.leaves():
        if leaf.index >= size:
            return
        notification = next(notifications, None)
        if notification is None or notification.id != leaf.notification_id:
            raise LookupError(f"event {leaf.notification_id} of the tree is not in its place in the log: run verify")
        advance(1)
        if not selection.wants_topic(notification.topic):
            continue
        event: Any = log.mapper.to_domain_event(notification)
        if not selection.wants_time(event.timestamp):
            continue
        record = canonical_record(
            notification.originator_id,
            notification.originator_version,
            notification.topic,
            notification.state,
            notification.id,
        )
        yield {
            "notification_id": notification.id,
            "leaf_index": leaf.index,
            "timestamp": event.timestamp.isoformat(),
            "topic": notification.topic,
            "originator_id": str(event.originator_id),
            "originator_version": notification.originator_version,
            "state": bytes(notification.state).decode("utf-8"),
            "record": record.decode("ascii"),
            "leaf_hash": leaf_hash(record).hex(),
            "withheld": "",
        }


def write(path: Path, fmt: str, selected: Iterator[dict[str, Any]], columns: Sequence[str] = COLUMNS) -> int:
    """Write the rows in the format (CSV with these columns); returns how many were written."""
    if fmt == "jsonl":
        count = 0
        with path.open("w", encoding="utf-8") as out:
            for row in selected:
                out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
                count += 1
        return count
    if fmt == "csv":
        count = 0
        with path.open("w", encoding="utf-8", newline="") as out:
            writer = csv_files.DictWriter(out, fieldnames=columns)
            writer.writeheader()
            for row in selected:
                writer.writerow(row)
                count += 1
        return count
    if fmt == "parquet":
        return _write_parquet(path, selected)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def _write_parquet(path: Path, selected: Iterator[dict[str, Any]]) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("notification_id", pa.int64()),
            ("leaf_index", pa.int64()),
            ("timestamp", pa.string()),
            ("topic", pa.string()),
            ("originator_id", pa.string()),
            ("originator_version", pa.int64()),
            ("state", pa.string()),
            ("record", pa.string()),
            ("leaf_hash", pa.string()),
            ("withheld", pa.string()),
        ]
    )
    count = 0
    with pq.ParquetWriter(str(path), schema) as writer:
        batch: list[dict[str, Any]] = []
        for row in selected:
            batch.append(row)
            if len(batch) == PARQUET_BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                count += len(batch)
                batch = []
        if batch or count == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            count += len(batch)
    return count


def manifest(
    path: Path,
    fmt: str,
    count: int,
    selection: Selection,
    checkpoint: SignedCheckpoint,
    verifier_key: str,
    created_at: datetime,
) -> dict[str, Any]:
    """What an export holds and the signed checkpoint every row of it is a leaf of."""
    digest = hashlib.sha256()
    with path.open("rb") as exported:
        for chunk in iter(lambda: exported.read(1 << 20), b""):
            digest.update(chunk)
    return {
        "file": path.name,
        "format": fmt,
        "rows": count,
        "sha256": digest.hexdigest(),
        "selection": {
            "since": selection.since.isoformat() if selection.since else None,
            "until": selection.until.isoformat() if selection.until else None,
            "topics": list(selection.topics),
        },
        "checkpoint": {
            "origin": checkpoint.checkpoint.origin,
            "tree_size": checkpoint.checkpoint.size,
            "root_hash": checkpoint.checkpoint.root.hex(),
            "signed_at": checkpoint.signed_at,
            "note": checkpoint.note,
        },
        "verifier_key": verifier_key,
        "leaf_hash": "SHA-256(0x00 || record); the record is the row's canonical encoding (ASCII JSON)",
        "withheld": "a row naming fields here had them withheld from its state, and has no record (its leaf_hash "
        "still places it in the tree; python -m eventlog.audit export has it whole)",
        "created_at": created_at.isoformat(),
    }

"""Finance's background jobs (verify the log, export events, a month-end close pack): each a row of
``finance_jobs`` in the view database with its progress and result, its files kept in the object store under
``finance/<job id>/`` for download.

A job is requested (``queued``) by the API and run by a Celery worker (bootstrap/finance.py ``run_job``), which
claims it first, so a task delivered twice runs it once. Any API replica reads a job's progress from the table. A
job waits ``queued`` while its task waits in the broker; a job whose worker died mid-run stays ``running``, is shown
as stalled once it has not moved for ``STALL_AFTER``, and is run again when the broker delivers its task again.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from domain.clock import Clock
from domain.ports import ObjectStore, StoredObject
from eventlog.database import ViewDatabase

log = logging.getLogger(__name__)

STALL_AFTER = timedelta(minutes=10)
PROGRESS_EVERY = 500
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS finance_jobs ("
    "job_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL, done BIGINT NOT NULL, "
    "total BIGINT NOT NULL, "
    "params TEXT NOT NULL, result TEXT, files TEXT NOT NULL, actor_id TEXT, created_at TEXT NOT NULL, "
    "moved_at TEXT NOT NULL, finished_at TEXT)",
    "CREATE INDEX IF NOT EXISTS finance_jobs_kind ON finance_jobs (kind, seq)",
)


@dataclass
class Progress:
    """What a running job reports: ``advance(n)`` events done, ``total`` when known, ``keep`` a file."""

    jobs: FinanceJobs
    job_id: UUID
    total: int = 0
    done: int = 0
    _reported: int = 0

    def set_total(self, total: int) -> None:
        """How many steps the job will take."""
        self.total = total
        self.jobs.report(self.job_id, self.done, total)

    def advance(self, steps: int = 1) -> None:
        """``steps`` more are done (the table is written every ``PROGRESS_EVERY``)."""
        self.done += steps
        if self.done - self._reported >= PROGRESS_EVERY:
            self._reported = self.done
            self.jobs.report(self.job_id, self.done, max(self.total, self.done))

    def keep(self, name: str, data: bytes, content_type: str) -> None:
        """Keep one of the job's files for download."""
        self.jobs.objects.put(f"finance/{self.job_id}/{name}", StoredObject(data, content_type))
        self.jobs.add_file(self.job_id, name)


class FinanceJobs:
    """Start, follow and list finance's background jobs."""

    def __init__(self, db: ViewDatabase, objects: ObjectStore, clock: Clock) -> None:
        self.db = db
        self.objects = objects
        self.clock = clock
        self._ready = False

    def setup(self) -> None:
        """Create the table (idempotent)."""
        if self._ready:
            return
        with self.db.transaction() as cursor:
            for statement in SCHEMA:
                cursor.execute(statement)
        self._ready = True

    def request(self, kind: str, params: dict[str, Any], actor_id: UUID | None) -> UUID:
        """Record a job for a worker to run: ``queued`` until one claims it."""
        self.setup()
        job_id = uuid4()
        now = self.clock.now().isoformat()
        with self.db.transaction() as cursor:
            cursor.execute(
                "INSERT INTO finance_jobs (job_id, seq, kind, state, done, total, params, result, files, actor_id, "
                "created_at, moved_at, finished_at) SELECT %(id)s, COALESCE(MAX(seq), 0) + 1, %(kind)s, 'queued', "
                "0, 0, %(params)s, NULL, "
                "'[]', %(actor)s, %(now)s, %(now)s, NULL FROM finance_jobs",
                {
                    "id": str(job_id),
                    "kind": kind,
                    "params": json.dumps(params, sort_keys=True),
                    "actor": str(actor_id) if actor_id else None,
                    "now": now,
                },
            )
        return job_id

    def requested(self, job_id: UUID) -> tuple[str, dict[str, Any], UUID | None] | None:
        """A job's kind, parameters and requester, as recorded (None for a job this table does not hold)."""
        self.setup()
        with self.db.read() as cursor:
            cursor.execute("SELECT kind, params, actor_id FROM finance_jobs WHERE job_id = %(id)s", {"id": str(job_id)})
            row = cursor.fetchone()
        if row is None:
            return None
        return str(row["kind"]), json.loads(row["params"]), UUID(row["actor_id"]) if row["actor_id"] else None

    def run(self, job_id: UUID, work: Callable[[Progress], dict[str, Any]]) -> bool:
        """Claim the job and run ``work`` here and now; its answer is the job's result. False when the job is not
        this worker's to run: another delivery of its task has it, or had it."""
        if not self._claim(job_id):
            return False
        progress = Progress(self, job_id)
        try:
            result = work(progress)
        except Exception as failure:
            log.exception("finance job %s failed", job_id)
            self._finish(job_id, "failed", {"error": str(failure)}, progress)
            return True
        self._finish(job_id, "done", result, progress)
        return True

    def _claim(self, job_id: UUID) -> bool:
        # A queued job, or one whose worker died while it ran (no progress for STALL_AFTER: the broker delivers the
        # task again once the dead worker's lease runs out). The update names the state it saw, so of two claims at
        # once only one moves the row.
        now = self.clock.now()  # the test clock reads the view database: not inside the transaction
        with self.db.transaction() as cursor:
            cursor.execute("SELECT state, moved_at FROM finance_jobs WHERE job_id = %(id)s", {"id": str(job_id)})
            row = cursor.fetchone()
            if row is None:
                return False
            abandoned = row["state"] == "running" and datetime.fromisoformat(row["moved_at"]) < now - STALL_AFTER
            if row["state"] != "queued" and not abandoned:
                return False
            cursor.execute(
                "UPDATE finance_jobs SET state = 'running', done = 0, files = '[]', moved_at = %(now)s "
                "WHERE job_id = %(id)s AND state = %(state)s AND moved_at = %(moved)s",
                {"id": str(job_id), "now": now.isoformat(), "state": row["state"], "moved": row["moved_at"]},
            )
            return cursor.rowcount == 1

    def refuse(self, job_id: UUID, error: str) -> None:
        """A job that will not run (its request could not be recorded): failed, with why."""
        with self.db.transaction() as cursor:
            cursor.execute(
                "UPDATE finance_jobs SET state = 'failed', result = %(result)s WHERE job_id = %(id)s",
                {"result": json.dumps({"error": error}), "id": str(job_id)},
            )

    def report(self, job_id: UUID, done: int, total: int) -> None:
        """Write a running job's progress."""
        now = self.clock.now().isoformat()  # the test clock reads the view database: not inside the transaction
        with self.db.transaction() as cursor:
            cursor.execute(
                "UPDATE finance_jobs SET done = %(done)s, total = %(total)s, moved_at = %(now)s WHERE job_id = %(id)s",
                {"done": done, "total": total, "now": now, "id": str(job_id)},
            )

    def add_file(self, job_id: UUID, name: str) -> None:
        """Name one more file of the job."""
        with self.db.transaction() as cursor:
            cursor.execute("SELECT files FROM finance_jobs WHERE job_id = %(id)s", {"id": str(job_id)})
            row = cursor.fetchone()
            files = [*json.loads(row["files"]), name] if row else [name]
            cursor.execute(
                "UPDATE finance_jobs SET files = %(files)s WHERE job_id = %(id)s",
                {"files": json.dumps(files), "id": str(job_id)},
            )

    def _finish(self, job_id: UUID, state: str, result: dict[str, Any], progress: Progress) -> None:
        now = self.clock.now().isoformat()
        total = max(progress.total, progress.done)
        with self.db.transaction() as cursor:
            cursor.execute(
                "UPDATE finance_jobs SET state = %(state)s, result = %(result)s, done = %(done)s, total = %(total)s, "
                "moved_at = %(now)s, finished_at = %(now)s WHERE job_id = %(id)s",
                {
                    "state": state,
                    "result": json.dumps(result, sort_keys=True, default=str),
                    "done": total if state == "done" else progress.done,
                    "total": total,
                    "now": now,
                    "id": str(job_id),
                },
            )

    def get(self, job_id: UUID) -> dict[str, Any] | None:
        """One job as the back office shows it."""
        self.setup()
        with self.db.read() as cursor:
            cursor.execute("SELECT * FROM finance_jobs WHERE job_id = %(id)s", {"id": str(job_id)})
            row = cursor.fetchone()
        return None if row is None else self._shown(row)

    def list(self, kind: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The newest jobs first (of one kind when given)."""
        self.setup()
        with self.db.read() as cursor:
            cursor.execute(
                "SELECT * FROM finance_jobs WHERE %(kind)s = '' OR kind = %(kind)s ORDER BY seq DESC LIMIT %(limit)s",
                {"kind": kind or "", "limit": limit},
            )
            rows = cursor.fetchall()
        return [self._shown(row) for row in rows]  # outside the read: the test clock reads the database too

    def file(self, job_id: UUID, name: str) -> StoredObject | None:
        """One kept file of a job."""
        job = self.get(job_id)
        if job is None or name not in job["files"]:
            return None
        return self.objects.get(f"finance/{job_id}/{name}")

    def _shown(self, row: dict[str, Any]) -> dict[str, Any]:
        state = str(row["state"])
        if state == "running" and datetime.fromisoformat(row["moved_at"]) < self.clock.now() - STALL_AFTER:
            state = "stalled"
        return {
            "job_id": row["job_id"],
            "kind": row["kind"],
            "state": state,
            "done": int(row["done"]),
            "total": int(row["total"]),
            "params": json.loads(row["params"]),
            "result": json.loads(row["result"]) if row["result"] else None,
            "files": json.loads(row["files"]),
            "actor_id": row["actor_id"],
            "created_at": row["created_at"],
            "finished_at": row["finished_at"],
        }

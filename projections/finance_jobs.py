"""Finance's background jobs as the back office lists them (domain/finance/jobs.py): each job's kind, state,
progress, result and files, newest first."""

from __future__ import annotations

import json
from functools import singledispatchmethod
from typing import Any

from eventlog.database import ViewCursor, ViewDatabase
from events.finance import JobClaimed, JobFileKept, JobFinished, JobProgressed, JobRequested
from projections.reports import utc_text
from projections.view import View


class FinanceJobsView(View):
    """One row a job, moved by each of its events."""

    name = "finance_jobs"
    tables = ("finance_jobs_view",)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS finance_jobs_view ("
            "job_id TEXT PRIMARY KEY, position BIGINT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL, "
            "attempt INTEGER NOT NULL, "
            "done BIGINT NOT NULL, total BIGINT NOT NULL, params TEXT NOT NULL, result TEXT, files TEXT NOT NULL, "
            "actor_id TEXT NOT NULL, requested_at TEXT NOT NULL, moved_at TEXT NOT NULL, finished_at TEXT)",
            "CREATE INDEX IF NOT EXISTS finance_jobs_view_kind ON finance_jobs_view (kind, position)",
            "CREATE INDEX IF NOT EXISTS finance_jobs_view_position ON finance_jobs_view (position)",
        ]

    def apply_at(self, event: Any, notification_id: int, cursor: ViewCursor) -> None:
        if isinstance(event, JobRequested):  # jobs are listed in the order they were asked for: their log position
            self._requested(event, notification_id, cursor)
        else:
            self.apply(event, cursor)

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _asked(self, event: JobRequested, cursor: ViewCursor) -> None:
        raise NotImplementedError("a request is applied with its position: apply_at")

    def _requested(self, event: JobRequested, position: int, cursor: ViewCursor) -> None:
        at = utc_text(event.timestamp)
        cursor.execute(
            "INSERT INTO finance_jobs_view (job_id, position, kind, state, attempt, done, total, params, result, "
            "files, actor_id, requested_at, moved_at, finished_at) VALUES (%(id)s, %(position)s, %(kind)s, 'queued', "
            "0, 0, 0, %(params)s, NULL, '[]', %(actor)s, %(at)s, %(at)s, NULL)",
            {
                "id": str(event.originator_id),
                "position": position,
                "kind": event.kind,
                "params": json.dumps(event.params, sort_keys=True),
                "actor": str(event.actor_id),
                "at": at,
            },
        )

    @apply.register
    def _claimed(self, event: JobClaimed, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE finance_jobs_view SET state = 'running', attempt = %(attempt)s, done = 0, total = 0, "
            "files = '[]', moved_at = %(at)s WHERE job_id = %(id)s",
            {"attempt": event.attempt, "at": utc_text(event.timestamp), "id": str(event.originator_id)},
        )

    @apply.register
    def _progressed(self, event: JobProgressed, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE finance_jobs_view SET done = %(done)s, total = %(total)s, moved_at = %(at)s WHERE job_id = %(id)s",
            {"done": event.done, "total": event.total, "at": utc_text(event.timestamp), "id": str(event.originator_id)},
        )

    @apply.register
    def _file_kept(self, event: JobFileKept, cursor: ViewCursor) -> None:
        cursor.execute("SELECT files FROM finance_jobs_view WHERE job_id = %(id)s", {"id": str(event.originator_id)})
        row = cursor.fetchone()
        files = [*json.loads(row["files"]), event.name] if row else [event.name]
        cursor.execute(
            "UPDATE finance_jobs_view SET files = %(files)s, moved_at = %(at)s WHERE job_id = %(id)s",
            {"files": json.dumps(files), "at": utc_text(event.timestamp), "id": str(event.originator_id)},
        )

    @apply.register
    def _finished(self, event: JobFinished, cursor: ViewCursor) -> None:
        at = utc_text(event.timestamp)
        cursor.execute(
            "UPDATE finance_jobs_view SET state = %(state)s, result = %(result)s, done = %(done)s, total = %(total)s, "
            "moved_at = %(at)s, finished_at = %(at)s WHERE job_id = %(id)s",
            {
                "state": "done" if event.ok else "failed",
                "result": json.dumps(event.result, sort_keys=True),
                "done": event.done,
                "total": event.total,
                "at": at,
                "id": str(event.originator_id),
            },
        )


def finance_jobs(db: ViewDatabase, kind: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """The newest jobs first (of one kind when given), as stored: ``params``, ``result`` and ``files`` decoded."""
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM finance_jobs_view WHERE %(kind)s = '' OR kind = %(kind)s "
            "ORDER BY position DESC LIMIT %(limit)s",
            {"kind": kind or "", "limit": limit},
        )
        rows = cursor.fetchall()
    return [
        {
            **row,
            "params": json.loads(row["params"]),
            "result": json.loads(row["result"]) if row["result"] else None,
            "files": json.loads(row["files"]),
        }
        for row in rows
    ]

"""The jobs finance asks for in the back office (a verification of the log, an export, a month-end close pack):
requested by a member, run once by a worker (domain/finance/jobs.py), listed from the finance_jobs view."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from application.finance import close_pack, exports, verification
from application.finance.progress import Progress, job_file_key
from application.finance.services import FinanceServices
from domain.errors import DomainError, ErrorCode
from domain.finance.jobs import (
    STALL_AFTER,
    FinanceJob,
    JobKind,
    JobState,
    JobTakenError,
    Params,
    Result,
    claim_job,
    load_job,
    request_job,
    save_job,
)
from domain.ports import StoredObject
from projections.finance_jobs import finance_jobs

log = logging.getLogger(__name__)

Work = Callable[[Progress], Result]


def _work(services: FinanceServices, kind: str, params: Params, actor_id: UUID) -> Work:
    """What a job of ``kind`` does (a DomainError for parameters no worker could run)."""
    if kind == JobKind.VERIFY:
        return verification.work(services, actor_id)
    if kind == JobKind.EXPORT:
        return exports.work(services, params)
    if kind == JobKind.CLOSE_PACK:
        return close_pack.work(services, str(params.get("month") or ""))
    raise DomainError(ErrorCode.INVALID_VALUE, f"no finance job is called {kind}")


def _request(services: FinanceServices, actor_id: UUID, kind: str, params: Params) -> UUID:
    _work(services, kind, params, actor_id)  # a job the workers could not run is refused here, not queued
    return request_job(services.store, services.clock, actor_id, kind, params)


def verify_now(services: FinanceServices, actor_id: UUID) -> UUID:
    """Verify the whole log against a checkpoint signed now, as a job with progress on a worker; the verdict is
    recorded as an event, and a failure mails finance naming the first bad event."""
    return _request(services, actor_id, JobKind.VERIFY, {})


def start_export(
    services: FinanceServices,
    actor_id: UUID,
    fmt: str,
    since: datetime | None,
    until: datetime | None,
    topics: list[str],
) -> UUID:
    """Export the chosen events of a checkpoint signed now, with its manifest, as a job with progress on a worker."""
    return _request(services, actor_id, JobKind.EXPORT, exports.params(fmt, since, until, topics))


def start_close_pack(services: FinanceServices, actor_id: UUID, month: str) -> UUID:
    """The month-end close pack as a job on a worker: ledger, payments and refunds as CSV, the checkpoint, and a
    manifest with each file's SHA-256, in one zip (the manifest also kept beside it)."""
    return _request(services, actor_id, JobKind.CLOSE_PACK, {"month": month})


def run_job(services: FinanceServices, job_id: UUID) -> bool:
    """A worker runs a requested job: False when it is not this worker's (no such job, or another delivery of its
    task has it or had it). The job's own failure is its result."""
    job = claim_job(services.store, services.clock, job_id)
    if job is None:
        return False
    progress = Progress(services, job)
    try:
        result = _work(services, job.kind, job.params, job.actor_id)(progress)
        ok = True
    except JobTakenError:
        log.warning("finance job %s was claimed again while this worker ran it; leaving it", job_id)
        return False
    except Exception as failure:
        log.exception("finance job %s failed", job_id)
        result, ok = {"error": str(failure)}, False
    total = max(progress.total, progress.done)
    job.finish(ok, result, total if ok else progress.done, total, services.clock.now())
    try:
        save_job(services.store, job)
    except JobTakenError:
        return False
    return True


def shown(job: FinanceJob | dict[str, Any], now: datetime) -> dict[str, Any]:
    """A job as the back office shows it (from the log or the view): a silent running job is ``stalled``."""
    if isinstance(job, FinanceJob):
        return {
            "job_id": str(job.id),
            "kind": job.kind,
            "state": job.shown_state(now).value,
            "done": job.done,
            "total": job.total,
            "params": dict(job.params),
            "result": dict(job.result) if job.result is not None else None,
            "files": list(job.files),
            "actor_id": str(job.actor_id),
            "created_at": job.requested_at.isoformat(),
            "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        }
    moved = datetime.fromisoformat(job["moved_at"])
    stalled = job["state"] == JobState.RUNNING and moved < now - STALL_AFTER
    return {
        "job_id": job["job_id"],
        "kind": job["kind"],
        "state": JobState.STALLED.value if stalled else job["state"],
        "done": int(job["done"]),
        "total": int(job["total"]),
        "params": job["params"],
        "result": job["result"],
        "files": job["files"],
        "actor_id": job["actor_id"],
        "created_at": job["requested_at"],
        "finished_at": job["finished_at"],
    }


def job(services: FinanceServices, job_id: UUID) -> dict[str, Any] | None:
    """One job as the log has it now (None when there is none)."""
    found = load_job(services.store, job_id)
    return shown(found, services.clock.now()) if found is not None else None


def jobs(services: FinanceServices, kind: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """The newest jobs first (of one kind when given), from the view."""
    rows = finance_jobs(services.views, kind, limit)
    now = services.clock.now()  # outside the read: the test clock reads the database too
    return [shown(row, now) for row in rows]


def job_file(services: FinanceServices, job_id: UUID, name: str) -> StoredObject | None:
    """One kept file of a job (None when the job kept no file of that name)."""
    found = load_job(services.store, job_id)
    if found is None or name not in found.files:
        return None
    return services.objects.get(job_file_key(job_id, name))


def alarm(services: FinanceServices) -> dict[str, Any] | None:
    """The newest finished verification when it failed (the back office's banner), else None."""
    for found in jobs(services, JobKind.VERIFY, limit=20):
        if found["state"] == JobState.DONE and found["result"]:
            return found if not found["result"]["ok"] else None
    return None

"""Finance's background jobs (a verification of the log, an export, a month-end close pack), each an aggregate of
its own: the member's request, a worker's claim, its progress, the files it kept and its end are events, so the
log says who took which data out and the back office's list of jobs is a view (projections/finance_jobs.py).

A job is requested (``queued``) by a member who may read the ledger; the request's reaction sends it to a worker
(workers/reactions.py), which claims it before running it: of two deliveries of the task (or two workers) one
claim is saved and the other conflicts, so a job runs once. A job waits ``queued`` while its task waits in the
broker; a job whose worker died mid-run stays ``running``, is shown as stalled once it has not moved for
``STALL_AFTER``, and is claimed again (its next attempt) when the broker delivers its task again. A worker that
finds its job claimed by another attempt stops (``JobTakenError``): its writes would conflict.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from enum import StrEnum
from functools import singledispatchmethod
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.staff.member import load_member
from domain.staff.permissions import Permission
from domain.store import Storefront
from events.finance import JobClaimed, JobFileKept, JobFinished, JobProgressed, JobRequested


class JobKind(StrEnum):
    """What a job does: verify the whole log, export events, or make a month's close pack."""

    VERIFY = "verify"
    EXPORT = "export"
    CLOSE_PACK = "close-pack"


STALL_AFTER = timedelta(minutes=10)

Params = dict[str, str | list[str] | None]
Result = dict[str, str | int | bool | None]


class JobState(StrEnum):
    """Where a job is: waiting for a worker, on one, or ended (``stalled`` is how a silent running job is shown)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    STALLED = "stalled"


class JobTakenError(Exception):
    """The job is not this worker's any more (another attempt claimed it)."""


class FinanceJob(Aggregate):
    """One job finance asked for, from the request to its result."""

    @classmethod
    def request(cls, job_id: UUID, kind: str, params: Params, actor_id: UUID, at: datetime) -> FinanceJob:
        """A member's request for a job of ``kind``."""
        if kind not in set(JobKind):
            raise DomainError(ErrorCode.INVALID_VALUE, f"no finance job is called {kind}")
        return cls._create(JobRequested, id=job_id, timestamp=at, kind=kind, params=dict(params), actor_id=actor_id)

    def claimable(self, now: datetime) -> bool:
        """May a worker take it now: queued, or running without a word from its worker for ``STALL_AFTER``."""
        return self.state is JobState.QUEUED or (self.state is JobState.RUNNING and self.stalled(now))

    def stalled(self, now: datetime) -> bool:
        """Running, but not moved for ``STALL_AFTER`` (its worker is taken to be dead)."""
        return self.state is JobState.RUNNING and self.moved_at < now - STALL_AFTER

    def claim(self, at: datetime) -> None:
        """A worker takes the job (its next attempt, from the start)."""
        if not self.claimable(at):
            raise JobTakenError(f"job {self.id} is {self.state}")
        self.trigger_event(JobClaimed, timestamp=at, attempt=self.attempt + 1)

    def advance(self, done: int, total: int, at: datetime) -> None:
        """The running job has ``done`` of ``total`` steps."""
        self._check_running()
        self.trigger_event(JobProgressed, timestamp=at, done=done, total=total)

    def keep_file(self, name: str, at: datetime) -> None:
        """The running job kept a file for download."""
        self._check_running()
        self.trigger_event(JobFileKept, timestamp=at, name=name)

    def finish(self, ok: bool, result: Result, done: int, total: int, at: datetime) -> None:
        """The job ended, with its result (or the error that ended it)."""
        self._check_running()
        self.trigger_event(JobFinished, timestamp=at, ok=ok, result=dict(result), done=done, total=total)

    def shown_state(self, now: datetime) -> JobState:
        """The state as the back office shows it (a silent running job is stalled)."""
        return JobState.STALLED if self.stalled(now) else self.state

    def _check_running(self) -> None:
        if self.state is not JobState.RUNNING:
            raise JobTakenError(f"job {self.id} is {self.state}")

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _requested(self, event: JobRequested) -> None:
        self.kind = event.kind
        self.params: Params = dict(event.params)
        self.actor_id = event.actor_id
        self.state = JobState.QUEUED
        self.attempt = 0
        self.done = self.total = 0
        self.files: list[str] = []
        self.result: Result | None = None
        self.requested_at = self.moved_at = event.timestamp
        self.finished_at: datetime | None = None

    @when.register
    def _claimed(self, event: JobClaimed) -> None:
        self.state = JobState.RUNNING
        self.attempt = event.attempt
        self.done = self.total = 0
        self.files = []
        self.moved_at = event.timestamp

    @when.register
    def _progressed(self, event: JobProgressed) -> None:
        self.done, self.total = event.done, event.total
        self.moved_at = event.timestamp

    @when.register
    def _file_kept(self, event: JobFileKept) -> None:
        self.files = [*self.files, event.name]
        self.moved_at = event.timestamp

    @when.register
    def _finished(self, event: JobFinished) -> None:
        self.state = JobState.DONE if event.ok else JobState.FAILED
        self.result = dict(event.result)
        self.done, self.total = event.done, event.total
        self.moved_at = self.finished_at = event.timestamp


def request_job(store: Storefront, clock: Clock, actor_id: UUID, kind: str, params: Mapping[str, Any]) -> UUID:
    """Record a member's request for a job (they need the read-ledger permission); its reaction sends it to a
    worker. The answer is the job's id."""
    member = load_member(store, actor_id)
    member.check_active()
    member.check_may(Permission.READ_LEDGER)
    job = FinanceJob.request(uuid4(), kind, dict(params), actor_id, clock.now())
    store.save(job)
    return job.id


def load_job(store: Storefront, job_id: UUID) -> FinanceJob | None:
    """The job, as the log has it now (None when there is none)."""
    try:
        job: object = store.repository.get(job_id)
    except AggregateNotFoundError:
        return None
    return job if isinstance(job, FinanceJob) else None


def claim_job(store: Storefront, clock: Clock, job_id: UUID) -> FinanceJob | None:
    """Take the job for this worker; None when it is not this worker's to run (no such job, another delivery of its
    task has it or had it, or another claim was saved first)."""
    job = load_job(store, job_id)
    now = clock.now()
    if job is None or not job.claimable(now):
        return None
    job.claim(now)
    try:
        store.save(job)
    except IntegrityError:
        return None
    return job


def save_job(store: Storefront, job: FinanceJob) -> None:
    """Save a running job's news; ``JobTakenError`` when another attempt claimed it meanwhile."""
    try:
        store.save(job)
    except IntegrityError:
        raise JobTakenError(f"job {job.id} was claimed by another attempt") from None

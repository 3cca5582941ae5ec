"""Finance's jobs on the workers, on both stores: a job is a finance member's request in the log, run once however
often its task is delivered or however many workers race for it; a failure is kept as the job's result; a job no
worker took waits queued, and one whose worker died shows as stalled and runs again when its task comes again.
The back office's list is a view the log rebuilds."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest

from application.finance import jobs
from application.finance.progress import Progress
from bootstrap import Services
from config.settings import Settings
from domain.errors import DomainError
from domain.finance.jobs import STALL_AFTER, Result, claim_job, request_job
from domain.staff.member import create_first_owner, invite_member
from projections.finance_jobs import FinanceJobsView
from tests.fakes import ManualClock
from tests.support import catch_up

pytestmark = pytest.mark.integration

Work = Callable[[Progress], Result]


@dataclass
class Desk:
    """A worker's and the back office's services, the clock in hand, the owner and a finance member."""

    services: Services
    clock: ManualClock
    owner: UUID
    finance: UUID
    monkeypatch: pytest.MonkeyPatch

    def run(self, job_id: UUID, work: Work) -> bool:
        """A worker runs the job with this work in place of its kind's (claim, progress and end are the real ones)."""
        self.monkeypatch.setattr(jobs, "_work", lambda *args: work)
        try:
            return jobs.run_job(self.services, job_id)
        finally:
            self.monkeypatch.undo()

    def listed(self) -> list[tuple[str, str]]:
        """The back office's list (the view caught up with the log): each job's kind and state, newest first."""
        catch_up(self.services, FinanceJobsView())
        return [(job["kind"], job["state"]) for job in jobs.jobs(self.services)]


@pytest.fixture
def desk(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Desk]:
    clock = ManualClock(datetime(2026, 11, 2, 3, 0, tzinfo=UTC))
    services = Services.build(settings, clock=clock)
    owner = create_first_owner(services.store, clock, email="boss@example.com", name="Boss")
    finance = invite_member(
        services.store, clock, owner.id, email="money@example.com", name="Money", roles=["finance"], reason="hired"
    )
    yield Desk(services, clock, owner.id, finance.id, monkeypatch)
    services.close()


def test_a_job_runs_once_however_often_its_task_is_delivered(desk: Desk) -> None:
    services = desk.services
    job_id = jobs.start_export(services, desk.finance, "csv", None, None, ["payment.*"])
    assert jobs.job(services, job_id)["state"] == "queued"  # type: ignore[index]
    runs: list[int] = []

    def work(progress: Progress) -> Result:
        runs.append(1)
        progress.set_total(3)
        progress.advance(3)
        progress.keep("events.csv", b"a,b\n", "text/csv")
        return {"rows": 3}

    assert desk.run(job_id, work) is True
    assert desk.run(job_id, work) is False  # a second delivery of the task
    assert runs == [1]
    done = jobs.job(services, job_id)
    assert done is not None
    assert (done["state"], done["done"], done["total"], done["result"], done["files"]) == (
        "done",
        3,
        3,
        {"rows": 3},
        ["events.csv"],
    )
    assert done["params"] == {"format": "csv", "since": None, "until": None, "topics": ["payment.*"]}
    assert jobs.job_file(services, job_id, "events.csv").data == b"a,b\n"  # type: ignore[union-attr]
    assert jobs.job_file(services, job_id, "other.csv") is None
    assert jobs.run_job(services, uuid4()) is False  # no such job
    assert desk.listed() == [("export", "done")]


def test_only_a_member_who_may_read_the_ledger_asks_and_only_for_a_job_the_workers_can_run(desk: Desk) -> None:
    services = desk.services
    support = invite_member(
        services.store, desk.clock, desk.owner, email="help@example.com", name="Help", roles=["support"], reason="x"
    )
    with pytest.raises(DomainError):
        jobs.verify_now(services, support.id)
    with pytest.raises(DomainError):
        jobs.start_close_pack(services, desk.finance, "2026-13")
    with pytest.raises(DomainError):
        jobs.start_export(services, desk.finance, "xlsx", None, None, [])
    with pytest.raises(DomainError):
        request_job(services.store, desk.clock, desk.finance, "delete-everything", {})
    assert desk.listed() == []


def test_of_two_workers_racing_for_a_job_one_runs_it(desk: Desk) -> None:
    services = desk.services
    job_id = jobs.verify_now(services, desk.finance)
    start = threading.Barrier(2)
    claimed: list[bool] = []

    def worker() -> None:
        start.wait()
        claimed.append(claim_job(services.store, desk.clock, job_id) is not None)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(claimed) == [False, True]
    assert jobs.job(services, job_id)["state"] == "running"  # type: ignore[index]


def test_a_failed_job_keeps_why_and_a_dead_workers_job_is_stalled_until_its_task_comes_again(desk: Desk) -> None:
    services, clock = desk.services, desk.clock
    failing = jobs.start_close_pack(services, desk.finance, "2026-10")

    def broken(progress: Progress) -> Result:
        raise RuntimeError("the object store is full")

    assert desk.run(failing, broken) is True
    failed = jobs.job(services, failing)
    assert failed is not None and (failed["state"], failed["result"]) == (
        "failed",
        {"error": "the object store is full"},
    )

    # A job waits for a worker as long as its task waits in the broker.
    clock.advance(timedelta(seconds=1))
    waiting = jobs.verify_now(services, desk.finance)
    clock.advance(STALL_AFTER * 2)
    assert jobs.job(services, waiting)["state"] == "queued"  # type: ignore[index]

    # A worker dies mid-run: the job stalls, and the task's next delivery runs it again from the start.
    def dies(progress: Progress) -> Result:
        progress.keep("half.csv", b"a\n", "text/csv")
        progress.set_total(10)
        progress.advance(5)
        raise SystemExit  # the worker process ends; the job is left running

    with pytest.raises(SystemExit):
        desk.run(waiting, dies)
    assert jobs.job(services, waiting)["state"] == "running"  # type: ignore[index]
    assert desk.run(waiting, lambda progress: {"ok": True}) is False  # still its worker's, as far as anyone knows
    clock.advance(STALL_AFTER + timedelta(seconds=1))
    assert desk.listed() == [("verify", "stalled"), ("close-pack", "failed")]
    assert desk.run(waiting, lambda progress: {"ok": True}) is True
    again = jobs.job(services, waiting)
    assert again is not None and (again["state"], again["result"], again["files"]) == ("done", {"ok": True}, [])
    assert desk.listed() == [("verify", "done"), ("close-pack", "failed")]

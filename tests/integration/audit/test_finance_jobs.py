"""Finance's jobs on the workers, on both stores: a job is queued by the API and run once however often its task is
delivered; a failure is kept as the job's result; a job no worker took shows as stalled, as a dead worker's does."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest

from bootstrap.finance_jobs import STALL_AFTER, FinanceJobs, Progress
from config.settings import Settings
from eventlog.database import open_view_database
from integrations.object_store import FileObjectStore
from tests.fakes import ManualClock

pytestmark = pytest.mark.integration


@pytest.fixture
def jobs(settings: Settings, tmp_path: Any) -> Iterator[tuple[FinanceJobs, ManualClock]]:
    clock = ManualClock(datetime(2026, 11, 2, 3, 0, tzinfo=UTC))
    views = open_view_database(settings.view_store_env)
    yield FinanceJobs(views, FileObjectStore(tmp_path / "objects"), clock), clock
    views.close()


def test_a_job_runs_once_however_often_its_task_is_delivered(jobs: tuple[FinanceJobs, ManualClock]) -> None:
    table, _ = jobs
    member = uuid4()
    job_id = table.request("export", {"format": "csv", "topics": ["payment.*"]}, member)
    assert table.get(job_id)["state"] == "queued"  # type: ignore[index]
    assert table.requested(job_id) == ("export", {"format": "csv", "topics": ["payment.*"]}, member)
    runs: list[int] = []

    def work(progress: Progress) -> dict[str, Any]:
        runs.append(1)
        progress.set_total(3)
        progress.advance(3)
        progress.keep("events.csv", b"a,b\n", "text/csv")
        return {"rows": 3}

    assert table.run(job_id, work) is True
    assert table.run(job_id, work) is False  # a second delivery of the task
    assert runs == [1]
    done = table.get(job_id)
    assert done is not None
    assert (done["state"], done["done"], done["total"], done["result"], done["files"]) == (
        "done",
        3,
        3,
        {"rows": 3},
        ["events.csv"],
    )
    assert table.file(job_id, "events.csv").data == b"a,b\n"  # type: ignore[union-attr]
    assert table.requested(uuid4()) is None


def test_a_failed_job_keeps_why_and_a_dead_workers_job_is_stalled_until_its_task_comes_again(
    jobs: tuple[FinanceJobs, ManualClock],
) -> None:
    table, clock = jobs

    def broken(progress: Progress) -> dict[str, Any]:
        raise RuntimeError("the object store is full")

    failing = table.request("close-pack", {"month": "2026-10"}, None)
    assert table.run(failing, broken) is True
    failed = table.get(failing)
    assert failed is not None and (failed["state"], failed["result"]) == (
        "failed",
        {"error": "the object store is full"},
    )

    # A job waits for a worker as long as its task waits in the broker.
    waiting = table.request("verify", {}, uuid4())
    clock.advance(STALL_AFTER * 2)
    assert table.get(waiting)["state"] == "queued"  # type: ignore[index]

    # A worker dies mid-run: the job stalls, and the task's next delivery runs it again from the start.
    def dies(progress: Progress) -> dict[str, Any]:
        progress.keep("half.csv", b"a\n", "text/csv")
        progress.set_total(10)
        progress.advance(5)
        raise SystemExit  # the worker process ends; the job is left running

    with pytest.raises(SystemExit):
        table.run(waiting, dies)
    assert table.get(waiting)["state"] == "running"  # type: ignore[index]
    assert table.run(waiting, lambda progress: {"ok": True}) is False  # still its worker's, as far as anyone knows
    clock.advance(STALL_AFTER + timedelta(seconds=1))
    assert [job["state"] for job in table.list()] == ["stalled", "failed"]
    assert table.run(waiting, lambda progress: {"ok": True}) is True
    again = table.get(waiting)
    assert again is not None and (again["state"], again["result"], again["files"]) == ("done", {"ok": True}, [])

    # A request that could not be recorded gets no task: its job fails at once rather than wait for ever.
    orphan = table.request("export", {"format": "csv"}, uuid4())
    table.refuse(orphan, "the request could not be recorded")
    assert table.run(orphan, lambda progress: {"ok": True}) is False
    assert table.get(orphan)["state"] == "failed"  # type: ignore[index]

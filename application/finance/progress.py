"""What a running job reports as it goes: its progress, now and then, and the files it keeps for download (each
an event of the job, domain/finance/jobs.py; the files themselves in the object store under ``finance/<job id>/``).
"""

from __future__ import annotations

from uuid import UUID

from application.finance.services import FinanceServices
from domain.finance.jobs import FinanceJob, save_job
from domain.ports import StoredObject

PROGRESS_EVERY = 500  # steps between two reports at least
REPORTS = 20  # and about this many reports over a job whose total is known


class Progress:
    """``set_total`` when the number of steps is known, ``advance(n)`` as they are done, ``keep`` a file."""

    def __init__(self, services: FinanceServices, job: FinanceJob) -> None:
        self._services = services
        self.job = job
        self.total = 0
        self.done = 0
        self._reported = 0

    @property
    def job_id(self) -> UUID:
        """The job this is the progress of."""
        return self.job.id

    def set_total(self, total: int) -> None:
        """How many steps the job will take."""
        self.total = total
        self._report()

    def advance(self, steps: int = 1) -> None:
        """``steps`` more are done (recorded every ``PROGRESS_EVERY`` steps, or a ``REPORTS``-th of the total)."""
        self.done += steps
        if self.done - self._reported >= max(PROGRESS_EVERY, self.total // REPORTS):
            self._report()

    def keep(self, name: str, data: bytes, content_type: str) -> None:
        """Keep one of the job's files for download."""
        self._services.objects.put(job_file_key(self.job_id, name), StoredObject(data, content_type))
        self.job.keep_file(name, self._services.clock.now())
        save_job(self._services.store, self.job)

    def _report(self) -> None:
        self._reported = self.done
        self.job.advance(self.done, max(self.total, self.done), self._services.clock.now())
        save_job(self._services.store, self.job)


def job_file_key(job_id: UUID, name: str) -> str:
    """Where a job's file is kept in the object store."""
    return f"finance/{job_id}/{name}"

"""Finance on the workers: each morning (from 09:00 in Korea, by the injected clock, on beat's schedule) yesterday's
reconciliation with PortOne, once, recorded as an event, finance mailed when something does not match; and the
jobs finance asks for in the back office (a verification of the log, an export, a close pack)."""

from __future__ import annotations

import logging
import sqlite3
from uuid import UUID

import psycopg
from celery import shared_task

from application.finance.jobs import run_job
from application.finance.reconciliation import reconcile_mornings
from workers.celery_app import ServicesTask
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)


@shared_task(name="finance.reconcile_yesterday", base=ServicesTask, bind=True)
def reconcile_yesterday_task(self: ServicesTask) -> list[dict[str, object]]:
    """Reconcile yesterday once its morning has come, and a missed morning before it (a tick before 09:00, or
    after the runs, does nothing)."""
    runs = reconcile_mornings(self.services)
    for run in runs:
        log.info("reconciled a day: run %d, %d mismatches", run.run, len(run.mismatches))
    return [{"run": run.run, "mismatches": len(run.mismatches)} for run in runs]


# The job's own failures are its result; the log not answering before the claim is worth trying again.
@retried_task("finance.run_job", retry_on=(OSError, psycopg.OperationalError, sqlite3.OperationalError), max_retries=5)
def run_job_task(self: ServicesTask, job_id: str) -> bool:
    """Run a job a member asked for, once (a second delivery of the task finds it taken and does nothing)."""
    ran = run_job(self.services, UUID(job_id))
    log.info("finance job %s: %s", job_id, "run" if ran else "already taken, or not found")
    return ran

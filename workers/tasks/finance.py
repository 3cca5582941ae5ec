"""Finance on the beat schedule: each morning (from 09:00 in Korea, by the injected clock) yesterday's
reconciliation with PortOne, once, recorded as an event; finance is mailed when something does not match."""

from __future__ import annotations

import logging

from celery import shared_task

from bootstrap.finance import reconcile_mornings
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)


@shared_task(name="finance.reconcile_yesterday", base=ServicesTask, bind=True)
def reconcile_yesterday_task(self: ServicesTask) -> list[dict[str, object]]:
    """Reconcile yesterday once its morning has come, and a missed morning before it (a tick before 09:00, or
    after the runs, does nothing)."""
    runs = reconcile_mornings(self.services)
    for run in runs:
        log.info("reconciled a day: run %d, %d mismatches", run.run, len(run.mismatches))
    return [{"run": run.run, "mismatches": len(run.mismatches)} for run in runs]

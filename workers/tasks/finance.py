"""Finance on the beat schedule: each morning (from 09:00 in Korea, by the injected clock) yesterday's
reconciliation with PortOne, once, recorded as an event; finance is mailed when something does not match."""

from __future__ import annotations

import logging

from celery import shared_task

from bootstrap.finance import reconcile_yesterday
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)


@shared_task(name="finance.reconcile_yesterday", base=ServicesTask, bind=True)
def reconcile_yesterday_task(self: ServicesTask) -> dict[str, object] | None:
    """Reconcile yesterday once its morning has come (a tick before 09:00, or after the run, does nothing)."""
    run = reconcile_yesterday(self.services)
    if run is None:
        return None
    log.info("reconciled yesterday: run %d, %d mismatches", run.run, len(run.mismatches))
    return {"run": run.run, "mismatches": len(run.mismatches)}

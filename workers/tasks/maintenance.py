"""Housekeeping on the beat schedule."""

from __future__ import annotations

import logging

from celery import shared_task

from eventlog.tracking import positions
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)

LAG_WARNING = 1000


@shared_task(name="maintenance.report_view_lag", base=ServicesTask, bind=True)
def report_view_lag(self: ServicesTask) -> dict[str, int]:
    """Log how far each view (and the reactor) trails the head of the log."""
    store, views = self.services.store, self.services.views
    head = store.max_notification_id()
    lag = {name: head - position for name, position in positions(views, store.name).items()}
    for name, behind in lag.items():
        (log.warning if behind > LAG_WARNING else log.info)("%s is %d events behind", name, behind)
    return lag

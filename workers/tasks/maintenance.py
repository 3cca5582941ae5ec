"""Housekeeping on the beat schedule."""

from __future__ import annotations

import logging

from celery import shared_task

from config.settings import load_settings
from events.application import EventLog
from projections.database import open_view_database
from projections.tracking import positions

log = logging.getLogger(__name__)

LAG_WARNING = 1000


@shared_task(name="maintenance.report_view_lag")
def report_view_lag() -> dict[str, int]:
    """Log how far each view (and the reactor) trails the head of the log."""
    settings = load_settings()
    log_app = EventLog(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    try:
        head = log_app.max_notification_id()
        lag = {name: head - position for name, position in positions(db, log_app.name).items()}
    finally:
        db.close()
        log_app.close()
    for name, behind in lag.items():
        (log.warning if behind > LAG_WARNING else log.info)("%s is %d events behind", name, behind)
    return lag

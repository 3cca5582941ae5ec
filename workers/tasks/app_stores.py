"""The apps' stores (docs/app-stores.md): the hourly pass that asks the stores about subscriptions gone silent."""

from __future__ import annotations

import logging

from celery import shared_task

from application.app_stores import reconcile_stores
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)


@shared_task(name="app_stores.reconcile", base=ServicesTask, bind=True)
def reconcile(self: ServicesTask) -> list[str]:
    """Beat: every hour, ask the App Store and Google Play about each subscription whose paid time ended with nothing
    heard since (a notification lost), and record what they say; returns the purchases where something was found."""
    services = self.services
    done = reconcile_stores(services.store, services.views, services.clock, services.catalogue, services.stores)
    if done.asked:
        log.info("asked the stores about %d subscriptions: %d had news, %d unanswered", done.asked, len(done.found),
                 len(done.unanswered))  # fmt: skip
    return done.found

"""Beat: renew what is due, retry what failed (dunning), end what ran out."""

from __future__ import annotations

import logging

from celery import shared_task

from domain.subscriptions.renewal import RenewalOutcome, renew_if_due
from projections.subscriptions import due_subscriptions
from workers.wiring import WorkerServices, worker_services

log = logging.getLogger(__name__)


def renew_due_subscriptions(services: WorkerServices) -> list[RenewalOutcome]:
    """One pass over every subscription the index says is due; each is safe to repeat or race."""
    outcomes = []
    for subscription_id in due_subscriptions(services.views, services.clock.now()):
        try:
            outcomes.append(renew_if_due(services.store, services.clock, services.gateway, subscription_id))
        except Exception:  # one subscription's trouble must not stop the others; the next pass retries
            log.exception("renewal of %s failed", subscription_id)
    return outcomes


@shared_task(name="subscriptions.renew_due")
def renew_due() -> int:
    """Beat, every minute: how many charge attempts were made."""
    return sum(1 for outcome in renew_due_subscriptions(worker_services()) if outcome.charged)

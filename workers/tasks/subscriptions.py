"""Beat: renew what is due, retry what failed (dunning), end what ran out — one task per subscription."""

from __future__ import annotations

import logging
from uuid import UUID

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
    """Beat, every minute: start one renewal task per due subscription; returns how many."""
    services = worker_services()
    due = due_subscriptions(services.views, services.clock.now())
    for subscription_id in due:
        renew_one.delay(str(subscription_id))
    return len(due)


@shared_task(
    name="subscriptions.renew_one",
    autoretry_for=(OSError,),
    retry_backoff=True,
    max_retries=5,
)
def renew_one(subscription_id: str) -> str | None:
    """Charge one subscription if it is due; the merchantUid of the attempt made, if any.

    Acked late: a worker killed mid-task leaves the message to be delivered again,
    and the deterministic merchantUid makes that second run charge nothing new.
    """
    outcome = renew_if_due(
        worker_services().store, worker_services().clock, worker_services().gateway, UUID(subscription_id)
    )
    return outcome.charged

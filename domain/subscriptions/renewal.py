"""Use case of the renewal pass: charge what is due (a renewal or a dunning retry), end what ran out."""

from __future__ import annotations

from uuid import UUID

from domain.clock import Clock
from domain.payments.gateway import PaymentGateway
from domain.store import Storefront
from domain.subscriptions.charging import Charged, charge_subscription, load_subscription
from events.concurrency import retry_on_conflict


def renew_if_due(store: Storefront, clock: Clock, gateway: PaymentGateway, subscription_id: UUID) -> Charged:
    """End a cancelled subscription whose paid period ran out; else charge the next period if it is due.

    Safe to repeat and to run concurrently (see ``charging``): the attempt's merchantUid is decided
    by the subscription, the gateway answers a repeated merchantUid with its first charge, and the
    attempt's payment record answers a repeated recording.
    """

    def end_if_run_out() -> Charged | None:
        subscription = load_subscription(store, subscription_id)
        if not subscription.run_out(clock.now()):
            return None
        position = store.save(subscription)[-1].notification.id
        return Charged(subscription.id, None, False, subscription.status, position)

    ended = retry_on_conflict(end_if_run_out)
    if ended is not None:
        return ended
    return charge_subscription(
        store,
        clock,
        gateway,
        subscription_id=subscription_id,
        decide=lambda subscription, now: subscription.due_charge(now),
    )

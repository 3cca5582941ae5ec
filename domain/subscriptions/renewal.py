"""Use case of the renewal pass: charge what is due (a renewal or a dunning retry), end what ran out."""

from __future__ import annotations

from uuid import UUID

from domain.clock import Clock
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.gateway import PaymentGateway
from domain.store import Storefront
from domain.subscriptions.charging import Charged, charge_subscription, load_subscription
from domain.subscriptions.subscription import Subscription
from events.concurrency import retry_on_conflict


def renew_if_due(store: Storefront, clock: Clock, gateway: PaymentGateway, subscription_id: UUID) -> Charged:
    """End a subscription whose licence was refunded, or a cancelled one whose paid period ran out; else
    charge the next period if it is due.

    Safe to repeat and to run concurrently (see ``charging``): the attempt's merchantUid is decided
    by the subscription, the gateway answers a repeated merchantUid with its first charge, and the
    attempt's payment record answers a repeated recording.
    """

    def end_if_over() -> Charged | tuple[Subscription, UserLicence]:
        subscription = load_subscription(store, subscription_id)
        licence: UserLicence = store.repository.get(subscription.user_licence_id)
        now = clock.now()
        ended = subscription.end_with_licence(now) if licence.state is not LicenceState.ACTIVE else False
        if not (ended or subscription.run_out(now)):
            return subscription, licence  # unchanged: the charge decides from them as read
        position = store.save(subscription)[-1].notification.id
        return Charged(subscription.id, None, False, subscription.status, position)

    ended = retry_on_conflict(end_if_over)
    if isinstance(ended, Charged):
        return ended
    return charge_subscription(
        store,
        clock,
        gateway,
        subscription_id=subscription_id,
        decide=lambda subscription, now: subscription.due_charge(now),
        loaded=ended,
    )

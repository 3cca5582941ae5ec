"""Use case of the renewal pass: charge what is due (a renewal or a dunning retry), end what ran out.

``renew_if_due`` takes one subscription. ``renew_batch`` takes a page of them with the fewest round trips: one
read of the subscriptions, one of their licences and subscribers, then the due charges through the one charging
path as a batch (``charging.charge_decided``: made side by side, every plain paid-or-declined renewal saved in one
transaction, whatever that transaction cannot take recorded one at a time), so the outcome is the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any
from uuid import UUID

from domain.catalogue.versions import load_versions
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.gateway import PaymentGateway
from domain.store import Storefront
from domain.subscriptions.charging import (
    Charged,
    DecidedCharge,
    EachOf,
    charge_decided,
    charge_subscription,
    load_subscription,
)
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from events.concurrency import retry_on_conflict


def renew_if_due(store: Storefront, clock: Clock, gateway: PaymentGateway, subscription_id: UUID) -> Charged:
    """End a subscription whose licence was refunded, a cancelled one whose paid period ran out, or one whose
    renewal fell due at a higher price its subscriber did not agree to (nothing is charged: docs/catalogue.md); else
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
        if not (ended or subscription.run_out(now) or subscription.lapse_unagreed_rise(now, load_versions(store))):
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


def renew_batch(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    subscription_ids: Sequence[UUID],
    each: EachOf[Any, Any] = map,
) -> list[Charged | Exception]:
    """``renew_if_due`` for each of ``subscription_ids``, answered in their order; a subscription whose charge
    could not be made (the gateway unreachable) answers that error instead, and nothing is recorded for it
    (its next pass, or a retry, charges it: the gateway answers a repeated merchantUid with its first charge).

    The due charges go through the one charging path as one batch (``charge_decided``); ``each`` runs the
    gateway calls: a thread pool's ``map`` makes them side by side."""
    outcomes: dict[UUID, Charged | Exception] = {}
    asked = list(dict.fromkeys(subscription_ids))  # each once, however often it is named
    found = store.get_many(asked)
    subscriptions: list[Subscription] = []
    for key in asked:
        if isinstance(subscription := found.get(key), Subscription):
            subscriptions.append(subscription)
        else:
            outcomes[key] = DomainError(ErrorCode.NOT_FOUND, f"no subscription {key}")
    related = store.get_many([key for item in subscriptions for key in (item.user_licence_id, item.account_id)])
    now = clock.now()
    versions = load_versions(store)  # what the renewal price rule reads: the catalogue at each renewal's due date
    due: list[DecidedCharge] = []
    for subscription in subscriptions:
        licence: UserLicence = related[subscription.user_licence_id]
        if licence.state is not LicenceState.ACTIVE or subscription.status is SubscriptionStatus.CANCELLED:
            # Rare (a refunded licence, a cancelled subscription running out): the one-at-a-time path ends it.
            outcomes[subscription.id] = _one(store, clock, gateway, subscription.id)
            continue
        attempt = subscription.due_charge(now)
        if attempt is None:
            outcomes[subscription.id] = Charged(subscription.id, None, False, subscription.status, 0)
            continue
        renewal = subscription.next_renewal(versions)
        if renewal is not None and renewal.awaiting is not None:
            # A higher price not agreed to: nothing is charged; the one-at-a-time path stops auto-renewal.
            outcomes[subscription.id] = _one(store, clock, gateway, subscription.id)
            continue
        attempt = subscription.priced(attempt, versions, now)
        due.append(DecidedCharge(subscription, licence, attempt, related.get(subscription.account_id)))
    for item, outcome in zip(due, charge_decided(store, clock, gateway, due, each=each), strict=True):
        outcomes[item.subscription.id] = outcome
    return [outcomes[key] for key in subscription_ids]


def _one(store: Storefront, clock: Clock, gateway: PaymentGateway, subscription_id: UUID) -> Charged | Exception:
    try:
        return renew_if_due(store, clock, gateway, subscription_id)
    except Exception as error:
        return error


def remind_renewals(store: Storefront, clock: Clock, subscription_ids: Sequence[UUID]) -> int:
    """Record the reminder of each subscription whose renewal's reminder falls due now and was not recorded for
    that period (``domain.subscriptions.reminders``); how many were recorded. Safe to repeat and to race: the
    subscription records one reminder per period, and a racing save conflicts and re-reads."""

    versions = load_versions(store)

    def remind(subscription_id: UUID) -> bool:
        subscription = load_subscription(store, subscription_id)
        if not subscription.remind_renewal(clock.now(), versions):
            return False
        store.save(subscription)
        return True

    recorded = 0
    for subscription_id in subscription_ids:
        recorded += retry_on_conflict(partial(remind, subscription_id))
    return recorded

"""Use case of the renewal pass: charge what is due (a renewal or a dunning retry), end what ran out.

``renew_if_due`` takes one subscription. ``renew_batch`` takes a page of them with the fewest round trips: one
read of the subscriptions, one of their licences and subscribers, the charges made side by side, and every plain
paid-or-declined renewal saved in one transaction. Whatever that transaction cannot take (another writer got
there first) is recorded one at a time as ``renew_if_due`` records it, so the outcome is the same either way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.gateway import GatewayPayment, PaymentGateway
from domain.store import Storefront
from domain.subscriptions.charging import Charged, charge_subscription, load_subscription, plain_renewal, record_charge
from domain.subscriptions.subscription import ChargeAttempt, Subscription, SubscriptionStatus
from events.concurrency import retry_on_conflict

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")
# Runs a function over items, in any order of execution but answering in the items' order: ``map``, or a thread
# pool's ``map`` so that a batch's charges wait for the gateway side by side.
EachOf = Callable[[Callable[[T], R], Iterable[T]], Iterator[R]]


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


@dataclass(frozen=True)
class _Due:
    subscription: Subscription
    licence: UserLicence
    attempt: ChargeAttempt


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

    ``each`` runs the charges: a thread pool's ``map`` makes them side by side."""
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
    due: list[_Due] = []
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
        due.append(_Due(subscription, licence, attempt))

    def charge(item: _Due) -> GatewayPayment | Exception:
        attempt = item.attempt
        try:
            return gateway.charge_billing_key(
                attempt.customer_uid, attempt.merchant_uid, attempt.amount, item.subscription.name
            )
        except Exception as error:
            return error

    charges = list(each(charge, due))
    plain: list[tuple[_Due, GatewayPayment, Charged, list[Aggregate]]] = []
    for item, made in zip(due, charges, strict=True):
        if isinstance(made, Exception):
            outcomes[item.subscription.id] = made
            continue
        planned = plain_renewal(
            store, item.attempt, made, item.subscription, item.licence, related.get(item.subscription.account_id),
            clock.now(),
        )  # fmt: skip
        if planned is None:
            outcomes[item.subscription.id] = _recorded_alone(store, clock, gateway, item, made)
        else:
            plain.append((item, made, *planned))
    if plain:
        try:
            position = store.save(*(aggregate for *_, aggregates in plain for aggregate in aggregates))[-1]
        except IntegrityError:
            # Another writer changed one of them (or recorded one of these attempts) meanwhile: each is recorded
            # alone from a fresh read, which answers a recorded attempt with what was recorded.
            log.info("a batch of %d renewals conflicted; recording each alone", len(plain))
            for item, made, _charged, _aggregates in plain:
                outcomes[item.subscription.id] = _recorded_alone(store, clock, gateway, item, made)
        else:
            for item, _made, charged, _aggregates in plain:
                outcomes[item.subscription.id] = replace(charged, notification_id=position.notification.id)
    return [outcomes[key] for key in subscription_ids]


def _one(store: Storefront, clock: Clock, gateway: PaymentGateway, subscription_id: UUID) -> Charged | Exception:
    try:
        return renew_if_due(store, clock, gateway, subscription_id)
    except Exception as error:
        return error


def _recorded_alone(
    store: Storefront, clock: Clock, gateway: PaymentGateway, item: _Due, charge: GatewayPayment
) -> Charged | Exception:
    try:
        return record_charge(store, clock, gateway, item.subscription, item.attempt, charge)
    except Exception as error:
        return error

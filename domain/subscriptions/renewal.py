"""Use cases of renewing subscriptions: charge what is due, end what ran out."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from domain.clock import Clock
from domain.errors import DomainError
from domain.licences.licence import UserLicence
from domain.payments.gateway import PaymentGateway
from domain.store import Storefront
from domain.subscriptions.records import charge_record, paid_in_full
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from events.concurrency import retry_on_conflict


@dataclass(frozen=True)
class RenewalOutcome:
    """What one pass over a subscription did."""

    subscription_id: UUID
    charged: str | None  # merchantUid of the attempt made now, if any
    paid: bool
    status: SubscriptionStatus


def renew_if_due(store: Storefront, clock: Clock, gateway: PaymentGateway, subscription_id: UUID) -> RenewalOutcome:
    """Charge the next period when it is due, record the result with a payment record, move the licence.

    Safe to repeat and to run concurrently: the attempt's merchantUid is derived from
    (subscription, period, attempt), the gateway returns the existing charge for a
    repeated merchantUid, and recording it twice conflicts on the subscription's version.
    """
    subscription: Subscription = store.repository.get(subscription_id)
    now = clock.now()
    if subscription.run_out(now):
        store.save(subscription)
        return RenewalOutcome(subscription.id, None, False, subscription.status)
    if not subscription.is_due(now):
        return RenewalOutcome(subscription.id, None, False, subscription.status)
    period, _attempt, merchant_uid = subscription.next_attempt()
    charge = gateway.charge_billing_key(subscription.customer_uid, merchant_uid, subscription.amount, subscription.name)

    def record() -> RenewalOutcome:
        current: Subscription = store.repository.get(subscription_id)
        if current.next_attempt()[2] != merchant_uid:  # someone else recorded this attempt already
            return RenewalOutcome(current.id, None, False, current.status)
        licence: UserLicence = store.repository.get(current.user_licence_id)
        payment = charge_record(current, licence, merchant_uid, "renewal", now)
        if paid_in_full(charge, current.amount):
            payment.succeed(charge, now)
            current.record_renewal(period=period, merchant_uid=merchant_uid, imp_uid=charge.imp_uid, paid_at=now)
            licence.extend_to(current.paid_until, now)
            store.save(current, licence, payment)
            return RenewalOutcome(current.id, merchant_uid, True, current.status)
        reason = charge.fail_reason or f"gateway status {charge.status.value}"
        payment.fail(charge.imp_uid, reason, now)
        current.record_failure(period=period, merchant_uid=merchant_uid, reason=reason, at=now)
        store.save(current, payment)
        return RenewalOutcome(current.id, merchant_uid, False, current.status)

    try:
        return retry_on_conflict(record)
    except DomainError:
        latest: Subscription = store.repository.get(subscription_id)
        return RenewalOutcome(latest.id, None, False, latest.status)

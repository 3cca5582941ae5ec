"""Events of a subscription: a licence that renews itself through a billing key."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from events.contract import StoredCreation, StoredEvent
from events.values import Currency


class SubscriptionStarted(StoredCreation):
    """The first period was paid with a billing key; renewals follow every ``life`` days."""

    TOPIC = "subscription.Started"
    account_id: UUID
    user_licence_id: UUID
    licence_id: int
    name: str
    life: int
    amount: int
    currency: Currency
    customer_uid: str
    card_name: str | None
    card_number: str | None
    first_merchant_uid: str
    period_start: datetime
    paid_until: datetime


class SubscriptionRenewed(StoredEvent):
    """Period ``period`` was charged and paid; the licence now runs to ``paid_until``."""

    TOPIC = "subscription.Renewed"
    period: int
    merchant_uid: str
    imp_uid: str
    amount: int
    paid_at: datetime
    paid_until: datetime


class RenewalFailed(StoredEvent):
    """Charging period ``period`` failed; ``retry_at`` is the next dunning attempt (None: no more)."""

    TOPIC = "subscription.RenewalFailed"
    period: int
    attempt: int
    merchant_uid: str
    reason: str
    retry_at: datetime | None


class AutoRenewalCancelled(StoredEvent):
    """The customer stopped auto-renewal; the licence runs to the end of the paid period."""

    TOPIC = "subscription.AutoRenewalCancelled"
    cancelled_at: datetime


class AutoRenewalResumed(StoredEvent):
    """The customer turned auto-renewal back on before the paid period ended."""

    TOPIC = "subscription.AutoRenewalResumed"
    resumed_at: datetime


class PaymentMethodChanged(StoredEvent):
    """Renewals now charge another billing key."""

    TOPIC = "subscription.PaymentMethodChanged"
    customer_uid: str
    card_name: str | None
    card_number: str | None


class SubscriptionEnded(StoredEvent):
    """No more renewals: cancelled and run out, or dunning gave up."""

    TOPIC = "subscription.Ended"
    reason: str
    ended_at: datetime


class SubscriptionResubscribed(StoredEvent):
    """An ended subscription was started again with a fresh paid period."""

    TOPIC = "subscription.Resubscribed"
    period: int
    merchant_uid: str
    imp_uid: str
    customer_uid: str
    period_start: datetime
    paid_until: datetime


class ResubscribeFailed(StoredEvent):
    """Charging the first period of a re-subscription failed; the subscription stays ended."""

    TOPIC = "subscription.ResubscribeFailed"
    merchant_uid: str
    reason: str

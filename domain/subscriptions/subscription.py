"""The subscription aggregate and its billing rules.

Periods are numbered from 1 and are contiguous within a run: period n+1 starts
where period n ended, however late its charge succeeded, so the licence's expiry
is always the end of the last paid period. Each charge attempt has its own
deterministic merchantUid (subscription, period, attempt), so a retried task, a
crash or two workers can never charge one attempt twice, and a period that was
paid is never charged again because the next attempt belongs to the next period.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import DomainError, ErrorCode
from events.subscriptions import (
    AutoRenewalCancelled,
    AutoRenewalResumed,
    PaymentMethodChanged,
    RenewalFailed,
    ResubscribeFailed,
    SubscriptionEnded,
    SubscriptionRenewed,
    SubscriptionResubscribed,
    SubscriptionStarted,
)
from events.values import Currency

# Retries after a failed renewal, counted from the period's due date; then the subscription ends.
DUNNING_SCHEDULE = (timedelta(days=1), timedelta(days=3), timedelta(days=7))


def period_length(life_days: int) -> timedelta:
    """Spec section 9: a life of 365 days renews yearly (365 days), anything else every 30 days."""
    return timedelta(days=365) if life_days == 365 else timedelta(days=30)


class SubscriptionStatus(Enum):
    """Active (renews), cancelled (runs to the end of the paid period), past due (dunning), ended."""

    ACTIVE = "active"
    CANCELLED = "cancelled"
    PAST_DUE = "past_due"
    ENDED = "ended"


class Subscription(Aggregate):
    """A licence that renews itself every period through a billing key."""

    @classmethod
    def start(
        cls,
        *,
        account_id: UUID,
        user_licence_id: UUID,
        licence_id: int,
        name: str,
        life: int,
        amount: int,
        currency: Currency,
        customer_uid: str,
        card_name: str | None,
        card_number: str | None,
        first_merchant_uid: str,
        at: datetime,
        subscription_id: UUID | None = None,
    ) -> Subscription:
        """The first period is paid: the subscription runs from ``at`` for one period."""
        return cls._create(
            SubscriptionStarted,
            id=subscription_id or uuid4(),
            timestamp=at,
            account_id=account_id,
            user_licence_id=user_licence_id,
            licence_id=licence_id,
            name=name,
            life=life,
            amount=amount,
            currency=currency,
            customer_uid=customer_uid,
            card_name=card_name,
            card_number=card_number,
            first_merchant_uid=first_merchant_uid,
            period_start=at,
            paid_until=at + period_length(life),
        )

    @property
    def is_scheduled(self) -> bool:
        """Will the subscription charge again by itself (spec: isScheduled)?"""
        return self.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE)

    @property
    def next_charge_at(self) -> datetime | None:
        """When the next charge attempt is due (None when nothing will be charged)."""
        if self.status is SubscriptionStatus.ACTIVE:
            return self.paid_until
        if self.status is SubscriptionStatus.PAST_DUE:
            return self.retry_at
        return None

    def is_due(self, now: datetime) -> bool:
        """Is a charge attempt due at ``now``?"""
        due = self.next_charge_at
        return due is not None and now >= due

    def next_attempt(self) -> tuple[int, int, str]:
        """(period, attempt, merchantUid) of the next charge attempt."""
        period, attempt = self.period + 1, self.failed_attempts + 1
        return period, attempt, self.merchant_uid_for(period, attempt)

    def merchant_uid_for(self, period: int, attempt: int) -> str:
        """The deterministic order id of one charge attempt."""
        return self.charge_order_id(self.id, period, attempt)

    @staticmethod
    def charge_order_id(subscription_id: UUID, period: int, attempt: int) -> str:
        """The order id (merchantUid) of one charge attempt of a subscription."""
        return f"sub-{subscription_id.hex[:16]}-{period}-{attempt}"

    @staticmethod
    def id_for_window_key(customer_uid: str) -> UUID:
        """One subscription per billing key a PG window issued, so a repeated return starts nothing new."""
        return uuid5(NAMESPACE_URL, f"/subscriptions/window/{customer_uid}")

    def record_renewal(self, *, period: int, merchant_uid: str, imp_uid: str, paid_at: datetime) -> None:
        """The charge of ``period`` was paid; the next period starts where the last one ended."""
        self.check_next_period(period)
        self.trigger_event(
            SubscriptionRenewed,
            timestamp=paid_at,
            period=period,
            merchant_uid=merchant_uid,
            imp_uid=imp_uid,
            amount=self.amount,
            paid_at=paid_at,
            paid_until=self.paid_until + period_length(self.life),
        )

    def record_failure(self, *, period: int, merchant_uid: str, reason: str, at: datetime) -> None:
        """A charge attempt failed: schedule the next dunning retry, or end after the last."""
        self.check_next_period(period)
        attempt = self.failed_attempts + 1
        retry_at = self.paid_until + DUNNING_SCHEDULE[attempt - 1] if attempt <= len(DUNNING_SCHEDULE) else None
        self.trigger_event(
            RenewalFailed,
            timestamp=at,
            period=period,
            attempt=attempt,
            merchant_uid=merchant_uid,
            reason=reason,
            retry_at=retry_at,
        )
        if retry_at is None:
            self.trigger_event(SubscriptionEnded, timestamp=at, reason="renewal failed", ended_at=at)

    def check_next_period(self, period: int) -> None:
        """Only the period after the last paid one can be charged, and only while scheduled."""
        if not self.is_scheduled or period != self.period + 1:
            raise DomainError(ErrorCode.AUTO_PAYMENT_ALREADY_SET, f"period {period} is not the one to charge")

    def cancel_auto_renewal(self, at: datetime) -> None:
        """Stop renewing (spec: isScheduled false); past due, the subscription ends now."""
        if self.status is SubscriptionStatus.ACTIVE:
            self.trigger_event(AutoRenewalCancelled, timestamp=at, cancelled_at=at)
        elif self.status is SubscriptionStatus.PAST_DUE:
            self.trigger_event(SubscriptionEnded, timestamp=at, reason="cancelled while past due", ended_at=at)
        else:
            raise DomainError(ErrorCode.INVALID_VALUE, "auto-renewal is already off")

    def resume(self, at: datetime) -> None:
        """Turn auto-renewal back on within the paid period (after it ended: re-subscribe)."""
        if self.status is not SubscriptionStatus.CANCELLED:
            raise DomainError(ErrorCode.AUTO_PAYMENT_ALREADY_SET, "auto-renewal is not off")
        if at >= self.paid_until:
            raise DomainError(ErrorCode.INVALID_VALUE, "the paid period is over: re-subscribe instead")
        self.trigger_event(AutoRenewalResumed, timestamp=at, resumed_at=at)

    def run_out(self, now: datetime) -> bool:
        """A cancelled subscription ends when its paid period does; True when it ended now."""
        if self.status is SubscriptionStatus.CANCELLED and now >= self.paid_until:
            self.trigger_event(SubscriptionEnded, timestamp=now, reason="cancelled", ended_at=now)
            return True
        return False

    def resubscribe(self, *, merchant_uid: str, imp_uid: str, customer_uid: str, at: datetime) -> None:
        """Start an ended subscription again with a freshly paid period from ``at``."""
        if self.status is not SubscriptionStatus.ENDED:
            raise DomainError(ErrorCode.AUTO_PAYMENT_ALREADY_SET, "the subscription has not ended")
        self.trigger_event(
            SubscriptionResubscribed,
            timestamp=at,
            period=self.period + 1,
            merchant_uid=merchant_uid,
            imp_uid=imp_uid,
            customer_uid=customer_uid,
            period_start=at,
            paid_until=at + period_length(self.life),
        )

    def resubscribe_merchant_uid(self) -> str:
        """The next re-subscription charge's order id: racing requests share it, a retry after failure does not."""
        return f"{self.merchant_uid_for(self.period + 1, 1)}-r{self.version}"

    def record_resubscribe_failure(self, merchant_uid: str, reason: str, at: datetime) -> None:
        """The re-subscription charge failed; the next try gets a new order id."""
        self.trigger_event(ResubscribeFailed, timestamp=at, merchant_uid=merchant_uid, reason=reason)

    def change_payment_method(
        self, customer_uid: str, card_name: str | None, card_number: str | None, at: datetime
    ) -> None:
        """Charge another billing key from the next renewal on."""
        if self.status is SubscriptionStatus.ENDED:
            raise DomainError(ErrorCode.INVALID_VALUE, "the subscription has ended")
        self.trigger_event(
            PaymentMethodChanged, timestamp=at, customer_uid=customer_uid, card_name=card_name, card_number=card_number
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _started(self, event: SubscriptionStarted) -> None:
        self.account_id = event.account_id
        self.user_licence_id = event.user_licence_id
        self.licence_id = event.licence_id
        self.name = event.name
        self.life = event.life
        self.amount = event.amount
        self.currency = event.currency
        self.customer_uid = event.customer_uid
        self.card_name = event.card_name
        self.card_number = event.card_number
        self.status = SubscriptionStatus.ACTIVE
        self.period = 1
        self.period_start = event.period_start
        self.paid_until = event.paid_until
        self.failed_attempts = 0
        self.retry_at: datetime | None = None

    @when.register
    def _renewed(self, event: SubscriptionRenewed) -> None:
        self.status = SubscriptionStatus.ACTIVE
        self.period = event.period
        self.period_start = self.paid_until
        self.paid_until = event.paid_until
        self.failed_attempts = 0
        self.retry_at = None

    @when.register
    def _failed(self, event: RenewalFailed) -> None:
        self.failed_attempts = event.attempt
        self.retry_at = event.retry_at
        self.status = SubscriptionStatus.PAST_DUE

    @when.register
    def _cancelled(self, event: AutoRenewalCancelled) -> None:
        self.status = SubscriptionStatus.CANCELLED

    @when.register
    def _resumed(self, event: AutoRenewalResumed) -> None:
        self.status = SubscriptionStatus.ACTIVE

    @when.register
    def _method_changed(self, event: PaymentMethodChanged) -> None:
        self.customer_uid = event.customer_uid
        self.card_name = event.card_name
        self.card_number = event.card_number

    @when.register
    def _ended(self, event: SubscriptionEnded) -> None:
        self.status = SubscriptionStatus.ENDED
        self.retry_at = None
        self.failed_attempts = 0

    @when.register
    def _resubscribe_failed(self, event: ResubscribeFailed) -> None:
        pass

    @when.register
    def _resubscribed(self, event: SubscriptionResubscribed) -> None:
        self.status = SubscriptionStatus.ACTIVE
        self.period = event.period
        self.period_start = event.period_start
        self.paid_until = event.paid_until
        self.customer_uid = event.customer_uid
        self.failed_attempts = 0
        self.retry_at = None

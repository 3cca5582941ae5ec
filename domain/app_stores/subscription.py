"""A store purchase linked to a customer's licence (``StoreSubscription``), and each store notification taken once
(``StoreNotification``)."""

from __future__ import annotations

from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.app_stores.facts import Store, StoreState, StoreTransaction
from events.app_stores import (
    StoreAutoRenewChanged,
    StoreBillingRetryStarted,
    StoreGracePeriodStarted,
    StoreNotificationTaken,
    StoreSubscriptionChecked,
    StoreSubscriptionExpired,
    StoreSubscriptionLinked,
    StoreSubscriptionRefunded,
    StoreSubscriptionRenewed,
    StoreSubscriptionRevoked,
)


def subscription_key(transaction: StoreTransaction) -> str:
    """What names one store purchase across its renewals: Apple's original transaction id, Google's purchase token
    (a subscription keeps its token while it renews; a purchase made again gets a new one)."""
    if transaction.store is Store.GOOGLE_PLAY and transaction.purchase_token:
        return transaction.purchase_token
    return transaction.original_transaction_id


class StoreSubscription(Aggregate):
    """One store purchase (a subscription, or a one-time purchase such as a lifetime plan) and the licence it pays for.

    It remembers which of our payments pays for the time running now (``period_merchant_uid``): a refund of that
    one revokes the licence, a refund of an earlier period's is recorded only."""

    @staticmethod
    def id_for(store: Store, key: str) -> UUID:
        """One aggregate per store purchase (linking it again finds it)."""
        return uuid5(NAMESPACE_URL, f"/store-subscriptions/{store.value}/{key}")

    @classmethod
    def link(
        cls,
        *,
        transaction: StoreTransaction,
        licence_id: int,
        account_id: UUID,
        user_licence_id: UUID,
        merchant_uid: str,
        linked_by: str,
        at: datetime,
    ) -> StoreSubscription:
        """Record that the purchase is this customer's licence, its first recorded charge ``merchant_uid``."""
        return cls._create(
            StoreSubscriptionLinked,
            id=cls.id_for(transaction.store, subscription_key(transaction)),
            timestamp=at,
            store=transaction.store.value,
            original_transaction_id=transaction.original_transaction_id,
            purchase_token=transaction.purchase_token,
            product_id=transaction.product_id,
            licence_id=licence_id,
            account_id=account_id,
            user_licence_id=user_licence_id,
            environment=transaction.environment,
            renewing=transaction.renewing,
            expires_at=transaction.expires_at,
            merchant_uid=merchant_uid,
            linked_by=linked_by,
        )

    def renew(self, transaction: StoreTransaction, merchant_uid: str, at: datetime) -> None:
        """The store charged another period."""
        assert transaction.expires_at is not None, "a renewal has an end"
        self.trigger_event(
            StoreSubscriptionRenewed,
            timestamp=at,
            transaction_id=transaction.transaction_id,
            merchant_uid=merchant_uid,
            expires_at=transaction.expires_at,
        )

    def start_grace_period(self, grace_until: datetime, reason: str, at: datetime) -> bool:
        """The renewal failed and the store keeps access until ``grace_until`` (True when that is news)."""
        if self.state is StoreState.GRACE_PERIOD and self.grace_until == grace_until:
            return False
        self.trigger_event(StoreGracePeriodStarted, timestamp=at, grace_until=grace_until, reason=reason)
        return True

    def start_billing_retry(self, reason: str, at: datetime) -> bool:
        """The renewal failed and the store retries without access (True when that is news)."""
        if self.state is StoreState.BILLING_RETRY:
            return False
        self.trigger_event(StoreBillingRetryStarted, timestamp=at, reason=reason)
        return True

    def expire(self, expired_at: datetime, reason: str, at: datetime) -> bool:
        """The subscription ran out (True when that is news)."""
        if self.state in (StoreState.EXPIRED, StoreState.REFUNDED, StoreState.REVOKED):
            return False
        self.trigger_event(StoreSubscriptionExpired, timestamp=at, expired_at=expired_at, reason=reason)
        return True

    def refunded(self, transaction_id: str, merchant_uid: str, amount: int, reason: str, at: datetime) -> bool:
        """The store gave ``merchant_uid``'s money back; answers whether that takes the licence away (it paid for
        the time running now)."""
        revokes = merchant_uid == self.period_merchant_uid
        self.trigger_event(
            StoreSubscriptionRefunded,
            timestamp=at,
            transaction_id=transaction_id,
            merchant_uid=merchant_uid,
            amount=amount,
            reason=reason,
            revoked=revokes,
        )
        return revokes

    def revoke(self, reason: str, at: datetime) -> bool:
        """The store took the purchase away (True when that is news)."""
        if self.state in (StoreState.REVOKED, StoreState.REFUNDED):
            return False
        self.trigger_event(StoreSubscriptionRevoked, timestamp=at, reason=reason)
        return True

    def change_auto_renew(self, renewing: bool, at: datetime) -> bool:
        """The customer turned the store's auto-renewal on or off (True when that is news)."""
        if renewing == self.renewing:
            return False
        self.trigger_event(StoreAutoRenewChanged, timestamp=at, renewing=renewing)
        return True

    def checked(self, store_state: StoreState, at: datetime) -> None:
        """The reconciliation pass asked the store and found nothing new."""
        self.trigger_event(StoreSubscriptionChecked, timestamp=at, checked_at=at, store_state=store_state.value)

    @property
    def ended(self) -> bool:
        """Refunded or revoked: nothing the store says later gives the licence back."""
        return self.state in (StoreState.REFUNDED, StoreState.REVOKED)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _linked(self, event: StoreSubscriptionLinked) -> None:
        self.store = Store(event.store)
        self.original_transaction_id = event.original_transaction_id
        self.purchase_token = event.purchase_token
        self.product_id = event.product_id
        self.licence_id = event.licence_id
        self.account_id = event.account_id
        self.user_licence_id = event.user_licence_id
        self.environment = event.environment
        self.renewing = event.renewing
        self.expires_at = event.expires_at
        self.grace_until: datetime | None = None
        self.state = StoreState.ACTIVE
        self.period_merchant_uid: str | None = event.merchant_uid
        self.heard_at = event.timestamp

    @when.register
    def _renewed(self, event: StoreSubscriptionRenewed) -> None:
        self.state = StoreState.ACTIVE
        self.expires_at = event.expires_at
        self.grace_until = None
        self.period_merchant_uid = event.merchant_uid
        self.heard_at = event.timestamp

    @when.register
    def _grace(self, event: StoreGracePeriodStarted) -> None:
        self.state = StoreState.GRACE_PERIOD
        self.grace_until = event.grace_until
        self.heard_at = event.timestamp

    @when.register
    def _retry(self, event: StoreBillingRetryStarted) -> None:
        self.state = StoreState.BILLING_RETRY
        self.grace_until = None
        self.heard_at = event.timestamp

    @when.register
    def _expired(self, event: StoreSubscriptionExpired) -> None:
        self.state = StoreState.EXPIRED
        self.grace_until = None
        self.heard_at = event.timestamp

    @when.register
    def _refunded(self, event: StoreSubscriptionRefunded) -> None:
        if event.revoked:
            self.state = StoreState.REFUNDED
        self.heard_at = event.timestamp

    @when.register
    def _revoked(self, event: StoreSubscriptionRevoked) -> None:
        self.state = StoreState.REVOKED
        self.heard_at = event.timestamp

    @when.register
    def _auto_renew(self, event: StoreAutoRenewChanged) -> None:
        self.renewing = event.renewing
        self.heard_at = event.timestamp

    @when.register
    def _checked(self, event: StoreSubscriptionChecked) -> None:
        self.heard_at = event.timestamp


class StoreNotification(Aggregate):
    """A store notification taken once: its id is derived from the store's notification id, so a duplicate (however
    many at once) finds it, or loses the race to save it, and changes nothing."""

    @staticmethod
    def id_for(store: Store, notification_id: str) -> UUID:
        """One aggregate per store notification."""
        return uuid5(NAMESPACE_URL, f"/store-notifications/{store.value}/{notification_id}")

    @classmethod
    def take(
        cls,
        *,
        store: Store,
        notification_id: str,
        kind: str,
        subtype: str,
        signed_at: datetime,
        original_transaction_id: str | None,
        outcome: str,
        at: datetime,
    ) -> StoreNotification:
        """Record the notification as taken, with what came of it."""
        return cls._create(
            StoreNotificationTaken,
            id=cls.id_for(store, notification_id),
            timestamp=at,
            store=store.value,
            notification_id=notification_id,
            kind=kind,
            subtype=subtype,
            signed_at=signed_at,
            original_transaction_id=original_transaction_id,
            outcome=outcome,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _taken(self, event: StoreNotificationTaken) -> None:
        self.outcome = event.outcome
        self.kind = event.kind

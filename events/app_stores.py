"""Events of purchases made in the apps' stores (Apple's App Store, Google Play): a store subscription (or one-time
purchase) linked to a customer's licence, what the store said about it since, and each store notification taken.

``store`` is ``app-store`` or ``google-play``. ``original_transaction_id`` is the store's id of the purchase across
its renewals (Apple's originalTransactionId; Google's order id without its ``..N`` renewal suffix). Amounts are minor
units of the payment's currency. The payment side (a store transaction recorded as a payment of ours, a refund the
store made) is in ``events/payments.py`` (``payment.StorePurchaseVerified``, ``payment.StoreRefunded``).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class StoreSubscriptionLinked(StoredCreation):
    """A verified store purchase became the licence ``user_licence_id`` of ``account_id``. ``renewing`` says whether
    the store renews it (an auto-renewable subscription) or it was bought once (a lifetime licence); ``expires_at``
    is the end of the paid time the store reported (None for a purchase that does not end), ``merchant_uid`` our
    payment of the charge it was linked with. ``linked_by`` says who
    brought it: ``app`` or ``web`` (the customer, with the store's proof), ``notification`` (the store's own
    notification naming the account), ``reconciliation``."""

    TOPIC = "storesubscription.Linked"
    store: str
    original_transaction_id: str
    purchase_token: str | None
    product_id: str
    licence_id: int
    account_id: UUID
    user_licence_id: UUID
    environment: str
    renewing: bool
    expires_at: datetime | None
    merchant_uid: str
    linked_by: str


class StoreSubscriptionRenewed(StoredEvent):
    """The store charged another period (``transaction_id``, recorded as the payment ``merchant_uid``), paid until
    ``expires_at``; the subscription is active again (after a grace period or a billing retry too)."""

    TOPIC = "storesubscription.Renewed"
    transaction_id: str
    merchant_uid: str
    expires_at: datetime


class StoreSubscriptionExpired(StoredEvent):
    """The subscription ran out (``reason``: the store's words, such as ``VOLUNTARY`` or ``BILLING_RETRY``); the
    licence ends at ``expired_at``."""

    TOPIC = "storesubscription.Expired"
    expired_at: datetime
    reason: str


class StoreGracePeriodStarted(StoredEvent):
    """The store could not charge the renewal and keeps the customer's access until ``grace_until`` while it tries."""

    TOPIC = "storesubscription.GracePeriodStarted"
    grace_until: datetime
    reason: str


class StoreBillingRetryStarted(StoredEvent):
    """The store could not charge the renewal and tries again without access (the licence ends with its paid time)."""

    TOPIC = "storesubscription.BillingRetryStarted"
    reason: str


class StoreSubscriptionRefunded(StoredEvent):
    """The store gave the money of ``transaction_id`` (our payment ``merchant_uid``) back; ``revoked`` says whether
    that took the licence away (it paid for the time running now)."""

    TOPIC = "storesubscription.Refunded"
    transaction_id: str
    merchant_uid: str
    amount: int
    reason: str
    revoked: bool


class StoreSubscriptionRevoked(StoredEvent):
    """The store took the purchase away without a refund of ours to record (family sharing ended, say)."""

    TOPIC = "storesubscription.Revoked"
    reason: str


class StoreAutoRenewChanged(StoredEvent):
    """The customer turned the store's auto-renewal off or on (the licence runs to its end either way)."""

    TOPIC = "storesubscription.AutoRenewChanged"
    renewing: bool


class StoreSubscriptionChecked(StoredEvent):
    """The reconciliation pass asked the store and found nothing new to record (so it waits before asking again)."""

    TOPIC = "storesubscription.Checked"
    checked_at: datetime
    store_state: str


class StoreNotificationTaken(StoredCreation):
    """A store notification (id ``notification_id``, unique per store) was verified and taken, once: saved with what
    it changed, so a duplicate finds it and changes nothing. ``outcome`` is ``applied``, ``unlinked`` (about a
    purchase no customer has linked yet: the link takes the store's state then) or ``ignored`` (a kind that changes
    nothing here, such as a test notification)."""

    TOPIC = "storenotification.Taken"
    store: str
    notification_id: str
    kind: str
    subtype: str
    signed_at: datetime
    original_transaction_id: str | None
    outcome: str


__all__ = [
    "StoreAutoRenewChanged",
    "StoreBillingRetryStarted",
    "StoreGracePeriodStarted",
    "StoreNotificationTaken",
    "StoreSubscriptionChecked",
    "StoreSubscriptionExpired",
    "StoreSubscriptionLinked",
    "StoreSubscriptionRefunded",
    "StoreSubscriptionRenewed",
    "StoreSubscriptionRevoked",
]

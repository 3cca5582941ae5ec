"""What a store says, in one shape for both stores (as RevenueCat normalises the App Store's and Google Play's
events into one schema): a transaction, the state of a subscription now, and a notification.

The adapters (``integrations/app_store``, ``integrations/google_play``) verify the store's signed data and translate
it into these; nothing here knows a wire format.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from domain.errors import DomainError, ErrorCode


class Store(Enum):
    """The stores the apps are sold in (values are what events and the API say)."""

    APP_STORE = "app-store"
    GOOGLE_PLAY = "google-play"


STORES = tuple(store.value for store in Store)


class StoreState(Enum):
    """Where a store subscription stands, as the store says."""

    ACTIVE = "active"  # paid until its expiry (auto-renewal on or off)
    GRACE_PERIOD = "grace-period"  # the renewal failed; the store keeps access until ``grace_until`` while it retries
    BILLING_RETRY = "billing-retry"  # the renewal failed; the store retries, without access
    EXPIRED = "expired"  # ran out and will not renew
    REFUNDED = "refunded"  # the store gave the money of ``latest`` back
    REVOKED = "revoked"  # the store took the purchase away (family sharing ended, a voided purchase)


class NoticeKind(Enum):
    """What a notification says happened (the store's many types, normalised)."""

    PURCHASED = "purchased"
    RENEWED = "renewed"
    EXPIRED = "expired"
    GRACE_PERIOD = "grace-period"
    BILLING_RETRY = "billing-retry"
    REFUNDED = "refunded"
    REVOKED = "revoked"
    AUTO_RENEW_CHANGED = "auto-renew-changed"
    OTHER = "other"  # a kind that changes nothing here (a price consent, a test): taken and ignored


@dataclass(frozen=True)
class StoreTransaction:
    """One charge the store made (a purchase or a renewal), as the store signed it.

    ``amount`` and ``currency`` are the store's price in minor units when it gave one in a currency we keep (else
    None: the catalogue's price is recorded); ``account_token`` is what the app set on the purchase to name our
    account (Apple's appAccountToken, Google's obfuscatedExternalAccountId)."""

    store: Store
    transaction_id: str
    original_transaction_id: str
    product_id: str
    purchased_at: datetime
    expires_at: datetime | None
    renewing: bool
    environment: str
    account_token: str | None = None
    amount: int | None = None
    currency: str | None = None
    country_code: str | None = None
    revoked_at: datetime | None = None
    revocation_reason: str | None = None
    purchase_token: str | None = None


@dataclass(frozen=True)
class StoreStatus:
    """What the store says about a purchase now: its state, the latest transaction, whether it renews."""

    state: StoreState
    latest: StoreTransaction
    renewing: bool
    grace_until: datetime | None = None
    reason: str = ""


@dataclass(frozen=True)
class StoreNotice:
    """A verified notification: its id (unique per store), when the store signed it, and what it says now (None for
    one about nothing we hold, such as a test notification)."""

    store: Store
    notification_id: str
    kind: NoticeKind
    subtype: str
    signed_at: datetime
    status: StoreStatus | None
    purchase_token: str | None = None
    product_id: str | None = None


def check_fresh(signed_at: datetime, now: datetime, window: timedelta) -> None:
    """A notification is taken within ``window`` of its signing (a store re-sends one for three days at most), never
    signed in the future beyond a few minutes' skew: anything else is a replay, -350."""
    if signed_at > now + timedelta(minutes=5):
        raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "a notification signed in the future")
    if now - signed_at > window:
        raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "a notification signed outside its window (a replay)")


def merchant_uid_of(transaction: StoreTransaction) -> str:
    """Our payment of one store charge (``apple-<transactionId>`` as the back office's record, ``google-<orderId>``)."""
    prefix = "apple" if transaction.store is Store.APP_STORE else "google"
    return f"{prefix}-{transaction.transaction_id}"

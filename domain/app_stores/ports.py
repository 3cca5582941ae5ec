"""The stores as the use cases need them. The adapters are ``integrations/app_store`` (Apple's signed data verified
with ``app-store-server-library``, the App Store Server API) and ``integrations/google_play`` (the Play Developer
API's purchase lookups, Pub/Sub push tokens); ``tests/fakes.py`` has fakes for unit tests.

Every method raises ``DomainError`` with -350 (``STORE_PROOF_REFUSED``) for data that does not verify and -352
(``STORE_UNAVAILABLE``) when the store does not answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from domain.app_stores.facts import StoreNotice, StoreStatus, StoreTransaction
from domain.app_stores.products import StoreRules


class AppStore(Protocol):
    """Apple's App Store: signed transactions and notifications, and the App Store Server API."""

    def verify_transaction(self, signed_transaction: str) -> StoreTransaction:
        """A signed transaction (JWS) from the app, verified to Apple's root."""
        ...

    def verify_notification(self, signed_payload: str) -> StoreNotice:
        """An App Store Server Notification v2, verified to Apple's root."""
        ...

    def status(self, original_transaction_id: str) -> StoreStatus:
        """The subscription's state now (Get All Subscription Statuses), or a one-time purchase's."""
        ...


class GooglePlay(Protocol):
    """Google Play: the Developer API's purchase lookups and the Real-time Developer Notifications' push."""

    def verify_push(self, authorization: str | None, now: datetime) -> None:
        """The Pub/Sub push's OIDC token (the ``Authorization: Bearer`` header), verified at ``now``."""
        ...

    def read_notice(self, body: bytes) -> StoreNotice:
        """A push body's notification (its status is left to ``lookup``)."""
        ...

    def lookup(self, product_id: str, purchase_token: str) -> StoreStatus:
        """A purchase's state now: subscriptionsv2.get for a subscription, products.get for a one-time product."""
        ...


@dataclass(frozen=True)
class StoreGateways:
    """Both stores, their products and commissions, and the windows the use cases keep: a notification is taken
    within ``notification_window`` of its signing; a subscription silent ``reconcile_after`` past the end of its
    paid time is asked for."""

    app_store: AppStore
    google_play: GooglePlay
    rules: StoreRules
    notification_window: timedelta = timedelta(hours=96)
    reconcile_after: timedelta = timedelta(hours=1)

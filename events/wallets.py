"""Events of an account's wallet: the billing keys (cards kept at the gateway) it may charge."""

from __future__ import annotations

from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class WalletOpened(StoredCreation):
    """An account registered its first billing key."""

    TOPIC = "wallet.Opened"
    account_id: UUID


class BillingKeyAdded(StoredEvent):
    """A card was registered at the gateway under ``customer_uid``; only its mask is kept."""

    TOPIC = "wallet.BillingKeyAdded"
    billing_key_id: str
    customer_uid: str
    pg: str
    card_name: str | None
    card_number: str | None


class DefaultBillingKeyChosen(StoredEvent):
    """New subscriptions charge this key unless told otherwise."""

    TOPIC = "wallet.DefaultBillingKeyChosen"
    billing_key_id: str

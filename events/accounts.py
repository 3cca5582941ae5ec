"""Events of the account aggregate and of the email-uniqueness index."""

from __future__ import annotations

from uuid import UUID

from events.contract import StoredCreation
from events.values import Language


class AccountRegistered(StoredCreation):
    """A customer registered with an email address (not yet confirmed)."""

    TOPIC = "account.Registered"
    email: str
    password_hash: str
    language: Language
    marketing_push_enabled: bool


class EmailClaimed(StoredCreation):
    """An email address was taken by an account (uniqueness index)."""

    TOPIC = "account.EmailClaimed"
    email: str
    account_id: UUID

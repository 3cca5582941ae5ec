"""The account aggregate and the index that keeps email addresses unique."""

from __future__ import annotations

from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from events.accounts import AccountRegistered, EmailClaimed
from events.values import Language


def normalise_email(email: str) -> str:
    """The form of an email address used for uniqueness (trimmed, lower-case)."""
    return email.strip().lower()


class Account(Aggregate):
    """A customer's account."""

    @classmethod
    def register(
        cls,
        *,
        email: str,
        password_hash: str,
        language: Language,
        marketing_push_enabled: bool,
        at: datetime,
    ) -> Account:
        """A new, unconfirmed account."""
        return cls._create(
            AccountRegistered,
            id=uuid4(),
            timestamp=at,
            email=normalise_email(email),
            password_hash=password_hash,
            language=language,
            marketing_push_enabled=marketing_push_enabled,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _registered(self, event: AccountRegistered) -> None:
        self.email = event.email
        self.password_hash = event.password_hash
        self.language = event.language
        self.marketing_push_enabled = event.marketing_push_enabled
        self.email_confirmed = False


class EmailIndex(Aggregate):
    """Claims one normalised email address for one account (uuid5 of the address)."""

    @staticmethod
    def id_for(email: str) -> UUID:
        """The index aggregate id of an address."""
        return uuid5(NAMESPACE_URL, f"/emails/{normalise_email(email)}")

    @classmethod
    def claim(cls, *, email: str, account_id: UUID, at: datetime) -> EmailIndex:
        """Take the address; saving it fails with IntegrityError if already taken."""
        return cls._create(
            EmailClaimed,
            id=cls.id_for(email),
            timestamp=at,
            email=normalise_email(email),
            account_id=account_id,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _claimed(self, event: EmailClaimed) -> None:
        self.email = event.email
        self.account_id = event.account_id

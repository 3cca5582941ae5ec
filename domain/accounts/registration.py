"""Use case: register a new account with a unique email address."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account, EmailIndex
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.ports import PasswordHasher
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.values import Language


@dataclass(frozen=True)
class Registered:
    """What registration gives back: the account and the log position that recorded it."""

    account_id: UUID
    email_confirmed: bool
    notification_id: int


def register_account(
    store: Storefront,
    clock: Clock,
    hasher: PasswordHasher,
    *,
    email: str,
    password: str,
    language: Language,
    marketing_push_enabled: bool,
) -> Registered:
    """Record a new account and claim its email in one transaction (-402 when taken)."""
    password_hash = hasher.hash(password)

    def attempt() -> Registered:
        if _email_taken(store, email):
            raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED)
        now = clock.now()
        account = Account.register(
            email=email,
            password_hash=password_hash,
            language=language,
            marketing_push_enabled=marketing_push_enabled,
            at=now,
        )
        index = EmailIndex.claim(email=email, account_id=account.id, at=now)
        recordings = store.save(account, index)
        return Registered(account.id, account.email_confirmed, recordings[-1].notification.id)

    return retry_on_conflict(attempt)


def _email_taken(store: Storefront, email: str) -> bool:
    try:
        store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        return False
    return True

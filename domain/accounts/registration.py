"""Use case: register a new account with a unique email address."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account, EmailIndex
from domain.accounts.claims import MailboxProof, new_claim_id, proves_mailbox_of
from domain.accounts.passwords import is_valid_password
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.management import take_licence_by_key
from domain.ports import PasswordHasher
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.values import Language

log = logging.getLogger(__name__)


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
    licence_key: str | None = None,
    mailbox_proof: MailboxProof | None = None,
) -> Registered:
    """Record a new account and claim its email in one transaction (-402 when taken).

    An address released by a deleted account is claimed again through the same index. An address a guest's
    purchase opened is claimed, not taken: the registration waits for the mailbox (see ``domain.accounts.claims``),
    unless it comes from a link mailed to the address (``mailbox_proof``, the receipt's), which proves it at once
    and also takes an account whose address nobody ever confirmed. Registering from a licence link
    (``licence_key``) also takes that licence in the same transaction when the key can be taken; when it cannot
    (unknown, someone else's, expired) the account is registered without it and the licence page's
    register-by-key form says why.
    """
    if not is_valid_password(password):
        raise DomainError(ErrorCode.INVALID_VALUE, "password rule")
    password_hash = hasher.hash(password)

    def attempt() -> Registered:
        existing = _email_index(store, email)
        now = clock.now()
        if existing is not None and existing.is_taken and existing.account_id is not None:
            account: Account = store.repository.get(existing.account_id)
            if proves_mailbox_of(mailbox_proof, account):
                account.claim_by_mailbox(
                    password_hash=password_hash,
                    language=language,
                    marketing_push_enabled=marketing_push_enabled,
                    at=now,
                )
            else:
                account.request_claim(
                    new_claim_id(),
                    password_hash=password_hash,
                    language=language,
                    marketing_push_enabled=marketing_push_enabled,
                    at=now,
                )
            changed: list[Aggregate] = [account]
        else:
            account = Account.register(
                email=email,
                password_hash=password_hash,
                language=language,
                marketing_push_enabled=marketing_push_enabled,
                at=now,
            )
            if existing is None:
                index = EmailIndex.claim(email=email, account_id=account.id, at=now)
            else:  # released by a deleted account: take the same index again
                index = existing
                index.reclaim(account.id, now)
            changed = [account, index]
        if licence_key and not account.is_guest:  # a pending claim takes nothing until the mailbox proves it
            changed.extend(_licence_taken(store, account.id, licence_key, now))
        recordings = store.save(*changed)
        return Registered(account.id, account.email_confirmed, recordings[-1].notification.id)

    return retry_on_conflict(attempt)


def _licence_taken(store: Storefront, account_id: UUID, licence_key: str, now: datetime) -> list[Aggregate]:
    """The licence of a licence link, moved to the new account; nothing when its key cannot be taken."""
    try:
        return [take_licence_by_key(store, account_id, licence_key, now)]
    except DomainError as refused:
        log.info("registered without the licence link's key: %s", refused.code.name)
        return []


def _email_index(store: Storefront, email: str) -> EmailIndex | None:
    try:
        index: EmailIndex = store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        return None
    return index

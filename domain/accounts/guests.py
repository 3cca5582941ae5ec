"""Guests who pay without logging in: the account a buyer's address belongs to, or a new one."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account, EmailIndex
from domain.store import Storefront
from events.values import Language


@dataclass(frozen=True)
class GuestBuyer:
    """The account a guest's purchase belongs to, and what must be saved with the purchase."""

    account_id: UUID
    is_member: bool
    new_aggregates: list[Aggregate] = field(default_factory=list)


def guest_buyer(store: Storefront, email: str, language: Language, now: datetime) -> GuestBuyer:
    """The account holding ``email``; else a new, unconfirmed account without a password.

    The guest later sets a password by registering with the address (the receipt mail links there).
    """
    index: EmailIndex | None
    try:
        index = store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        index = None
    if index is not None and index.is_taken and index.account_id is not None:
        holder: Account = store.repository.get(index.account_id)
        return GuestBuyer(holder.id, holder.is_member)
    account = Account.register(email=email, password_hash="", language=language, marketing_push_enabled=False, at=now)
    if index is None:
        return GuestBuyer(account.id, False, [account, EmailIndex.claim(email=email, account_id=account.id, at=now)])
    index.reclaim(account.id, now)
    return GuestBuyer(account.id, False, [account, index])


def is_member_address(store: Storefront, email: str) -> bool:
    """Whether ``email`` belongs to a registered member: an address only a guest's purchase opened
    counts as unregistered (registering with it claims that account)."""
    try:
        index: EmailIndex = store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        return False
    if not index.is_taken or index.account_id is None:
        return False
    holder: Account = store.repository.get(index.account_id)
    return holder.is_member

"""Use cases on one's own account: confirm the email, change the profile, check the password, delete.

Each takes the caller's account id (from the access token or a signed link), never
an id chosen by the client, so one account cannot touch another.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import EmailIndex, NicknameIndex, normalise_nickname
from domain.accounts.auth import load_account
from domain.accounts.nicknames import clean_nickname
from domain.accounts.tokens import CONFIRM_EMAIL, InvalidTokenError, read_link
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.ports import PasswordHasher
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.values import Language

DELETED_REASON_MAX_LENGTH = 1000


@dataclass(frozen=True)
class EmailConfirmation:
    """Which address was confirmed, for the redirect to /register/confirm."""

    account_id: UUID
    email: str
    language: Language
    notification_id: int


def confirm_email(store: Storefront, clock: Clock, secret: str, token: str) -> EmailConfirmation:
    """Record EmailConfirmed for the link's account and address (-405 for a bad or expired link)."""
    try:
        claims = read_link(secret, CONFIRM_EMAIL, token, clock.now())
    except InvalidTokenError:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "confirmation link") from None
    email = claims.values.get("email", "")

    def attempt() -> EmailConfirmation:
        try:
            account = load_account(store, claims.account_id)
        except DomainError:
            raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "account gone") from None
        account.confirm_email(email, clock.now())
        position = _save(store, account)
        return EmailConfirmation(account.id, account.email, account.language, position)

    return retry_on_conflict(attempt)


def change_profile(
    store: Storefront,
    clock: Clock,
    account_id: UUID,
    *,
    name: str | None = None,
    language: Language | None = None,
    marketing_push_enabled: bool | None = None,
) -> int:
    """Change what is given (None leaves a field as it is); the nickname is kept as ``clean_nickname`` makes it
    (-1, -2 when it cannot be one), -411 when it is taken.

    Returns the log position to wait for (0 when nothing changed).
    """
    if name is not None:
        name = clean_nickname(name)

    def attempt() -> int:
        account = load_account(store, account_id)
        now = clock.now()
        changed: list[Aggregate] = []
        new_name = account.name if name is None else name
        old_key = normalise_nickname(account.name) if account.name else None
        new_key = normalise_nickname(new_name) if new_name else None
        if new_key != old_key:
            if new_name:
                changed.append(_claim_nickname(store, new_name, account.id, now))
            if account.name:
                old_index = _nickname_index(store, account.name)
                if old_index is not None and old_index.account_id == account.id:
                    old_index.release(account.id, now)
                    changed.append(old_index)
        account.change_profile(
            name=new_name,
            language=account.language if language is None else language,
            marketing_push_enabled=(
                account.marketing_push_enabled if marketing_push_enabled is None else marketing_push_enabled
            ),
            at=now,
        )
        return _save(store, account, *changed)

    return retry_on_conflict(attempt)


def check_password(store: Storefront, hasher: PasswordHasher, account_id: UUID, password: str) -> None:
    """Nothing when ``password`` is the account's password; -406 otherwise."""
    account = load_account(store, account_id)
    if not hasher.verify(account.password_hash, password):
        raise DomainError(ErrorCode.PASSWORD_DIFFERS)


def delete_account(
    store: Storefront, clock: Clock, hasher: PasswordHasher, account_id: UUID, *, password: str, reason: str
) -> int:
    """Delete the account and free its email address and nickname (same transaction), once its password is given
    (-406 otherwise: a token alone, left on a shared computer or stolen, cannot delete the account)."""
    reason = reason.strip()[:DELETED_REASON_MAX_LENGTH]
    check_password(store, hasher, account_id, password)

    def attempt() -> int:
        account = load_account(store, account_id)
        now = clock.now()
        released: list[Aggregate] = []
        email_index = _email_index(store, account.email)
        if email_index is not None and email_index.account_id == account.id:
            email_index.release(account.id, now)
            released.append(email_index)
        if account.name:
            nickname_index = _nickname_index(store, account.name)
            if nickname_index is not None and nickname_index.account_id == account.id:
                nickname_index.release(account.id, now)
                released.append(nickname_index)
        account.delete(reason, now)
        return _save(store, account, *released)

    return retry_on_conflict(attempt)


def _claim_nickname(store: Storefront, nickname: str, account_id: UUID, now: datetime) -> NicknameIndex:
    existing = _nickname_index(store, nickname)
    if existing is None:
        return NicknameIndex.claim(nickname=nickname, account_id=account_id, at=now)
    existing.reclaim(account_id, now)
    return existing


def _nickname_index(store: Storefront, nickname: str) -> NicknameIndex | None:
    try:
        index: NicknameIndex = store.repository.get(NicknameIndex.id_for(nickname))
    except AggregateNotFoundError:
        return None
    return index


def _email_index(store: Storefront, email: str) -> EmailIndex | None:
    try:
        index: EmailIndex = store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        return None
    return index


def _save(store: Storefront, *aggregates: Aggregate) -> int:
    recordings = store.save(*aggregates)
    return recordings[-1].notification.id if recordings else 0

"""Use cases behind mailed links: resend the confirmation, reset the password, change the email.

Each request is recorded as an event; the reactor turns it into a mail (the log is
the outbox). Each link carries an id that the account remembers, so a link works
once, and a newer request makes the older link stale (-405).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account, EmailIndex
from domain.accounts.auth import find_account_id, load_account
from domain.accounts.passwords import is_valid_password
from domain.accounts.tokens import (
    CHANGE_EMAIL,
    CONFIRMATION_LINK_LIFETIME,
    RESET_LINK_LIFETIME,
    RESET_PASSWORD,
    InvalidTokenError,
    LinkClaims,
    read_link,
    sign_link,
)
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.ports import PasswordHasher
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.values import Language


def new_link_id() -> str:
    """A random id for one mailed link."""
    return secrets.token_urlsafe(16)


def reset_link_token(secret: str, account_id: UUID, reset_id: str, now: datetime) -> str:
    """The token of a password-reset link (valid for an hour)."""
    return sign_link(secret, RESET_PASSWORD, account_id, now, RESET_LINK_LIFETIME, rid=reset_id)


def email_change_link_token(secret: str, account_id: UUID, change_id: str, email: str, now: datetime) -> str:
    """The token of an email-change link, mailed to the new address (valid for a day)."""
    return sign_link(secret, CHANGE_EMAIL, account_id, now, CONFIRMATION_LINK_LIFETIME, cid=change_id, email=email)


def request_confirmation_mail(store: Storefront, clock: Clock, account_id: UUID) -> int:
    """Record a resend of the confirmation mail (0 when the address is already confirmed)."""

    def attempt() -> int:
        account = load_account(store, account_id)
        if not account.request_confirmation_mail(clock.now()):
            return 0
        return _save(store, account)

    return retry_on_conflict(attempt)


def request_password_reset(
    store: Storefront, clock: Clock, *, email: str, language: Language, resend: bool = False
) -> int:
    """Record a reset request for the account holding ``email`` (0, quietly, when there is none).

    A resend mails the pending link again instead of making a new one.
    """
    account_id = find_account_id(store, email)
    if account_id is None:
        return 0

    def attempt() -> int:
        try:
            account = load_account(store, account_id)
        except DomainError:
            return 0
        reset_id = account.pending_reset_id if resend and account.pending_reset_id else new_link_id()
        account.request_password_reset(reset_id, language, clock.now())
        return _save(store, account)

    return retry_on_conflict(attempt)


def check_password_reset(store: Storefront, clock: Clock, secret: str, token: str) -> str:
    """The address whose password the link may reset (-405 when the link is bad, stale or expired)."""
    claims = _read(secret, RESET_PASSWORD, token, clock)
    account = _account_for_link(store, claims)
    if not account.pending_reset_id or account.pending_reset_id != claims.values.get("rid"):
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "reset link used or replaced")
    return account.email


def reset_password(
    store: Storefront, clock: Clock, hasher: PasswordHasher, secret: str, *, token: str, password: str
) -> int:
    """Set a new password through a reset link (-2 for a bad password, -406 when it is the current one).

    Every session of the account ends (its refresh tokens stop working).
    """
    if not is_valid_password(password):
        raise DomainError(ErrorCode.INVALID_VALUE, "password rule")
    claims = _read(secret, RESET_PASSWORD, token, clock)
    account = _account_for_link(store, claims)
    if hasher.verify(account.password_hash, password):
        raise DomainError(ErrorCode.PASSWORD_DIFFERS, "new password equals the current one")
    password_hash = hasher.hash(password)

    def attempt() -> int:
        current = _account_for_link(store, claims)
        current.complete_password_reset(claims.values.get("rid", ""), password_hash, clock.now())
        return _save(store, current)

    return retry_on_conflict(attempt)


def request_email_change(
    store: Storefront, clock: Clock, hasher: PasswordHasher, account_id: UUID, *, email: str, password: str
) -> int:
    """Record a move to ``email`` after checking the password (-406) and the address (-402, -407)."""
    account = load_account(store, account_id)
    if not hasher.verify(account.password_hash, password):
        raise DomainError(ErrorCode.PASSWORD_DIFFERS)

    def attempt() -> int:
        current = load_account(store, account_id)
        if _holder(store, email) is not None:
            raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED)
        current.request_email_change(email, new_link_id(), clock.now())
        return _save(store, current)

    return retry_on_conflict(attempt)


@dataclass(frozen=True)
class EmailMoved:
    """The account's new address and the log position to wait for."""

    account_id: UUID
    email: str
    notification_id: int


def change_email(store: Storefront, clock: Clock, secret: str, token: str) -> EmailMoved:
    """Move the account to the address of the link: claim the new address, release the old one. Every session of
    the account ends (its refresh and access tokens stop working); the old address is told (the reactor's notice)."""
    claims = _read(secret, CHANGE_EMAIL, token, clock)
    email = claims.values.get("email", "")

    def attempt() -> EmailMoved:
        account = _account_for_link(store, claims)
        now = clock.now()
        old_email = account.email
        account.change_email(email, claims.values.get("cid", ""), now)
        changed: list[Aggregate] = [account]
        new_index = _index(store, email)
        if new_index is None:
            changed.append(EmailIndex.claim(email=email, account_id=account.id, at=now))
        else:
            new_index.reclaim(account.id, now)
            changed.append(new_index)
        old_index = _index(store, old_email)
        if old_index is not None and old_index.account_id == account.id:
            old_index.release(account.id, now)
            changed.append(old_index)
        return EmailMoved(account.id, account.email, _save(store, *changed))

    return retry_on_conflict(attempt)


def _read(secret: str, purpose: str, token: str, clock: Clock) -> LinkClaims:
    try:
        return read_link(secret, purpose, token, clock.now())
    except InvalidTokenError:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, purpose) from None


def _account_for_link(store: Storefront, claims: LinkClaims) -> Account:
    try:
        return load_account(store, claims.account_id)
    except DomainError:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "account gone") from None


def _index(store: Storefront, email: str) -> EmailIndex | None:
    try:
        index: EmailIndex = store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        return None
    return index


def _holder(store: Storefront, email: str) -> UUID | None:
    index = _index(store, email)
    return index.account_id if index is not None else None


def _save(store: Storefront, *aggregates: Aggregate) -> int:
    recordings = store.save(*aggregates)
    return recordings[-1].notification.id if recordings else 0

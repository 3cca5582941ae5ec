"""Use cases: log in, refresh (rotating the refresh token), log out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account, EmailIndex
from domain.accounts.session import LOGOUT, Session
from domain.accounts.tokens import (
    AccessToken,
    RefreshToken,
    hash_secret,
    issue_access_token,
    new_secret,
    parse_refresh_token,
)
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.ports import PasswordHasher
from domain.store import Storefront
from events.concurrency import retry_on_conflict


@dataclass(frozen=True)
class Authenticated:
    """What a login or a refresh gives back."""

    account_id: UUID
    email: str
    scope: int
    access: AccessToken
    refresh: RefreshToken
    notification_id: int


def find_account_id(store: Storefront, email: str) -> UUID | None:
    """The account currently holding an address, if any."""
    try:
        index: EmailIndex = store.repository.get(EmailIndex.id_for(email))
    except AggregateNotFoundError:
        return None
    return index.account_id


def load_account(store: Storefront, account_id: UUID) -> Account:
    """An account that exists and is not deleted (401 otherwise)."""
    try:
        account: Account = store.repository.get(account_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no such account") from None
    if not isinstance(account, Account):
        raise DomainError(ErrorCode.UNAUTHORIZED, "not an account")
    account.ensure_active()
    return account


def log_in(
    store: Storefront, clock: Clock, hasher: PasswordHasher, secret: str, *, email: str, password: str
) -> Authenticated:
    """Check the credentials (-400 on any mismatch), record the login and open a session."""
    account_id = find_account_id(store, email)
    if account_id is None:
        hasher.hash(password)  # about as slow as a check, so timing does not tell who is registered
        raise DomainError(ErrorCode.EMAIL_OR_PASSWORD_MISMATCH)
    try:
        account = load_account(store, account_id)
    except DomainError:
        raise DomainError(ErrorCode.EMAIL_OR_PASSWORD_MISMATCH) from None
    if not hasher.verify(account.password_hash, password):
        if account.is_guest and any(hasher.verify(c.password_hash, password) for c in account.pending_claims.values()):
            # Their registration with a guest's address waits for the mailed link: say so, but open nothing.
            raise DomainError(ErrorCode.ACCOUNT_NOT_APPROVED, "the claim's link has not been opened yet")
        raise DomainError(ErrorCode.EMAIL_OR_PASSWORD_MISMATCH)

    def attempt() -> Authenticated:
        current = load_account(store, account_id)
        return open_session(store, secret, current, clock.now())

    return retry_on_conflict(attempt)


def open_session(store: Storefront, secret: str, account: Account, now: datetime) -> Authenticated:
    """Record the login on the account (with whatever else it recorded) and start a session for it."""
    account.log_in(now)
    refresh = RefreshToken(uuid4(), new_secret())
    session = Session.start(family_id=refresh.family_id, account_id=account.id, secret_hash=refresh.secret_hash, at=now)
    recordings = store.save(account, session)
    access = issue_access_token(secret, account.id, account.scope, now, session_id=session.id)
    return Authenticated(account.id, account.email, account.scope, access, refresh, recordings[-1].notification.id)


def refresh_session(store: Storefront, clock: Clock, secret: str, presented: str | None) -> Authenticated:
    """Rotate the refresh token and issue a new access token (401 when refused).

    An old secret of the family revokes the whole family.
    """
    token = parse_refresh_token(presented)
    if token is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no refresh token")

    def attempt() -> Authenticated:
        session = _load_session(store, token.family_id)
        now = clock.now()
        try:
            account: Account | None = load_account(store, session.account_id)
        except DomainError:
            account = None
        rotated = RefreshToken(session.id, new_secret())
        refused = session.refresh(
            token.secret_hash, hash_secret(rotated.secret), account.credentials_changed_at if account else None, now
        )
        recordings = store.save(session)
        if refused is not None or account is None:
            raise DomainError(ErrorCode.UNAUTHORIZED, refused or "no account")
        access = issue_access_token(
            secret, account.id, account.scope, now, session_id=session.id, session_started_at=session.started_at
        )
        return Authenticated(account.id, account.email, account.scope, access, rotated, recordings[-1].notification.id)

    return retry_on_conflict(attempt)


def log_out(store: Storefront, clock: Clock, presented: str | None, token_session: UUID | None = None) -> None:
    """Revoke the family of the presented refresh token, and the session the presented access token belongs to
    (``token_session``; quietly nothing for either when there is none)."""
    token = parse_refresh_token(presented)
    families = {token.family_id} if token is not None else set()
    families |= {token_session} if token_session is not None else set()

    for family_id in sorted(families):
        retry_on_conflict(partial(_end_session, store, clock, family_id))


def _end_session(store: Storefront, clock: Clock, family_id: UUID) -> None:
    try:
        session = _load_session(store, family_id)
    except DomainError:
        return
    if not session.revoked:
        session.revoke(LOGOUT, clock.now())
        store.save(session)


def _load_session(store: Storefront, family_id: UUID) -> Session:
    try:
        session: Session = store.repository.get(family_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no such session") from None
    if not isinstance(session, Session):
        raise DomainError(ErrorCode.UNAUTHORIZED, "not a session")
    return session

"""Claiming a guest's account: the mailbox, not the address, makes a guest's purchases someone's.

A guest's purchase opens a passwordless account for the buyer's address. Registering with that address records a
claim and mails its link to the address; the claim completes when that link is opened with the claim's password.
The receipt mailed to the address carries a signed link of its own: registering from it proves the mailbox in the
same act, so the buyer needs no second mail. Until then the registrant sees nothing of the guest's.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.accounts.account import Account, normalise_email
from domain.accounts.auth import Authenticated, load_account, open_session
from domain.accounts.tokens import (
    CLAIM_ACCOUNT,
    CONFIRMATION_LINK_LIFETIME,
    RECEIPT_CLAIM_LINK_LIFETIME,
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


def new_claim_id() -> str:
    """A random id for one claim (its link carries it)."""
    return secrets.token_urlsafe(12)


def claim_link_token(secret: str, account_id: UUID, email: str, claim_id: str, now: datetime) -> str:
    """The token of the link a claim mails to the guest's address (valid for a day)."""
    return sign_link(secret, CLAIM_ACCOUNT, account_id, now, CONFIRMATION_LINK_LIFETIME, email=email, cid=claim_id)


def receipt_claim_token(secret: str, account_id: UUID, email: str, now: datetime) -> str:
    """The token of the register link in a guest's receipt (valid for a week): it was mailed to the address."""
    return sign_link(secret, CLAIM_ACCOUNT, account_id, now, RECEIPT_CLAIM_LINK_LIFETIME, email=email)


@dataclass(frozen=True)
class MailboxProof:
    """A valid claim link: the account and address it was mailed to, and the claim it names (receipt: none)."""

    account_id: UUID
    email: str
    claim_id: str


def read_mailbox_proof(secret: str, token: str, now: datetime) -> MailboxProof:
    """What a claim or receipt link proves (-405 for a forged, altered or expired one)."""
    try:
        claims: LinkClaims = read_link(secret, CLAIM_ACCOUNT, token, now)
    except InvalidTokenError:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "claim link") from None
    email = claims.values.get("email", "")
    if not email:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "claim link without an address")
    return MailboxProof(claims.account_id, normalise_email(email), claims.values.get("cid", ""))


def proves_mailbox_of(proof: MailboxProof | None, account: Account) -> bool:
    """The link was mailed to this account's current address."""
    return proof is not None and proof.account_id == account.id and proof.email == account.email


def check_claim_link(store: Storefront, clock: Clock, secret: str, token: str) -> str:
    """The address a claim link's page asks the password for (-405 when the link is bad or the account was
    claimed since)."""
    proof = read_mailbox_proof(secret, token, clock.now())
    account = _claimable(store, proof)
    return account.email


def complete_claim(
    store: Storefront, clock: Clock, hasher: PasswordHasher, secret: str, *, token: str, password: str
) -> Authenticated:
    """Open the claim link with a claim's password: that claim takes the account, and its session starts.

    The link proves the mailbox; the password says which claim is the mailbox owner's, so a link mailed for
    someone else's claim on the same address completes the owner's own claim, never the other one. A password
    that matches no claim: -400, nothing recorded.
    """
    proof = read_mailbox_proof(secret, token, clock.now())
    account = _claimable(store, proof)
    ordered = sorted(account.pending_claims.items(), key=lambda item: item[0] != proof.claim_id)
    claim_id = next((cid for cid, claim in ordered if hasher.verify(claim.password_hash, password)), None)
    if claim_id is None:
        raise DomainError(ErrorCode.EMAIL_OR_PASSWORD_MISMATCH, "no pending claim has this password")

    def attempt() -> Authenticated:
        current = _claimable(store, proof)
        now = clock.now()
        current.complete_claim(claim_id, now)
        return open_session(store, secret, current, now)

    return retry_on_conflict(attempt)


def _claimable(store: Storefront, proof: MailboxProof) -> Account:
    try:
        account = load_account(store, proof.account_id)
    except DomainError:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "account gone") from None
    if account.email != proof.email or not account.is_guest or not account.pending_claims:
        raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "nothing to claim through this link")
    return account

"""Access tokens (JWT, HS256), signed link tokens, and opaque refresh tokens.

Expiry is always checked against the injected clock, never the system time, so
tests can move time. Every token carries an audience naming its purpose, so an
access token can never pass as a confirmation link and the other way round.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any
from uuid import UUID

import jwt

ALGORITHM = "HS256"
ACCESS_TOKEN_LIFETIME = timedelta(minutes=30)
REFRESH_TOKEN_LIFETIME = timedelta(days=30)
CONFIRMATION_LINK_LIFETIME = timedelta(hours=24)
RESET_LINK_LIFETIME = timedelta(hours=1)
# The receipt's register link lets the buyer set a password without a second mail for this long.
RECEIPT_CLAIM_LINK_LIFETIME = timedelta(days=7)

ACCESS = "access"
CONFIRM_EMAIL = "confirm-email"
RESET_PASSWORD = "reset-password"  # noqa: S105 (a token audience, not a password)
CHANGE_EMAIL = "change-email"
CLAIM_ACCOUNT = "claim-account"


class InvalidTokenError(Exception):
    """The token is malformed, forged, for another purpose, or expired."""

    def __init__(self, reason: str, *, expired: bool = False) -> None:
        super().__init__(reason)
        self.expired = expired


@dataclass(frozen=True)
class AccessToken:
    """A signed access token and when it stops working."""

    token: str
    expires_at: datetime

    @property
    def exp(self) -> int:
        """Expiry as seconds since the epoch (the JWT ``exp`` claim)."""
        return int(self.expires_at.timestamp())


@dataclass(frozen=True)
class AccessClaims:
    """Who an access token speaks for."""

    account_id: UUID
    scope: int


def _encode(secret: str, claims: dict[str, Any]) -> str:
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def _decode(secret: str, token: str, audience: str, now: datetime | None) -> dict[str, Any]:
    """The claims of a token signed with ``secret`` for ``audience``, not expired at ``now`` (not checked when
    None: the caller checks it)."""
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            audience=audience,
            options={"verify_exp": False, "verify_iat": False, "require": ["exp", "sub", "aud"]},
        )
    except jwt.PyJWTError as error:
        raise InvalidTokenError(str(error)) from error
    exp = claims["exp"]
    if not isinstance(exp, int | float) or (now is not None and now.timestamp() >= exp):
        raise InvalidTokenError("expired", expired=True)
    return claims


def issue_access_token(secret: str, account_id: UUID, scope: int, now: datetime) -> AccessToken:
    """A 30-minute access token: sub = account id, scope 0 (unconfirmed) or 1."""
    expires_at = now + ACCESS_TOKEN_LIFETIME
    token = _encode(
        secret,
        {
            "sub": str(account_id),
            "scope": scope,
            "aud": ACCESS,
            "iat": int(now.timestamp()),
            "exp": int(expires_at.timestamp()),
        },
    )
    return AccessToken(token, expires_at.replace(microsecond=0))


def read_access_token(secret: str, token: str, now: datetime) -> AccessClaims:
    """The claims of a valid access token (InvalidTokenError otherwise)."""
    claims, exp = _verified_access(secret, token)
    if now.timestamp() >= exp:
        raise InvalidTokenError("expired", expired=True)
    return claims


@lru_cache(maxsize=4096)
def _verified_access(secret: str, token: str) -> tuple[AccessClaims, float]:
    """An access token's claims and expiry once its signature, audience and claims are checked. Kept for the
    tokens seen last (an API process sees the same ones on every call of a page), so a call costs a dictionary
    look-up instead of an HMAC and a JSON parse; only the expiry depends on the time, and it is checked each time.
    A token that fails raises, and raising is never kept."""
    claims = _decode(secret, token, ACCESS, None)
    try:
        return AccessClaims(UUID(str(claims["sub"])), int(claims.get("scope", 0))), float(claims["exp"])
    except (TypeError, ValueError) as error:
        raise InvalidTokenError("bad claims") from error


def sign_link(secret: str, purpose: str, account_id: UUID, now: datetime, lifetime: timedelta, **extra: str) -> str:
    """A signed token for a mailed link (purpose is the audience)."""
    claims: dict[str, Any] = {
        **extra,
        "sub": str(account_id),
        "aud": purpose,
        "iat": int(now.timestamp()),
        "exp": int((now + lifetime).timestamp()),
    }
    return _encode(secret, claims)


@dataclass(frozen=True)
class LinkClaims:
    """What a valid link token says."""

    account_id: UUID
    values: dict[str, str]


def read_link(secret: str, purpose: str, token: str, now: datetime) -> LinkClaims:
    """The claims of a valid link token for ``purpose`` (InvalidTokenError otherwise)."""
    claims = _decode(secret, token, purpose, now)
    try:
        account_id = UUID(str(claims["sub"]))
    except ValueError as error:
        raise InvalidTokenError("bad subject") from error
    values = {key: str(value) for key, value in claims.items() if isinstance(value, str)}
    return LinkClaims(account_id, values)


@dataclass(frozen=True)
class RefreshToken:
    """An opaque refresh token: ``<family id>.<secret>``; only the secret's hash is stored."""

    family_id: UUID
    secret: str

    def __str__(self) -> str:
        return f"{self.family_id}.{self.secret}"

    @property
    def secret_hash(self) -> str:
        """What the session keeps."""
        return hash_secret(self.secret)


def new_secret() -> str:
    """A fresh random refresh secret."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """SHA-256 of a refresh secret (high-entropy input, so no slow hash is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_hash(left: str, right: str) -> bool:
    """Constant-time comparison of two hashes."""
    return hmac.compare_digest(left.encode(), right.encode())


def parse_refresh_token(value: str | None) -> RefreshToken | None:
    """The parts of a presented refresh token, or None when it cannot be one."""
    if not value or "." not in value:
        return None
    family, _, secret = value.partition(".")
    try:
        family_id = UUID(family)
    except ValueError:
        return None
    if not secret or len(secret) > 200:
        return None
    return RefreshToken(family_id, secret)

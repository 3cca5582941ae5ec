"""Support-desk single sign-on: the JWT the support desk (Zendesk) accepts for a logged-in customer."""

from __future__ import annotations

import secrets
from datetime import datetime
from uuid import UUID

import jwt


def zendesk_jwt(secret: str, *, account_id: UUID, name: str, email: str, now: datetime) -> str:
    """A Zendesk SSO token (HS256, shared secret): iat, jti, name, email, external_id."""
    claims = {
        "iat": int(now.timestamp()),
        "jti": secrets.token_urlsafe(16),
        "name": name,
        "email": email,
        "external_id": str(account_id),
    }
    return jwt.encode(claims, secret, algorithm="HS256")

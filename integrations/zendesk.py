"""Support-desk single sign-on: the JWT the support desk (Zendesk) accepts for a logged-in customer,
and the desk address the browser is sent to with it."""

from __future__ import annotations

import secrets
from datetime import datetime
from urllib.parse import urlencode, urlsplit
from uuid import UUID

import jwt

JWT_SIGN_ON_PATH = "/access/jwt"


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


def desk_return_to(desk_url: str, candidate: str | None) -> str:
    """Where the desk should land the customer: ``candidate`` when it is an address on the desk's own
    scheme and host, else the desk's home (a sign-on never redirects anywhere else)."""
    desk = urlsplit(desk_url)
    home = desk_url.rstrip("/") + "/"
    if not candidate:
        return home
    try:
        target = urlsplit(candidate)
        same_place = (target.scheme, target.hostname, target.port) == (desk.scheme, desk.hostname, desk.port)
    except ValueError:  # a malformed port or address
        return home
    if not same_place or target.username is not None or target.password is not None:
        return home
    return candidate


def desk_sign_on_url(desk_url: str, token: str, return_to: str | None) -> str:
    """The desk's JWT sign-on address with the token and a return address restricted to the desk."""
    query = urlencode({"jwt": token, "return_to": desk_return_to(desk_url, return_to)})
    return f"{desk_url.rstrip('/')}{JWT_SIGN_ON_PATH}?{query}"

"""Browsers known to an account: the ``kd`` cookie, so that strangers' failures cannot lock its owner out.

A browser becomes known to an address when it proves it holds the account: a login with the right password,
or a password set through the mailed reset link. The answer then sets ``kd`` (HttpOnly, SameSite=Strict,
a year, sent to the API's paths only): a random device id and an HMAC-SHA256 of the id and the normalised
address under AUTH_SECRET, so that it cannot be made for an address and says nothing of it. The rate limits
(``api.ratelimit``) count a known browser on its own for that address, never against the ceiling that every
other client shares (after Device Cookies, OWASP's "Slow Down Online Guessing Attacks").
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from fastapi import Request, Response

from api.middleware import API_PREFIX
from domain.accounts.account import normalise_email

KNOWN_DEVICE_COOKIE = "kd"
KNOWN_DEVICE_LIFETIME = timedelta(days=365)


def known_device(request: Request, email: str, secret: str) -> str | None:
    """The device id of the request's ``kd`` cookie when it was given for this address, else None."""
    device_id, _, signature = request.cookies.get(KNOWN_DEVICE_COOKIE, "").partition(".")
    if not device_id or not hmac.compare_digest(signature.encode(), _signature(secret, email, device_id).encode()):
        return None
    return device_id


def remember_device(request: Request, response: Response, email: str, secret: str, secure: bool) -> None:
    """Set ``kd`` for this address (keeping the browser's device id when it already has one for it)."""
    device_id = known_device(request, email, secret) or secrets.token_urlsafe(16)
    response.set_cookie(
        KNOWN_DEVICE_COOKIE,
        f"{device_id}.{_signature(secret, email, device_id)}",
        max_age=int(KNOWN_DEVICE_LIFETIME.total_seconds()),
        path=API_PREFIX,
        httponly=True,
        samesite="strict",
        secure=secure,
    )


def _signature(secret: str, email: str, device_id: str) -> str:
    message = f"known-device:{normalise_email(email)}:{device_id}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()

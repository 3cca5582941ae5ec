"""The session cookies: rt (the refresh token, HttpOnly) and logged_in (the user id, for the web app)."""

from __future__ import annotations

from fastapi import Request, Response

from api.middleware import API_PREFIX
from domain.accounts.auth import Authenticated
from domain.accounts.tokens import REFRESH_TOKEN_LIFETIME

REFRESH_COOKIE = "rt"
LOGGED_IN_COOKIE = "logged_in"
REFRESH_COOKIE_PATH = f"{API_PREFIX}/auth"


def refresh_cookie(request: Request) -> str | None:
    """The rt cookie, if sent."""
    return request.cookies.get(REFRESH_COOKIE)


def set_session_cookies(response: Response, session: Authenticated, secure: bool) -> None:
    """rt (HttpOnly, only sent to /auth) and logged_in (readable by the web app: the user id)."""
    max_age = int(REFRESH_TOKEN_LIFETIME.total_seconds())
    response.set_cookie(
        REFRESH_COOKIE,
        str(session.refresh),
        max_age=max_age,
        path=REFRESH_COOKIE_PATH,
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    response.set_cookie(
        LOGGED_IN_COOKIE,
        str(session.account_id),
        max_age=max_age,
        path="/",
        httponly=False,
        samesite="lax",
        secure=secure,
    )


def clear_session_cookies(response: Response, secure: bool) -> None:
    """Remove both cookies."""
    response.delete_cookie(REFRESH_COOKIE, path=REFRESH_COOKIE_PATH, httponly=True, samesite="lax", secure=secure)
    response.delete_cookie(LOGGED_IN_COOKIE, path="/", samesite="lax", secure=secure)

"""Who is calling: the bearer dependency, and the rt / logged_in cookies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from uuid import UUID

from fastapi import Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.middleware import API_PREFIX
from api.services import ServicesDep
from domain.accounts.auth import Authenticated
from domain.accounts.tokens import REFRESH_TOKEN_LIFETIME, InvalidTokenError, read_access_token
from domain.errors import DomainError, ErrorCode

REFRESH_COOKIE = "rt"
LOGGED_IN_COOKIE = "logged_in"
REFRESH_COOKIE_PATH = f"{API_PREFIX}/auth"

_bearer = HTTPBearer(auto_error=False, description="Access token from /auth/login or /auth/refresh")


@dataclass(frozen=True)
class Caller:
    """The account an access token speaks for."""

    account_id: UUID
    scope: int


async def current_caller(
    services: ServicesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller:
    """The caller of a bearer call; 401 when the token is missing, invalid or expired. Async: checking a token
    is quick CPU work, and a plain dependency would cost each request a thread hop."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise DomainError(ErrorCode.UNAUTHORIZED, "no bearer token")
    try:
        claims = read_access_token(services.settings.auth_secret, credentials.credentials, services.clock.now())
    except InvalidTokenError:
        raise DomainError(ErrorCode.UNAUTHORIZED, "bad bearer token") from None
    return Caller(claims.account_id, claims.scope)


async def optional_caller(
    services: ServicesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller | None:
    """The caller when a bearer token is sent (still 401 when one is sent but invalid)."""
    if credentials is None:
        return None
    return await current_caller(services, credentials)


CallerDep = Annotated[Caller, Depends(current_caller)]
OptionalCallerDep = Annotated[Caller | None, Depends(optional_caller)]


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

"""The back office's session cookie: read and checked on every staff operation, renewed on use.

``staff_session`` (HttpOnly, SameSite=Strict) carries the signed session; ``staff_csrf`` (readable by the admin
app) carries the value every state-changing request repeats in ``X-Staff-CSRF``. A customer's bearer token is
never read here, and a staff cookie is never read by customer operations.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response

from api.error_docs import errors
from api.services import Services
from domain.errors import DomainError, ErrorCode
from domain.staff.member import StaffMember, load_member
from domain.staff.permissions import NEEDS_STEP_UP, Permission
from domain.staff.signin import Relying, SessionPolicy, StaffSession, csrf_token, read_session, session_token

SESSION_COOKIE = "staff_session"
CSRF_COOKIE = "staff_csrf"
CSRF_HEADER = "X-Staff-CSRF"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class StaffCaller:
    """The member a staff operation runs for, and their session."""

    member: StaffMember
    session: StaffSession


def session_policy(services: Services) -> SessionPolicy:
    """The settings' session lengths."""
    settings = services.settings
    return SessionPolicy(
        idle=timedelta(minutes=settings.staff_idle_minutes),
        lifetime=timedelta(hours=settings.staff_session_hours),
        step_up=timedelta(minutes=settings.staff_step_up_minutes),
    )


LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def relying_party(services: Services) -> Relying:
    """Passkeys belong to the site's host name and origin (APP_BASE_URL). A browser binds no passkey to an IP
    address, so a base URL on this machine's loopback address serves the back office's passkeys as ``localhost``
    (same port)."""
    parts = urlsplit(services.settings.base_url)
    host = parts.hostname or "localhost"
    if host in LOOPBACK:
        port = f":{parts.port}" if parts.port else ""
        return Relying(rp_id="localhost", origin=f"{parts.scheme}://localhost{port}")
    return Relying(rp_id=host, origin=f"{parts.scheme}://{parts.netloc}")


def set_session_cookies(response: Response, services: Services, session: StaffSession) -> str:
    """Write both cookies; returns the CSRF value (the sign-in answer carries it too)."""
    policy = session_policy(services)
    secret = services.settings.auth_secret
    csrf = csrf_token(secret, session.session_id)
    max_age = int(policy.lifetime.total_seconds())
    secure = services.secure_cookies
    value = session_token(secret, session, policy)
    response.set_cookie(
        SESSION_COOKIE, value, max_age=max_age, path="/", secure=secure, httponly=True, samesite="strict"
    )
    response.set_cookie(CSRF_COOKIE, csrf, max_age=max_age, path="/", secure=secure, httponly=False, samesite="strict")
    return csrf


def clear_session_cookies(response: Response, services: Services) -> None:
    """Forget the session in the browser."""
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, path="/", secure=services.secure_cookies, samesite="strict")


def check_staff(request: Request, response: Response, services: Services, permission: Permission | None) -> StaffCaller:
    """The caller's open session and member, held to the permission: 401 without a current session (none, idle,
    signed out, suspended), 403 for a change without the CSRF header, for a member whose roles do not allow it, or
    (``-1`` detail "step-up") for a money action without a recent proof."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no staff session")
    secret = services.settings.auth_secret
    now = services.clock.now()
    policy = session_policy(services)
    session = read_session(secret, token, now)
    session.check_current(policy, now)
    try:
        member = load_member(services.store, session.member_id)
    except DomainError:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no staff session") from None
    if not member.session_is_open(session.session_id):
        clear_session_cookies(response, services)
        raise DomainError(ErrorCode.UNAUTHORIZED, "the staff session has ended")
    if request.method.upper() not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent, csrf_token(secret, session.session_id)):
            raise DomainError(ErrorCode.FORBIDDEN, "missing or wrong CSRF header")
    if permission is not None:
        member.check_may(permission)
        if permission in NEEDS_STEP_UP and not session.is_fresh(policy, now):
            raise DomainError(ErrorCode.FORBIDDEN, "step-up")
    renewed = replace(session, seen_at=now)
    set_session_cookies(response, services, renewed)
    return StaffCaller(member, renewed)


async def staff_of(request: Request) -> StaffCaller:
    """The staff caller ``enforce_access`` found (async: nothing to wait for, so no worker thread per request)."""
    caller: StaffCaller | None = getattr(request.state, "staff", None)
    if caller is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no staff session")
    return caller


# The signed-in staff member a route acts for (enforce_access has checked the session and the permission).
StaffDep = Annotated[StaffCaller, Depends(staff_of)]


# What any staff operation may answer besides its own result: 401 without a current session (or a bad link, passkey
# or code), 403 without the CSRF header, the permission or a recent step-up, 404 for what does not exist, and the
# domain's refusals of a staff action.
STAFF_ERRORS = errors(
    ErrorCode.UNAUTHORIZED,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.DUPLICATE_PARAMETER,
    ErrorCode.EMAIL_ALREADY_REGISTERED,
    ErrorCode.LICENSE_KEY_UNUSABLE,
    ErrorCode.DEVICE_NOT_FOUND,
    ErrorCode.TOO_MANY_REQUESTS,
)

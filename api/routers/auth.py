"""Auth calls of spec section 7: log in, refresh (rotating the rt cookie), log out."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, EmailStr, Field
from pydantic.alias_generators import to_camel

from api.access import CallerDep
from api.auth import clear_session_cookies, refresh_cookie, set_session_cookies
from api.error_docs import errors
from api.errors import error_response
from api.known_devices import remember_device
from api.security_headers import refuse_cross_site
from api.services import ServicesDep
from domain.accounts.auth import Authenticated, log_in, log_out, refresh_session
from domain.accounts.claims import check_claim_link, complete_claim
from domain.accounts.support_desk import support_desk_identity
from domain.accounts.tokens import InvalidTokenError, read_access_token
from domain.errors import DomainError, ErrorCode
from integrations.zendesk import desk_sign_on_url, zendesk_jwt

router = APIRouter(prefix="/auth", tags=["auth"])


class CamelModel(BaseModel):
    """JSON in camelCase, as the spec names fields."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Credentials(CamelModel):
    """Email and password."""

    email: EmailStr
    pw: str = Field(min_length=1)


class AuthBody(CamelModel):
    """The answer to a login or a refresh; ``exp`` is the access token's expiry in epoch seconds."""

    id: str
    email: str
    scope: int
    access_token: str
    exp: int


class Done(CamelModel):
    """An empty success."""

    result: bool = True


class ZendeskBody(CamelModel):
    """The support desk's sign-on token, and the desk address to send the browser to with it."""

    zendesk_jwt: str = Field(alias="zendeskJWT")
    sign_on_url: str = Field(
        description="the desk's JWT sign-on address with the token and a return address on the desk's own host"
    )


def _answer(services: ServicesDep, session: Authenticated) -> JSONResponse:
    body = AuthBody(
        id=str(session.account_id),
        email=session.email,
        scope=session.scope,
        access_token=session.access.token,
        exp=session.access.exp,
    )
    response = JSONResponse(body.model_dump(by_alias=True))  # sent with no-store, as every personal answer
    set_session_cookies(response, session, services.secure_cookies)
    return response


@router.post(
    "/login",
    response_model=AuthBody,
    responses=errors(ErrorCode.TOO_MANY_REQUESTS, ErrorCode.EMAIL_OR_PASSWORD_MISMATCH, ErrorCode.FORBIDDEN),
    # A login from another site would set our cookies for the attacker's account (login CSRF).
    dependencies=[Depends(refuse_cross_site)],
)
def login(services: ServicesDep, request: Request, credentials: Credentials) -> JSONResponse:
    """Log in (-400 with HTTP 401 on a mismatch); sets the rt and logged_in cookies, and kd (this browser
    is known to the address: strangers' failed logins do not lock it out)."""
    services.limiter.login(request, credentials.email)
    session = log_in(
        services.store,
        services.clock,
        services.hasher,
        services.settings.auth_secret,
        email=credentials.email,
        password=credentials.pw,
    )
    response = _answer(services, session)
    remember_device(request, response, credentials.email, services.settings.auth_secret, services.secure_cookies)
    return response


class ClaimLink(CamelModel):
    """The address a claim's link was mailed to."""

    email: str


class ClaimForm(CamelModel):
    """A claim's link token and the password chosen when registering."""

    t: str = Field(min_length=1, max_length=2000)
    pw: str = Field(min_length=1, max_length=200)


@router.get("/claim", response_model=ClaimLink, responses=errors(ErrorCode.PASSWORD_TOKEN_EXPIRED))
def check_claim(services: ServicesDep, t: Annotated[str, Query(min_length=1, max_length=2000)]) -> ClaimLink:
    """Is this claim link still good? The address it was mailed to (-405 when expired or already claimed)."""
    return ClaimLink(email=check_claim_link(services.store, services.clock, services.settings.auth_secret, t))


@router.post(
    "/claim",
    response_model=AuthBody,
    responses=errors(
        ErrorCode.TOO_MANY_REQUESTS,
        ErrorCode.EMAIL_OR_PASSWORD_MISMATCH,
        ErrorCode.PASSWORD_TOKEN_EXPIRED,
        ErrorCode.FORBIDDEN,
    ),
    dependencies=[Depends(refuse_cross_site)],
)
def claim(services: ServicesDep, request: Request, form: ClaimForm) -> JSONResponse:
    """Open a claim's link with the password chosen when registering with a guest's address: the guest's
    purchases become the account's, and it is logged in (sets the rt, logged_in and kd cookies)."""
    email = check_claim_link(services.store, services.clock, services.settings.auth_secret, form.t)
    services.limiter.login(request, email)
    session = complete_claim(
        services.store,
        services.clock,
        services.hasher,
        services.settings.auth_secret,
        token=form.t,
        password=form.pw,
    )
    services.see_own_write(session.notification_id, "accounts", "licences", "payments")
    response = _answer(services, session)
    remember_device(request, response, email, services.settings.auth_secret, services.secure_cookies)
    return response


@router.get(
    "/refresh",
    response_model=AuthBody,
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN),
    dependencies=[Depends(refuse_cross_site)],
)
def refresh(services: ServicesDep, request: Request) -> JSONResponse:
    """A new access token for the rt cookie, which is rotated; an old rt revokes the whole family."""
    try:
        session = refresh_session(
            services.store, services.clock, services.settings.auth_secret, refresh_cookie(request)
        )
    except DomainError as error:
        response = error_response(request, error.code)
        clear_session_cookies(response, services.secure_cookies)
        return response
    return _answer(services, session)


@router.post(
    "/logout", response_model=Done, responses=errors(ErrorCode.FORBIDDEN), dependencies=[Depends(refuse_cross_site)]
)
def logout(services: ServicesDep, request: Request) -> JSONResponse:
    """End the session of the rt cookie and the session of the bearer access token, when sent (the token then stops
    working at once), and clear both cookies. A token that is no longer valid changes nothing."""
    log_out(services.store, services.clock, refresh_cookie(request), _token_session(services, request))
    response = JSONResponse(Done().model_dump(by_alias=True))
    clear_session_cookies(response, services.secure_cookies)
    return response


def _token_session(services: ServicesDep, request: Request) -> UUID | None:
    """The login session a valid bearer access token belongs to (None without one)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    try:
        return read_access_token(services.settings.auth_secret, token.strip(), services.clock.now()).session_id
    except InvalidTokenError:
        return None


@router.get(
    "/zendesk",
    response_model=ZendeskBody,
    responses=errors(ErrorCode.ACCOUNT_NOT_APPROVED, ErrorCode.NAME_REQUIRED_FOR_SSO),
)
def zendesk(
    services: ServicesDep,
    caller: CallerDep,
    return_to: Annotated[str | None, Query(alias="returnTo", max_length=2000)] = None,
) -> ZendeskBody:
    """A support-desk sign-on token (-2101 until the account has a name, -401 until it is confirmed).

    ``returnTo`` (the page's zendesk_url) is kept only when it is on the desk's own host."""
    identity = support_desk_identity(services.store, caller.account_id)
    token = zendesk_jwt(
        services.settings.zendesk_secret,
        account_id=identity.account_id,
        name=identity.name,
        email=identity.email,
        now=services.clock.now(),
    )
    return ZendeskBody(zendesk_jwt=token, sign_on_url=desk_sign_on_url(services.settings.zendesk_url, token, return_to))

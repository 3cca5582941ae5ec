"""Account calls of spec section 7: register, check, confirm, read and change one's own account, delete.

Every call that reads or changes an account acts on the caller's own account
(the access token's subject); no call takes another account's id.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode
from uuid import UUID

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, EmailStr, Field
from pydantic.alias_generators import to_camel

from api.access import CallerDep, OptionalCallerDep
from api.auth import clear_session_cookies
from api.error_docs import errors
from api.known_devices import remember_device
from api.language import request_language
from api.services import Services, ServicesDep
from domain.accounts.claims import MailboxProof, read_mailbox_proof
from domain.accounts.guests import is_member_address
from domain.accounts.profile import change_profile, check_password, confirm_email, delete_account
from domain.accounts.recovery import (
    change_email,
    check_password_reset,
    request_confirmation_mail,
    request_email_change,
    request_password_reset,
    reset_password,
)
from domain.accounts.registration import register_account
from domain.errors import DomainError, ErrorCode
from events.values import Language
from projections.accounts import find_account

router = APIRouter(prefix="/accounts", tags=["accounts"])


class CamelModel(BaseModel):
    """JSON in camelCase, as the spec names fields."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class EmailCheck(CamelModel):
    """Whether an address already belongs to an account."""

    is_registered: bool


class RegistrationForm(CamelModel):
    """The registration form."""

    email: EmailStr
    pw: str = Field(min_length=1)
    language: Language
    marketing_push_enabled: bool = False


class RegistrationResult(CamelModel):
    """The new account."""

    user_id: str
    email_confirmed: bool


class AccountBody(CamelModel):
    """One's own account as the settings page shows it."""

    id: str
    email: str
    name: str | None
    preffered_language: Language
    marketing_push_enabled: bool
    email_confirmed: bool
    last_logged_in_at: str | None


class ProfilePatch(CamelModel):
    """What PATCH /accounts may change; absent fields stay as they are."""

    name: str | None = None
    preffered_language: Language | None = None
    marketing_push_enabled: bool | None = None


class PasswordForm(CamelModel):
    """A password to check."""

    pw: str = Field(min_length=1)


class DeletionForm(CamelModel):
    """The account's password, and why it is deleted."""

    pw: str = Field(min_length=1)
    deleted_reason: str = ""


class Done(CamelModel):
    """An empty success."""

    result: bool = True


class ResetRequest(CamelModel):
    """Ask for a password-reset mail (``resend`` mails the pending link again)."""

    email: EmailStr
    resend: bool = False


class ResetForm(CamelModel):
    """A new password and the reset link's token."""

    pw: str = Field(min_length=1)
    token: str = Field(min_length=1)


class EmailOnly(CamelModel):
    """An address."""

    email: str


class EmailChangeRequest(CamelModel):
    """The new address, and the current password to prove it is the owner asking."""

    email: EmailStr
    pw: str = Field(min_length=1)


class EmailChangeForm(CamelModel):
    """The email-change link's token."""

    token: str = Field(min_length=1)


@router.post(
    "",
    response_model=RegistrationResult,
    responses=errors(ErrorCode.TOO_MANY_REQUESTS, ErrorCode.EMAIL_ALREADY_REGISTERED),
)
def register(
    services: ServicesDep,
    request: Request,
    form: RegistrationForm,
    redirection_uri: Annotated[str | None, Query(alias="redirectionUri")] = None,
    user_license_key: Annotated[str | None, Query(alias="userLicenseKey")] = None,
    receipt_token: Annotated[str | None, Query(alias="receiptToken", max_length=2000)] = None,
) -> RegistrationResult:
    """Create an unconfirmed account; the confirmation mail follows through the log (-402 when taken).

    An address a guest's purchase opened is claimed: nothing of the guest's is shown until the link mailed to it
    is opened with this password. From the receipt's register link (``receiptToken``, the ``t`` it carries) the
    mailbox is proven at once: the account is the registrant's and confirmed. From a licence link
    (userLicenseKey) the licence joins the account when its key can be taken."""
    services.limiter.mail(request, form.email)
    proof = _receipt_proof(services, receipt_token)
    registered = register_account(
        services.store,
        services.clock,
        services.hasher,
        email=form.email,
        password=form.pw,
        language=form.language,
        marketing_push_enabled=form.marketing_push_enabled,
        licence_key=user_license_key,
        mailbox_proof=proof,
    )
    services.see_own_write(registered.notification_id, "accounts", "licences", "payments")
    return RegistrationResult(user_id=str(registered.account_id), email_confirmed=registered.email_confirmed)


@router.get("/check", response_model=EmailCheck)
def check_email(services: ServicesDep, email: Annotated[EmailStr, Query()]) -> EmailCheck:
    """Is this email already registered? An address only a guest's purchase opened is not (the
    licence-link flow then registers it with the key, which claims the guest's account)."""
    return EmailCheck(is_registered=is_member_address(services.store, email))


@router.get("/confirm", response_class=RedirectResponse, status_code=303)
def confirm(services: ServicesDep, t: Annotated[str, Query(min_length=1)]) -> RedirectResponse:
    """The link in the confirmation mail: record the confirmation, then go to /register/confirm.

    A bad or expired link goes to the same page with ``errorCode=-405``.
    """
    try:
        confirmed = confirm_email(services.store, services.clock, services.settings.auth_secret, t)
    except DomainError as error:
        query = urlencode({"errorCode": error.code.value})
        return RedirectResponse(f"/register/confirm?{query}", status_code=303)
    services.see_own_write(confirmed.notification_id, "accounts")
    query = urlencode({"email": confirmed.email, "localeCode": confirmed.language.value})
    return RedirectResponse(f"/register/confirm?{query}", status_code=303)


@router.get("", response_model=AccountBody, responses=errors(ErrorCode.NOT_FOUND))
def read_own_account(services: ServicesDep, caller: CallerDep) -> AccountBody:
    """The caller's account (name, preferred language, marketing consent)."""
    return _own_account(services, caller.account_id)


@router.patch("", response_model=AccountBody, responses=errors(ErrorCode.NOT_FOUND, ErrorCode.NICKNAME_IN_USE))
def change_own_account(services: ServicesDep, caller: CallerDep, patch: ProfilePatch) -> AccountBody:
    """Change the caller's name (nickname, -411 when taken), preferred language or marketing consent."""
    position = change_profile(
        services.store,
        services.clock,
        caller.account_id,
        name=patch.name,
        language=patch.preffered_language,
        marketing_push_enabled=patch.marketing_push_enabled,
    )
    if position:
        services.see_own_write(position, "accounts")
    return _own_account(services, caller.account_id)


@router.post(
    "/check-password", response_model=Done, responses=errors(ErrorCode.TOO_MANY_REQUESTS, ErrorCode.PASSWORD_DIFFERS)
)
def check_own_password(services: ServicesDep, request: Request, caller: CallerDep, form: PasswordForm) -> Done:
    """Is this the caller's current password? (-406 when not)"""
    services.limiter.password_check(request, str(caller.account_id))
    check_password(services.store, services.hasher, caller.account_id, form.pw)
    return Done()


@router.put("/delete", response_model=Done, responses=errors(ErrorCode.TOO_MANY_REQUESTS, ErrorCode.PASSWORD_DIFFERS))
def delete_own_account(services: ServicesDep, request: Request, caller: CallerDep, form: DeletionForm) -> JSONResponse:
    """Delete the caller's account, given its password (-406 when wrong); its address and nickname can be taken
    again.

    Every session ends: its access tokens are refused within seconds, a refresh is refused (and revokes its
    family); the cookies are cleared here.
    """
    services.limiter.password_check(request, str(caller.account_id))
    position = delete_account(
        services.store,
        services.clock,
        services.hasher,
        caller.account_id,
        password=form.pw,
        reason=form.deleted_reason,
    )
    services.see_own_write(position, "accounts")
    response = JSONResponse(Done().model_dump(by_alias=True))
    clear_session_cookies(response, services.secure_cookies)
    return response


@router.post(
    "/{account_id}/please-one-more-confirm-email",
    response_model=Done,
    responses=errors(ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.TOO_MANY_REQUESTS),
)
def resend_confirmation(
    services: ServicesDep,
    request: Request,
    account_id: UUID,
    caller: OptionalCallerDep,
    redirection_uri: Annotated[str | None, Query(alias="redirectionUri")] = None,
) -> Done:
    """Send the confirmation mail again (to the account's own address; 403 for another's id)."""
    if caller is not None and caller.account_id != account_id:
        raise DomainError(ErrorCode.FORBIDDEN, "another account")
    row = find_account(services.views, account_id)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such account")
    services.limiter.mail(request, row.email)
    request_confirmation_mail(services.store, services.clock, account_id)
    return Done()


@router.post("/password-change-email", response_model=Done, responses=errors(ErrorCode.TOO_MANY_REQUESTS))
def ask_password_reset(services: ServicesDep, request: Request, form: ResetRequest) -> Done:
    """Mail a password-reset link in the page's language (?localeCode); silent for unknown addresses."""
    services.limiter.mail(request, form.email)
    request_password_reset(
        services.store,
        services.clock,
        email=form.email,
        language=request_language(request),
        resend=form.resend,
    )
    return Done()


@router.get("/password-change-check", response_model=EmailOnly, responses=errors(ErrorCode.PASSWORD_TOKEN_EXPIRED))
def check_reset_link(services: ServicesDep, t: Annotated[str, Query(min_length=1)]) -> EmailOnly:
    """Is this reset link still good? (-405 when used, replaced or expired)"""
    return EmailOnly(email=check_password_reset(services.store, services.clock, services.settings.auth_secret, t))


@router.put(
    "/password-change",
    response_model=Done,
    responses=errors(ErrorCode.PASSWORD_TOKEN_EXPIRED, ErrorCode.PASSWORD_DIFFERS),
)
def set_new_password(services: ServicesDep, request: Request, response: Response, form: ResetForm) -> Done:
    """Set a new password through the reset link; every session of the account ends, and this browser is
    known to the address from now on (kd: strangers' failed logins do not lock it out)."""
    secret = services.settings.auth_secret
    email = check_password_reset(services.store, services.clock, secret, form.token)
    reset_password(
        services.store,
        services.clock,
        services.hasher,
        services.settings.auth_secret,
        token=form.token,
        password=form.pw,
    )
    remember_device(request, response, email, secret, services.secure_cookies)
    return Done()


@router.post(
    "/email-change-email",
    response_model=Done,
    responses=errors(
        ErrorCode.TOO_MANY_REQUESTS,
        ErrorCode.PASSWORD_DIFFERS,
        ErrorCode.EMAIL_ALREADY_REGISTERED,
        ErrorCode.EMAIL_UNUSABLE,
    ),
)
def ask_email_change(
    services: ServicesDep,
    request: Request,
    caller: CallerDep,
    form: EmailChangeRequest,
    redirection_uri: Annotated[str | None, Query(alias="redirectionUri")] = None,
) -> Done:
    """Mail a link to the new address (-406 wrong password, -402 address taken, -407 same address)."""
    services.limiter.mail(request, form.email)
    request_email_change(
        services.store, services.clock, services.hasher, caller.account_id, email=form.email, password=form.pw
    )
    return Done()


@router.put(
    "/email-change",
    response_model=EmailOnly,
    responses=errors(ErrorCode.PASSWORD_TOKEN_EXPIRED, ErrorCode.EMAIL_ALREADY_REGISTERED),
)
def complete_email_change(services: ServicesDep, form: EmailChangeForm) -> EmailOnly:
    """Move the account to the link's address (-405 for a used or expired link, -402 if taken meanwhile)."""
    moved = change_email(services.store, services.clock, services.settings.auth_secret, form.token)
    services.see_own_write(moved.notification_id, "accounts")
    return EmailOnly(email=moved.email)


def _receipt_proof(services: Services, token: str | None) -> MailboxProof | None:
    """What a receipt's register link proves; an expired or altered one proves nothing (the registration then
    waits for the mailbox like any other)."""
    if not token:
        return None
    try:
        return read_mailbox_proof(services.settings.auth_secret, token, services.clock.now())
    except DomainError:
        return None


def _own_account(services: Services, account_id: UUID) -> AccountBody:
    row = find_account(services.views, account_id)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND, "account not in the view")
    return AccountBody(
        id=str(row.account_id),
        email=row.email,
        name=row.name,
        preffered_language=Language(row.language),
        marketing_push_enabled=row.marketing_push_enabled,
        email_confirmed=row.email_confirmed,
        last_logged_in_at=row.last_logged_in_at,
    )

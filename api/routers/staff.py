"""The back office's people: enrolment, sign-in (passkey, or a one-time code), the session, step-up, and the
owners' management of staff. The rules are domain/staff's; this translates HTTP."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Request, Response
from pydantic import Field

from api.schemas import CamelModel
from api.services import ServicesDep
from api.staff_session import (
    STAFF_ERRORS,
    StaffCaller,
    StaffDep,
    clear_session_cookies,
    relying_party,
    session_policy,
    set_session_cookies,
)
from domain.errors import DomainError, ErrorCode
from domain.staff.member import (
    StaffMember,
    change_member_roles,
    invite_member,
    list_members,
    load_member,
    reinstate_member,
    suspend_member,
)
from domain.staff.signin import (
    StaffSession,
    authentication_options,
    chosen_totp_secret,
    enrol_totp,
    enrolment_link_token,
    read_enrolment,
    register_passkey,
    registration_options,
    sign_in_with_code,
    sign_in_with_passkey,
    start_enrolled_session,
    totp_uri,
)

router = APIRouter(prefix="/staff", tags=["staff"], responses=STAFF_ERRORS)


class MemberOut(CamelModel):
    """A staff member as the back office shows them."""

    id: UUID
    email: str
    name: str
    roles: list[str]
    state: str
    permissions: list[str]
    passkeys: int
    has_totp: bool

    @classmethod
    def of(cls, member: StaffMember) -> MemberOut:
        return cls(
            id=member.id,
            email=member.email,
            name=member.name,
            roles=sorted(role.value for role in member.roles),
            state=member.state.value,
            permissions=sorted(permission.value for permission in member.permissions),
            passkeys=len(member.passkeys),
            has_totp=member.totp_secret is not None,
        )


class SignedIn(CamelModel):
    """The member now signed in, the value state-changing requests repeat in ``X-Staff-CSRF``, and until when
    money actions need no new proof."""

    member: MemberOut
    csrf: str
    stepped_up_until: datetime


class Ceremony(CamelModel):
    """WebAuthn options for ``navigator.credentials`` (as JSON) and the signed ceremony to send back."""

    options: dict[str, Any]
    ceremony: str


class EnrolmentIn(CamelModel):
    token: str = Field(min_length=1, max_length=2000)


class PasskeyIn(CamelModel):
    ceremony: str = Field(min_length=1, max_length=2000)
    credential: dict[str, Any]
    label: str = Field(default="passkey", max_length=100)


class EnrolPasskeyIn(PasskeyIn):
    token: str = Field(min_length=1, max_length=2000)


class TotpSecretOut(CamelModel):
    secret: str
    uri: str


class EnrolTotpIn(CamelModel):
    token: str = Field(min_length=1, max_length=2000)
    secret: str = Field(min_length=16, max_length=64)
    code: str = Field(min_length=6, max_length=8)


class EmailIn(CamelModel):
    email: str = Field(min_length=3, max_length=254)


class CodeSignInIn(CamelModel):
    email: str = Field(min_length=3, max_length=254)
    code: str = Field(min_length=6, max_length=8)


class CodeIn(CamelModel):
    code: str = Field(min_length=6, max_length=8)


class InviteIn(CamelModel):
    email: str = Field(min_length=3, max_length=254)
    name: str = Field(min_length=1, max_length=100)
    roles: list[str] = Field(min_length=1, max_length=4)
    reason: str = Field(default="", max_length=500)


class Invited(CamelModel):
    """The new member and the enrolment link to give them (good once, for three days)."""

    member: MemberOut
    enrolment_link: str


class ReasonIn(CamelModel):
    reason: str = Field(min_length=1, max_length=500)


class RolesIn(CamelModel):
    roles: list[str] = Field(min_length=1, max_length=4)
    reason: str = Field(min_length=1, max_length=500)


def _signed_in(response: Response, services: ServicesDep, member: StaffMember, session_id: str) -> SignedIn:
    now = services.clock.now()
    session = StaffSession(session_id, member.id, now, now, now)
    csrf = set_session_cookies(response, services, session)
    return SignedIn(member=MemberOut.of(member), csrf=csrf, stepped_up_until=now + session_policy(services).step_up)


def _stepped_up(response: Response, services: ServicesDep, caller: StaffCaller, member: StaffMember) -> SignedIn:
    now = services.clock.now()
    session = StaffSession(caller.session.session_id, member.id, caller.session.started_at, now, now)
    csrf = set_session_cookies(response, services, session)
    return SignedIn(member=MemberOut.of(member), csrf=csrf, stepped_up_until=now + session_policy(services).step_up)


def _options(options_json: str, ceremony: str) -> Ceremony:
    return Ceremony(options=json.loads(options_json), ceremony=ceremony)


# -- enrolment: the link an owner (or the first owner's command) gave ---------------------------------------------


@router.post("/enrolment")
def enrolment(body: EnrolmentIn, services: ServicesDep) -> MemberOut:
    """Who an enrolment link is for (401 once used or expired)."""
    return MemberOut.of(read_enrolment(services.store, services.settings.auth_secret, body.token, services.clock.now()))


@router.post("/enrolment/passkey/options")
def enrolment_passkey_options(body: EnrolmentIn, services: ServicesDep) -> Ceremony:
    """Start registering the member's first passkey."""
    secret, now = services.settings.auth_secret, services.clock.now()
    member = read_enrolment(services.store, secret, body.token, now)
    return _options(*registration_options(secret, relying_party(services), member, now))


@router.post("/enrolment/passkey")
def enrol_passkey(body: EnrolPasskeyIn, response: Response, services: ServicesDep) -> SignedIn:
    """Keep the member's first passkey and sign them in."""
    secret = services.settings.auth_secret
    member = read_enrolment(services.store, secret, body.token, services.clock.now())
    registered = register_passkey(
        services.store,
        services.clock,
        secret,
        relying_party(services),
        ceremony=body.ceremony,
        credential=json.dumps(body.credential),
        label=body.label,
    )
    if registered.id != member.id:
        raise DomainError(ErrorCode.UNAUTHORIZED, "the ceremony is another member's")
    signed, session_id = start_enrolled_session(services.store, services.clock, member.id, "passkey")
    return _signed_in(response, services, signed, session_id)


@router.post("/enrolment/totp/secret")
def enrolment_totp_secret(body: EnrolmentIn, services: ServicesDep) -> TotpSecretOut:
    """The secret the server chose for the member's code app (kept only once a code from the app proves it)."""
    member = read_enrolment(services.store, services.settings.auth_secret, body.token, services.clock.now())
    secret = chosen_totp_secret(services.settings.auth_secret, member, body.token)
    return TotpSecretOut(secret=secret, uri=totp_uri(member, secret))


@router.post("/enrolment/totp")
def enrol_totp_app(body: EnrolTotpIn, response: Response, services: ServicesDep) -> SignedIn:
    """Keep the member's code app (a current code proves it) and sign them in; the secret must be the one the link
    was given (-2)."""
    secret = services.settings.auth_secret
    member = read_enrolment(services.store, secret, body.token, services.clock.now())
    enrol_totp(
        services.store, services.clock, secret, member, link_token=body.token, totp_secret=body.secret, code=body.code
    )
    signed, session_id = start_enrolled_session(services.store, services.clock, member.id, "totp")
    return _signed_in(response, services, signed, session_id)


# -- sign-in ------------------------------------------------------------------------------------------------------


@router.post("/sign-in/passkey/options")
def sign_in_passkey_options(body: EmailIn, request: Request, services: ServicesDep) -> Ceremony:
    """Start signing in with a passkey (the same answer whether or not the address is staff's)."""
    services.limiter.staff_passkey(request)
    secret = services.settings.auth_secret
    return _options(*authentication_options(secret, relying_party(services), body.email, services.clock.now()))


@router.post("/sign-in/passkey")
def sign_in_passkey(body: PasskeyIn, request: Request, response: Response, services: ServicesDep) -> SignedIn:
    """Sign in with the passkey the browser signed the challenge with."""
    services.limiter.staff_passkey(request)
    member, session_id = sign_in_with_passkey(
        services.store,
        services.clock,
        services.settings.auth_secret,
        relying_party(services),
        ceremony=body.ceremony,
        credential=json.dumps(body.credential),
    )
    return _signed_in(response, services, member, session_id)


@router.post("/sign-in/totp")
def sign_in_totp(body: CodeSignInIn, request: Request, response: Response, services: ServicesDep) -> SignedIn:
    """Sign in with a one-time code (the fallback for a member without their passkey at hand)."""
    services.limiter.staff_code(request, body.email)
    member, session_id = sign_in_with_code(
        services.store, services.clock, services.settings.auth_secret, email=body.email, code=body.code
    )
    return _signed_in(response, services, member, session_id)


# -- the session --------------------------------------------------------------------------------------------------


@router.get("/me")
def me(caller: StaffDep, services: ServicesDep) -> SignedIn:
    """The signed-in member, their permissions, and the CSRF value."""
    from domain.staff.signin import csrf_token

    return SignedIn(
        member=MemberOut.of(caller.member),
        csrf=csrf_token(services.settings.auth_secret, caller.session.session_id),
        stepped_up_until=caller.session.proved_at + session_policy(services).step_up,
    )


@router.post("/sign-out", status_code=204)
def sign_out(caller: StaffDep, response: Response, services: ServicesDep) -> None:
    """End this session."""
    member = load_member(services.store, caller.member.id)
    member.sign_out(caller.session.session_id, services.clock.now())
    services.store.save(member)
    clear_session_cookies(response, services)


@router.post("/step-up/passkey/options")
def step_up_passkey_options(caller: StaffDep, services: ServicesDep) -> Ceremony:
    """Start proving, with a passkey touch, that it is still the member (before money moves)."""
    secret = services.settings.auth_secret
    return _options(*authentication_options(secret, relying_party(services), caller.member.email, services.clock.now()))


@router.post("/step-up/passkey")
def step_up_passkey(body: PasskeyIn, caller: StaffDep, response: Response, services: ServicesDep) -> SignedIn:
    """A fresh passkey touch: money actions are allowed for a few minutes."""
    member, _ = sign_in_with_passkey(
        services.store,
        services.clock,
        services.settings.auth_secret,
        relying_party(services),
        ceremony=body.ceremony,
        credential=json.dumps(body.credential),
        session_id=caller.session.session_id,
    )
    if member.id != caller.member.id:
        raise DomainError(ErrorCode.UNAUTHORIZED, "another member's passkey")
    return _stepped_up(response, services, caller, member)


@router.post("/step-up/totp")
def step_up_totp(body: CodeIn, caller: StaffDep, response: Response, services: ServicesDep) -> SignedIn:
    """A fresh one-time code: money actions are allowed for a few minutes. A few wrong codes end the session."""
    services.limiter.staff_step_up_code(caller.member.email)
    member, _ = sign_in_with_code(
        services.store,
        services.clock,
        services.settings.auth_secret,
        email=caller.member.email,
        code=body.code,
        session_id=caller.session.session_id,
    )
    return _stepped_up(response, services, caller, member)


@router.post("/passkeys/options")
def add_passkey_options(caller: StaffDep, services: ServicesDep) -> Ceremony:
    """Start registering another passkey for the signed-in member."""
    secret = services.settings.auth_secret
    return _options(*registration_options(secret, relying_party(services), caller.member, services.clock.now()))


@router.post("/passkeys")
def add_passkey(body: PasskeyIn, caller: StaffDep, services: ServicesDep) -> MemberOut:
    """Keep another passkey of the signed-in member."""
    registered = register_passkey(
        services.store,
        services.clock,
        services.settings.auth_secret,
        relying_party(services),
        ceremony=body.ceremony,
        credential=json.dumps(body.credential),
        label=body.label,
    )
    if registered.id != caller.member.id:
        raise DomainError(ErrorCode.UNAUTHORIZED, "the ceremony is another member's")
    return MemberOut.of(registered)


# -- owners manage staff ------------------------------------------------------------------------------------------

MemberId = Annotated[UUID, Path(description="the staff member's id")]


@router.get("/members")
def members(caller: StaffDep, services: ServicesDep) -> list[MemberOut]:
    """Every staff member."""
    return [MemberOut.of(member) for member in list_members(services.store)]


@router.post("/members", status_code=201)
def invite(body: InviteIn, caller: StaffDep, services: ServicesDep) -> Invited:
    """Add a member with their roles; give them the enrolment link."""
    member = invite_member(
        services.store,
        services.clock,
        caller.member.id,
        email=body.email,
        name=body.name,
        roles=body.roles,
        reason=body.reason,
    )
    token = enrolment_link_token(services.settings.auth_secret, member, services.clock.now())
    link = f"{services.settings.base_url}/admin/enrol?token={token}"
    return Invited(member=MemberOut.of(member), enrolment_link=link)


@router.post("/members/{member_id}/suspend")
def suspend(member_id: MemberId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> MemberOut:
    """Stop a member: their open sessions end on their next request."""
    return MemberOut.of(suspend_member(services.store, services.clock, caller.member.id, member_id, body.reason))


@router.post("/members/{member_id}/reinstate")
def reinstate(member_id: MemberId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> MemberOut:
    """Let a suspended member sign in again."""
    return MemberOut.of(reinstate_member(services.store, services.clock, caller.member.id, member_id, body.reason))


@router.put("/members/{member_id}/roles")
def set_roles(member_id: MemberId, body: RolesIn, caller: StaffDep, services: ServicesDep) -> MemberOut:
    """Give a member a new set of roles."""
    return MemberOut.of(
        change_member_roles(services.store, services.clock, caller.member.id, member_id, body.roles, body.reason)
    )

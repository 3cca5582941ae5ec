"""How staff sign in: a passkey (WebAuthn), or a one-time code from an authenticator app (TOTP) as the fallback;
never a password alone.

An invitation (or the first owner's command) gives the member an enrolment link, good once for registering their
first passkey or code app (whose secret the server chooses for the link). Every ceremony's challenge travels signed
in a short-lived token, bound to its purpose; an accepted passkey answer spends its challenge in the member's log,
so it is never accepted twice, and the authenticator must verify the user (PIN or biometrics), not only their
presence. Signing in asks for passkeys discoverable on the device (no list of the member's credentials), so the
options look the same for any address. A session is a signed cookie value: the session's id, when it started, when
it was last used (idle timeout) and when the member last proved themselves (step-up before money moves); the
member's log says whether the session is still open, so a suspension ends it on the next request, and so do a
few wrong one-time codes at a step-up (``CODE_MISSES_PER_SESSION``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

import pyotp
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from domain.accounts.tokens import InvalidTokenError, read_link, sign_link
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.staff.member import StaffMember, find_member, load_member
from domain.store import Storefront
from events.concurrency import retry_on_conflict

ENROL = "staff-enrol"
CEREMONY = "staff-ceremony"
SESSION = "staff-session"
ENROLMENT_LIFETIME = timedelta(days=3)
CEREMONY_LIFETIME = timedelta(minutes=5)
TOTP_ISSUER = "Unicorn Pro back office"


@dataclass(frozen=True)
class Relying:
    """The site passkeys are bound to: its host name (``rp_id``) and its origin."""

    rp_id: str
    origin: str
    name: str = "Unicorn Pro back office"


@dataclass(frozen=True)
class SessionPolicy:
    """How long a staff session lasts: idle, in all, and how fresh a proof money actions need."""

    idle: timedelta
    lifetime: timedelta
    step_up: timedelta


@dataclass(frozen=True)
class StaffSession:
    """A signed-in member's session, as its cookie carries it."""

    session_id: str
    member_id: UUID
    started_at: datetime
    seen_at: datetime
    proved_at: datetime

    def check_current(self, policy: SessionPolicy, now: datetime) -> None:
        """401 when idle too long or older than its lifetime."""
        if now - self.seen_at > policy.idle:
            raise DomainError(ErrorCode.UNAUTHORIZED, "the staff session was idle too long")
        if now - self.started_at > policy.lifetime:
            raise DomainError(ErrorCode.UNAUTHORIZED, "the staff session is over")

    def is_fresh(self, policy: SessionPolicy, now: datetime) -> bool:
        """Did the member prove themselves recently enough to move money?"""
        return now - self.proved_at <= policy.step_up


def session_token(secret: str, session: StaffSession, policy: SessionPolicy) -> str:
    """The cookie's value (signed; it stops working at the session's lifetime)."""
    return sign_link(
        secret,
        SESSION,
        session.member_id,
        session.seen_at,
        session.started_at + policy.lifetime - session.seen_at,
        sid=session.session_id,
        started=session.started_at.isoformat(),
        seen=session.seen_at.isoformat(),
        proved=session.proved_at.isoformat(),
    )


def read_session(secret: str, token: str, now: datetime) -> StaffSession:
    """The session a cookie names (401 when it is forged or expired)."""
    try:
        claims = read_link(secret, SESSION, token, now)
        return StaffSession(
            claims.values["sid"],
            claims.account_id,
            datetime.fromisoformat(claims.values["started"]),
            datetime.fromisoformat(claims.values["seen"]),
            datetime.fromisoformat(claims.values["proved"]),
        )
    except (InvalidTokenError, KeyError, ValueError):
        raise DomainError(ErrorCode.UNAUTHORIZED, "no staff session") from None


def csrf_token(secret: str, session_id: str) -> str:
    """The value a state-changing staff request repeats in its header (bound to the session)."""
    return hmac.new(secret.encode(), f"staff-csrf/{session_id}".encode(), hashlib.sha256).hexdigest()


def enrolment_link_token(secret: str, member: StaffMember, now: datetime) -> str:
    """The token of the member's enrolment link."""
    return sign_link(secret, ENROL, member.id, now, ENROLMENT_LIFETIME)


def read_enrolment(store: Storefront, secret: str, token: str, now: datetime) -> StaffMember:
    """The member an enrolment link names, while they have no way to sign in yet (401 otherwise)."""
    try:
        member = load_member(store, read_link(secret, ENROL, token, now).account_id)
    except (InvalidTokenError, DomainError):
        raise DomainError(ErrorCode.UNAUTHORIZED, "not a valid enrolment link") from None
    member.check_active()
    if member.passkeys or member.totp_secret is not None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "the enrolment link was used already")
    return member


# -- passkeys -------------------------------------------------------------------------------------------------------


def _ceremony(secret: str, member: StaffMember, kind: str, challenge: bytes, now: datetime) -> str:
    return sign_link(
        secret, CEREMONY, member.id, now, CEREMONY_LIFETIME, kind=kind, challenge=bytes_to_base64url(challenge)
    )


def _read_ceremony(secret: str, token: str, kind: str, now: datetime) -> tuple[UUID, bytes, str]:
    """The ceremony's member (for a registration), challenge and address (for a sign-in)."""
    try:
        claims = read_link(secret, CEREMONY, token, now)
    except InvalidTokenError:
        raise DomainError(ErrorCode.UNAUTHORIZED, "the passkey ceremony expired") from None
    if claims.values.get("kind") != kind:
        raise DomainError(ErrorCode.UNAUTHORIZED, "not this ceremony")
    return claims.account_id, base64url_to_bytes(claims.values["challenge"]), claims.values.get("email", "")


def registration_options(secret: str, relying: Relying, member: StaffMember, now: datetime) -> tuple[str, str]:
    """The browser's ``PublicKeyCredentialCreationOptions`` (JSON) and the ceremony token to send back."""
    options = generate_registration_options(
        rp_id=relying.rp_id,
        rp_name=relying.name,
        user_id=member.id.bytes,
        user_name=member.email,
        user_display_name=member.name,
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(known)) for known in sorted(member.passkeys)
        ],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.REQUIRED
        ),
    )
    return options_to_json(options), _ceremony(secret, member, "register", options.challenge, now)


def register_passkey(
    store: Storefront, clock: Clock, secret: str, relying: Relying, *, ceremony: str, credential: str, label: str
) -> StaffMember:
    """Verify the browser's new credential against the ceremony and keep it (401 when it does not verify)."""
    member_id, challenge, _ = _read_ceremony(secret, ceremony, "register", clock.now())
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=relying.rp_id,
            expected_origin=relying.origin,
            require_user_verification=True,
        )
    except InvalidRegistrationResponse as refused:
        raise DomainError(ErrorCode.UNAUTHORIZED, f"the passkey did not verify: {refused}") from None

    def attempt() -> StaffMember:
        member = load_member(store, member_id)
        member.register_passkey(
            bytes_to_base64url(verified.credential_id),
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
            label,
            clock.now(),
        )
        store.save(member)
        return member

    return retry_on_conflict(attempt)


def authentication_options(secret: str, relying: Relying, email: str, now: datetime) -> tuple[str, str]:
    """The browser's ``PublicKeyCredentialRequestOptions`` (JSON) and the ceremony token, the same for any address
    (staff's or not): no credentials are listed (the device offers its passkeys for the site), the user must be
    verified, and the token carries the address as typed, never a member."""
    options = generate_authentication_options(
        rp_id=relying.rp_id, allow_credentials=[], user_verification=UserVerificationRequirement.REQUIRED
    )
    token = sign_link(
        secret,
        CEREMONY,
        UUID(int=0),
        now,
        CEREMONY_LIFETIME,
        kind="authenticate",
        challenge=bytes_to_base64url(options.challenge),
        email=email.strip(),
    )
    return options_to_json(options), token


def sign_in_with_passkey(
    store: Storefront,
    clock: Clock,
    secret: str,
    relying: Relying,
    *,
    ceremony: str,
    credential: str,
    session_id: str | None = None,
) -> tuple[StaffMember, str]:
    """Verify a passkey assertion of the ceremony's address (the user verified, its challenge not spent); start a
    session (or step up ``session_id``). Returns the member and session id."""
    import json

    _, challenge, email = _read_ceremony(secret, ceremony, "authenticate", clock.now())
    try:
        credential_id = str(json.loads(credential)["id"])
    except (ValueError, KeyError, TypeError):
        raise DomainError(ErrorCode.INVALID_VALUE, "not a passkey credential") from None
    sid = session_id or secrets.token_urlsafe(16)

    def attempt() -> StaffMember:
        member = find_member(store, email) if email else None
        known = member.passkeys.get(credential_id) if member is not None else None
        if member is None or known is None:
            raise DomainError(ErrorCode.UNAUTHORIZED, "unknown passkey")
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=relying.rp_id,
                expected_origin=relying.origin,
                credential_public_key=base64url_to_bytes(known.public_key),
                credential_current_sign_count=known.sign_count,
                require_user_verification=True,
            )
        except InvalidAuthenticationResponse as refused:
            raise DomainError(ErrorCode.UNAUTHORIZED, f"the passkey did not verify: {refused}") from None
        member.spend_challenge(challenge, clock.now())
        member.sign_in(
            sid,
            "passkey",
            clock.now(),
            credential_id=credential_id,
            sign_count=verified.new_sign_count,
            step_up=session_id is not None,
        )
        store.save(member)
        return member

    return retry_on_conflict(attempt), sid


# -- one-time codes (the fallback) ----------------------------------------------------------------------------------


def _sealing_key(secret: str) -> bytes:
    return hashlib.sha256(f"staff-totp-seal/{secret}".encode()).digest()


def seal(secret: str, plain: str) -> str:
    """Encrypt a TOTP secret for the log (AES-GCM under a key derived from the server's secret)."""
    nonce = os.urandom(12)
    sealed = AESGCM(_sealing_key(secret)).encrypt(nonce, plain.encode(), b"staff-totp")
    return base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(secret: str, sealed: str) -> str:
    """The TOTP secret a sealed value holds."""
    raw = base64.urlsafe_b64decode(sealed.encode())
    return AESGCM(_sealing_key(secret)).decrypt(raw[:12], raw[12:], b"staff-totp").decode()


def chosen_totp_secret(secret: str, member: StaffMember, link_token: str) -> str:
    """The code app's secret the server chose for this enrolment link: 160 bits (32 base32 characters), the same
    each time the link asks, and no other secret is accepted for it (a client never chooses its own)."""
    message = f"staff-totp-enrolment/{member.id}/{link_token}".encode()
    return base64.b32encode(hmac.new(secret.encode(), message, hashlib.sha256).digest()[:20]).decode()


def totp_uri(member: StaffMember, totp_secret: str) -> str:
    """The ``otpauth://`` address the app scans."""
    return pyotp.TOTP(totp_secret).provisioning_uri(name=member.email, issuer_name=TOTP_ISSUER)


def _code_step(totp_secret: str, code: str, now: datetime) -> int | None:
    """The time step (of now, the one before or the one after) whose code this is; None when it matches none."""
    totp = pyotp.TOTP(totp_secret)
    typed = code.strip()
    current = totp.timecode(now)
    for step in (current, current - 1, current + 1):
        if hmac.compare_digest(totp.generate_otp(step), typed):
            return step
    return None


def enrol_totp(
    store: Storefront, clock: Clock, secret: str, member: StaffMember, *, link_token: str, totp_secret: str, code: str
) -> StaffMember:
    """Keep the member's code app once a code from it proves it is set up: -2 for a secret other than the one the
    server chose for the link, 401 for a wrong code."""
    chosen = chosen_totp_secret(secret, member, link_token)
    if not hmac.compare_digest(totp_secret.strip().upper().encode(), chosen.encode()):
        raise DomainError(ErrorCode.INVALID_VALUE, "not the secret this enrolment link was given")
    member_id = member.id
    step = _code_step(chosen, code, clock.now())
    if step is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "the code does not match")

    def attempt() -> StaffMember:
        member = load_member(store, member_id)
        member.enrol_totp(seal(secret, totp_secret), clock.now())
        member.use_totp_step(step, clock.now())
        store.save(member)
        return member

    return retry_on_conflict(attempt)


def sign_in_with_code(
    store: Storefront, clock: Clock, secret: str, *, email: str, code: str, session_id: str | None = None
) -> tuple[StaffMember, str]:
    """Check a one-time code; start a session (or step up ``session_id``). Same 401 for every failure; a failed
    step-up counts against its session, which the last allowed miss ends."""
    sid = session_id or secrets.token_urlsafe(16)

    def attempt() -> StaffMember | None:
        member = find_member(store, email)
        if member is None or member.totp_secret is None:
            return None
        now = clock.now()
        step = _code_step(unseal(secret, member.totp_secret), code, now)
        if step is None or (member.last_totp_step is not None and step <= member.last_totp_step):
            if session_id is None:
                return None
            member.miss_code(session_id, now)  # a code already used is refused like a wrong one
            store.save(member)
            return None
        member.use_totp_step(step, now)
        member.sign_in(sid, "totp", now, step_up=session_id is not None)
        store.save(member)
        return member

    signed = retry_on_conflict(attempt)
    if signed is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no such code")
    return signed, sid


def start_enrolled_session(store: Storefront, clock: Clock, member_id: UUID, method: str) -> tuple[StaffMember, str]:
    """The member just registered their first passkey or code app through their link: they are signed in."""
    sid = secrets.token_urlsafe(16)

    def attempt() -> StaffMember:
        member = load_member(store, member_id)
        member.sign_in(sid, method, clock.now())
        store.save(member)
        return member

    return retry_on_conflict(attempt), sid

"""A staff member: who they are, their roles, whether they may sign in, their passkeys, and what they did.

Members are created by an owner (the first owner by an operator, from the command line: ``python -m
workers.operator staff create-owner``). Addresses are unique among staff through the directory, one aggregate at
a fixed id saved in the same transaction as each new member, so two racing invitations of one address conflict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import normalise_email
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.staff.permissions import Permission, Role, check_reason, parse_roles, permissions_of
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.staff import (
    StaffActed,
    StaffChallengeSpent,
    StaffCodeRefused,
    StaffDirectoryListed,
    StaffDirectoryOpened,
    StaffMemberCreated,
    StaffPasskeyRegistered,
    StaffReinstated,
    StaffRolesChanged,
    StaffSignedIn,
    StaffSignedOut,
    StaffSuspended,
    StaffTotpCodeUsed,
    StaffTotpEnrolled,
)

DIRECTORY_ID = uuid5(NAMESPACE_URL, "/staff/directory")
# Wrong one-time codes a session may type to step up: the last of them ends the session.
CODE_MISSES_PER_SESSION = 3
# How long a spent passkey challenge is remembered: longer than any ceremony lives (domain/staff/signin.py).
SPENT_CHALLENGES_KEPT = timedelta(minutes=10)


class StaffState(Enum):
    """Whether a member may sign in."""

    ACTIVE = "active"
    SUSPENDED = "suspended"


@dataclass(frozen=True)
class Passkey:
    """A registered WebAuthn credential (base64url values as the events hold them)."""

    credential_id: str
    public_key: str
    sign_count: int
    label: str


class StaffMember(Aggregate):
    """One person of the back office."""

    @classmethod
    def create(
        cls, *, email: str, name: str, roles: Iterable[Role], actor_id: UUID | None, reason: str, at: datetime
    ) -> StaffMember:
        """A new active member (no passkey yet: they register one when they first sign in)."""
        address = normalise_email(email)
        if "@" not in address:
            raise DomainError(ErrorCode.INVALID_VALUE, "a staff member's address")
        if not name.strip():
            raise DomainError(ErrorCode.EMPTY_PARAMETER, "a staff member's name")
        names = sorted(role.value for role in parse_roles(role.value for role in roles))
        return cls._create(
            StaffMemberCreated,
            id=uuid4(),
            timestamp=at,
            email=address,
            name=name.strip(),
            roles=names,
            actor_id=actor_id,
            reason=reason.strip(),
        )

    @property
    def permissions(self) -> frozenset[Permission]:
        """What the member's roles allow (nothing while suspended)."""
        return permissions_of(self.roles) if self.state is StaffState.ACTIVE else frozenset()

    def may(self, permission: Permission) -> bool:
        """Is the member active and allowed this?"""
        return permission in self.permissions

    def check_may(self, permission: Permission) -> None:
        """403 unless the member is active and allowed this."""
        if not self.may(permission):
            raise DomainError(ErrorCode.FORBIDDEN, f"{self.email} may not {permission.value}")

    def check_active(self) -> None:
        """401 for a suspended member: their sessions are over."""
        if self.state is not StaffState.ACTIVE:
            raise DomainError(ErrorCode.UNAUTHORIZED, "the staff member is suspended")

    def session_is_open(self, session_id: str) -> bool:
        """Did this session start, and is it neither signed out nor ended by a suspension?"""
        return self.state is StaffState.ACTIVE and session_id in self.sessions and session_id not in self.ended

    def change_roles(self, roles: Iterable[Role], actor: StaffMember, reason: str, at: datetime) -> None:
        """An owner sets the member's roles."""
        actor.check_may(Permission.MANAGE_STAFF)
        names = sorted(role.value for role in parse_roles(role.value for role in roles))
        self.trigger_event(StaffRolesChanged, timestamp=at, roles=names, actor_id=actor.id, reason=reason.strip())

    def suspend(self, actor: StaffMember, reason: str, at: datetime) -> None:
        """An owner stops the member: every session of theirs ends now. Nobody suspends themselves."""
        actor.check_may(Permission.MANAGE_STAFF)
        if actor.id == self.id:
            raise DomainError(ErrorCode.FORBIDDEN, "nobody suspends themselves")
        if self.state is StaffState.SUSPENDED:
            return
        self.trigger_event(StaffSuspended, timestamp=at, actor_id=actor.id, reason=reason.strip())

    def reinstate(self, actor: StaffMember, reason: str, at: datetime) -> None:
        """An owner lets a suspended member sign in again (their old sessions stay ended)."""
        actor.check_may(Permission.MANAGE_STAFF)
        if self.state is StaffState.ACTIVE:
            return
        self.trigger_event(StaffReinstated, timestamp=at, actor_id=actor.id, reason=reason.strip())

    def register_passkey(self, credential_id: str, public_key: str, sign_count: int, label: str, at: datetime) -> None:
        """Keep a new passkey (a credential registered twice is refused, -3)."""
        self.check_active()
        if credential_id in self.passkeys:
            raise DomainError(ErrorCode.DUPLICATE_PARAMETER, "the passkey is registered already")
        self.trigger_event(
            StaffPasskeyRegistered,
            timestamp=at,
            credential_id=credential_id,
            public_key=public_key,
            sign_count=sign_count,
            label=label.strip() or "passkey",
        )

    def enrol_totp(self, sealed_secret: str, at: datetime) -> None:
        """Keep the (sealed) secret of the member's one-time-code app, replacing any earlier one."""
        self.check_active()
        self.trigger_event(StaffTotpEnrolled, timestamp=at, sealed_secret=sealed_secret)

    def use_totp_step(self, step: int, at: datetime) -> None:
        """Spend a one-time code's time step: a code of this step or an earlier one is refused from now on (401), so
        no code is accepted twice, even within its window."""
        self.check_active()
        if self.last_totp_step is not None and step <= self.last_totp_step:
            raise DomainError(ErrorCode.UNAUTHORIZED, "the code was used already")
        self.trigger_event(StaffTotpCodeUsed, timestamp=at, step=step)

    def miss_code(self, session_id: str, at: datetime) -> bool:
        """A wrong or spent one-time code at a step-up of the open session: counted, and the
        ``CODE_MISSES_PER_SESSION``-th ends the session. True when it ended."""
        if not self.session_is_open(session_id):
            return True
        self.trigger_event(StaffCodeRefused, timestamp=at, session_id=session_id)
        if self.code_misses.get(session_id, 0) < CODE_MISSES_PER_SESSION:
            return False
        self.sign_out(session_id, at)
        return True

    def spend_challenge(self, challenge: bytes, at: datetime) -> None:
        """A passkey answer to this challenge is being accepted: never again (401 when it was already)."""
        digest = hashlib.sha256(challenge).hexdigest()
        if digest in self.spent_challenges:
            raise DomainError(ErrorCode.UNAUTHORIZED, "the passkey answer was used already")
        self.trigger_event(StaffChallengeSpent, timestamp=at, challenge_hash=digest)

    def sign_in(
        self,
        session_id: str,
        method: str,
        at: datetime,
        *,
        credential_id: str | None = None,
        sign_count: int | None = None,
        step_up: bool = False,
    ) -> None:
        """A proven sign-in (the caller verified the passkey or the code) starts a session or steps one up."""
        self.check_active()
        if step_up and not self.session_is_open(session_id):
            raise DomainError(ErrorCode.UNAUTHORIZED, "the session has ended")
        self.trigger_event(
            StaffSignedIn,
            timestamp=at,
            session_id=session_id,
            method=method,
            credential_id=credential_id,
            sign_count=sign_count,
            step_up=step_up,
        )

    def sign_out(self, session_id: str, at: datetime) -> None:
        """End one session."""
        if session_id in self.sessions and session_id not in self.ended:
            self.trigger_event(StaffSignedOut, timestamp=at, session_id=session_id)

    def act(
        self,
        permission: Permission,
        action: str,
        subject: str,
        reason: str | None,
        at: datetime,
        details: Mapping[str, str | int | None] | None = None,
    ) -> None:
        """Record that the member did ``action`` to ``subject``: allowed by ``permission``, with its reason (required
        for money and licence changes). Save it with the change it explains."""
        self.check_may(permission)
        why = check_reason(permission, reason)
        self.trigger_event(
            StaffActed, timestamp=at, action=action, subject=subject, reason=why, details=dict(details or {})
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _created(self, event: StaffMemberCreated) -> None:
        self.email = event.email
        self.name = event.name
        self.roles = frozenset(Role(name) for name in event.roles)
        self.state = StaffState.ACTIVE
        self.created_by = event.actor_id
        self.passkeys: dict[str, Passkey] = {}
        self.totp_secret: str | None = None
        self.last_totp_step: int | None = None
        self.sessions: set[str] = set()
        self.ended: set[str] = set()
        self.last_acted_at: datetime | None = None
        self.code_misses: dict[str, int] = {}
        self.spent_challenges: dict[str, datetime] = {}

    @when.register
    def _roles_changed(self, event: StaffRolesChanged) -> None:
        self.roles = frozenset(Role(name) for name in event.roles)

    @when.register
    def _suspended(self, event: StaffSuspended) -> None:
        self.state = StaffState.SUSPENDED
        self.ended |= self.sessions

    @when.register
    def _reinstated(self, event: StaffReinstated) -> None:
        self.state = StaffState.ACTIVE

    @when.register
    def _passkey_registered(self, event: StaffPasskeyRegistered) -> None:
        self.passkeys[event.credential_id] = Passkey(
            event.credential_id, event.public_key, event.sign_count, event.label
        )

    @when.register
    def _totp_enrolled(self, event: StaffTotpEnrolled) -> None:
        self.totp_secret = event.sealed_secret

    @when.register
    def _totp_code_used(self, event: StaffTotpCodeUsed) -> None:
        self.last_totp_step = event.step

    @when.register
    def _signed_in(self, event: StaffSignedIn) -> None:
        self.sessions.add(event.session_id)
        if event.credential_id is not None and event.credential_id in self.passkeys and event.sign_count is not None:
            known = self.passkeys[event.credential_id]
            self.passkeys[event.credential_id] = Passkey(
                known.credential_id, known.public_key, event.sign_count, known.label
            )

    @when.register
    def _signed_out(self, event: StaffSignedOut) -> None:
        self.ended.add(event.session_id)

    @when.register
    def _acted(self, event: StaffActed) -> None:
        self.last_acted_at = event.timestamp

    @when.register
    def _code_refused(self, event: StaffCodeRefused) -> None:
        self.code_misses[event.session_id] = self.code_misses.get(event.session_id, 0) + 1

    @when.register
    def _challenge_spent(self, event: StaffChallengeSpent) -> None:
        since = event.timestamp - SPENT_CHALLENGES_KEPT
        kept = {digest: at for digest, at in self.spent_challenges.items() if at >= since}
        self.spent_challenges = {**kept, event.challenge_hash: event.timestamp}


class StaffDirectory(Aggregate):
    """Every staff address and the member it names (one aggregate at a fixed id)."""

    @classmethod
    def open(cls, at: datetime) -> StaffDirectory:
        return cls._create(StaffDirectoryOpened, id=DIRECTORY_ID, timestamp=at)

    def list_member(self, email: str, member_id: UUID, at: datetime) -> None:
        """Name the member by the address (-2103 when staff already has it)."""
        address = normalise_email(email)
        if address in self.members:
            raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED, "a staff member has this address already")
        self.trigger_event(StaffDirectoryListed, timestamp=at, email=address, member_id=member_id)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: StaffDirectoryOpened) -> None:
        self.members: dict[str, UUID] = {}

    @when.register
    def _listed(self, event: StaffDirectoryListed) -> None:
        self.members[event.email] = event.member_id


def load_directory(store: Storefront) -> StaffDirectory | None:
    """The directory, or None before the first member."""
    try:
        directory: StaffDirectory = store.repository.get(DIRECTORY_ID)
    except AggregateNotFoundError:
        return None
    return directory


def load_member(store: Storefront, member_id: UUID) -> StaffMember:
    """The member (404 when there is none)."""
    try:
        member: object = store.repository.get(member_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such staff member") from None
    if not isinstance(member, StaffMember):
        raise DomainError(ErrorCode.NOT_FOUND, "no such staff member")
    return member


def find_member(store: Storefront, email: str) -> StaffMember | None:
    """The member with this address, if any."""
    directory = load_directory(store)
    member_id = directory.members.get(normalise_email(email)) if directory else None
    return load_member(store, member_id) if member_id else None


def create_first_owner(store: Storefront, clock: Clock, *, email: str, name: str) -> StaffMember:
    """The operator's command: the first owner. Refused (-3) once staff has an owner (who invites the rest); only the
    test harness adds members without one (harness/staff.py)."""

    def attempt() -> StaffMember:
        directory = load_directory(store)
        if directory is not None and any(
            Role.OWNER in load_member(store, member_id).roles for member_id in directory.members.values()
        ):
            raise DomainError(ErrorCode.DUPLICATE_PARAMETER, "staff has an owner already: an owner invites the rest")
        now = clock.now()
        directory = directory or StaffDirectory.open(now)
        member = StaffMember.create(
            email=email, name=name, roles=[Role.OWNER], actor_id=None, reason="the first owner", at=now
        )
        directory.list_member(member.email, member.id, now)
        store.save(directory, member)
        return member

    return retry_on_conflict(attempt)


def invite_member(
    store: Storefront, clock: Clock, actor_id: UUID, *, email: str, name: str, roles: Iterable[str], reason: str
) -> StaffMember:
    """An owner adds a member with their roles."""
    wanted = parse_roles(roles)

    def attempt() -> StaffMember:
        actor = load_member(store, actor_id)
        actor.check_may(Permission.MANAGE_STAFF)
        directory = load_directory(store)
        if directory is None:
            raise DomainError(ErrorCode.FORBIDDEN, "no staff yet")
        now = clock.now()
        member = StaffMember.create(email=email, name=name, roles=wanted, actor_id=actor.id, reason=reason, at=now)
        directory.list_member(member.email, member.id, now)
        store.save(directory, member)
        return member

    return retry_on_conflict(attempt)


def suspend_member(store: Storefront, clock: Clock, actor_id: UUID, member_id: UUID, reason: str) -> StaffMember:
    """An owner suspends a member; their sessions end at once."""

    def attempt() -> StaffMember:
        actor, member = load_member(store, actor_id), load_member(store, member_id)
        member.suspend(actor, reason, clock.now())
        store.save(member)
        return member

    return retry_on_conflict(attempt)


def reinstate_member(store: Storefront, clock: Clock, actor_id: UUID, member_id: UUID, reason: str) -> StaffMember:
    """An owner lets a suspended member sign in again."""

    def attempt() -> StaffMember:
        actor, member = load_member(store, actor_id), load_member(store, member_id)
        member.reinstate(actor, reason, clock.now())
        store.save(member)
        return member

    return retry_on_conflict(attempt)


def change_member_roles(
    store: Storefront, clock: Clock, actor_id: UUID, member_id: UUID, roles: Iterable[str], reason: str
) -> StaffMember:
    """An owner sets a member's roles."""
    wanted = parse_roles(roles)

    def attempt() -> StaffMember:
        actor, member = load_member(store, actor_id), load_member(store, member_id)
        member.change_roles(wanted, actor, reason, clock.now())
        store.save(member)
        return member

    return retry_on_conflict(attempt)


def list_members(store: Storefront) -> list[StaffMember]:
    """Every member, by address."""
    directory = load_directory(store)
    if directory is None:
        return []
    return [load_member(store, member_id) for _, member_id in sorted(directory.members.items())]

"""The account aggregate and the indexes that keep email addresses and nicknames unique."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import singledispatchmethod
from typing import Any, ClassVar, Self
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import DomainError, ErrorCode
from events.accounts import (
    AccountClaimed,
    AccountClaimRequested,
    AccountDeleted,
    AccountRegistered,
    ConfirmationMailRequested,
    EmailChanged,
    EmailChangeRequested,
    EmailClaimed,
    EmailConfirmed,
    EmailReclaimed,
    EmailReleased,
    LoggedIn,
    NicknameClaimed,
    NicknameReclaimed,
    NicknameReleased,
    PasswordChanged,
    PasswordResetCompleted,
    PasswordResetRequested,
    ProfileChanged,
)
from events.contract import StoredCreation, StoredEvent
from events.values import Language


def normalise_email(email: str) -> str:
    """The form of an email address used for uniqueness (trimmed, lower-case)."""
    return email.strip().lower()


def normalise_nickname(nickname: str) -> str:
    """The form of a nickname used for uniqueness (trimmed, case-folded)."""
    return nickname.strip().casefold()


# A guest's account keeps the latest claims on it (registrations with its address awaiting the mailbox's proof);
# an older one drops out, and its link then says the link has expired.
MAX_PENDING_CLAIMS = 5


@dataclass(frozen=True)
class PendingClaim:
    """A registration with a guest's address, waiting for the mailbox to prove it."""

    password_hash: str
    language: Language
    marketing_push_enabled: bool


class Account(Aggregate):
    """A customer's account."""

    @classmethod
    def register(
        cls,
        *,
        email: str,
        password_hash: str,
        language: Language,
        marketing_push_enabled: bool,
        at: datetime,
    ) -> Account:
        """A new, unconfirmed account."""
        return cls._create(
            AccountRegistered,
            id=uuid4(),
            timestamp=at,
            email=normalise_email(email),
            password_hash=password_hash,
            language=language,
            marketing_push_enabled=marketing_push_enabled,
        )

    @property
    def is_guest(self) -> bool:
        """A passwordless account that a guest's purchase opened; registering with its address claims it."""
        return not self.password_hash

    @property
    def is_member(self) -> bool:
        """A registered account (it has a password) that is not deleted."""
        return not self.is_guest and not self.deleted

    @property
    def pending_claims(self) -> dict[str, PendingClaim]:
        """The registrations with this guest's address still waiting for the mailbox, oldest first. (Kept in the
        state as plain values, so that snapshots carry them; a snapshot older than claims has none.)"""
        kept: dict[str, dict[str, Any]] = self.__dict__.get("claims_pending", {})
        return {claim_id: PendingClaim(**fields) for claim_id, fields in kept.items()}

    @property
    def may_be_claimed_by_mailbox(self) -> bool:
        """Whoever proves the mailbox may take this account: nobody has proven it yet (a guest's account, or an
        account whose address was never confirmed), and it is not deleted."""
        return not self.deleted and (self.is_guest or not self.email_confirmed)

    @property
    def scope(self) -> int:
        """0 until the email is confirmed, then 1."""
        return 1 if self.email_confirmed else 0

    def ensure_active(self) -> None:
        """Refuse (401) anything on a deleted account."""
        if self.deleted:
            raise DomainError(ErrorCode.UNAUTHORIZED, "account deleted")

    def confirm_email(self, email: str, at: datetime) -> None:
        """Record that ``email`` (which must be the current address) is confirmed; idempotent."""
        self.ensure_active()
        if normalise_email(email) != self.email or self.is_guest:  # a guest's account is claimed, not confirmed
            raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "link for another address")
        if not self.email_confirmed:
            self.trigger_event(EmailConfirmed, timestamp=at, email=self.email)

    def log_in(self, at: datetime) -> None:
        """Record a successful login."""
        self.ensure_active()
        self.trigger_event(LoggedIn, timestamp=at)

    def change_password(self, password_hash: str, at: datetime) -> None:
        """Replace the password hash."""
        self.ensure_active()
        self.trigger_event(PasswordChanged, timestamp=at, password_hash=password_hash)

    def request_confirmation_mail(self, at: datetime) -> bool:
        """Ask for the confirmation mail again (a guest's account: the latest claim's link); False, nothing recorded,
        when there is nothing to confirm."""
        self.ensure_active()
        if self.email_confirmed or (self.is_guest and not self.pending_claims):
            return False  # confirmed, or a guest's account nobody has claimed: no link to send
        self.trigger_event(ConfirmationMailRequested, timestamp=at)
        return True

    def request_password_reset(self, reset_id: str, language: Language, at: datetime) -> None:
        """Remember which reset link is the valid one (a new request replaces the old)."""
        self.ensure_active()
        self.trigger_event(PasswordResetRequested, timestamp=at, reset_id=reset_id, language=language)

    def request_email_change(self, email: str, change_id: str, at: datetime) -> None:
        """Remember the address to move to and the link that may complete the move."""
        self.ensure_active()
        email = normalise_email(email)
        if email == self.email:
            raise DomainError(ErrorCode.EMAIL_UNUSABLE, "same address")
        self.trigger_event(EmailChangeRequested, timestamp=at, email=email, change_id=change_id)

    def change_email(self, email: str, change_id: str, at: datetime) -> None:
        """Move to the requested address through its link, once (-405 otherwise)."""
        self.ensure_active()
        if not self.pending_change_id or (self.pending_email, self.pending_change_id) != (
            normalise_email(email),
            change_id,
        ):
            raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "email change link used or replaced")
        self.trigger_event(EmailChanged, timestamp=at, email=self.pending_email, change_id=change_id)

    def complete_password_reset(self, reset_id: str, password_hash: str, at: datetime) -> None:
        """Set the new password through the current reset link, once (-405 otherwise)."""
        self.ensure_active()
        if not self.pending_reset_id or reset_id != self.pending_reset_id:
            raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "reset link used or replaced")
        self.trigger_event(PasswordResetCompleted, timestamp=at, reset_id=reset_id, password_hash=password_hash)
        if not self.email_confirmed:  # the link came through the mailbox: that proves the address too
            self.trigger_event(EmailConfirmed, timestamp=at, email=self.email)

    def change_profile(
        self, *, name: str | None, language: Language, marketing_push_enabled: bool, at: datetime
    ) -> None:
        """Record the profile as it is now (nothing when unchanged)."""
        self.ensure_active()
        if (name, language, marketing_push_enabled) == (
            self.name,
            self.language,
            self.marketing_push_enabled,
        ):
            return
        self.trigger_event(
            ProfileChanged,
            timestamp=at,
            name=name,
            language=language,
            marketing_push_enabled=marketing_push_enabled,
        )

    def request_claim(
        self, claim_id: str, *, password_hash: str, language: Language, marketing_push_enabled: bool, at: datetime
    ) -> None:
        """Someone registers with a guest's address: keep their password for when the mailbox proves it is theirs
        (-402 for an account that is not a guest's)."""
        self.ensure_active()
        if not self.is_guest:
            raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED)
        self.trigger_event(
            AccountClaimRequested,
            timestamp=at,
            claim_id=claim_id,
            password_hash=password_hash,
            language=language,
            marketing_push_enabled=marketing_push_enabled,
        )

    def complete_claim(self, claim_id: str, at: datetime) -> None:
        """The pending claim's link was opened with its password: the account is the claimant's (-405 when the
        claim is no longer pending: completed, replaced by newer ones, or the account was claimed otherwise)."""
        self.ensure_active()
        claim = self.pending_claims.get(claim_id)
        if claim is None or not self.is_guest:
            raise DomainError(ErrorCode.PASSWORD_TOKEN_EXPIRED, "claim no longer pending")
        self._claimed(claim_id, claim, at)

    def claim_by_mailbox(
        self, *, password_hash: str, language: Language, marketing_push_enabled: bool, at: datetime
    ) -> None:
        """Registration from a link mailed to the address (the receipt's): the mailbox is proven in the same act,
        so the registrant takes an account nobody has proven yet (-402 otherwise)."""
        self.ensure_active()
        if not self.may_be_claimed_by_mailbox:
            raise DomainError(ErrorCode.EMAIL_ALREADY_REGISTERED)
        self._claimed("", PendingClaim(password_hash, language, marketing_push_enabled), at)

    def _claimed(self, claim_id: str, claim: PendingClaim, at: datetime) -> None:
        self.trigger_event(
            AccountClaimed,
            timestamp=at,
            claim_id=claim_id,
            email=self.email,
            password_hash=claim.password_hash,
            language=claim.language,
            marketing_push_enabled=claim.marketing_push_enabled,
        )

    def delete(self, reason: str, at: datetime) -> None:
        """Delete the account (its indexes must be released in the same save)."""
        self.ensure_active()
        self.trigger_event(AccountDeleted, timestamp=at, reason=reason)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _registered(self, event: AccountRegistered) -> None:
        self.email = event.email
        self.password_hash = event.password_hash
        self.language = event.language
        self.marketing_push_enabled = event.marketing_push_enabled
        self.email_confirmed = False
        self.name: str | None = None
        self.last_logged_in_at: datetime | None = None
        self.credentials_changed_at = event.timestamp
        self.pending_reset_id: str | None = None
        self.pending_email: str | None = None
        self.pending_change_id: str | None = None
        self.deleted = False
        self.deleted_reason = ""

    @when.register
    def _email_confirmed(self, event: EmailConfirmed) -> None:
        self.email_confirmed = True

    @when.register
    def _logged_in(self, event: LoggedIn) -> None:
        self.last_logged_in_at = event.timestamp

    @when.register
    def _password_changed(self, event: PasswordChanged) -> None:
        self.password_hash = event.password_hash
        self.credentials_changed_at = event.timestamp
        self.pending_reset_id = None

    @when.register
    def _confirmation_requested(self, event: ConfirmationMailRequested) -> None:
        pass

    @when.register
    def _reset_requested(self, event: PasswordResetRequested) -> None:
        self.pending_reset_id = event.reset_id

    @when.register
    def _email_change_requested(self, event: EmailChangeRequested) -> None:
        self.pending_email = event.email
        self.pending_change_id = event.change_id

    @when.register
    def _email_changed(self, event: EmailChanged) -> None:
        self.email = event.email
        self.email_confirmed = True
        self.pending_email = None
        self.pending_change_id = None

    @when.register
    def _reset_completed(self, event: PasswordResetCompleted) -> None:
        self.password_hash = event.password_hash
        self.credentials_changed_at = event.timestamp
        self.pending_reset_id = None
        self.claims_pending: dict[str, dict[str, Any]] = {}

    @when.register
    def _profile_changed(self, event: ProfileChanged) -> None:
        self.name = event.name
        self.language = event.language
        self.marketing_push_enabled = event.marketing_push_enabled

    @when.register
    def _claim_requested(self, event: AccountClaimRequested) -> None:
        claims = dict(self.__dict__.get("claims_pending", {}))
        claims[event.claim_id] = {
            "password_hash": event.password_hash,
            "language": event.language,
            "marketing_push_enabled": event.marketing_push_enabled,
        }
        self.claims_pending = dict(list(claims.items())[-MAX_PENDING_CLAIMS:])

    @when.register
    def _account_claimed(self, event: AccountClaimed) -> None:
        self.password_hash = event.password_hash
        self.language = event.language
        self.marketing_push_enabled = event.marketing_push_enabled
        self.email_confirmed = True
        self.credentials_changed_at = event.timestamp
        self.claims_pending = {}
        self.pending_reset_id = None

    @when.register
    def _deleted(self, event: AccountDeleted) -> None:
        self.deleted = True
        self.deleted_reason = event.reason
        self.credentials_changed_at = event.timestamp


class ClaimedValue(Aggregate):
    """A value (an address, a nickname) held by at most one account at a time.

    The aggregate id is uuid5 of the normalised value, so two racing claims conflict
    on save. Releasing frees the value; re-claiming takes the same aggregate again,
    so optimistic concurrency still lets only one win.
    """

    namespace: ClassVar[str]
    field: ClassVar[str]
    claimed: ClassVar[type[StoredCreation]]
    released: ClassVar[type[StoredEvent]]
    reclaimed: ClassVar[type[StoredEvent]]
    taken: ClassVar[ErrorCode]

    @staticmethod
    def normalise(value: str) -> str:
        """The form of the value used for uniqueness."""
        raise NotImplementedError

    @classmethod
    def id_for(cls, value: str) -> UUID:
        """The index aggregate id of a value."""
        return uuid5(NAMESPACE_URL, f"/{cls.namespace}/{cls.normalise(value)}")

    @classmethod
    def _claim(cls, value: str, account_id: UUID, at: datetime) -> Self:
        return cls._create(
            cls.claimed, id=cls.id_for(value), timestamp=at, account_id=account_id, **{cls.field: cls.normalise(value)}
        )

    @property
    def is_taken(self) -> bool:
        """True while an account holds the value."""
        return self.account_id is not None

    def release(self, account_id: UUID, at: datetime) -> None:
        """Free the value held by ``account_id``."""
        if self.account_id != account_id:
            raise DomainError(ErrorCode.FORBIDDEN, f"{self.field} held by another account")
        self.trigger_event(self.released, timestamp=at, account_id=account_id)

    def reclaim(self, account_id: UUID, at: datetime) -> None:
        """Take a released value again (the subclass's error while it is held)."""
        if self.is_taken:
            raise DomainError(self.taken)
        self.trigger_event(self.reclaimed, timestamp=at, account_id=account_id)

    def when(self, event: Any) -> None:
        if isinstance(event, self.claimed):
            setattr(self, self.field, getattr(event, self.field))
            self.account_id: UUID | None = event.account_id  # type: ignore[attr-defined]
        elif isinstance(event, self.released):
            self.account_id = None
        elif isinstance(event, self.reclaimed):
            self.account_id = event.account_id  # type: ignore[attr-defined]
        else:
            raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")


class EmailIndex(ClaimedValue):
    """Claims one normalised email address for one account."""

    namespace = "emails"
    field = "email"
    claimed = EmailClaimed
    released = EmailReleased
    reclaimed = EmailReclaimed
    taken = ErrorCode.EMAIL_ALREADY_REGISTERED

    @staticmethod
    def normalise(value: str) -> str:
        return normalise_email(value)

    @classmethod
    def claim(cls, *, email: str, account_id: UUID, at: datetime) -> EmailIndex:
        """Take the address; saving it fails with IntegrityError if already taken."""
        return cls._claim(email, account_id, at)


class NicknameIndex(ClaimedValue):
    """Claims one normalised nickname for one account."""

    namespace = "nicknames"
    field = "nickname"
    claimed = NicknameClaimed
    released = NicknameReleased
    reclaimed = NicknameReclaimed
    taken = ErrorCode.NICKNAME_IN_USE

    @staticmethod
    def normalise(value: str) -> str:
        return normalise_nickname(value)

    @classmethod
    def claim(cls, *, nickname: str, account_id: UUID, at: datetime) -> NicknameIndex:
        """Take the nickname; saving it fails with IntegrityError if already taken."""
        return cls._claim(nickname, account_id, at)

"""Events of the account aggregate and of the email and nickname uniqueness indexes."""

from __future__ import annotations

from uuid import UUID

from events.contract import StoredCreation, StoredEvent
from events.values import Language


class AccountRegistered(StoredCreation):
    """A customer registered with an email address (not yet confirmed)."""

    TOPIC = "account.Registered"
    email: str
    password_hash: str
    language: Language
    marketing_push_enabled: bool

    @property
    def opens_guest_account(self) -> bool:
        """A guest's purchase opened this account without a password (the receipt invites them to register)."""
        return not self.password_hash


class EmailClaimed(StoredCreation):
    """An email address was taken by an account (uniqueness index)."""

    TOPIC = "account.EmailClaimed"
    email: str
    account_id: UUID


class EmailConfirmed(StoredEvent):
    """The owner proved the address is theirs (the confirmation link was opened)."""

    TOPIC = "account.EmailConfirmed"
    email: str


class LoggedIn(StoredEvent):
    """The owner logged in with email and password (the event time is the last login time)."""

    TOPIC = "account.LoggedIn"


class PasswordChanged(StoredEvent):
    """The owner set a new password (hash only)."""

    TOPIC = "account.PasswordChanged"
    password_hash: str


class PasswordResetRequested(StoredEvent):
    """A reset link was asked for; only the link carrying ``reset_id`` may complete it."""

    TOPIC = "account.PasswordResetRequested"
    reset_id: str
    language: Language


class PasswordResetCompleted(StoredEvent):
    """A new password was set through the reset link ``reset_id``."""

    TOPIC = "account.PasswordResetCompleted"
    reset_id: str
    password_hash: str


class ProfileChanged(StoredEvent):
    """Name (nickname), preferred language and marketing consent, as they are now."""

    TOPIC = "account.ProfileChanged"
    name: str | None
    language: Language
    marketing_push_enabled: bool


class AccountDeleted(StoredEvent):
    """The owner deleted the account; its email (and nickname) became free again."""

    TOPIC = "account.Deleted"
    reason: str


class EmailReleased(StoredEvent):
    """The address is free again (its account was deleted or moved to another address)."""

    TOPIC = "account.EmailReleased"
    account_id: UUID


class EmailReclaimed(StoredEvent):
    """A released address was taken again by an account."""

    TOPIC = "account.EmailReclaimed"
    account_id: UUID


class NicknameClaimed(StoredCreation):
    """A nickname was taken by an account (uniqueness index)."""

    TOPIC = "account.NicknameClaimed"
    nickname: str
    account_id: UUID


class NicknameReleased(StoredEvent):
    """The nickname is free again."""

    TOPIC = "account.NicknameReleased"
    account_id: UUID


class NicknameReclaimed(StoredEvent):
    """A released nickname was taken again by an account."""

    TOPIC = "account.NicknameReclaimed"
    account_id: UUID


class ConfirmationMailRequested(StoredEvent):
    """The owner asked for the confirmation mail again."""

    TOPIC = "account.ConfirmationMailRequested"


class EmailChangeRequested(StoredEvent):
    """The owner asked to move to ``email``; only the link carrying ``change_id`` may complete it."""

    TOPIC = "account.EmailChangeRequested"
    email: str
    change_id: str


class EmailChanged(StoredEvent):
    """The account moved to a new, proven address (the old one was released)."""

    TOPIC = "account.EmailChanged"
    email: str
    change_id: str


class AccountClaimRequested(StoredEvent):
    """Someone registered with the address of a guest's account (a purchase opened it without a password). Nothing
    of the account is theirs until the mailbox proves it: the claim's link, opened with this password."""

    TOPIC = "account.ClaimRequested"
    claim_id: str
    password_hash: str
    language: Language
    marketing_push_enabled: bool


class AccountClaimed(StoredEvent):
    """The owner of the mailbox took the account: a claim's link opened with its password, or a registration from
    the receipt's signed link. The password, language and consent are theirs; the address is confirmed."""

    TOPIC = "account.Claimed"
    claim_id: str
    email: str
    password_hash: str
    language: Language
    marketing_push_enabled: bool

"""Events of the back office's people: staff members, the directory that keeps their addresses unique, and what
they did.

Every event a staff member causes names them (``actor_id``; None only for the first owner, whom an operator
created from the command line) and says why (``reason``); its ``timestamp`` is when. A staff action on a
customer's things (a refund, a goodwill extension, a freed device) is recorded as ``StaffActed`` on the acting
member, saved in the same transaction as the change it explains, so the Merkle log proves who did it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class StaffMemberCreated(StoredCreation):
    """A staff member was added with their roles (``support``, ``marketing``, ``finance``, ``owner``)."""

    TOPIC = "staff.MemberCreated"
    email: str
    name: str
    roles: list[str]
    actor_id: UUID | None
    reason: str


class StaffRolesChanged(StoredEvent):
    """An owner gave the member a new set of roles."""

    TOPIC = "staff.RolesChanged"
    roles: list[str]
    actor_id: UUID
    reason: str


class StaffSuspended(StoredEvent):
    """The member may no longer sign in; every session of theirs ends now."""

    TOPIC = "staff.Suspended"
    actor_id: UUID
    reason: str


class StaffReinstated(StoredEvent):
    """A suspended member may sign in again."""

    TOPIC = "staff.Reinstated"
    actor_id: UUID
    reason: str


class StaffPasskeyRegistered(StoredEvent):
    """The member registered a passkey: its credential id and COSE public key (base64url) and signature count."""

    TOPIC = "staff.PasskeyRegistered"
    credential_id: str
    public_key: str
    sign_count: int
    label: str


class StaffTotpEnrolled(StoredEvent):
    """The member set up a one-time-code app (the fallback); ``sealed_secret`` is the secret encrypted with the
    server's key (AES-GCM, base64url), never the secret itself."""

    TOPIC = "staff.TotpEnrolled"
    sealed_secret: str


class StaffSignedIn(StoredEvent):
    """A session started (``method`` passkey or totp), or an open one was stepped up (``step_up``)."""

    TOPIC = "staff.SignedIn"
    session_id: str
    method: str
    credential_id: str | None
    sign_count: int | None
    step_up: bool


class StaffSignedOut(StoredEvent):
    """The member ended a session."""

    TOPIC = "staff.SignedOut"
    session_id: str


class StaffActed(StoredEvent):
    """The member did something to a customer's things: ``action`` (refund, extend-licence, free-device, ...),
    ``subject`` (the merchantUid, licence id, report id, ... it was done to), ``reason`` and ``details`` (amounts in
    minor units with their currency, the device, the days given)."""

    TOPIC = "staff.Acted"
    action: str
    subject: str
    reason: str
    details: dict[str, str | int | None]


class StaffDirectoryOpened(StoredCreation):
    """The directory of staff addresses was opened (once, with the first member)."""

    TOPIC = "staff.DirectoryOpened"


class StaffDirectoryListed(StoredEvent):
    """An address now names a staff member (addresses are unique among staff)."""

    TOPIC = "staff.DirectoryListed"
    email: str
    member_id: UUID


class RefundRequested(StoredCreation):
    """A refund waits for a decision: a staff member's above the approval limit (``source`` ``staff``,
    ``requested_by`` the member), or a customer's money-back request (``source`` ``money-back``, ``requested_by``
    None). ``amount`` is in minor units of ``currency``; ``licence_effect`` what the maker chose the refund does to
    the licence (``keep`` or ``shorten``; None: decided when it is made)."""

    TOPIC = "refund.Requested"
    class_version = 2
    merchant_uid: str
    account_id: UUID | None
    amount: int
    currency: str
    reason: str
    requested_by: UUID | None
    source: str
    licence_effect: str | None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 left the refund's effect on the licence to the refund itself (shortened in proportion)."""
        state["licence_effect"] = None


class RefundApproved(StoredEvent):
    """The refund was made: ``actor_id`` approved it (None: the money-back policy refunded it at once)."""

    TOPIC = "refund.Approved"
    actor_id: UUID | None
    reason: str
    refunded: int


class RefundAccepted(StoredEvent):
    """The refund was decided and reserved on its payment (``actor_id`` approved it; None: the money-back policy
    did); ``refund.Approved`` follows once the gateway has made it, ``refund.Reopened`` if it refused."""

    TOPIC = "refund.Accepted"
    actor_id: UUID | None
    reason: str
    amount: int


class RefundReopened(StoredEvent):
    """The gateway refused an accepted refund: the request waits for a decision again."""

    TOPIC = "refund.Reopened"
    reason: str


class RefundRefused(StoredEvent):
    """The refund will not be made: ``actor_id`` declined it, or (None) the money-back policy does not cover it
    (``reason`` the policy's code: too-late, not-a-first-purchase, ...)."""

    TOPIC = "refund.Refused"
    actor_id: UUID | None
    reason: str


class StaffTotpCodeUsed(StoredEvent):
    """A one-time code of the member's app was accepted: ``step`` is its time step (Unix time // 30). A code of that
    step or an earlier one is never accepted again, so a code seen over a shoulder cannot be replayed in its window."""

    TOPIC = "staff.TotpCodeUsed"
    step: int


class StaffCodeRefused(StoredEvent):
    """A wrong (or spent) one-time code was typed to step up the open session ``session_id``: a few of these end it."""

    TOPIC = "staff.CodeRefused"
    session_id: str


class StaffChallengeSpent(StoredEvent):
    """A passkey answer signed this ceremony's challenge (``challenge_hash``, SHA-256 hex) and was accepted: the same
    answer is never accepted again, whatever its signature counter says."""

    TOPIC = "staff.ChallengeSpent"
    challenge_hash: str


class GrantRequested(StoredCreation):
    """A member asked to grant a paid licence beyond what one member may grant alone, for a second member to decide:
    ``kind`` ``app-store-purchase`` (an unverified App Store transaction: ``details`` holds the catalogue licence,
    the transaction id, the country and the language) or ``goodwill`` (``details`` holds the days), for the customer
    ``account_id``, about ``subject`` (the transaction id, or the licence id)."""

    TOPIC = "grant.Requested"
    kind: str
    account_id: UUID
    subject: str
    details: dict[str, str | int | None]
    reason: str
    requested_by: UUID


class GrantApproved(StoredEvent):
    """A second member (``actor_id``, never the one who asked) verified the request and the licence was granted."""

    TOPIC = "grant.Approved"
    actor_id: UUID
    reason: str


class GrantDeclined(StoredEvent):
    """A second member declined the request: nothing was granted."""

    TOPIC = "grant.Declined"
    actor_id: UUID
    reason: str

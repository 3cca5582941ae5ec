"""Notices to an account's owner after a change to how they sign in: the address moved (told to the old address,
which the owner still reads if someone else moved it), the password was changed or reset (told to the account's
address). Each says what happened and when, and what to do if it was not them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.store import Storefront
from events.accounts import EmailChanged, PasswordChanged, PasswordResetCompleted
from events.values import Language


class NoticeKind(Enum):
    """Which change a notice tells of."""

    EMAIL_CHANGED = "email-changed"
    PASSWORD_CHANGED = "password-changed"  # noqa: S105 (a kind of notice, not a password)
    PASSWORD_RESET = "password-reset"  # noqa: S105


# The events that call for a notice.
NOTICE_OF: dict[type[Any], NoticeKind] = {
    EmailChanged: NoticeKind.EMAIL_CHANGED,
    PasswordChanged: NoticeKind.PASSWORD_CHANGED,
    PasswordResetCompleted: NoticeKind.PASSWORD_RESET,
}


@dataclass(frozen=True)
class AccountNotice:
    """A notice as it is to be mailed: to whom, in which language, what happened and when (and, for a move, the
    new address)."""

    kind: NoticeKind
    to: str
    language: Language
    at: datetime
    new_email: str | None = None


def account_notice(store: Storefront, account_id: UUID, kind: NoticeKind, version: int) -> AccountNotice | None:
    """The notice for the account's change recorded at ``version``: the account as that event left it says the
    language, the time and the new address; as it was just before, the address a move left. None when the account
    (or that version of it) is not there."""
    try:
        after: Account = store.repository.get(account_id, version=version)
        before: Account | None = store.repository.get(account_id, version=version - 1) if version > 1 else None
    except AggregateNotFoundError:
        return None
    if kind is NoticeKind.EMAIL_CHANGED:
        if before is None or before.email == after.email:
            return None
        return AccountNotice(kind, before.email, after.language, after.modified_on, new_email=after.email)
    return AccountNotice(kind, after.email, after.language, after.modified_on)

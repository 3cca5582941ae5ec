"""Signing on to the support desk (spec: single sign-on): who may, and as whom."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from domain.accounts.auth import load_account
from domain.errors import DomainError, ErrorCode
from domain.store import Storefront


@dataclass(frozen=True)
class DeskIdentity:
    """Who the support desk sees signing on."""

    account_id: UUID
    name: str
    email: str


def support_desk_identity(store: Storefront, account_id: UUID) -> DeskIdentity:
    """The caller as the desk should know them: a confirmed address (-401 until then) and a name
    (-2101 until one is set, which sends the web app to the name page first)."""
    account = load_account(store, account_id)
    if not account.email_confirmed:
        raise DomainError(ErrorCode.ACCOUNT_NOT_APPROVED)
    if not account.name:
        raise DomainError(ErrorCode.NAME_REQUIRED_FOR_SSO)
    return DeskIdentity(account.id, account.name, account.email)

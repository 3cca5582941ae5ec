"""Roles and what each may do: the one table the back office's routes and use cases consult.

A route declares the permission it needs (api/access.py); a use case that moves money or changes a licence asks
for it again and for a reason. Owners may do everything; nobody else manages staff.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from domain.errors import DomainError, ErrorCode


class Role(Enum):
    """A staff member's job."""

    SUPPORT = "support"  # helps customers: finds them, reads their timeline, fixes devices, resends mail, refunds
    MARKETING = "marketing"  # coupons and banners; reads customers but changes nothing of theirs
    FINANCE = "finance"  # money: refunds, approves refunds above the limit, reads the ledger
    OWNER = "owner"  # everything, and the staff itself


class Permission(Enum):
    """One thing a staff member may do."""

    READ_CUSTOMERS = "read-customers"  # find a customer, read their timeline and reports
    HELP_CUSTOMERS = "help-customers"  # free a device, resend mail, close a report
    CHANGE_LICENCES = "change-licences"  # cancel or resume a subscription
    GRANT_LICENCES = "grant-licences"  # grant paid time: record an App Store purchase, extend a licence as goodwill
    APPROVE_GRANTS = "approve-grants"  # approve another member's grant beyond what one member grants alone
    REFUND = "refund"  # give money back (up to the approval limit alone; above it, a second member approves)
    APPROVE_REFUNDS = "approve-refunds"  # approve another member's refund above the limit
    MARKETING = "marketing"  # coupons and banners
    CHANGE_PRICES = "change-prices"  # the catalogue: products, prices per country, localizations, base discounts
    READ_LEDGER = "read-ledger"  # the ledger, reconciliation, the log's integrity, exports, tax-invoice requests
    MANAGE_STAFF = "manage-staff"  # invite, change roles, suspend, reinstate


ROLE_PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.SUPPORT: frozenset(
        {
            Permission.READ_CUSTOMERS,
            Permission.HELP_CUSTOMERS,
            Permission.CHANGE_LICENCES,
            Permission.GRANT_LICENCES,
            Permission.REFUND,
        }
    ),
    Role.MARKETING: frozenset({Permission.READ_CUSTOMERS, Permission.MARKETING, Permission.CHANGE_PRICES}),
    Role.FINANCE: frozenset(
        {
            Permission.READ_CUSTOMERS,
            Permission.REFUND,
            Permission.APPROVE_REFUNDS,
            Permission.APPROVE_GRANTS,
            Permission.READ_LEDGER,
        }
    ),
    Role.OWNER: frozenset(Permission),
}

# Permissions whose actions move money or change a licence: each needs a written reason.
NEEDS_A_REASON = frozenset(
    {
        Permission.REFUND,
        Permission.APPROVE_REFUNDS,
        Permission.CHANGE_LICENCES,
        Permission.GRANT_LICENCES,
        Permission.APPROVE_GRANTS,
        Permission.CHANGE_PRICES,
    }
)
# Permissions whose actions move money or grant paid time: each needs a fresh passkey touch or one-time code.
NEEDS_STEP_UP = frozenset(
    {Permission.REFUND, Permission.APPROVE_REFUNDS, Permission.GRANT_LICENCES, Permission.APPROVE_GRANTS}
)


def parse_roles(names: Iterable[str]) -> frozenset[Role]:
    """Roles by name (-2 for an unknown one, -1 for none)."""
    try:
        roles = frozenset(Role(name) for name in names)
    except ValueError as unknown:
        raise DomainError(ErrorCode.INVALID_VALUE, str(unknown)) from None
    if not roles:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a staff member has at least one role")
    return roles


def permissions_of(roles: Iterable[Role]) -> frozenset[Permission]:
    """Everything the roles together allow."""
    allowed: set[Permission] = set()
    for role in roles:
        allowed |= ROLE_PERMISSIONS[role]
    return frozenset(allowed)


def check_reason(permission: Permission, reason: str | None) -> str:
    """The reason, trimmed; -1 when an action of this permission comes without one."""
    text = (reason or "").strip()
    if permission in NEEDS_A_REASON and not text:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a reason is required for money and licence changes")
    return text

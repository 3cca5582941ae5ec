"""Which mailbox an address delivers to: the identity a once-per-customer rule counts.

Addresses that differ only in case, in a ``+tag`` after the local part, or (at Gmail) in dots deliver to one
mailbox, so they are one customer for such a rule. Accounts keep the address as typed (lower-cased); only the
rules that count customers use this.
"""

from __future__ import annotations

from domain.accounts.account import normalise_email

# Providers that ignore dots in the local part and deliver their alias domain to the same mailbox.
_DOTLESS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def mailbox_of(email: str) -> str:
    """The mailbox an address delivers to: ``Ada.L+promo@GoogleMail.com`` -> ``adal@gmail.com``."""
    address = normalise_email(email)
    local, at, domain = address.rpartition("@")
    if not at or not local:
        return address
    local = local.split("+", 1)[0] or local
    if domain in _DOTLESS:
        domain = _DOTLESS[domain]
        local = local.replace(".", "") or local
    return f"{local}@{domain}"

"""Card details as typed into the billing-key form: validated (spec section 5), never stored or shown."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from domain.errors import DomainError, ErrorCode

CARD_YEARS = 20  # the current year and the next 19


@dataclass(frozen=True)
class Card:
    """What the gateway needs to issue a billing key. Its repr shows the last four digits only."""

    number: str = field(repr=False)
    expiry_year: int = field(repr=False)
    expiry_month: int = field(repr=False)
    password_2digit: str = field(repr=False)
    birth: str = field(repr=False)

    def __repr__(self) -> str:
        return f"Card(number='****{self.number[-4:]}')"

    __str__ = __repr__

    @property
    def expiry(self) -> str:
        """``YYYY-MM`` as the gateway wants it."""
        return f"{self.expiry_year:04d}-{self.expiry_month:02d}"

    @property
    def dashed_number(self) -> str:
        """``dddd-dddd-dddd-dddd``."""
        return "-".join(self.number[i : i + 4] for i in range(0, len(self.number), 4))


def card_from_form(*, number: str, year: int, month: int, password: str, birth: str, today: date) -> Card:
    """Check the form's card fields (-305 when any is wrong) and return the card."""
    if not re.fullmatch(r"\d{15,16}", number):
        raise DomainError(ErrorCode.CHECK_CARD_INFO, "card number: 15 or 16 digits, no dashes")
    if not today.year <= year < today.year + CARD_YEARS or not 1 <= month <= 12:
        raise DomainError(ErrorCode.CHECK_CARD_INFO, "expiry")
    if (year, month) < (today.year, today.month):
        raise DomainError(ErrorCode.CHECK_CARD_INFO, "the card has expired")
    if not re.fullmatch(r"\d{2}", password):
        raise DomainError(ErrorCode.CHECK_CARD_INFO, "the first two digits of the card password")
    if not re.fullmatch(r"\d{6}|\d{10}", birth):
        raise DomainError(ErrorCode.CHECK_CARD_INFO, "birth date (6 digits) or business number (10 digits)")
    return Card(number, year, month, password, birth)

"""Test cards of the sandbox: validation, masking and what each card number does.

- a number ending in 0002 is declined ("card declined");
- a number ending in 0003 is accepted, but recurring charges on it fail with
  insufficient funds;
- any other 16-digit number is approved.

Only the masked number ever leaves this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from integrations.portone.sandbox.errors import CardRejectedError

DECLINED_SUFFIX = "0002"
INSUFFICIENT_FUNDS_SUFFIX = "0003"
DEFAULT_TEST_CARD = "4242-4242-4242-4242"

CARD_DECLINED = "card declined"
INSUFFICIENT_FUNDS = "insufficient funds"

_SEPARATORS = re.compile(r"[\s-]")
_EXPIRY = re.compile(r"^(\d{4})-?(\d{2})$")

# Issuer names by leading digit: enough for receipts and the UI to show something.
_ISSUERS = {
    "3": ("AMEX", "AMEX"),
    "4": ("VISA", "VISA"),
    "5": ("MASTER", "MASTER"),
    "9": ("BC", "BC카드"),
}


@dataclass(frozen=True, slots=True)
class MaskedCard:
    """What the sandbox keeps of a card: issuer and a masked number."""

    card_code: str
    card_name: str
    card_number: str

    @property
    def last4(self) -> str:
        """The last four digits, which decide the card's behaviour."""
        return self.card_number[-4:]


def card_digits(number: str) -> str:
    """Strip dashes and spaces; refuse anything that is not 16 digits."""
    digits = _SEPARATORS.sub("", number or "")
    if len(digits) != 16 or not digits.isdigit():
        raise CardRejectedError("invalid card number: 16 digits expected")
    return digits


def mask_card_number(digits: str) -> str:
    """Keep the first 6 and last 4 digits: ``411111******1111``."""
    if len(digits) < 10:
        return "*" * len(digits)
    return digits[:6] + "*" * (len(digits) - 10) + digits[-4:]


def mask(number: str) -> MaskedCard:
    """Validate a card number and reduce it to what may be stored."""
    digits = card_digits(number)
    code, name = _ISSUERS.get(digits[0], ("SANDBOX", "SANDBOX CARD"))
    return MaskedCard(card_code=code, card_name=name, card_number=mask_card_number(digits))


def approval_failure(card: MaskedCard) -> str | None:
    """Why an interactive payment (or billing key issue) with this card fails, if it does."""
    if card.last4 == DECLINED_SUFFIX:
        return CARD_DECLINED
    return None


def recurring_failure(card_number: str | None) -> str | None:
    """Why a recurring charge on this (masked) card fails, if it does."""
    last4 = (card_number or "")[-4:]
    if last4 == DECLINED_SUFFIX:
        return CARD_DECLINED
    if last4 == INSUFFICIENT_FUNDS_SUFFIX:
        return INSUFFICIENT_FUNDS
    return None


def check_expiry(expiry: str, now: datetime) -> None:
    """``YYYY-MM`` (or ``YYYYMM``), a real month, not before the current month."""
    match = _EXPIRY.match((expiry or "").strip())
    if match is None:
        raise CardRejectedError("invalid expiry: YYYY-MM expected")
    year, month = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12:
        raise CardRejectedError("invalid expiry: no such month")
    if (year, month) < (now.year, now.month):
        raise CardRejectedError("card expired")


def check_birth(birth: str) -> None:
    """6 digits (date of birth) or 10 digits (business registration number)."""
    value = (birth or "").strip()
    if not value.isdigit() or len(value) not in (6, 10):
        raise CardRejectedError("invalid birth: 6 or 10 digits expected")


def check_pwd_2digit(pwd_2digit: str | None) -> None:
    """Optional (corporate cards), but two digits when given."""
    if pwd_2digit is None or pwd_2digit == "":
        return
    if len(pwd_2digit) != 2 or not pwd_2digit.isdigit():
        raise CardRejectedError("invalid pwd_2digit: 2 digits expected")

"""The numbers a cash receipt or tax invoice is issued to: validated, kept as digits, and shown masked."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from domain.errors import DomainError, ErrorCode

# The weights of the Korean business registration number's check digit (사업자등록번호 검증).
_WEIGHTS = (1, 3, 7, 1, 3, 7, 1, 3, 5)
_MOBILE = re.compile(r"^01[016789]\d{7,8}$")


def digits_of(text: str) -> str:
    """The digits of a number as typed (dashes and spaces dropped); anything else is refused (-2)."""
    cleaned = re.sub(r"[\s-]", "", text or "")
    if not cleaned.isascii() or not cleaned.isdigit():
        raise DomainError(ErrorCode.INVALID_VALUE, "a number of digits and dashes only")
    return cleaned


def business_number_is_valid(number: str) -> bool:
    """Does a 10-digit business registration number carry the right check digit?

    The first nine digits are weighted 1,3,7,1,3,7,1,3,5; the ninth's product adds its tens too; the check digit is
    (10 - sum mod 10) mod 10."""
    if len(number) != 10 or not number.isascii() or not number.isdigit():
        return False
    values = [int(d) for d in number]
    total = sum(v * w for v, w in zip(values[:9], _WEIGHTS, strict=True))
    total += (values[8] * 5) // 10
    return (10 - total % 10) % 10 == values[9]


def business_number(text: str) -> str:
    """A business registration number as digits (-2 when it is not 10 digits with the right check digit)."""
    number = digits_of(text)
    if not business_number_is_valid(number):
        raise DomainError(ErrorCode.INVALID_VALUE, "not a valid business registration number")
    return number


def mobile_number(text: str) -> str:
    """A Korean mobile number as digits (-2 otherwise)."""
    number = digits_of(text)
    if not _MOBILE.match(number):
        raise DomainError(ErrorCode.INVALID_VALUE, "not a mobile phone number")
    return number


def mask_business_number(number: str) -> str:
    """``1234567891`` as ``123-45-*****``: enough to recognise, not to reuse."""
    return f"{number[:3]}-{number[3:5]}-*****"


def mask_phone(number: str) -> str:
    """``01012345678`` as ``010-****-5678``."""
    return f"{number[:3]}-****-{number[-4:]}"


class CashReceiptKind(Enum):
    """What a cash receipt is for: a person's income deduction (소득공제용) or a business's expense evidence
    (지출증빙용)."""

    PERSONAL = "personal"
    BUSINESS = "business"


@dataclass(frozen=True)
class CashReceiptChoice:
    """The buyer's choice at checkout: the kind and the number, validated."""

    kind: CashReceiptKind
    identifier: str

    @classmethod
    def of(cls, kind: str, number: str) -> CashReceiptChoice:
        """Validate a choice as the checkout sends it (-2 for an unknown kind or a bad number)."""
        try:
            chosen = CashReceiptKind(kind)
        except ValueError:
            raise DomainError(ErrorCode.INVALID_VALUE, "a cash receipt is personal or business") from None
        if chosen is CashReceiptKind.BUSINESS:
            return cls(chosen, business_number(number))
        return cls(chosen, mobile_number(number))

    @property
    def masked(self) -> str:
        """The number as every view and log shows it."""
        if self.kind is CashReceiptKind.BUSINESS:
            return mask_business_number(self.identifier)
        return mask_phone(self.identifier)

    def __repr__(self) -> str:
        return f"CashReceiptChoice({self.kind.value}, {self.masked})"

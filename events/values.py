"""Small value types that events carry (stored as plain strings)."""

from __future__ import annotations

from decimal import Decimal
from enum import Enum


class Language(Enum):
    """Languages the site speaks; Korean is the default."""

    KO = "ko"
    EN = "en"
    JA = "ja"


class Currency(Enum):
    """ISO currencies we sell in. KRW and JPY have no minor unit; USD has cents."""

    KRW = "KRW"
    USD = "USD"
    JPY = "JPY"

    @property
    def minor_unit_digits(self) -> int:
        """How many decimal digits the minor unit has (0 for KRW and JPY)."""
        return 2 if self is Currency.USD else 0


# One discount a charge was priced with, as events carry it: {"type": "base", "factor": Decimal("0.3")}.
DiscountRecord = dict[str, str | Decimal]

"""Virtual accounts: the deposit deadline and the account the sandbox issues."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

from integrations.portone.sandbox.errors import BadRequestError

KST = timezone(timedelta(hours=9), "KST")

VBANK_CODE = "004"
VBANK_NAME = "KB국민은행"


@dataclass(frozen=True, slots=True)
class VirtualAccount:
    """An issued account: where and until when the buyer can pay."""

    vbank_code: str
    vbank_name: str
    vbank_num: str
    vbank_holder: str
    vbank_date: int
    vbank_issued_at: int


def parse_vbank_due(value: str | None, *, now: datetime, default_days: int) -> int:
    """The deadline in unix seconds.

    ``request_pay``'s ``vbank_due`` is Korean time: ``YYYYMMDD`` (that day, 23:59:59),
    ``YYYYMMDDhhmm`` or ``YYYYMMDDhhmmss`` (separators allowed); a 10-digit number is
    taken as unix seconds. Absent: issue time plus ``default_days``.
    """
    if value is None or not value.strip():
        return int((now + timedelta(days=default_days)).timestamp())
    digits = re.sub(r"[\s\-:./T]", "", value.strip())
    if not digits.isdigit():
        raise BadRequestError("vbank_due: YYYYMMDD, YYYYMMDDhhmm or unix seconds expected")
    try:
        if len(digits) == 8:
            due = datetime.strptime(digits, "%Y%m%d").replace(hour=23, minute=59, second=59, tzinfo=KST)
        elif len(digits) == 12:
            due = datetime.strptime(digits, "%Y%m%d%H%M").replace(tzinfo=KST)
        elif len(digits) == 14:
            due = datetime.strptime(digits, "%Y%m%d%H%M%S").replace(tzinfo=KST)
        elif len(digits) == 10:
            due = datetime.fromtimestamp(int(digits), tz=UTC)
        else:
            raise ValueError(digits)
    except ValueError:
        raise BadRequestError("vbank_due: not a valid date") from None
    if due <= now:
        raise BadRequestError("vbank_due: the deadline must be in the future")
    return int(due.timestamp())


def issue_account(*, holder: str, due: int, now: datetime) -> VirtualAccount:
    """A fresh 14-digit account number at the sandbox bank."""
    number = "".join(secrets.choice("0123456789") for _ in range(14))
    return VirtualAccount(
        vbank_code=VBANK_CODE,
        vbank_name=VBANK_NAME,
        vbank_num=number,
        vbank_holder=holder,
        vbank_date=due,
        vbank_issued_at=int(now.timestamp()),
    )

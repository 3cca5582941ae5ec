"""The virtual-account deadline: request_pay's vbank_due is Korean time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from integrations.portone.sandbox.errors import BadRequestError
from integrations.portone.sandbox.vbank import issue_account, parse_vbank_due

NOW = datetime(2026, 11, 2, 3, 0, tzinfo=UTC)


def due(value: str | None) -> datetime:
    return datetime.fromtimestamp(parse_vbank_due(value, now=NOW, default_days=3), tz=UTC)


def test_without_a_due_date_the_account_is_valid_for_three_days() -> None:
    assert due(None) == datetime(2026, 11, 5, 3, 0, tzinfo=UTC)
    assert due("  ") == datetime(2026, 11, 5, 3, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("20261105", datetime(2026, 11, 5, 14, 59, 59, tzinfo=UTC)),
        ("202611051800", datetime(2026, 11, 5, 9, 0, tzinfo=UTC)),
        ("2026-11-05 18:00", datetime(2026, 11, 5, 9, 0, tzinfo=UTC)),
        ("20261105180030", datetime(2026, 11, 5, 9, 0, 30, tzinfo=UTC)),
        ("1794000000", datetime.fromtimestamp(1_794_000_000, tz=UTC)),
    ],
)
def test_a_given_due_date_is_read_as_korean_time(value: str, expected: datetime) -> None:
    assert due(value) == expected


@pytest.mark.parametrize("value", ["20261301", "tomorrow", "2026110", "20261101"])
def test_an_invalid_or_past_due_date_is_refused(value: str) -> None:
    with pytest.raises(BadRequestError):
        due(value)


def test_an_issued_account_records_when_and_until_when() -> None:
    account = issue_account(holder="UNICORNPRO", due=1_794_000_000, now=NOW)

    assert len(account.vbank_num) == 14 and account.vbank_num.isdigit()
    assert account.vbank_issued_at == int(NOW.timestamp())
    assert account.vbank_date == 1_794_000_000
    assert account.vbank_holder == "UNICORNPRO"

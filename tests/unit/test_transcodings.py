"""Values events carry come back from the store as the same types."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from uuid import uuid4

from eventsourcing.persistence import JSONTranscoder

from eventlog.application import EventLog
from events.values import Currency, Language


def test_dates_enums_decimals_uuids_and_datetimes_survive_a_round_trip() -> None:
    log = EventLog({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": ":memory:"})
    transcoder = log.mapper.transcoder
    assert isinstance(transcoder, JSONTranscoder)
    value = {
        "day": date(2026, 11, 22),
        "language": Language.JA,
        "currency": Currency.USD,
        "factor": Decimal("0.3"),
        "id": uuid4(),
        "at": datetime(2026, 11, 22, 9, 30, tzinfo=UTC),
        "amounts": [1000, 2500],
    }
    assert transcoder.decode(transcoder.encode(value)) == value
    assert b'"_type_":"enum_language"' in transcoder.encode(value)


def test_usd_has_cents_while_krw_and_jpy_have_no_minor_unit() -> None:
    assert [c.minor_unit_digits for c in (Currency.KRW, Currency.USD, Currency.JPY)] == [0, 2, 0]

"""Whatever plain values an event carries, the log gives them back unchanged."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import pytest
from eventsourcing.persistence import JSONTranscoder
from hypothesis import given, settings
from hypothesis import strategies as st

from eventlog.application import EventLog
from events.values import Currency, Language

pytestmark = pytest.mark.property

_log = EventLog({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": ":memory:"})
_transcoder = _log.mapper.transcoder
assert isinstance(_transcoder, JSONTranscoder)

plain_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**53), max_value=2**53),
        st.text(max_size=30),
        st.uuids(),
        st.dates(),
        st.datetimes(timezones=st.just(UTC)),
        st.decimals(allow_nan=False, allow_infinity=False, places=4),
        st.sampled_from(list(Language)),
        st.sampled_from(list(Currency)),
    ),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=plain_values)
def test_any_plain_value_survives_encoding_and_decoding(value: Any) -> None:
    assert _transcoder.decode(_transcoder.encode({"value": value})) == {"value": value}

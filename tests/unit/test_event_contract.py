"""Stored topics are a contract: the list is frozen, and events carry only plain values."""

from __future__ import annotations

import typing
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from uuid import UUID

import events  # noqa: F401  (registers every event)
from events.contract import registered_topics
from events.values import Currency, Language

FROZEN = Path(__file__).with_name("frozen_topics.txt")
PLAIN = {str, int, bool, Decimal, UUID, datetime, date, Language, Currency, type(None)}


def test_the_stored_topics_are_exactly_the_frozen_list() -> None:
    frozen = sorted(line for line in FROZEN.read_text().splitlines() if line.strip())
    assert sorted(registered_topics()) == frozen, (
        "A topic was added, renamed or removed. Adding: append it to frozen_topics.txt. "
        "Renaming or removing: never; keep the old topic readable (class_version + upcaster)."
    )


def _plain(annotation: object) -> bool:
    origin = typing.get_origin(annotation)
    if origin is None:
        return annotation in PLAIN
    return all(_plain(arg) for arg in typing.get_args(annotation))


def test_every_event_field_is_a_plain_value_an_auditor_can_read() -> None:
    for topic, cls in registered_topics().items():
        hints = typing.get_type_hints(cls)
        own = {name: hint for name, hint in hints.items() if name not in ("originator_id", "originator_version")}
        for name, hint in own.items():
            if name in ("TOPIC", "originator_topic", "timestamp"):
                continue
            assert _plain(hint), f"{topic}.{name} is {hint!r}"

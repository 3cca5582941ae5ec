"""JSON transcodings for the value types events carry beyond the library's defaults."""

from __future__ import annotations

from datetime import date
from enum import Enum
from typing import Any

from eventsourcing.persistence import Transcoding

from events.values import Currency, Language


class DateAsISO(Transcoding):
    """A calendar date as ``yyyy-mm-dd``."""

    type = date
    name = "date_iso"

    def encode(self, obj: date) -> str:
        return obj.isoformat()

    def decode(self, data: str) -> date:
        return date.fromisoformat(data)


class EnumAsValue(Transcoding):
    """An enum member as its value; one transcoding per enum class."""

    def __init__(self, enum_class: type[Enum]) -> None:
        self.type = enum_class
        self.name = f"enum_{enum_class.__name__.lower()}"

    def encode(self, obj: Enum) -> Any:
        return obj.value

    def decode(self, data: Any) -> Enum:
        member: Enum = self.type(data)
        return member


def storefront_transcodings() -> list[Transcoding]:
    """The transcodings registered on top of UUID, Decimal and datetime."""
    return [DateAsISO(), EnumAsValue(Language), EnumAsValue(Currency)]

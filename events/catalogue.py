"""Events of the catalogue: every version of what is on sale (licences, prices per country, localizations, base
discounts), each with the time it takes effect.

A version carries the whole catalogue as plain values, in the shape of ``domain/catalogue/licences.json`` (money in
minor units, base discounts as decimal strings), so that an auditor reads what was on sale when without our code.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from events.contract import StoredCreation, StoredEvent

# One licence of a version, as the shipped JSON spells it (prices and localizations are lists of such records).
LicenceRecord = dict[str, str | int | list[dict[str, str | int]]]


class CatalogueOpened(StoredCreation):
    """The catalogue's history was opened (once, on a fresh install, with the shipped JSON as its first version)."""

    TOPIC = "catalogue.Opened"


class CatalogueVersionScheduled(StoredEvent):
    """Version ``version`` of the catalogue is in force from ``effective_at`` (until a later one takes over).

    ``actor_id`` is the staff member who made it (None for the shipped first version) and ``reason`` why."""

    TOPIC = "catalogue.VersionScheduled"
    version: int
    effective_at: datetime
    licences: list[LicenceRecord]
    actor_id: UUID | None
    reason: str

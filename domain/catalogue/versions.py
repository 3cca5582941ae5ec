"""The catalogue as event-sourced data: every version of what is on sale, each in force from its effective time.

One aggregate at a fixed id holds the history. A fresh install's first version is the shipped
``licences.json`` (``seed_catalogue``, idempotent), in force since ``SHIPPED_SINCE``; staff with the
``change-prices`` permission schedule later ones (``schedule_version``), each with the staff action that names them
and their reason, in the same transaction. Whoever prices something reads the version in force at the clock's
time (``CatalogueVersions.in_force``); ``FollowedCatalogue`` keeps a process's copy following the log.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError
from pydantic import ValidationError

from domain.catalogue.licences import Catalogue, load_catalogue
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.staff.actions import StaffAction
from domain.staff.member import load_member
from domain.staff.permissions import Permission, check_reason
from domain.store import Storefront
from events.catalogue import CatalogueOpened, CatalogueVersionScheduled
from events.concurrency import retry_on_conflict
from events.values import Language

CATALOGUE_ID = uuid5(NAMESPACE_URL, "/catalogue")
# The shipped version is in force from before anything was ever sold.
SHIPPED_SINCE = datetime(2000, 1, 1, tzinfo=UTC)
SHIPPED_REASON = "the shipped catalogue (domain/catalogue/licences.json)"
# How long a process trusts its copy before asking the log for newer versions.
FOLLOW_SECONDS = 1.0


@dataclass(frozen=True)
class CatalogueVersion:
    """One version: its number, when it takes effect, what is on sale, and who made it and why."""

    version: int
    effective_at: datetime
    catalogue: Catalogue
    actor_id: UUID | None
    reason: str
    recorded_at: datetime


def _records(catalogue: Catalogue) -> list[dict[str, Any]]:
    """The plain form a version's event carries: the shipped JSON's licences."""
    dumped: list[dict[str, Any]] = catalogue.model_dump(mode="json", by_alias=True)["licences"]
    return dumped


def parse_licences(version: int, licences: Sequence[Mapping[str, Any]]) -> Catalogue:
    """A catalogue from licence records (the JSON shape); -2 when they are not a valid catalogue."""
    try:
        return Catalogue.model_validate({"version": version, "licences": list(licences)})
    except ValidationError as invalid:
        raise DomainError(ErrorCode.INVALID_VALUE, f"not a valid catalogue: {invalid.errors()[:3]}") from None


class CatalogueBook(Aggregate):
    """The catalogue's history: every version ever scheduled, in order."""

    @classmethod
    def open(cls, shipped: Catalogue, at: datetime) -> CatalogueBook:
        """The history of a fresh install, with the shipped catalogue as version 1."""
        book = cls._create(CatalogueOpened, id=CATALOGUE_ID, timestamp=at)
        book.trigger_event(
            CatalogueVersionScheduled,
            timestamp=at,
            version=1,
            effective_at=SHIPPED_SINCE,
            licences=_records(shipped),
            actor_id=None,
            reason=SHIPPED_REASON,
        )
        return book

    @property
    def latest(self) -> CatalogueVersion:
        """The version scheduled last."""
        return self.versions[-1]

    def schedule(
        self, licences: Sequence[Mapping[str, Any]], effective_at: datetime, actor_id: UUID, reason: str, at: datetime
    ) -> CatalogueVersion:
        """A new version, in force from ``effective_at`` (now or later: -2 for the past). A licence kept from the
        version scheduled last keeps its product, life and devices (what its holders bought): -2 otherwise."""
        if effective_at.tzinfo is None:
            raise DomainError(ErrorCode.INVALID_VALUE, "an effective time names its offset")
        if effective_at < at:
            raise DomainError(ErrorCode.INVALID_VALUE, "a version takes effect now or later, never in the past")
        number = self.latest.version + 1
        catalogue = parse_licences(number, licences)
        before = {licence.id: licence for licence in self.latest.catalogue.licences}
        for licence in catalogue.licences:
            kept = before.get(licence.id)
            if kept and (kept.product_code, kept.life, kept.max_devices_count) != (
                licence.product_code,
                licence.life,
                licence.max_devices_count,
            ):
                raise DomainError(ErrorCode.INVALID_VALUE, f"licence {licence.id} keeps its product, life and devices")
        self.trigger_event(
            CatalogueVersionScheduled,
            timestamp=at,
            version=number,
            effective_at=effective_at.astimezone(UTC),
            licences=_records(catalogue),
            actor_id=actor_id,
            reason=reason,
        )
        return self.latest

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: CatalogueOpened) -> None:
        self.versions: list[CatalogueVersion] = []

    @when.register
    def _scheduled(self, event: CatalogueVersionScheduled) -> None:
        self.versions.append(version_of(event))


def version_of(event: CatalogueVersionScheduled) -> CatalogueVersion:
    """The version an event recorded."""
    return CatalogueVersion(
        version=event.version,
        effective_at=event.effective_at,
        catalogue=Catalogue.model_validate({"version": event.version, "licences": event.licences}),
        actor_id=event.actor_id,
        reason=event.reason,
        recorded_at=event.timestamp,
    )


@dataclass(frozen=True)
class CatalogueVersions:
    """Every version, and which one is in force at a moment (pure: what pricing decisions read)."""

    versions: tuple[CatalogueVersion, ...]

    def __post_init__(self) -> None:
        if not self.versions:
            raise ValueError("a catalogue has at least its first version")

    @classmethod
    def shipped(cls) -> CatalogueVersions:
        """The history of an install nobody seeded yet: the shipped JSON, in force since ``SHIPPED_SINCE``."""
        first = load_catalogue()
        return cls((CatalogueVersion(first.version, SHIPPED_SINCE, first, None, SHIPPED_REASON, SHIPPED_SINCE),))

    def plan_name(self, licence_id: int, language: Language) -> str | None:
        """A plan's name in ``language`` (with the catalogue's fallback), from the latest version that has the plan
        (a plan no longer on sale keeps the name it was sold under); None for an id no version knows. Finance counts
        plans by id; this is their label."""
        for version in sorted(self.versions, key=lambda item: (item.effective_at, item.version), reverse=True):
            licence = version.catalogue.get(licence_id)
            if licence is not None:
                return licence.localization_for(language).name
        return None

    def in_force(self, at: datetime) -> CatalogueVersion:
        """The version in force at ``at``: of those effective by then, the one taking effect last (of two taking
        effect together, the later version)."""
        ordered = sorted(self.versions, key=lambda item: (item.effective_at, item.version))
        keys = [item.effective_at for item in ordered]
        index = bisect.bisect_right(keys, at) - 1
        return ordered[max(index, 0)]

    def get(self, version: int) -> CatalogueVersion | None:
        """A version by number."""
        return next((item for item in self.versions if item.version == version), None)

    def ahead_of(self, at: datetime) -> list[CatalogueVersion]:
        """The version in force at ``at`` and every one scheduled to take effect later, by effective time."""
        current = self.in_force(at)
        later = [item for item in self.versions if item.effective_at > at]
        return [current, *sorted(later, key=lambda item: (item.effective_at, item.version))]

    @property
    def latest(self) -> CatalogueVersion:
        """The version scheduled last."""
        return max(self.versions, key=lambda item: item.version)


def load_versions(store: Storefront) -> CatalogueVersions:
    """The catalogue's history as the log has it (the shipped one alone before anything was seeded)."""
    try:
        book: CatalogueBook = store.repository.get(CATALOGUE_ID)
    except AggregateNotFoundError:
        return CatalogueVersions.shipped()
    return CatalogueVersions(tuple(book.versions))


def seed_catalogue(store: Storefront, clock: Clock) -> bool:
    """Record the shipped JSON as the first version on a fresh install; True when it was recorded now (safe to run
    at every start, and by processes starting together)."""
    try:
        store.repository.get(CATALOGUE_ID)
        return False
    except AggregateNotFoundError:
        pass
    try:
        store.save(CatalogueBook.open(load_catalogue(), clock.now()))
    except IntegrityError:
        return False  # another process seeded it first
    return True


def _book(store: Storefront, clock: Clock) -> CatalogueBook:
    try:
        book: CatalogueBook = store.repository.get(CATALOGUE_ID)
    except AggregateNotFoundError:
        return CatalogueBook.open(load_catalogue(), clock.now())
    return book


def schedule_version(
    store: Storefront,
    clock: Clock,
    actor_id: UUID,
    *,
    licences: Sequence[Mapping[str, Any]],
    effective_at: datetime,
    reason: str,
) -> CatalogueVersion:
    """A staff member with ``change-prices`` schedules a new catalogue version (a reason is required); the version
    and the staff action naming them are saved together."""

    def attempt() -> CatalogueVersion:
        actor = load_member(store, actor_id)
        actor.check_may(Permission.CHANGE_PRICES)
        why = check_reason(Permission.CHANGE_PRICES, reason)
        now = clock.now()
        book = _book(store, clock)
        made = book.schedule(licences, effective_at, actor.id, why, now)
        actor.act(
            Permission.CHANGE_PRICES,
            StaffAction.SCHEDULE_CATALOGUE_VERSION,
            f"catalogue-v{made.version}",
            why,
            now,
            {"version": made.version, "effective_at": made.effective_at.isoformat()},
        )
        store.save(book, actor)
        return made

    return retry_on_conflict(attempt)


class FollowedCatalogue:
    """A process's copy of the catalogue's history, following the log: it asks the log for newer versions at most
    every ``FOLLOW_SECONDS`` (one read of the aggregate's new events), so a change shows within about a second."""

    def __init__(self, store: Storefront, follow_seconds: float = FOLLOW_SECONDS) -> None:
        self._store = store
        self._follow_seconds = follow_seconds
        self._lock = threading.Lock()
        self._versions = CatalogueVersions.shipped()
        self._position = 0  # the aggregate's version read so far (0: none)
        self._checked = float("-inf")

    def versions(self) -> CatalogueVersions:
        """Every version, as of at most ``FOLLOW_SECONDS`` ago."""
        with self._lock:
            if time.monotonic() - self._checked >= self._follow_seconds:
                self._catch_up()
            return self._versions

    def in_force(self, at: datetime) -> Catalogue:
        """The catalogue in force at ``at``."""
        return self.versions().in_force(at).catalogue

    def _catch_up(self) -> None:
        recorded = self._store.recorder.select_events(CATALOGUE_ID, gt=self._position or None)
        found = [self._store.mapper.to_domain_event(record) for record in recorded]
        scheduled = [version_of(event) for event in found if isinstance(event, CatalogueVersionScheduled)]
        if found:
            self._position = found[-1].originator_version
        if scheduled:
            # The recorded version 1 takes the place of the implicit shipped copy (the same number).
            known = {item.version: item for item in (*self._versions.versions, *scheduled)}
            self._versions = CatalogueVersions(tuple(sorted(known.values(), key=lambda item: item.version)))
        self._checked = time.monotonic()

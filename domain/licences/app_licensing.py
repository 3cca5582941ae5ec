"""Use cases of the app API: validate a key for a device, heartbeat, give a seat back, release idle seats.

Validation writes nothing unless something changed: a seated device's last-seen time is recorded as
``licence.DeviceSeen`` at most once a day (``SEEN_EVERY``), so the hottest call is a read almost always.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from domain.catalogue.licences import Catalogue
from domain.catalogue.products import PRODUCTS, Platform
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import SEEN_EVERY, LicenceState, Standing, UserLicence
from domain.licences.management import licence_by_key
from domain.store import Storefront
from events.concurrency import retry_on_conflict

IDLE_RELEASE_AFTER = timedelta(days=30)  # a seated device unseen this long is released, unless its plan says otherwise


@dataclass(frozen=True)
class Validation:
    """A licence's answer to an app on one device; ``licence`` is None when the key is unknown."""

    standing: Standing
    licence: UserLicence | None
    device_id: str
    recorded: bool = False  # the device's last-seen time was recorded (an event written)

    @property
    def user_licence_id(self) -> UUID | None:
        """The licence, when the key names one."""
        return self.licence.id if self.licence is not None else None


@dataclass(frozen=True)
class SeatedDevice:
    """What the licences view says of a key and one of its seated devices: enough to answer "valid" without
    loading the licence from the log, which the hottest call of the app API then does only when the answer may
    be anything else or a last-seen record is due."""

    id: UUID
    version: int
    product_code: str
    max_devices_count: int
    state: str
    expires_at: datetime | None
    devices_count: int
    last_seen_at: datetime

    def answers_valid(self, wanted: Platform, now: datetime) -> bool:
        """Valid on this platform now, with nothing to record (the device was seen within ``SEEN_EVERY``)."""
        product = PRODUCTS.get(self.product_code)
        return (
            product is not None
            and product.platform is wanted
            and self.state == LicenceState.ACTIVE.value
            and self.expires_at is not None
            and now < self.expires_at
            and now - self.last_seen_at < SEEN_EVERY
        )


def parse_platform(platform: str) -> Platform:
    """The platform an app names (-2 when unknown)."""
    try:
        return Platform(platform.lower())
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"unknown platform {platform!r}") from None


def validate_device(store: Storefront, clock: Clock, *, licence_key: str, device_id: str, platform: str) -> Validation:
    """Is the key good on this device? Records the device as seen when its last record is a day old."""
    wanted = parse_platform(platform)

    def attempt() -> Validation:
        try:
            licence = licence_by_key(store, licence_key)
        except DomainError as unknown:
            if unknown.code is ErrorCode.NOT_FOUND:
                return Validation(Standing.UNKNOWN, None, device_id)
            raise
        product = PRODUCTS.get(licence.product_code)
        if product is None or product.platform is not wanted:
            return Validation(Standing.OTHER_PLATFORM, licence, device_id)
        now = clock.now()
        standing = licence.standing_for(device_id, now)
        recorded = standing is Standing.VALID and licence.see_device(device_id, now)
        if recorded:
            store.save(licence)
        return Validation(standing, licence, device_id, recorded)

    return retry_on_conflict(attempt)


def deactivate_device(store: Storefront, clock: Clock, *, licence_key: str, device_id: str) -> UserLicence:
    """The app gives its seat back (404 unknown key, -1404 when the device holds no seat)."""

    def attempt() -> UserLicence:
        licence = licence_by_key(store, licence_key)
        licence.release_device(device_id, "app", clock.now())
        store.save(licence)
        return licence

    return retry_on_conflict(attempt)


def idle_release_after(catalogue: Catalogue, licence_id: int) -> timedelta:
    """How long a device of this plan may go unseen before its seat is freed (the catalogue's, else 30 days)."""
    plan = catalogue.get(licence_id)
    return timedelta(days=plan.idle_release_days) if plan is not None else IDLE_RELEASE_AFTER


def shortest_idle_release(catalogue: Catalogue) -> timedelta:
    """The shortest such time of any plan (the release pass looks at devices unseen at least this long)."""
    return min([IDLE_RELEASE_AFTER, *(timedelta(days=plan.idle_release_days) for plan in catalogue.licences)])


def release_idle_devices(store: Storefront, clock: Clock, catalogue: Catalogue, user_licence_id: UUID) -> list[str]:
    """Free the seats of the licence's devices unseen for its plan's time (the beat pass); the devices released."""

    def attempt() -> list[str]:
        licence: UserLicence = store.repository.get(user_licence_id)
        now = clock.now()
        idle = licence.idle_devices(now, idle_release_after(catalogue, licence.licence_id))
        for device_id in idle:
            licence.release_device(device_id, "inactive", now)
        if idle:
            store.save(licence)
        return idle

    return retry_on_conflict(attempt)

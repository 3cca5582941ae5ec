"""The user licence aggregate (a licence a customer holds) and the licence-key index."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_FLOOR, Decimal
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.catalogue.licences import Catalogue, PurchasableLicence
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action, LicenceFacts, licence_actions
from domain.licences.keys import normalise_licence_key
from domain.text import check_storable
from events.licences import (
    DeviceActivated,
    DeviceReleased,
    DeviceRemoved,
    DeviceRenamed,
    DeviceSeen,
    LicenceActivated,
    LicenceExtended,
    LicenceFlagged,
    LicenceGoodwillGiven,
    LicenceGranted,
    LicenceKeyClaimed,
    LicenceReservationLapsed,
    LicenceReserved,
    LicenceRevoked,
    LicenceShortened,
    LicenceTransferred,
    LicenceUpgraded,
    OpenBetaJoined,
)

MAX_DEVICE_NAME = 50
FLAG_WINDOW = timedelta(days=7)  # more than FLAG_FACTOR x seats distinct devices activated in it: flagged
FLAG_FACTOR = 3
SEEN_EVERY = timedelta(days=1)  # a device's last-seen time is recorded at most this often (ADR: docs/app-licensing.md)


class LicenceState(Enum):
    """Reserved (waiting for a deposit), active, lapsed (never paid) or revoked (refunded)."""

    RESERVED = "reserved"
    ACTIVE = "active"
    LAPSED = "lapsed"
    REVOKED = "revoked"


@dataclass(frozen=True)
class LicenceTerms:
    """What a licence grants, copied from the catalogue at purchase time."""

    licence_id: int
    product_code: str
    life: int
    max_devices_count: int
    name: str

    @classmethod
    def of(cls, licence: PurchasableLicence, name: str) -> LicenceTerms:
        """The terms of a catalogue licence, named in the buyer's language."""
        return cls(licence.id, licence.product_code, licence.life, licence.max_devices_count, name)

    def fields(self, account_id: UUID, licence_key: str, merchant_uid: str | None) -> dict[str, Any]:
        """The event fields a new licence of these terms starts with."""
        return {
            "account_id": account_id,
            "licence_id": self.licence_id,
            "product_code": self.product_code,
            "life": self.life,
            "max_devices_count": self.max_devices_count,
            "name": self.name,
            "licence_key": licence_key,
            "merchant_uid": merchant_uid,
        }


@dataclass
class Device:
    """A device the licence is activated on."""

    device_id: str
    device_name: str
    platform: str
    registered_at: datetime
    last_seen_at: datetime


def expiry(starts_at: datetime, life_days: int) -> datetime:
    """A licence of ``life_days`` is valid until start + life (lifetime = 36500 days)."""
    return starts_at + timedelta(days=life_days)


class Standing(Enum):
    """What a licence says to an app on one device: valid, or why not (the app API's ``status``)."""

    VALID = "valid"
    EXPIRED = "expired"
    REVOKED = "revoked"
    UNPAID = "unpaid"
    UNKNOWN = "unknown"
    OTHER_PLATFORM = "otherPlatform"
    NO_FREE_SEAT = "noFreeSeat"
    DEVICE_RELEASED = "deviceReleased"
    NOT_ACTIVATED = "notActivated"


class UserLicence(Aggregate):
    """A licence held by one account, with its key and devices."""

    @staticmethod
    def id_for_payment(merchant_uid: str) -> UUID:
        """The licence a payment buys has an id derived from it, so a repeated confirm finds it."""
        return uuid5(NAMESPACE_URL, f"/licences/by-payment/{merchant_uid}")

    @classmethod
    def grant(
        cls,
        *,
        account_id: UUID,
        terms: LicenceTerms,
        licence_key: str,
        merchant_uid: str | None,
        source: str,
        at: datetime,
        user_licence_id: UUID | None = None,
    ) -> UserLicence:
        """A licence valid from ``at`` for its life."""
        return cls._create(
            LicenceGranted,
            id=user_licence_id or uuid4(),
            timestamp=at,
            **terms.fields(account_id, licence_key, merchant_uid),
            source=source,
            starts_at=at,
            expires_at=expiry(at, terms.life),
        )

    @classmethod
    def reserve(
        cls,
        *,
        account_id: UUID,
        terms: LicenceTerms,
        licence_key: str,
        merchant_uid: str,
        deposit_deadline: datetime,
        at: datetime,
        user_licence_id: UUID | None = None,
    ) -> UserLicence:
        """A licence held for a virtual-account deposit."""
        return cls._create(
            LicenceReserved,
            id=user_licence_id or uuid4(),
            timestamp=at,
            **terms.fields(account_id, licence_key, merchant_uid),
            deposit_deadline=deposit_deadline,
        )

    @property
    def terms(self) -> LicenceTerms:
        """What the licence grants."""
        return LicenceTerms(self.licence_id, self.product_code, self.life, self.max_devices_count, self.name)

    @property
    def facts(self) -> LicenceFacts:
        """What the licence rules (``domain.licences.actions``) look at."""
        return LicenceFacts(
            state=self.state.value,
            expires_at=self.expires_at,
            devices_count=len(self.devices),
            max_devices_count=self.max_devices_count,
            source=self.source,
            product_code=self.product_code,
            life=self.life,
        )

    def allowed_actions(self, catalogue: Catalogue, now: datetime) -> set[Action]:
        """What the holder may do with the licence now (its subscription adds its own)."""
        return licence_actions(self.facts, catalogue, now)

    @property
    def ever_used(self) -> bool:
        """Was it ever activated on a device (its supply began, in the words of the E-Commerce Act)?"""
        return bool(self.activations)

    def is_valid(self, now: datetime) -> bool:
        """Active and not yet expired."""
        return self.state is LicenceState.ACTIVE and self.expires_at is not None and now < self.expires_at

    def activate(self, at: datetime) -> None:
        """The deposit arrived."""
        if self.state is LicenceState.ACTIVE:
            return
        if self.state is not LicenceState.RESERVED:
            raise DomainError(ErrorCode.RESERVED_PAYMENT_MISSING, f"licence is {self.state.value}")
        self.trigger_event(LicenceActivated, timestamp=at, starts_at=at, expires_at=expiry(at, self.life))

    def lapse(self, reason: str, at: datetime) -> None:
        """The reservation ran out unpaid."""
        if self.state is LicenceState.RESERVED:
            self.trigger_event(LicenceReservationLapsed, timestamp=at, reason=reason)

    def revoke(self, reason: str, at: datetime) -> bool:
        """Stop the licence: the money that paid for it went back (True when revoked now)."""
        if self.state is not LicenceState.ACTIVE:
            return False
        self.trigger_event(LicenceRevoked, timestamp=at, revoked_at=at, reason=reason)
        return True

    def shortened_expiry(self, paid: int, refunded: int, at: datetime) -> datetime | None:
        """Where the licence would end if it kept only what is left paid for after ``refunded`` of ``paid`` came back:
        its life in proportion (whole days, from its start, never before ``at``); None when it has no end to move or
        would not move."""
        if self.state is not LicenceState.ACTIVE or self.starts_at is None or self.expires_at is None or paid <= 0:
            return None
        kept = Decimal(max(paid - refunded, 0)) / Decimal(paid)
        days = int((Decimal(self.life) * kept).to_integral_value(rounding=ROUND_FLOOR))
        new_expiry = max(expiry(self.starts_at, days), at)
        return new_expiry if new_expiry < self.expires_at else None

    def shorten_to(self, expires_at: datetime, reason: str, at: datetime) -> bool:
        """Move the licence's end earlier, to ``expires_at`` (never before ``at``); True when it moved."""
        if self.state is not LicenceState.ACTIVE or self.expires_at is None:
            return False
        new_expiry = max(expires_at, at)
        if new_expiry >= self.expires_at:
            return False
        self.trigger_event(LicenceShortened, timestamp=at, expires_at=new_expiry, reason=reason)
        return True

    def activate_device(self, device_id: str, device_name: str, platform: str, at: datetime) -> bool:
        """Add a device (True), or recognise one already there (False); refuse past the limit."""
        if device_id in self.devices:
            return False
        if not self.is_valid(at):
            raise DomainError(ErrorCode.LICENSE_KEY_UNUSABLE, "the licence is not valid")
        if len(self.devices) >= self.max_devices_count:
            raise DomainError(ErrorCode.DEVICE_LIMIT_REACHED, "every device slot is taken")
        self.trigger_event(
            DeviceActivated,
            timestamp=at,
            device_id=device_id,
            device_name=_device_name(device_name),
            platform=platform,
        )
        self._flag_if_crowded(at)
        return True

    def _flag_if_crowded(self, at: datetime) -> None:
        """Flag the key for support (once a window) when it was activated on too many distinct devices lately."""
        recent = sum(1 for activated in self.activations.values() if at - activated < FLAG_WINDOW)
        if recent <= FLAG_FACTOR * self.max_devices_count:
            return
        if self.flagged_at is not None and at - self.flagged_at < FLAG_WINDOW:
            return
        self.trigger_event(
            LicenceFlagged,
            timestamp=at,
            reason="many distinct devices",
            distinct_devices=recent,
            window_days=FLAG_WINDOW.days,
        )

    def standing_for(self, device_id: str, now: datetime) -> Standing:
        """The licence's answer to an app on ``device_id`` (the key and the platform are checked before)."""
        if self.state is LicenceState.REVOKED:
            return Standing.REVOKED
        if self.state is not LicenceState.ACTIVE:
            return Standing.UNPAID
        if not self.is_valid(now):
            return Standing.EXPIRED
        if device_id in self.devices:
            return Standing.VALID
        if device_id in self.released:
            return Standing.DEVICE_RELEASED
        if len(self.devices) >= self.max_devices_count:
            return Standing.NO_FREE_SEAT
        return Standing.NOT_ACTIVATED

    def see_device(self, device_id: str, at: datetime) -> bool:
        """The app on a seated device checked in: record it (True) when the last record is a day old, else nothing."""
        device = self.devices.get(device_id)
        if device is None or at - device.last_seen_at < SEEN_EVERY:
            return False
        self.trigger_event(DeviceSeen, timestamp=at, device_id=device_id)
        return True

    def release_device(self, device_id: str, reason: str, at: datetime) -> None:
        """Free a seat without the customer: the app gave it back ("app") or it went unseen ("inactive")."""
        self.check_has_device(device_id)
        self.trigger_event(DeviceReleased, timestamp=at, device_id=device_id, reason=reason)

    def idle_devices(self, now: datetime, after: timedelta) -> list[str]:
        """The seated devices unseen for ``after`` or longer (the release pass frees them)."""
        return sorted(d.device_id for d in self.devices.values() if now - d.last_seen_at >= after)

    def rename_device(self, device_id: str, device_name: str, at: datetime) -> None:
        """Give a device a new name (-1404 when missing, -2 when the name is unusable)."""
        self.check_has_device(device_id)
        self.trigger_event(DeviceRenamed, timestamp=at, device_id=device_id, device_name=_device_name(device_name))

    def remove_device(self, device_id: str, at: datetime) -> None:
        """Free the device's slot."""
        self.check_has_device(device_id)
        self.trigger_event(DeviceRemoved, timestamp=at, device_id=device_id)

    def extend_to(self, expires_at: datetime, at: datetime) -> None:
        """Run until ``expires_at`` (the end of the subscription's last paid period)."""
        if self.state is not LicenceState.ACTIVE:
            raise DomainError(ErrorCode.LICENSE_KEY_UNUSABLE, f"licence is {self.state.value}")
        if expires_at != self.expires_at:
            self.trigger_event(LicenceExtended, timestamp=at, expires_at=expires_at)

    def give_goodwill(self, days: int, at: datetime) -> datetime:
        """Staff give an active licence with an end ``days`` more; answers its new end."""
        if self.expires_at is None:
            raise DomainError(ErrorCode.LICENSE_KEY_UNUSABLE, "the licence has no end to extend")
        until = self.expires_at + timedelta(days=days)
        self.extend_to(until, at)
        self.trigger_event(LicenceGoodwillGiven, timestamp=at, days=days)
        return until

    def goodwill_since(self, since: datetime) -> int:
        """The days of goodwill staff gave the licence from ``since`` on."""
        return sum(days for at, days in self.goodwill if at >= since)

    def upgrade(
        self, *, terms: LicenceTerms, merchant_uid: str, source: str, starts_at: datetime, expires_at: datetime
    ) -> None:
        """Move to a bigger plan of the same product (paid by ``merchant_uid``), keeping key and devices."""
        if self.state is not LicenceState.ACTIVE or not self.is_valid(starts_at):
            raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"a {self.state.value} licence cannot be upgraded")
        if not self.is_upgrade_to(terms):
            raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, "not an upgrade of this licence")
        self.trigger_event(
            LicenceUpgraded,
            timestamp=starts_at,
            merchant_uid=merchant_uid,
            licence_id=terms.licence_id,
            product_code=terms.product_code,
            life=terms.life,
            max_devices_count=terms.max_devices_count,
            name=terms.name,
            source=source,
            starts_at=starts_at,
            expires_at=expires_at,
        )

    def is_upgrade_to(self, terms: LicenceTerms) -> bool:
        """Is ``terms`` the same product with more devices, a longer life or both, never less?"""
        return (
            terms.product_code == self.product_code
            and terms.life >= self.life
            and terms.max_devices_count >= self.max_devices_count
            and (terms.life, terms.max_devices_count) != (self.life, self.max_devices_count)
        )

    def transfer(self, to_account_id: UUID, at: datetime) -> None:
        """Move the licence to the account that registered its key."""
        self.trigger_event(
            LicenceTransferred, timestamp=at, from_account_id=self.account_id, to_account_id=to_account_id
        )

    def check_has_device(self, device_id: str) -> None:
        """-1404 when the device is not on this licence."""
        if device_id not in self.devices:
            raise DomainError(ErrorCode.DEVICE_NOT_FOUND)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    def _terms(self, event: LicenceGranted | LicenceReserved) -> None:
        self.account_id = event.account_id
        self.licence_id = event.licence_id
        self.product_code = event.product_code
        self.life = event.life
        self.max_devices_count = event.max_devices_count
        self.name = event.name
        self.licence_key = event.licence_key
        self.merchant_uid = event.merchant_uid
        # The payment of the period the licence runs in now (a subscription's own periods are its own).
        self.period_merchant_uid: str | None = event.merchant_uid
        # The payments the licence was bought with: its purchase, then each upgrade (not a subscription's renewals).
        self.bought_with: tuple[str, ...] = (event.merchant_uid,) if event.merchant_uid else ()
        self.devices: dict[str, Device] = {}
        self.goodwill: list[tuple[datetime, int]] = []
        self.activations: dict[str, datetime] = {}  # device id -> when it was last activated (abuse flag)
        self.flagged_at: datetime | None = None
        self.released: dict[str, str] = {}  # device id -> why its seat was freed, until it is activated again

    @when.register
    def _granted(self, event: LicenceGranted) -> None:
        self._terms(event)
        self.source = event.source
        self.state = LicenceState.ACTIVE
        self.starts_at: datetime | None = event.starts_at
        self.expires_at: datetime | None = event.expires_at
        self.deposit_deadline: datetime | None = None

    @when.register
    def _reserved(self, event: LicenceReserved) -> None:
        self._terms(event)
        self.source = "purchase"
        self.state = LicenceState.RESERVED
        self.starts_at = None
        self.expires_at = None
        self.deposit_deadline = event.deposit_deadline

    @when.register
    def _activated(self, event: LicenceActivated) -> None:
        self.state = LicenceState.ACTIVE
        self.starts_at = event.starts_at
        self.expires_at = event.expires_at

    @when.register
    def _lapsed(self, event: LicenceReservationLapsed) -> None:
        self.state = LicenceState.LAPSED

    @when.register
    def _shortened(self, event: LicenceShortened) -> None:
        self.expires_at = event.expires_at

    @when.register
    def _revoked(self, event: LicenceRevoked) -> None:
        self.state = LicenceState.REVOKED
        self.expires_at = event.revoked_at

    @when.register
    def _extended(self, event: LicenceExtended) -> None:
        self.expires_at = event.expires_at

    @when.register
    def _goodwill(self, event: LicenceGoodwillGiven) -> None:
        self.goodwill = [*self.goodwill, (event.timestamp, event.days)]

    @when.register
    def _upgraded(self, event: LicenceUpgraded) -> None:
        self.licence_id = event.licence_id
        self.product_code = event.product_code
        self.life = event.life
        self.max_devices_count = event.max_devices_count
        self.name = event.name
        self.source = event.source
        self.period_merchant_uid = event.merchant_uid
        self.bought_with = (*self.bought_with, event.merchant_uid)
        self.starts_at = event.starts_at
        self.expires_at = event.expires_at

    @when.register
    def _transferred(self, event: LicenceTransferred) -> None:
        self.account_id = event.to_account_id

    @when.register
    def _device_activated(self, event: DeviceActivated) -> None:
        at = event.timestamp
        self.devices[event.device_id] = Device(event.device_id, event.device_name, event.platform, at, at)
        self.released.pop(event.device_id, None)
        self.activations[event.device_id] = at

    @when.register
    def _device_renamed(self, event: DeviceRenamed) -> None:
        self.devices[event.device_id].device_name = event.device_name

    @when.register
    def _device_removed(self, event: DeviceRemoved) -> None:
        del self.devices[event.device_id]
        self.released[event.device_id] = "customer"

    @when.register
    def _flagged(self, event: LicenceFlagged) -> None:
        self.flagged_at = event.timestamp

    @when.register
    def _device_seen(self, event: DeviceSeen) -> None:
        self.devices[event.device_id].last_seen_at = event.timestamp

    @when.register
    def _device_released(self, event: DeviceReleased) -> None:
        del self.devices[event.device_id]
        self.released[event.device_id] = event.reason


def _device_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a device needs a name")
    if len(cleaned) > MAX_DEVICE_NAME:
        raise DomainError(ErrorCode.INVALID_VALUE, f"device names are at most {MAX_DEVICE_NAME} characters")
    return check_storable(cleaned, "device name")


class LicenceKeyIndex(Aggregate):
    """Makes a licence key point at exactly one user licence."""

    @staticmethod
    def id_for(licence_key: str) -> UUID:
        """The index id of a key."""
        return uuid5(NAMESPACE_URL, f"/licence-keys/{normalise_licence_key(licence_key)}")

    @classmethod
    def claim(cls, *, licence_key: str, user_licence_id: UUID, at: datetime) -> LicenceKeyIndex:
        """Take the key (saving fails with IntegrityError if it already exists)."""
        return cls._create(
            LicenceKeyClaimed,
            id=cls.id_for(licence_key),
            timestamp=at,
            licence_key=normalise_licence_key(licence_key),
            user_licence_id=user_licence_id,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _claimed(self, event: LicenceKeyClaimed) -> None:
        self.licence_key = event.licence_key
        self.user_licence_id = event.user_licence_id


class OpenBetaMembership(Aggregate):
    """Proof that an account took its one open-beta licence."""

    @staticmethod
    def id_for(account_id: UUID) -> UUID:
        """One membership per account."""
        return uuid5(NAMESPACE_URL, f"/open-beta/{account_id}")

    @classmethod
    def join(cls, *, account_id: UUID, user_licence_id: UUID, at: datetime) -> OpenBetaMembership:
        """Record the membership (saving a second one for the account fails)."""
        return cls._create(
            OpenBetaJoined,
            id=cls.id_for(account_id),
            timestamp=at,
            account_id=account_id,
            user_licence_id=user_licence_id,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _joined(self, event: OpenBetaJoined) -> None:
        self.account_id = event.account_id
        self.user_licence_id = event.user_licence_id

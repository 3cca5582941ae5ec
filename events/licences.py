"""Events of a customer's licence (a user licence) and of the licence-key index."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from events.contract import StoredCreation, StoredEvent


class LicenceGranted(StoredCreation):
    """A licence became the customer's and is valid from ``starts_at`` until ``expires_at``."""

    TOPIC = "licence.Granted"
    account_id: UUID
    licence_id: int
    product_code: str
    life: int
    max_devices_count: int
    name: str
    licence_key: str
    merchant_uid: str | None
    source: str
    starts_at: datetime
    expires_at: datetime


class LicenceReserved(StoredCreation):
    """A licence waits for a virtual-account deposit; it is not valid yet."""

    TOPIC = "licence.Reserved"
    account_id: UUID
    licence_id: int
    product_code: str
    life: int
    max_devices_count: int
    name: str
    licence_key: str
    merchant_uid: str
    deposit_deadline: datetime


class LicenceActivated(StoredEvent):
    """The deposit arrived: the reserved licence is valid from now on."""

    TOPIC = "licence.Activated"
    starts_at: datetime
    expires_at: datetime


class LicenceReservationLapsed(StoredEvent):
    """No deposit by the deadline: the reservation is void."""

    TOPIC = "licence.ReservationLapsed"
    reason: str


class LicenceShortened(StoredEvent):
    """A partial refund ended the licence earlier."""

    TOPIC = "licence.Shortened"
    expires_at: datetime
    reason: str


class LicenceRevoked(StoredEvent):
    """A full refund ended the licence now."""

    TOPIC = "licence.Revoked"
    revoked_at: datetime
    reason: str


class DeviceActivated(StoredEvent):
    """An app activated the licence on a device."""

    TOPIC = "licence.DeviceActivated"
    device_id: str
    device_name: str
    platform: str


class DeviceRenamed(StoredEvent):
    """The customer renamed a device."""

    TOPIC = "licence.DeviceRenamed"
    device_id: str
    device_name: str


class DeviceRemoved(StoredEvent):
    """The customer removed a device, freeing a slot."""

    TOPIC = "licence.DeviceRemoved"
    device_id: str


class DeviceSeen(StoredEvent):
    """An app on the device checked in (validate or heartbeat); recorded at most once a day per device."""

    TOPIC = "licence.DeviceSeen"
    device_id: str


class DeviceReleased(StoredEvent):
    """A device's seat was freed without the customer: the app gave it back ("app") or it went unseen ("inactive")."""

    TOPIC = "licence.DeviceReleased"
    device_id: str
    reason: str


class LicenceFlagged(StoredEvent):
    """The key was activated on unusually many distinct devices in a short window: support should look (the
    licence keeps working; nothing is blocked)."""

    TOPIC = "licence.Flagged"
    reason: str
    distinct_devices: int
    window_days: int


class LicenceKeyClaimed(StoredCreation):
    """A licence key points at one user licence (uniqueness index)."""

    TOPIC = "licence.KeyClaimed"
    licence_key: str
    user_licence_id: UUID


class LicenceTransferred(StoredEvent):
    """The holder of a guest purchase's key registered it to their own account."""

    TOPIC = "licence.Transferred"
    from_account_id: UUID
    to_account_id: UUID


class OpenBetaJoined(StoredCreation):
    """An account joined the open beta (once per account: the aggregate id is derived from it)."""

    TOPIC = "licence.OpenBetaJoined"
    account_id: UUID
    user_licence_id: UUID


class LicenceExtended(StoredEvent):
    """A subscription's paid period moved the licence's end."""

    TOPIC = "licence.Extended"
    expires_at: datetime


class LicenceGoodwillGiven(StoredEvent):
    """Staff gave the licence ``days`` more as goodwill (its ``licence.Extended`` says until when): what a member
    gives alone is counted on these (domain/staff/grants.py)."""

    TOPIC = "licence.GoodwillGiven"
    days: int


class LicenceUpgraded(StoredEvent):
    """The licence moved to a bigger plan (more devices, a longer life, or both): same key, same devices.

    ``merchant_uid`` is the payment that paid for the new plan's first period, which runs from
    ``starts_at`` to ``expires_at``; ``source`` is how the licence is paid from now on.
    """

    TOPIC = "licence.Upgraded"
    merchant_uid: str
    licence_id: int
    product_code: str
    life: int
    max_devices_count: int
    name: str
    source: str
    starts_at: datetime
    expires_at: datetime

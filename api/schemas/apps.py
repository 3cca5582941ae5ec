"""The app API's bodies and answers (api/routers/apps.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import Field

from api.schemas import CamelModel
from domain.licences.app_licensing import SeatedDevice, Validation
from domain.licences.licence import Standing

StatusName = Literal[
    "valid", "expired", "revoked", "unpaid", "unknown", "otherPlatform", "noFreeSeat", "deviceReleased", "notActivated"
]
EXAMPLE_KEY = "K7QX-M2PD-9RTW-ZB4N"


class DeviceCheckIn(CamelModel):
    """An app on a device names its key, its device and its platform."""

    licence_key: str = Field(min_length=1, max_length=40, examples=[EXAMPLE_KEY])
    device_id: str = Field(min_length=1, max_length=128, examples=["a3f1c2d4-pixel-8"])
    platform: str = Field(min_length=1, max_length=20, examples=["android"])


class DeviceActivation(DeviceCheckIn):
    """An app asks for a seat on a device."""

    device_name: str = Field(min_length=1, max_length=200, examples=["Pixel 8"])


class DeviceRelease(CamelModel):
    """An app gives its device's seat back."""

    licence_key: str = Field(min_length=1, max_length=40, examples=[EXAMPLE_KEY])
    device_id: str = Field(min_length=1, max_length=128, examples=["a3f1c2d4-pixel-8"])


class LicenceStanding(CamelModel):
    """The licence's answer for one device: ``valid``, or why not in ``status``."""

    valid: bool
    status: StatusName
    device_id: str
    user_licence_id: UUID | None = None
    product_code: str | None = None
    expires_at: datetime | None = None
    devices_count: int | None = None
    max_devices_count: int | None = None
    last_seen_at: datetime | None = None
    licence_token: str | None = Field(
        default=None,
        description="With a valid answer: the offline licence, a JWS (EdDSA) to check with the keys at "
        "/apps/v1/.well-known/jwks.json (docs/app-licensing.md)",
    )

    @classmethod
    def of(cls, validation: Validation, token: str | None = None) -> LicenceStanding:
        """The answer an app gets; nothing about the licence's holder, only what the key already names."""
        status: StatusName = validation.standing.value
        licence = validation.licence
        if licence is None:
            return cls(valid=False, status=status, device_id=validation.device_id)
        device = licence.devices.get(validation.device_id)
        return cls(
            valid=status == "valid",
            status=status,
            device_id=validation.device_id,
            user_licence_id=licence.id,
            product_code=licence.product_code,
            expires_at=licence.expires_at,
            devices_count=len(licence.devices),
            max_devices_count=licence.max_devices_count,
            last_seen_at=device.last_seen_at if device else None,
            licence_token=token,
        )

    @classmethod
    def seated(cls, device: SeatedDevice, device_id: str, token: str | None) -> LicenceStanding:
        """A valid answer from the licences view (the app API's fast path), as ``of`` would give it."""
        return cls(
            valid=True,
            status=Standing.VALID.value,
            device_id=device_id,
            user_licence_id=device.id,
            product_code=device.product_code,
            expires_at=device.expires_at,
            devices_count=device.devices_count,
            max_devices_count=device.max_devices_count,
            last_seen_at=device.last_seen_at,
            licence_token=token,
        )


VALID_EXAMPLE = {
    "valid": True,
    "status": "valid",
    "deviceId": "a3f1c2d4-pixel-8",
    "userLicenceId": "0b7c5a8e-2f7d-4a51-9a55-3f0d8b0f6a11",
    "productCode": "uncpa",
    "expiresAt": "2027-11-01T00:00:00Z",
    "devicesCount": 2,
    "maxDevicesCount": 3,
    "lastSeenAt": "2026-11-20T08:00:00Z",
    "licenceToken": "eyJ0eXAiOiJ1bmljb3JucHJvLWxpY2VuY2Urand0IiwiYWxnIjoiRWREU0EiLCJraWQiOiI3Y1RnTzhaUn...",
}


class PublicKey(CamelModel):
    """One Ed25519 public key as a JWK."""

    kty: str
    crv: str
    x: str
    kid: str
    alg: str
    use: str


class KeySet(CamelModel):
    """The keys licence tokens are signed with: the current one first, then keys rotated out."""

    keys: list[PublicKey]


REFUSED = {**VALID_EXAMPLE, "licenceToken": None, "valid": False}
STANDING_EXAMPLES = {
    "valid": {"summary": "The device holds a seat", "value": VALID_EXAMPLE},
    "expired": {
        "summary": "The paid time ran out",
        "value": {**REFUSED, "status": "expired"},
    },
    "revoked": {
        "summary": "Refunded",
        "value": {**REFUSED, "status": "revoked"},
    },
    "unknown": {
        "summary": "No such key",
        "value": {"valid": False, "status": "unknown", "deviceId": "a3f1c2d4-pixel-8"},
    },
    "otherPlatform": {
        "summary": "The key is for another platform's app",
        "value": {**REFUSED, "status": "otherPlatform", "lastSeenAt": None},
    },
    "noFreeSeat": {
        "summary": "Not activated here, and every seat is taken",
        "value": {
            **VALID_EXAMPLE,
            "licenceToken": None,
            "valid": False,
            "status": "noFreeSeat",
            "devicesCount": 3,
            "lastSeenAt": None,
        },
    },
    "deviceReleased": {
        "summary": "The seat was freed (by the app, the customer, or unseen for 30 days); activate again",
        "value": {
            **VALID_EXAMPLE,
            "licenceToken": None,
            "valid": False,
            "status": "deviceReleased",
            "lastSeenAt": None,
        },
    },
}

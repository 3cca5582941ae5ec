"""For the apps: run on a device under a licence key."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import Field

from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.licences.management import activate_device

router = APIRouter(prefix="/licenses", tags=["licences"])


class DeviceActivationIn(CamelModel):
    """An app asks to run on a device under a licence key."""

    license_key: str = Field(min_length=1, max_length=40)
    device_id: str = Field(min_length=1, max_length=128)
    device_name: str = Field(min_length=1, max_length=200)
    platform: str = Field(min_length=1, max_length=20)


class DeviceActivationOut(CamelModel):
    """The licence the device now runs under."""

    user_license_id: UUID
    expires_at: datetime | None
    devices_count: int
    max_devices_count: int


@router.post(
    "/activate",
    response_model=DeviceActivationOut,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.DEVICE_LIMIT_REACHED,
        ErrorCode.TOO_MANY_REQUESTS,
    ),
)
def activate_app_device(body: DeviceActivationIn, services: ServicesDep, request: Request) -> DeviceActivationOut:
    """For the apps: activate a device (404 unknown key, -100 expired or other platform, -107 every device slot
    taken)."""
    services.limiter.activation(request, body.license_key)
    activation = activate_device(
        services.store,
        services.clock,
        licence_key=body.license_key,
        device_id=body.device_id,
        device_name=body.device_name,
        platform=body.platform,
    )
    # The app's next validation may be answered from the licences view (api/routers/apps.py): it must see the seat.
    services.see_latest_write("licences")
    return DeviceActivationOut(
        user_license_id=activation.user_licence_id,
        expires_at=activation.expires_at,
        devices_count=activation.devices_count,
        max_devices_count=activation.max_devices_count,
    )

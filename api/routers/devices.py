"""The devices of one of the caller's licences: rename one, remove one."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from pydantic import Field

from api.access import CallerDep
from api.error_docs import errors
from api.schemas import CamelModel
from api.schemas.licences import Written
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.licences.management import remove_device, rename_device

router = APIRouter(prefix="/licenses", tags=["licences"])


class DeviceRename(CamelModel):
    """A device's new name."""

    device_name: str = Field(min_length=1, max_length=200)


@router.patch(
    "/{user_license_id}/devices/{device_id}",
    response_model=Written,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.DEVICE_NOT_FOUND),
)
def rename_my_device(
    user_license_id: UUID, device_id: str, body: DeviceRename, services: ServicesDep, caller: CallerDep
) -> Written:
    """Rename a device (-2 when the name is not allowed, -1404 when the device is gone)."""
    written = rename_device(
        services.store,
        services.clock,
        account_id=caller.account_id,
        user_licence_id=user_license_id,
        device_id=device_id,
        device_name=body.device_name,
    )
    services.see_own_write(written.notification_id, "licences")
    return Written(user_license_id=written.user_licence_id)


@router.delete(
    "/{user_license_id}/devices/{device_id}",
    response_model=Written,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.DEVICE_NOT_FOUND),
)
def remove_my_device(user_license_id: UUID, device_id: str, services: ServicesDep, caller: CallerDep) -> Written:
    """Remove a device from a licence (-1404 when it is not there)."""
    written = remove_device(
        services.store,
        services.clock,
        account_id=caller.account_id,
        user_licence_id=user_license_id,
        device_id=device_id,
    )
    services.see_own_write(written.notification_id, "licences")
    return Written(user_license_id=written.user_licence_id)

"""The app API (tag "apps", under /apps/v1): validate a key for a device, activate, deactivate, heartbeat.

The licence key is the credential; an answer names only the licence the key already names. The rules are the
licence aggregate's (domain/licences/licence.py); the use cases are domain/licences/app_licensing.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from api.error_docs import errors
from api.licence_tokens import licence_token, seated_token
from api.schemas.apps import (
    STANDING_EXAMPLES,
    DeviceActivation,
    DeviceCheckIn,
    DeviceRelease,
    KeySet,
    LicenceStanding,
    PublicKey,
)
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.licences.app_licensing import (
    SeatedDevice,
    Validation,
    deactivate_device,
    parse_platform,
    validate_device,
)
from domain.licences.keys import is_well_formed, normalise_licence_key
from domain.licences.licence import Standing
from domain.licences.management import activate_device
from projections.licences import seat_statements

router = APIRouter(prefix="/apps/v1", tags=["apps"])


def _answer(examples: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"application/json": {"examples": examples}}}}


@router.post(
    "/licence/validate",
    response_model=LicenceStanding,
    responses={**_answer(STANDING_EXAMPLES), **errors(ErrorCode.INVALID_VALUE, ErrorCode.TOO_MANY_REQUESTS)},
)
async def validate_licence(body: DeviceCheckIn, services: ServicesDep, request: Request) -> LicenceStanding:
    """Is the key good on this device? 200 with ``status`` for every standing, an unknown key's too; errors only
    for an unknown platform name (-2) and past the limits (-4, 429). Writes nothing unless the device's last-seen
    record is a day old."""
    services.limiter.validation(request, body.licence_key)
    wanted = parse_platform(body.platform)
    device_id = body.device_id
    # A seated device's "valid" is answered from the licences view on the loop (two indexed reads, one round
    # trip); anything else, or a last-seen record that is due, goes to the licence in the log on a thread.
    seated = await _seated_device(services, body.licence_key, device_id)
    if seated is not None and seated.answers_valid(wanted, services.clock.now()):
        token = await seated_token(services, seated, device_id)
        return LicenceStanding.seated(seated, device_id, token)
    return await run_in_threadpool(answer_from_the_log, body, services)


async def _seated_device(services: ServicesDep, licence_key: str, device_id: str) -> SeatedDevice | None:
    if not is_well_formed(licence_key):
        return None
    licences, devices = await services.views.read_many_async(
        *seat_statements(normalise_licence_key(licence_key), device_id)
    )
    if not licences or not devices:
        return None
    row = licences[0]
    expires_at = row["expires_at"]
    return SeatedDevice(
        id=UUID(str(row["user_licence_id"])),
        version=int(row["version"]),
        product_code=str(row["product_code"]),
        max_devices_count=int(row["max_devices_count"]),
        state=str(row["state"]),
        expires_at=datetime.fromisoformat(expires_at) if expires_at else None,
        devices_count=int(row["devices_count"]),
        last_seen_at=datetime.fromisoformat(devices[0]["last_seen_at"]),
    )


def answer_from_the_log(body: DeviceCheckIn, services: ServicesDep) -> LicenceStanding:
    """Validation by the licence in the log: every answer, and the device's last-seen record when it is due."""
    validation = validate_device(
        services.store, services.clock, licence_key=body.licence_key, device_id=body.device_id, platform=body.platform
    )
    if validation.recorded:
        services.see_latest_write("licences")
    token = None
    if validation.licence is not None:
        token = licence_token(services, validation.licence, validation.device_id, validation.standing)
    return LicenceStanding.of(validation, token)


@router.post(
    "/licence/heartbeat",
    response_model=LicenceStanding,
    responses={**_answer(STANDING_EXAMPLES), **errors(ErrorCode.INVALID_VALUE, ErrorCode.TOO_MANY_REQUESTS)},
)
async def heartbeat(body: DeviceCheckIn, services: ServicesDep, request: Request) -> LicenceStanding:
    """The app's periodic check-in (about daily): keeps its seat from being released as unseen; answers as
    validate does."""
    return await validate_licence(body, services, request)


@router.post(
    "/licence/activate",
    response_model=LicenceStanding,
    responses={
        **_answer({"valid": STANDING_EXAMPLES["valid"]}),
        **errors(
            ErrorCode.NOT_FOUND,
            ErrorCode.INVALID_VALUE,
            ErrorCode.LICENSE_KEY_UNUSABLE,
            ErrorCode.DEVICE_LIMIT_REACHED,
            ErrorCode.TOO_MANY_REQUESTS,
        ),
    },
)
def activate(body: DeviceActivation, services: ServicesDep, request: Request) -> LicenceStanding:
    """Take a seat on this device (again is a no-op): 404 unknown key, -100 expired, revoked or another
    platform's key, -107 no free seat (every device slot taken)."""
    services.limiter.activation(request, body.licence_key)
    activation = activate_device(
        services.store,
        services.clock,
        licence_key=body.licence_key,
        device_id=body.device_id,
        device_name=body.device_name,
        platform=body.platform,
    )
    services.see_latest_write("licences")
    device_id = body.device_id.strip()
    token = licence_token(services, activation.licence, device_id, Standing.VALID)
    return LicenceStanding.of(Validation(Standing.VALID, activation.licence, device_id), token)


@router.post(
    "/licence/deactivate",
    response_model=LicenceStanding,
    responses={
        **_answer({"released": {"summary": "The seat is free", "value": STANDING_EXAMPLES["deviceReleased"]["value"]}}),
        **errors(ErrorCode.NOT_FOUND, ErrorCode.DEVICE_NOT_FOUND, ErrorCode.TOO_MANY_REQUESTS),
    },
)
def deactivate(body: DeviceRelease, services: ServicesDep, request: Request) -> LicenceStanding:
    """The app gives its seat back (uninstalled, signed out): 404 unknown key, -1404 no seat on this device."""
    services.limiter.activation(request, body.licence_key)
    licence = deactivate_device(services.store, services.clock, licence_key=body.licence_key, device_id=body.device_id)
    services.see_latest_write("licences")
    return LicenceStanding.of(Validation(Standing.DEVICE_RELEASED, licence, body.device_id))


@router.get("/.well-known/jwks.json", response_model=KeySet)
def licence_keys(services: ServicesDep) -> KeySet:
    """The public keys licence tokens are signed with (JWKS; ``kid`` is the RFC 7638 thumbprint): the current key,
    then keys rotated out, whose tokens stay verifiable until they expire."""
    return KeySet(keys=[PublicKey(**key) for key in services.licence_signer.jwks()["keys"]])

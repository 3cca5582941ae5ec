"""Read-only operator endpoints behind the admin credential (today the test harness's TEST_ADMIN_TOKEN):
a licence, subscription or payment as it was at a past moment, and the detailed health report."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse

from api.admin_token import admin_only
from api.error_docs import errors
from api.health_report import health_report
from api.schemas import CamelModel
from api.services import ServicesDep
from domain.errors import ErrorCode
from domain.history import as_of

router = APIRouter(prefix="/operator", tags=["operator"], dependencies=[Depends(admin_only)])


class AsOfOut(CamelModel):
    """An aggregate as the log had it at ``at``: its version then, when that version was recorded, its fields."""

    kind: str
    id: UUID
    at: datetime
    version: int
    recorded_at: datetime
    state: dict[str, Any]


@router.get(
    "/history/{kind}/{key}",
    response_model=AsOfOut,
    responses=errors(ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND),
)
def read_as_of(
    kind: Literal["licence", "subscription", "payment"],
    key: str,
    at: Annotated[datetime, Query(description="ISO 8601 moment with its offset")],
    services: ServicesDep,
) -> AsOfOut:
    """The licence (by id), subscription (by id) or payment (by merchantUid) as it was at ``at``."""
    found = as_of(services.store, kind, key, at)
    return AsOfOut(
        kind=found.kind,
        id=found.id,
        at=found.at,
        version=found.version,
        recorded_at=found.recorded_at,
        state=found.state,
    )


@router.get(
    "/health",
    summary="The health report for operators",
    responses={
        200: {"content": {"application/json": {"schema": {"type": "object"}}}},
        503: {"description": "The store does not respond (the same report)", "content": {"application/json": {}}},
        **errors(ErrorCode.UNAUTHORIZED),
    },
)
def operator_health(services: ServicesDep) -> JSONResponse:
    """The store and its log head, each view's position, stalled followers and the broker; status "ok",
    "degraded" (200) or "unavailable" (503)."""
    healthy, report = health_report(services)
    return JSONResponse(status_code=200 if healthy else 503, content=report)

"""Liveness and readiness: up (200) while the event store answers, down (503) without it.

The public answer says only that: where the log is, which views follow it and how the broker is doing are
for operators (``GET /operator/health`` behind the operator credential, and ``python -m projections status``).
Without the store nothing works: 503, and a load balancer takes the process out. Without the broker
purchases still work (the log is the outbox: the reactor sends the tasks once the broker is back), so the
API stays up, and the operators' report says it is degraded."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.schemas import CamelModel
from api.services import ServicesDep

router = APIRouter(tags=["health"])


class Health(CamelModel):
    """Up or down, nothing more."""

    status: Literal["up", "down"]


@router.get(
    "/health",
    summary="Is the API up",
    response_model=Health,
    responses={503: {"description": "The store does not respond", "model": Health}},
)
def health(services: ServicesDep) -> JSONResponse:
    """200 "up" while the event store responds, else 503 "down"."""
    try:
        services.store.max_notification_id()
    except Exception:  # any failure of the store means down; the reason is in the operators' report
        return JSONResponse(status_code=503, content=Health(status="down").model_dump())
    return JSONResponse(content=Health(status="up").model_dump())

"""Liveness and readiness: up (200) while the event store answers, down (503) without it.

The public answer says only that: where the log is, which views follow it and how the broker is doing are
for operators (``GET /operator/health`` behind the operator credential, and ``python -m projections status``).
Without the store nothing works: 503, and a load balancer takes the process out. Without the broker
purchases still work (the log is the outbox: the reactor sends the tasks once the broker is back), so the
API stays up, and the operators' report says it is degraded."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.schemas import CamelModel
from api.services import Services, ServicesDep
from integrations.broker import check_broker
from projections.stalls import stalled
from projections.tracking import positions

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


def health_report(services: Services) -> tuple[bool, dict[str, Any]]:
    """Whether the store responds, and the operators' report: the store and its log head, each view's
    position, stalled followers (position, error, attempts, since when), the broker, and a status of "ok",
    "degraded" (no broker, or a follower stalled) or "unavailable" (no store)."""
    report: dict[str, Any] = {"store": services.settings.store_kind}
    healthy, degraded = True, False
    try:
        report["logHead"] = services.store.max_notification_id()
        report["views"] = positions(services.views, services.store.name)
        report["stalled"] = stalled(services.views, services.store.name)
        report["storeStatus"] = "ok"
        degraded = bool(report["stalled"])  # a view or the reactor retrying an event: serving, but behind
    except Exception as error:  # any failure of the store means unhealthy, with the reason
        healthy = False
        report["storeStatus"] = f"error: {type(error).__name__}"
    try:
        check_broker(services.settings)
        report["brokerStatus"] = "ok"
    except Exception as error:  # the broker's failure degrades the service, it does not stop it
        degraded = True
        report["brokerStatus"] = f"error: {type(error).__name__}"
    report["status"] = "unavailable" if not healthy else "degraded" if degraded else "ok"
    return healthy, report

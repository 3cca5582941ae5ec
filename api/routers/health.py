"""Liveness and readiness: is the event store reachable, is the broker reachable.

Without the store nothing works: 503, and a load balancer takes the process out. Without the broker
purchases still work (the log is the outbox: the reactor sends the tasks once the broker is back),
so the API stays in service and says it is degraded."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.services import ServicesDep
from integrations.broker import check_broker
from projections.stalls import stalled
from projections.tracking import positions

router = APIRouter(tags=["health"])


@router.get(
    "/health",
    summary="Health of the store and the broker",
    responses={
        503: {
            "description": "The store does not respond (the same report)",
            "content": {"application/json": {"schema": {}}},
        }
    },
)
def health(services: ServicesDep) -> JSONResponse:
    """200 when the store responds (status "ok", or "degraded" without the broker or with a stalled
    follower, listed under "stalled" with its position and error), else 503."""
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
    return JSONResponse(status_code=200 if healthy else 503, content=report)

"""Liveness and readiness: is the event store reachable, is the broker reachable."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.services import ServicesDep
from integrations.broker import check_broker
from projections.tracking import positions

router = APIRouter(tags=["health"])


@router.get(
    "/health",
    summary="Health of the store and the broker",
    responses={
        503: {
            "description": "The store or the broker does not respond (the same report)",
            "content": {"application/json": {"schema": {}}},
        }
    },
)
def health(services: ServicesDep) -> JSONResponse:
    """Answers 200 when the event store and the broker both respond, else 503."""
    report: dict[str, Any] = {"store": services.settings.store_kind}
    healthy = True
    try:
        report["logHead"] = services.store.max_notification_id()
        report["views"] = positions(services.views, services.store.name)
        report["storeStatus"] = "ok"
    except Exception as error:  # any failure of the store means unhealthy, with the reason
        healthy = False
        report["storeStatus"] = f"error: {type(error).__name__}"
    try:
        check_broker(services.settings)
        report["brokerStatus"] = "ok"
    except Exception as error:  # same for the broker
        healthy = False
        report["brokerStatus"] = f"error: {type(error).__name__}"
    report["status"] = "ok" if healthy else "unavailable"
    return JSONResponse(status_code=200 if healthy else 503, content=report)

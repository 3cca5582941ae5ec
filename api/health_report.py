"""The operators' health report: the store and its log head, each view's position, stalled followers, the
broker (``GET /operator/health``)."""

from __future__ import annotations

from typing import Any

from api.services import Services
from eventlog.tracking import positions
from integrations.broker import check_broker
from projections.stalls import stalled


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

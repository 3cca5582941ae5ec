"""Tracking lives in ``eventlog.tracking`` (the transparency log's follower tracks its position the same way);
these names stay importable from here."""

from eventlog.tracking import (
    TRACKING_DDL,
    VERSIONS_DDL,
    PositionMovedError,
    advance,
    built_version,
    ensure_tracking_row,
    positions,
    record_version,
    reset,
    wait_for_views,
)

__all__ = [
    "TRACKING_DDL",
    "VERSIONS_DDL",
    "PositionMovedError",
    "advance",
    "built_version",
    "ensure_tracking_row",
    "positions",
    "record_version",
    "reset",
    "wait_for_views",
]

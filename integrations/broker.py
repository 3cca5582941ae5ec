"""The Celery broker connection: Redis when configured, else the embedded SQLite broker under var/broker/."""

from __future__ import annotations

from typing import Any

from kombu.transport import TRANSPORT_ALIASES

from config.settings import Settings
from integrations import sqlite_broker

# ``sqlite-queue://`` (Settings.broker_url without Redis) names the embedded broker for kombu and Celery.
TRANSPORT_ALIASES.setdefault(sqlite_broker.SCHEME, f"{sqlite_broker.__name__}:Transport")


def broker_transport_options(settings: Settings) -> dict[str, Any]:
    """Transport options: Redis's visibility timeout and sweeps, or the embedded broker's file and lease."""
    if settings.uses_redis:
        timeout = settings.broker_visibility_timeout
        # A task a killed worker held goes back to the queue once it is ``timeout`` old, at the next sweep
        # for abandoned messages. kombu sweeps every 10 s x 10 calls by default (about 100 s, far longer than a
        # short timeout); one sweep every few seconds is one cheap Redis query.
        return {
            "visibility_timeout": timeout,
            "unacked_restore_interval": max(1, min(10, timeout // 2)),
            "unacked_restore_throttle": 1,
        }
    settings.broker_folder.mkdir(parents=True, exist_ok=True)
    # A message a killed worker held is ready again once its lease (the visibility timeout) runs out.
    return {
        "database": str(settings.broker_folder / "messages.sqlite3"),
        "visibility_timeout": settings.broker_visibility_timeout,
    }


def check_broker(settings: Settings, timeout: float = 2.0) -> None:
    """Raise if the broker cannot be reached (used by the health endpoint)."""
    from kombu.connection import Connection

    with Connection(  # type: ignore[no-untyped-call]
        settings.broker_url,
        transport_options=broker_transport_options(settings),
        connect_timeout=timeout,
    ) as connection:
        connection.ensure_connection(max_retries=1, timeout=timeout)
        if settings.uses_redis:
            connection.default_channel.client.ping()

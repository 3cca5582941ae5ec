"""The Celery broker connection: Redis when configured, else a file-system queue under var/."""

from __future__ import annotations

from typing import Any

from config.settings import Settings


def broker_transport_options(settings: Settings) -> dict[str, Any]:
    """Transport options; the file-system broker needs its folders."""
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
    folder = settings.broker_folder
    for sub in ("queue", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
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

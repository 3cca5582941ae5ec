"""Connection pools that test a connection only when it has been unused a while."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any


def checked_when_idle(check: Callable[[Any], None], idle_seconds: float = 1.0) -> Callable[[Any], None]:
    """A pool's connection check that only runs on a connection last taken out more than ``idle_seconds`` ago."""
    taken: dict[int, float] = {}

    def maybe_check(conn: Any) -> None:
        now = time.monotonic()
        if now - taken.get(id(conn), 0.0) > idle_seconds:
            check(conn)
        taken[id(conn)] = now

    return maybe_check


def checked_when_idle_async(
    check: Callable[[Any], Awaitable[None]], idle_seconds: float = 1.0
) -> Callable[[Any], Awaitable[None]]:
    """``checked_when_idle`` for an async pool."""
    taken: dict[int, float] = {}

    async def maybe_check(conn: Any) -> None:
        now = time.monotonic()
        if now - taken.get(id(conn), 0.0) > idle_seconds:
            await check(conn)
        taken[id(conn)] = now

    return maybe_check

"""Gateway faults on demand: slow answers, calls that fail, and calls whose answer is lost.

A real gateway answers after a few hundred milliseconds, sometimes fails with a 500 without doing
anything, and sometimes does what was asked but the answer never arrives. The sandbox does the
same to its REST API (not to its own ``/sandbox/*`` pages) when told:

- ``latency_seconds``: every answer waits this long after the call has acted (a wait longer than
  the client's timeout is a charge made whose answer is lost to the timeout);
- ``fail_next``: the next N calls answer 500 and do nothing;
- ``lose_next``: the next N calls act, then answer 500 instead of their result;
- ``stall_after``: the next N calls answer, and every call after them acts, then answers nothing until the plan
  is changed (a gateway that took the charges and went silent: a test can kill a worker while its charges hang).

``path_prefix`` limits the faults to calls under one path (``/subscribe/payments/again``, say).
Set at start-up (``PORTONE_SANDBOX_LATENCY_SECONDS``) or at run time with ``POST /sandbox/faults``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import asdict, dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FAULT_BODY = json.dumps({"code": -1, "message": "sandbox fault: the gateway failed", "response": None}).encode()


@dataclass(frozen=True)
class FaultPlan:
    """What the sandbox does wrong, from now on."""

    latency_seconds: float = 0.0
    fail_next: int = 0
    lose_next: int = 0
    path_prefix: str = ""
    stall_after: int = -1  # negative: never


class Faults:
    """The current plan and what is left of it (thread-safe: sync routes run in a thread pool)."""

    def __init__(self, latency_seconds: float = 0.0) -> None:
        self._lock = threading.Lock()
        self._plan = FaultPlan(latency_seconds=latency_seconds)
        self._version = 0

    def set(self, plan: FaultPlan) -> None:
        with self._lock:
            self._plan = plan
            self._version += 1

    def version(self) -> int:
        """How many plans were set: a stalled call answers once it changes."""
        with self._lock:
            return self._version

    def plan(self) -> FaultPlan:
        with self._lock:
            return self._plan

    def take(self, path: str) -> tuple[str, float, int]:
        """What to do to a call on ``path``: ("fail" | "lose" | "stall" | "answer", latency, the plan's version)."""
        with self._lock:
            plan = self._plan
            if not path.startswith(plan.path_prefix):
                return "answer", 0.0, self._version
            if plan.fail_next > 0:
                self._plan = FaultPlan(**{**asdict(plan), "fail_next": plan.fail_next - 1})
                return "fail", plan.latency_seconds, self._version
            if plan.lose_next > 0:
                self._plan = FaultPlan(**{**asdict(plan), "lose_next": plan.lose_next - 1})
                return "lose", plan.latency_seconds, self._version
            if plan.stall_after == 0:
                return "stall", plan.latency_seconds, self._version
            if plan.stall_after > 0:
                self._plan = FaultPlan(**{**asdict(plan), "stall_after": plan.stall_after - 1})
            return "answer", plan.latency_seconds, self._version


class FaultInjection:
    """ASGI middleware applying the plan to the REST API."""

    def __init__(self, app: ASGIApp, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/sandbox"):
            await self.app(scope, receive, send)
            return
        action, latency, version = self.faults.take(scope["path"])
        if action == "fail":
            await asyncio.sleep(latency)
            await _server_error(send)
            return
        held: list[Message] = []

        async def hold(message: Message) -> None:
            held.append(message)

        await self.app(scope, receive, hold)
        await asyncio.sleep(latency)
        while action == "stall" and self.faults.version() == version:
            await asyncio.sleep(0.05)
        if action == "lose":
            await _server_error(send)
            return
        for message in held:
            await send(message)


async def _server_error(send: Send) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(FAULT_BODY)).encode())]
    await send({"type": "http.response.start", "status": 500, "headers": headers})
    await send({"type": "http.response.body", "body": FAULT_BODY})

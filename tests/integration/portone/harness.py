"""Test harness: the sandbox served by uvicorn on a loopback port, a webhook receiver, a test clock."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from integrations.portone import PortOneClient
from integrations.portone.sandbox import SandboxSettings, create_sandbox_app

IMP_KEY = "test-imp-key"
IMP_SECRET = "test-imp-secret"
START = datetime(2026, 11, 2, 3, 0, tzinfo=UTC)


class TestClock:
    """A clock the test moves by hand; shared by the sandbox and the client."""

    __test__ = False

    def __init__(self, start: datetime = START) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta) -> None:
        """Move time forward."""
        with self._lock:
            self._now += delta


class SharedClock:
    """The domain's Clock, reading the same test clock the sandbox uses."""

    def __init__(self, test_clock: TestClock) -> None:
        self._test_clock = test_clock

    def now(self) -> datetime:
        return self._test_clock()


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll until predicate holds (True) or the timeout passes (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@dataclass
class WebhookReceiver:
    """A small HTTP server on loopback recording the JSON bodies POSTed to it."""

    url: str
    received: list[dict[str, Any]] = field(default_factory=list)

    def wait_for(self, **expected: str) -> dict[str, Any]:
        """The first webhook whose fields match, waiting for it to arrive."""

        def find() -> dict[str, Any] | None:
            for body in list(self.received):
                if all(body.get(k) == v for k, v in expected.items()):
                    return body
            return None

        assert wait_until(lambda: find() is not None), f"no webhook {expected}: {self.received}"
        found = find()
        assert found is not None
        return found

    def matching(self, **expected: str) -> list[dict[str, Any]]:
        """Every webhook received so far whose fields match."""
        return [b for b in self.received if all(b.get(k) == v for k, v in expected.items())]


def closed_port_url() -> str:
    """A loopback URL nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/webhook"


class RunningSandbox:
    """The sandbox app served by uvicorn in a background thread; restartable on the same file."""

    def __init__(self, db_path: Path, notice_url: str | None, clock: TestClock) -> None:
        self.db_path = db_path
        self.notice_url = notice_url
        self.clock = clock
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""
        self.http = httpx.Client(timeout=10)

    def start(self) -> None:
        """Serve on a fresh free loopback port."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        settings = SandboxSettings(
            imp_key=IMP_KEY,
            imp_secret=IMP_SECRET,
            db_path=self.db_path,
            public_url=self.base_url,
            notice_url=self.notice_url,
            webhook_timeout_seconds=2.0,
        )
        app = create_sandbox_app(settings, clock=self.clock)
        config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        server = self._server
        assert wait_until(lambda: server.started, timeout=10), "the sandbox did not start"

    def stop(self) -> None:
        """Shut uvicorn down (runs the app's shutdown: webhooks flushed, store closed)."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = None
        self._thread = None

    def restart(self) -> None:
        """Stop and start again on the same SQLite file (the port changes)."""
        self.stop()
        self.start()

    def client(self, **kwargs: Any) -> PortOneClient:
        """A PortOne client pointed at this sandbox, on the test clock."""
        return PortOneClient(self.base_url, IMP_KEY, IMP_SECRET, clock=self.clock, **kwargs)

    def plan_faults(self, **plan: Any) -> None:
        """From now on the REST API misbehaves so (latency_seconds, fail_next, lose_next, path_prefix)."""
        response = self.http.post(f"{self.base_url}/sandbox/faults", json=plan)
        assert response.status_code == 200, response.text

    def charges_for(self, merchant_uid: str) -> list[str]:
        """The status of every payment the gateway holds for one merchantUid (read from its own file)."""
        with sqlite3.connect(self.db_path) as db:
            rows = db.execute("SELECT data FROM payments WHERE merchant_uid = ? ORDER BY seq", (merchant_uid,))
            return [json.loads(data)["status"] for (data,) in rows]

    # The customer's side, as a browser or the e2e tests drive it.

    def checkout(self, **params: Any) -> dict[str, Any]:
        """Complete request_pay in the sandbox's PG window; returns the SDK callback object."""
        response = self.http.post(f"{self.base_url}/sandbox/checkout", json=params)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def deposit(self, imp_uid: str) -> httpx.Response:
        """The buyer pays into a virtual account."""
        return self.http.post(f"{self.base_url}/sandbox/deposit/{imp_uid}")

    def replay_webhook(self, imp_uid: str) -> httpx.Response:
        """Ask the sandbox to send a payment's webhook again."""
        return self.http.post(f"{self.base_url}/sandbox/webhooks/replay/{imp_uid}")

    def close(self) -> None:
        """Stop the server and the helper HTTP client."""
        self.stop()
        self.http.close()

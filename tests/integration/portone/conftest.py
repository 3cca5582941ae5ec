"""Fixtures: the PortOne sandbox over real HTTP on 127.0.0.1, a webhook receiver, a test clock.

Every test talks to the sandbox through the same client the storefront uses.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from integrations.portone import PortOneClient
from tests.integration.portone.harness import RunningSandbox, TestClock, WebhookReceiver


@pytest.fixture
def webhook_receiver() -> Iterator[WebhookReceiver]:
    """Records the sandbox's webhooks (the storefront's notice URL in real life)."""
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            received.append(json.loads(self.rfile.read(length) or b"{}"))
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield WebhookReceiver(url=f"http://{host!s}:{port}/web/unicornpro/v1/payments/webhook", received=received)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def clock() -> TestClock:
    """Time for the sandbox and the client, moved by the test."""
    return TestClock()


@pytest.fixture
def start_sandbox(tmp_path: Path, clock: TestClock) -> Iterator[Callable[..., RunningSandbox]]:
    """Start a sandbox (several may run in one test); all are stopped afterwards."""
    running: list[RunningSandbox] = []

    def start(notice_url: str | None = None, db_name: str = "portone-sandbox.sqlite3") -> RunningSandbox:
        sandbox = RunningSandbox(tmp_path / db_name, notice_url, clock)
        sandbox.start()
        running.append(sandbox)
        return sandbox

    yield start
    for sandbox in running:
        sandbox.close()


@pytest.fixture
def sandbox(start_sandbox: Callable[..., RunningSandbox], webhook_receiver: WebhookReceiver) -> RunningSandbox:
    """A sandbox whose webhooks go to the test's receiver."""
    return start_sandbox(notice_url=webhook_receiver.url)


@pytest.fixture
def portone(sandbox: RunningSandbox) -> Iterator[PortOneClient]:
    """The storefront's PortOne client, talking to the sandbox."""
    with sandbox.client() as client:
        yield client

"""A 500 reaches a local stand-in for Sentry as a warning, with no secret in it."""

from __future__ import annotations

import gzip
import json
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import sentry_sdk
from fastapi.testclient import TestClient

from api.app import create_app
from api.middleware import API_PREFIX
from api.services import Services
from tests.conftest import make_settings

pytestmark = pytest.mark.integration

# Built at run time so that the test's own source lines (which Sentry quotes) hold none of them.
SECRETS = [
    "".join(parts)
    for parts in (
        ("Sup3r", "SecretPw"),
        ("4111", "1111" * 3),
        ("tok-", "access"),
        ("rt-", "refresh"),
        ("90", "0101"),
    )
]


class _Receiver(BaseHTTPRequestHandler):
    envelopes: list[bytes] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding == "br":
            import brotli  # type: ignore[import-not-found]

            body = brotli.decompress(body)
        self.envelopes.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def sentry_receiver() -> Iterator[tuple[str, list[bytes]]]:
    _Receiver.envelopes = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://publickey@127.0.0.1:{server.server_port}/42", _Receiver.envelopes
    server.shutdown()
    sentry_sdk.get_client().close()
    # The SDK's patches of FastAPI outlive its client; an inactive client with the SDK's default options would
    # read request bodies (and starve a multipart form read after it), which ours never does.
    sentry_sdk.init(dsn=None, max_request_body_size="never")


def _items(envelopes: list[bytes]) -> list[dict[str, object]]:
    items = []
    for envelope in envelopes:
        for line in envelope.split(b"\n"):
            try:
                parsed = json.loads(line)
            except ValueError:
                continue
            if isinstance(parsed, dict) and ("exception" in parsed or "level" in parsed):
                items.append(parsed)
    return items


def test_a_server_error_is_reported_as_a_warning_without_secrets(
    sentry_receiver: tuple[str, list[bytes]], tmp_path: Path
) -> None:
    dsn, envelopes = sentry_receiver
    services = Services.build(make_settings(tmp_path, SENTRY_DSN=dsn))
    app = create_app(services=services)

    @app.post(f"{API_PREFIX}/test/crash")
    def crash(body: dict[str, str]) -> None:
        raise RuntimeError("card handling failed")

    app.router.routes.sort(key=lambda route: getattr(route, "path", "") == "/{path:path}")
    client = TestClient(app, raise_server_exceptions=False)
    response = client.post(
        f"{API_PREFIX}/test/crash?t={SECRETS[2]}",
        json={"pw": SECRETS[0], "cardNumber": SECRETS[1], "birth": SECRETS[4]},
        headers={"Authorization": f"Bearer {SECRETS[2]}"},
        cookies={"rt": SECRETS[3]},
    )
    assert response.status_code == 500
    sentry_sdk.flush(timeout=5)
    services.close()

    events = _items(envelopes)
    assert len(events) == 1, events
    assert events[0]["level"] == "warning"
    assert "card handling failed" in json.dumps(events[0])
    raw = b"".join(envelopes).decode("utf-8", "replace")
    for secret in SECRETS:
        assert secret not in raw, f"{secret} leaked to the error reporter"


def test_without_a_dsn_nothing_is_set_up(tmp_path: Path) -> None:
    from integrations.observability import init_sentry

    assert init_sentry(make_settings(tmp_path)) is False

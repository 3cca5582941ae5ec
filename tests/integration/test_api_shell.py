"""The API shell: envelope, validation codes, budget, crash boundary, OpenAPI, health and the web app."""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.middleware import API_PREFIX
from api.services import Services
from config.settings import Settings
from tests.conftest import make_settings

pytestmark = pytest.mark.integration
OPERATOR_TOKEN = "operator-token"


@pytest.fixture
def app(settings: Settings, tmp_path: Path) -> Iterator[FastAPI]:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><div id=root>shell</div>")
    (dist / "assets" / "main.js").write_text("console.log('app')")
    (dist / "assets" / "main.js.gz").write_bytes(gzip.compress(b"console.log('app')"))
    (dist / "assets" / "main.js.br").write_bytes(b"not really brotli")  # only its headers are checked
    tuned = settings.model_copy(
        update={"web_dist_dir": dist, "request_budget_seconds": 5.0, "test_admin_token": OPERATOR_TOKEN}
    )
    services = Services.build(tuned)
    application = create_app(services=services)

    @application.get(f"{API_PREFIX}/test/crash", include_in_schema=False)
    def crash() -> None:
        raise RuntimeError("boom")

    @application.get(f"{API_PREFIX}/test/slow", include_in_schema=False)
    async def slow() -> dict[str, str]:
        import asyncio

        await asyncio.sleep(60)  # far past the 5 s budget: even a loaded host answers long before it ends
        return {"late": "yes"}

    # Test-only routes must come before the web app's catch-all route.
    application.router.routes.sort(key=lambda route: getattr(route, "path", "") == "/{path:path}")
    yield application
    services.close()


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


def test_an_unknown_api_path_answers_404_in_the_envelope(client: TestClient) -> None:
    response = client.get(f"{API_PREFIX}/no/such/thing", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert response.status_code == 404
    assert response.json() == {"errorCode": 404, "message": "The information does not exist."}


def test_a_missing_parameter_is_minus_one_and_a_malformed_one_minus_two_never_422(client: TestClient) -> None:
    missing = client.get(f"{API_PREFIX}/accounts/check")
    malformed = client.get(f"{API_PREFIX}/accounts/check", params={"email": "no-at-sign", "localeCode": "ja"})
    assert (missing.status_code, missing.json()["errorCode"]) == (400, -1)
    assert (malformed.status_code, malformed.json()) == (400, {"errorCode": -2, "message": "無効な値です。"})


def test_a_body_that_is_not_even_text_is_minus_two(client: TestClient) -> None:
    garbled = client.post(
        f"{API_PREFIX}/auth/login", content=b"\xff\xfe{", headers={"Content-Type": "application/json"}
    )
    assert (garbled.status_code, garbled.json()["errorCode"]) == (400, -2)


def test_a_crash_becomes_a_500_envelope_not_a_stack_trace(client: TestClient) -> None:
    response = client.get(f"{API_PREFIX}/test/crash")
    assert response.status_code == 500
    assert response.json()["errorCode"] == 500
    assert "boom" not in response.text


def test_a_request_over_its_budget_is_answered_without_waiting_for_it(client: TestClient) -> None:
    started = time.monotonic()
    response = client.get(f"{API_PREFIX}/test/slow")
    assert time.monotonic() - started < 20
    assert (response.status_code, response.json()["errorCode"]) == (503, -1002)


def test_openapi_describes_the_api_under_its_base_path(app: FastAPI, client: TestClient) -> None:
    app.openapi()  # built once, then cached: the fixture's budget is for handlers, not this build
    spec = client.get(f"{API_PREFIX}/openapi.json").json()
    assert f"{API_PREFIX}/accounts/check" in spec["paths"]
    assert f"{API_PREFIX}/health" in spec["paths"]


def test_health_says_up_and_the_operators_report_says_the_rest(client: TestClient, store_kind: str) -> None:
    public = client.get(f"{API_PREFIX}/health")
    assert (public.status_code, public.json()) == (200, {"status": "up"}), "no log head, views or broker for all"

    report = client.get(f"{API_PREFIX}/operator/health", headers={"X-Admin-Token": OPERATOR_TOKEN})
    assert report.status_code == 200
    body = report.json()
    assert (body["status"], body["store"], body["storeStatus"], body["brokerStatus"]) == (
        "ok",
        store_kind,
        "ok",
        "ok",
    )
    assert {"logHead", "views", "stalled"} <= set(body)
    assert client.get(f"{API_PREFIX}/operator/health").status_code == 401


def test_health_stays_up_when_the_broker_is_unreachable_and_operators_see_it_degraded(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, REDIS_URL="redis://127.0.0.1:1/0", TEST_ADMIN_TOKEN=OPERATOR_TOKEN)
    services = Services.build(settings)
    client = TestClient(create_app(services=services))
    public = client.get(f"{API_PREFIX}/health")
    report = client.get(f"{API_PREFIX}/operator/health", headers={"X-Admin-Token": OPERATOR_TOKEN})
    services.close()
    assert (public.status_code, public.json()) == (200, {"status": "up"})  # purchases work: the log is the outbox
    assert report.status_code == 200
    assert report.json()["status"] == "degraded"
    assert report.json()["brokerStatus"].startswith("error")


def test_assets_go_compressed_in_the_best_coding_the_browser_accepts(client: TestClient) -> None:
    brotli = client.get("/assets/main.js", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert (brotli.headers["content-encoding"], brotli.headers["vary"]) == ("br", "Accept-Encoding")
    assert brotli.headers["content-type"].startswith("text/javascript")
    assert "immutable" in brotli.headers["cache-control"]
    gzipped = client.get("/assets/main.js", headers={"Accept-Encoding": "gzip, br;q=0"})
    assert gzipped.headers["content-encoding"] == "gzip" and gzipped.text == "console.log('app')"
    plain = client.get("/assets/main.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == "console.log('app')"


def test_json_answers_over_a_kilobyte_go_gzipped_to_clients_that_accept_it(client: TestClient) -> None:
    catalogue = f"{API_PREFIX}/purchasable-licenses/new"
    plain = client.get(catalogue, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and len(plain.content) > 10_000

    with client.stream("GET", catalogue, headers={"Accept-Encoding": "gzip, deflate, br"}) as gzipped:
        raw = b"".join(gzipped.iter_raw())
    assert (gzipped.headers["content-encoding"], gzipped.headers["vary"]) == ("gzip", "Accept-Encoding")
    assert int(gzipped.headers["content-length"]) == len(raw) < len(plain.content) / 5
    assert gzip.decompress(raw) == plain.content

    small = client.get(f"{API_PREFIX}/nowhere", headers={"Accept-Encoding": "gzip"})  # the 404 envelope
    assert len(small.content) < 1000 and "content-encoding" not in small.headers
    asset = client.get("/assets/main.js", headers={"Accept-Encoding": "gzip, br"})
    assert asset.headers["content-encoding"] == "br", "assets keep the coding they were compressed in ahead of time"


def test_the_web_app_is_served_with_a_fallback_for_client_routes(client: TestClient) -> None:
    assert "shell" in client.get("/").text
    assert "shell" in client.get("/ko/license/42").text
    asset = client.get("/assets/main.js")
    assert asset.status_code == 200 and "immutable" in asset.headers["cache-control"]
    assert client.get("/assets/missing.js").status_code == 404
    assert (
        client.get("/../pyproject.toml").status_code in (404, 200)
        and "setuptools" not in client.get("/%2e%2e/pyproject.toml").text
    )

"""The stores' stand-ins served by uvicorn on a loopback port, our API in front of them (real HTTP between our
adapters and the stand-ins), on each store, on one test clock."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
import uvicorn
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from bootstrap.app_stores import store_rules
from config.settings import Settings
from domain.app_stores.ports import StoreGateways
from integrations.app_store.adapter import AppleAppStore, PointedAppStoreServerAPIClient
from integrations.app_store.keys import API_ISSUER_ID, API_KEY_ID
from integrations.app_store.keys import StandInKeys as AppleKeys
from integrations.app_store.standin import AppStoreStandIn
from integrations.google_play.adapter import PlayStore
from integrations.google_play.keys import PUSH_ACCOUNT
from integrations.google_play.keys import StandInKeys as GoogleKeys
from integrations.google_play.standin import GooglePlayStandIn
from integrations.stores import create_stores_app
from tests.fakes import PlainHasher
from tests.integration.portone.harness import SharedClock, TestClock, wait_until
from tests.support import register_confirmed, running_projector

V1 = "/web/unicornpro/v1"
BUNDLE = "com.unicornpro.adblock"
PACKAGE = "com.unicornpro.adblock"
AUDIENCE = "https://store.test/web/unicornpro/v1/app-stores/google-play/notifications"
CUSTOMER = "ios-buyer@example.com"
PASSWORD = "abcd1234"


class RunningStores:
    """Both stand-ins behind one loopback address, in a thread."""

    def __init__(self, tmp_path: Path, clock: TestClock) -> None:
        self.apple_keys = AppleKeys.load_or_create(tmp_path / "stand-ins" / "app-store")
        self.google_keys = GoogleKeys.load_or_create(tmp_path / "stand-ins" / "google-play")
        self.apple = AppStoreStandIn(self.apple_keys, bundle_id=BUNDLE, clock=clock)
        self.google = GooglePlayStandIn(self.google_keys, package_name=PACKAGE, push_audience=AUDIENCE, clock=clock)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = uvicorn.Config(create_stores_app(self.apple, self.google), log_level="warning", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        server = self._server
        assert wait_until(lambda: server.started, timeout=10), "the stand-ins did not start"
        self.http = httpx.Client(base_url=self.base_url, timeout=10)

    def gateways(self) -> StoreGateways:
        """Our adapters, pointed at the stand-ins and trusting their test root."""
        verifier = SignedDataVerifier([self.apple_keys.root_der], False, Environment.SANDBOX, BUNDLE)
        api = PointedAppStoreServerAPIClient(
            self.apple_keys.api_key_pem,
            API_KEY_ID,
            API_ISSUER_ID,
            BUNDLE,
            Environment.SANDBOX,
            f"{self.base_url}/app-store",
        )
        google = PlayStore(
            package_name=PACKAGE,
            api_url=f"{self.base_url}/google-play",
            service_account_info=self.google_keys.service_account_info(f"{self.base_url}/google-play/token"),
            push_audience=AUDIENCE,
            push_service_account=PUSH_ACCOUNT,
            certs_url=f"{self.base_url}/google-play/oauth2/v3/certs",
        )
        return StoreGateways(
            app_store=AppleAppStore(verifier, api),
            google_play=google,
            rules=store_rules(Settings()),
            notification_window=timedelta(hours=96),
            reconcile_after=timedelta(hours=1),
        )

    def post(self, path: str, **kwargs: Any) -> dict[str, Any]:
        answer = self.http.post(path, **kwargs)
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def close(self) -> None:
        self.http.close()
        self._server.should_exit = True
        self._thread.join(timeout=10)


@dataclass
class StoreDesk:
    """A customer, our API, both stores' stand-ins and the test clock."""

    client: TestClient
    services: Services
    clock: TestClock
    stores: RunningStores
    account_id: str
    tokens: dict[str, tuple[str, datetime]] = field(default_factory=dict)

    def call(self, method: str, path: str, *, as_email: str = CUSTOMER, **kwargs: Any) -> httpx.Response:
        """A bearer call (logins are rate limited: a token is kept while the moving clock leaves it alive)."""
        kept = self.tokens.get(as_email)
        if kept is None or self.clock() >= kept[1]:
            login = self.client.post(f"{V1}/auth/login", json={"email": as_email, "pw": PASSWORD})
            assert login.status_code == 200, login.text
            kept = (login.json()["accessToken"], self.clock() + timedelta(minutes=25))
            self.tokens[as_email] = kept
        headers = {"Authorization": f"Bearer {kept[0]}"}
        return self.client.request(method, f"{V1}{path}", headers=headers, **kwargs)

    # The App Store

    def buy_in_app_store(self, product: str = "unicornpro.pro.ios.annual1", **extra: Any) -> dict[str, Any]:
        body = {"productId": product, "appAccountToken": self.account_id, **extra}
        return self.stores.post("/app-store/standin/purchases", json=body)

    def in_app_store(self, original_transaction_id: str, what: str, **params: Any) -> dict[str, Any]:
        return self.stores.post(f"/app-store/standin/subscriptions/{original_transaction_id}/{what}", params=params)

    def apple_sends(self, signed_payload: str) -> httpx.Response:
        """Apple delivers a notification to our endpoint."""
        return self.client.post(f"{V1}/app-stores/app-store/notifications", json={"signedPayload": signed_payload})

    # Google Play

    def buy_in_google_play(self, product: str = "unicornpro.pro.android.monthly1") -> dict[str, Any]:
        body = {"productId": product, "obfuscatedExternalAccountId": self.account_id}
        return self.stores.post("/google-play/standin/purchases", json=body)

    def in_google_play(self, token: str, what: str) -> dict[str, Any]:
        return self.stores.post(f"/google-play/standin/purchases/{token}/{what}")

    def google_pushes(self, pushed: dict[str, Any], authorization: str | None = None) -> httpx.Response:
        """Pub/Sub pushes a notification to our endpoint, with its OIDC token."""
        headers = {"Authorization": authorization or pushed["authorization"]}
        return self.client.post(f"{V1}/app-stores/google-play/notifications", json=pushed["push"], headers=headers)

    # What the customer and the apps see

    def licence(self, user_licence_id: str) -> dict[str, Any]:
        answer = self.call("GET", f"/licenses/mine/{user_licence_id}")
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def validate(self, licence_key: str, platform: str, device: str = "phone-1") -> str:
        body = {"licenceKey": licence_key, "deviceId": device, "platform": platform}
        answer = self.client.post(f"{V1}/apps/v1/licence/validate", json=body)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["status"])

    def activate(self, licence_key: str, platform: str, device: str = "phone-1") -> str:
        body = {"licenceKey": licence_key, "deviceId": device, "deviceName": "Phone", "platform": platform}
        answer = self.client.post(f"{V1}/apps/v1/licence/activate", json=body)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["status"])

    def later(self, **delta: float) -> None:
        self.clock.advance(timedelta(**delta))


@pytest.fixture
def clock() -> TestClock:
    return TestClock()


@pytest.fixture
def stand_ins(tmp_path: Path, clock: TestClock) -> Iterator[RunningStores]:
    running = RunningStores(tmp_path, clock)
    yield running
    running.close()


@pytest.fixture
def desk(settings: Settings, stand_ins: RunningStores, clock: TestClock) -> Iterator[StoreDesk]:
    services = Services.build(settings, clock=SharedClock(clock), hasher=PlainHasher(), stores=stand_ins.gateways())
    client = TestClient(create_app(services=services))
    with running_projector(settings):
        account_id = register_confirmed(client, services, CUSTOMER, PASSWORD)
        yield StoreDesk(client, services, clock, stand_ins, account_id)
    services.close()


def account(desk: StoreDesk) -> UUID:
    return UUID(desk.account_id)

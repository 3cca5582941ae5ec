"""The shop the attacker probes in findings 6-10: the API on the test's store, reached from a given address,
directly or through the local proxy (a test module takes the ``shop`` fixture by importing it)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.accounts.account import Account
from domain.accounts.outgoing import confirmation_link
from domain.links import CONFIRMATION_PATH, SiteLinks
from tests.fakes import ManualClock, PlainHasher
from tests.support import START, running_projector

V1 = "/web/unicornpro/v1"
PASSWORD = "abcd1234"
OPERATOR_TOKEN = "operator-token"


@dataclass
class Shop:
    """The API with its services; ``peer`` connects from an address, ``proxy`` is the trusted local proxy."""

    services: Services
    settings: Settings
    clock: ManualClock
    app: FastAPI

    def peer(self, address: str) -> TestClient:
        """A client connecting from ``address`` itself (no proxy in between)."""
        return TestClient(self.app, client=(address, 50000))

    def via_proxy(self, client: str, method: str, path: str, **kwargs: Any) -> Any:
        """A request the local proxy (127.0.0.1, trusted by default) passes on for ``client``."""
        headers = {"X-Forwarded-For": client, **kwargs.pop("headers", {})}
        self.proxy.cookies.clear()  # each request carries only the cookies it is given: clients share no jar
        if "cookies" in kwargs:
            self.proxy.cookies.update(kwargs.pop("cookies"))
        return self.proxy.request(method, f"{V1}{path}", headers=headers, **kwargs)

    @property
    def proxy(self) -> TestClient:
        if not hasattr(self, "_proxy"):
            self._proxy = self.peer("127.0.0.1")
        return self._proxy

    def account(self, account_id: str) -> Account:
        """The account aggregate as the log has it."""
        account: Account = self.services.store.repository.get(UUID(account_id))
        return account

    def customer(self, email: str, client: str = "192.0.2.200") -> dict[str, Any]:
        """Register, confirm through the mailed link and log in; the login's answer and its cookies."""
        registered = self.via_proxy(
            client, "POST", "/accounts", json={"email": email, "pw": PASSWORD, "language": "en"}
        )
        assert registered.status_code == 200, registered.text
        link = confirmation_link(
            self.settings.auth_secret,
            SiteLinks(self.settings.base_url),
            self.account(registered.json()["userId"]),
            self.clock.now(),
        )
        confirmed = self.proxy.get(link[link.index(CONFIRMATION_PATH) :], follow_redirects=False)
        assert "errorCode" not in confirmed.headers["location"], confirmed.headers["location"]
        login = self.via_proxy(client, "POST", "/auth/login", json={"email": email, "pw": PASSWORD})
        assert login.status_code == 200, login.text
        return {"id": registered.json()["userId"], "token": login.json()["accessToken"], "cookies": login.cookies}


def shop_of(settings: Settings) -> Iterator[Shop]:
    """A shop on these settings, its projector running."""
    clock = ManualClock(START)
    services = Services.build(settings, clock=clock, hasher=PlainHasher())
    with running_projector(settings):
        yield Shop(services, settings, clock, create_app(services=services))
    services.close()


@pytest.fixture
def shop(settings: Settings) -> Iterator[Shop]:
    """The shop on the test's store (SQLite, then PostgreSQL), with the operator credential of the test harness."""
    yield from shop_of(settings.model_copy(update={"test_admin_token": OPERATOR_TOKEN}))

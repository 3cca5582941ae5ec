"""PostgreSQL goes away mid-purchase and mid-renewal: a clean answer, nothing half-written, pools recover.

The shop runs on a PostgreSQL server of the test's own. While it is down, a confirm answers 503
(-1002) within the request budget. A renewal whose database restarts between the charge and its
record either records it (the store's own retries outlast a short restart) or fails for its task to
retry under the same merchantUid. Once the server is back, the same services (no process restart)
carry on, and the gateway holds one charge each.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from domain.payments.gateway import GatewayPayment
from domain.subscriptions.renewal import renew_if_due
from integrations.portone.gateway import PortOneGateway
from projections.subscriptions import due_subscriptions
from tests.conftest import make_settings
from tests.fakes import PlainHasher
from tests.faults.stack import until
from tests.faults.throwaway_postgres import ThrowawayPostgres
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.integration.purchases.desk import GOOD_CARD, V1
from tests.support import register_confirmed, running_projector

pytestmark = pytest.mark.integration


@pytest.fixture
def database() -> Iterator[ThrowawayPostgres]:
    server = ThrowawayPostgres()
    try:
        server.start()
        with psycopg.connect(server.url, autocommit=True) as admin:
            admin.execute("CREATE DATABASE shop")
        yield server
    finally:
        server.remove()


class CutOffAfterCharging(PortOneGateway):
    """The real gateway, with a moment to pull the plug: right after a charge is made, before it is saved."""

    after_charge: Any = None

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        charged = super().charge_billing_key(customer_uid, merchant_uid, amount, name)
        if self.after_charge is not None:
            self.after_charge()
        return charged


class Shop:
    def __init__(self, services: Services, sandbox: RunningSandbox, client: TestClient) -> None:
        self.services = services
        self.sandbox = sandbox
        self.client = client
        register_confirmed(client, services, "buyer@example.com")
        self.log_in()

    def log_in(self) -> None:
        """A fresh access token (they last 30 minutes of the test clock)."""
        login = self.client.post(f"{V1}/auth/login", json={"email": "buyer@example.com", "pw": "abcd1234"})
        assert login.status_code == 200, login.text
        self.headers = {"Authorization": f"Bearer {login.json()['accessToken']}"}

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.request(method, f"{V1}{path}", headers=self.headers, **kwargs)


@pytest.fixture
def shop(database: ThrowawayPostgres, tmp_path: Path, sandbox: RunningSandbox, clock: TestClock) -> Iterator[Shop]:
    # A short request budget: a request stuck on a dead database answers 503 quickly.
    url = database.url.rsplit("/", 1)[0] + "/shop"
    settings = make_settings(tmp_path, DATABASE_URL=url, REQUEST_BUDGET_SECONDS="3")
    services = Services.build(
        settings, clock=SharedClock(clock), hasher=PlainHasher(), payments=CutOffAfterCharging(sandbox.client())
    )
    # The client starts the app as a server does: its reads then go through the pool it opens on its loop.
    with running_projector(settings), TestClient(create_app(services=services)) as client:
        yield Shop(services, sandbox, client)
    services.close()


def test_a_confirm_while_the_database_restarts_answers_503_then_succeeds_once(
    shop: Shop, database: ThrowawayPostgres
) -> None:
    placed = shop.call(
        "POST", "/payments/licenses/new", json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard"}
    ).json()
    paid = shop.sandbox.checkout(
        pg=placed["pg"], pay_method=placed["payMethod"], merchant_uid=placed["merchantUid"], name=placed["name"],
        amount=placed["amount"], currency=placed["currency"], buyer_email=placed["buyerEmail"],
        card_number=GOOD_CARD["cardNumber"],
    )  # fmt: skip
    confirm = {"impUid": paid["imp_uid"], "merchantUid": placed["merchantUid"]}
    assert shop.call("GET", "/licenses/mine").json() == []  # the read pool now holds a connection to break

    database.stop()
    # A read beside the confirm, not after it: a longer outage would make the store's pool retry later.
    with ThreadPoolExecutor(max_workers=1) as reader:
        unread = reader.submit(shop.call, "GET", "/licenses/mine")
        down = shop.call("POST", "/payments/licenses/new/confirm", params={"localeCode": "ko"}, json=confirm)
        assert (down.status_code, down.json()["errorCode"]) == (503, -1002)
        assert (unread.result().status_code, unread.result().json()["errorCode"]) == (503, -1002)
    assert shop.client.get(f"{V1}/health").status_code == 503
    database.start()

    confirmed = shop.call("POST", "/payments/licenses/new/confirm", params={"localeCode": "ko"}, json=confirm)
    assert confirmed.status_code == 200, confirmed.text  # the same pools, reconnected
    assert confirmed.json()["state"] == "paid"
    # The confirm waits for the views only so long (VIEW_WAIT_SECONDS); the projector, back from its own outage,
    # may need longer on a busy machine. What must hold is that the licence appears, once.
    recovered_at = time.monotonic()
    until(lambda: shop.call("GET", "/licenses/mine").json(), "the licence view caught up", seconds=30)
    print(f"views caught up {time.monotonic() - recovered_at:.1f} s after the confirm")
    licences = shop.call("GET", "/licenses/mine").json()
    assert [licence["id"] for licence in licences] == [confirmed.json()["userLicenseId"]]
    assert shop.sandbox.charges_for(placed["merchantUid"]) == ["paid"]


def test_a_renewal_cut_off_by_the_database_is_retried_and_charges_once(
    shop: Shop, database: ThrowawayPostgres, clock: TestClock
) -> None:
    started = shop.call(
        "POST",
        "/payments/licenses/subscribe/new/new-billingkey",
        json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
    )
    assert started.status_code == 200, started.text
    services = shop.services
    clock.advance(timedelta(days=30))
    assert services.see_latest_write("subscriptions")
    [due] = due_subscriptions(services.views, services.clock.now())

    gateway = services.payments
    assert isinstance(gateway, CutOffAfterCharging)
    back = threading.Timer(1.5, database.start)

    def restart_the_database() -> None:  # the charge is made; the database restarts before it is recorded
        database.stop()
        back.start()

    gateway.after_charge = restart_the_database
    try:
        first = renew_if_due(services.store, services.clock, services.payments, due).merchant_uid
        print(f"renewal across a database restart: recorded {first} once the database was back")
    except Exception as cut_off:  # the worker's task fails and is retried
        first = None
        print(f"renewal across a database restart: {type(cut_off).__name__}; the task retries")
    gateway.after_charge = None
    back.join()

    retried = renew_if_due(services.store, services.clock, services.payments, due).merchant_uid  # a retry
    merchant_uid = first or retried
    assert merchant_uid is not None and merchant_uid.endswith("-2-1"), "one attempt, recorded once"
    assert retried is None or first is None
    assert renew_if_due(services.store, services.clock, services.payments, due).merchant_uid is None
    outcome_uid = merchant_uid
    assert shop.sandbox.charges_for(outcome_uid) == ["paid"]
    assert services.see_latest_write("payments")
    shop.log_in()
    paid = [record for record in shop.call("GET", "/payments/licenses").json() if record["status"] == "paid"]
    assert len(paid) == 2

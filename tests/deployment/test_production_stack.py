"""The production deployment, tested: every service of docker-compose.yml runs as a process with the compose
file's own environment (tests/deployment/production.py says what stands in for the containers), on a PostgreSQL
database and a Redis database, with the PortOne sandbox standing in for PortOne. Every service comes up healthy, a
guest buys, last month's subscriber is renewed, and stopping every service and starting them again loses nothing."""

from __future__ import annotations

import email
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.accounts.tokens import issue_access_token
from domain.clock import SystemClock
from domain.store import Storefront
from eventlog.database import open_view_database
from eventlog.tracking import wait_for_views
from projections.catalogue import all_views
from tests.conftest import create_postgres_database, drop_postgres_database, postgres_available, require
from tests.deployment.production import ProductionStack
from tests.fakes import ManualClock, PlainHasher
from tests.faults.customers import Customers
from tests.faults.ledgers import assert_views_equal_a_rebuild, paid_once_and_recorded
from tests.faults.stack import V1, until
from tests.integration.purchases.desk import GOOD_CARD
from tests.support import celery_is_idle, reactions_all_run, register
from workers.celery_app import create_celery

pytestmark = pytest.mark.integration
GUESTS = ("first-guest@example.com", "second-guest@example.com")
SUBSCRIBER = "last-month@example.com"


@pytest.fixture
def production(tmp_path: Path, redis_url: str) -> Iterator[ProductionStack]:
    require("PostgreSQL", postgres_available())
    database_url = create_postgres_database()
    started = ProductionStack.start(tmp_path, database_url, redis_url)
    try:
        yield started
    finally:
        started.stack.stop()
        drop_postgres_database(database_url)


def mails(volume: Path) -> Counter[str]:
    """How many mails went to each address (no SMTP_URL: the outbox on the volume)."""
    return Counter(str(email.message_from_bytes(path.read_bytes())["To"]) for path in volume.glob("outbox/*.eml"))


def renewals(settings: Settings) -> int:
    store = Storefront(settings.event_store_env)
    try:
        notifications = store.recorder.select_notifications(start=1, limit=100_000)
        return sum(1 for notification in notifications if notification.topic == "subscription.Renewed")
    finally:
        store.close()


def views_reach_the_head(settings: Settings) -> bool:
    store, db = Storefront(settings.event_store_env), open_view_database(settings.view_store_env)
    try:
        names = [view.name for view in all_views()]
        return wait_for_views(db, store.name, names, store.max_notification_id(), timeout=0.5)
    finally:
        db.close()
        store.close()


def subscribed_a_month_ago(settings: Settings, address: str) -> None:
    """A member who subscribed monthly 31 days ago: the API's own command on a clock that far back, on the
    deployment's database and gateway (production has no test clock to move)."""
    clock = ManualClock(SystemClock().now() - timedelta(days=31))
    services = Services.build(settings, clock=clock, hasher=PlainHasher())
    store = Storefront(settings.event_store_env)
    try:
        account_id = register(store, address, clock).account_id
        token = issue_access_token(settings.auth_secret, account_id, 1, clock.now(), session_id=uuid4()).token
        started = TestClient(create_app(services=services)).post(
            f"{V1}/payments/licenses/subscribe/new/new-billingkey",
            json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert started.status_code == 200, started.text
    finally:
        store.close()
        services.close()


def test_the_compose_services_run_healthy_sell_renew_and_lose_nothing_when_stopped(
    production: ProductionStack,
) -> None:
    started = time.monotonic()
    stack, volume = production.stack, production.volume
    settings = Settings(**production.environment)  # type: ignore[arg-type]
    assert settings.app_env == "production"
    production.wait_until_every_service_is_healthy()
    print(f"every service healthy at {time.monotonic() - started:.1f} s")

    subscribed_a_month_ago(settings, SUBSCRIBER)
    shop = Customers([stack.api_url], stack.sandbox_url)
    shop.buy_as_guest(GUESTS[0])
    until(lambda: views_reach_the_head(settings), "the projector has every event", 60)
    worker = create_celery(settings)
    worker.send_task("subscriptions.renew_due")  # beat's next minute
    worker.send_task("audit.sign_checkpoint")  # beat's next hour
    until(lambda: celery_is_idle(settings), "the renewal pass and the checkpoint ran", 60)
    assert renewals(settings) == 1, "last month's subscriber is renewed"
    assert (volume / "checkpoints" / "latest.txt").exists(), "checkpoint copies are on the volume"

    print(f"sold and renewed at {time.monotonic() - started:.1f} s")
    shop.buy_as_guest(GUESTS[1])
    stack.stop()  # at once: its receipt may still be on its way
    stack.start_again()
    stack.wait_until_healthy()
    print(f"stopped and started again at {time.monotonic() - started:.1f} s")
    expected = Counter({GUESTS[0]: 1, GUESTS[1]: 1, SUBSCRIBER: 3})  # confirmation, first receipt, renewal receipt
    until(lambda: mails(volume) == expected, "every mail is sent", 60)
    until(lambda: reactions_all_run(settings), "every task the log calls for has run", 60)
    until(lambda: views_reach_the_head(settings), "the views have every event", 60)
    assert mails(volume) == expected, "each mail once"
    print(f"all done at {time.monotonic() - started:.1f} s")

    db = open_view_database(settings.view_store_env)
    try:
        recorded = paid_once_and_recorded(stack.var_dir.parent / "portone-sandbox.sqlite3", db)
        assert len(recorded) == len(GUESTS) + 2, "two purchases, a subscription's first charge and its renewal"
        stack.stop()
        assert_views_equal_a_rebuild(db, settings.database_url, volume)
    finally:
        db.close()
    assert "not expected" not in stack.supervisor_log(), "no service died"

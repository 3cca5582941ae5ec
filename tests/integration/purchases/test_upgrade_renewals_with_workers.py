"""An upgraded subscription renewed by real Celery workers on Redis as the shared test clock moves: the old
plan's renewal date passes without a charge, and the new plan renews once, at its price, on its cycle."""

from __future__ import annotations

import os
import signal
from collections import Counter
from datetime import timedelta
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from config.settings import Settings
from domain.accounts.tokens import issue_access_token
from domain.clock import SystemClock
from domain.store import Storefront
from tests.integration.purchases.test_renewals_with_workers import (
    ADMIN,
    CARD,
    V1,
    _start_worker,
    _wait,
    client,
    stack_settings,
)
from tests.support import celery_is_idle, every_process_sees_the_moved_clock, register, running_projector
from workers.celery_app import create_celery

__all__ = ["client", "stack_settings"]
pytestmark = pytest.mark.integration


def _charges(store: Storefront) -> Counter[str]:
    counts: Counter[str] = Counter()
    for notification in store.recorder.select_notifications(start=1, limit=100_000):
        if notification.topic in ("subscription.Renewed", "subscription.Upgraded"):
            counts[notification.topic] += 1
    return counts


def test_an_upgraded_subscription_renews_once_on_its_new_cycle_with_real_workers(
    stack_settings: Settings, client: TestClient
) -> None:
    celery = create_celery(stack_settings)
    with running_projector(stack_settings):
        store = Storefront(stack_settings.event_store_env)
        account_id = register(store, "upgrader@example.com").account_id

        def bearer(days_ahead: int = 0) -> dict[str, str]:
            at = SystemClock().now() + timedelta(days=days_ahead)  # the test clock is that far ahead
            token = issue_access_token(stack_settings.auth_secret, account_id, 1, at, session_id=uuid4())
            return {"Authorization": f"Bearer {token.token}"}

        started = client.post(
            f"{V1}/payments/licenses/subscribe/new/new-billingkey",
            json={"licenseId": 111, "countryCode": "KR", "card": CARD},
            headers=bearer(),
        )
        assert started.status_code == 200, started.text
        licence_id = started.json()["userLicenseId"]
        client.post(f"{V1}/test-harness/clock/advance", json={"days": 15}, headers=ADMIN)
        upgraded = client.post(
            f"{V1}/payments/licenses/{licence_id}/subscribe/upgrade", json={"licenseId": 123}, headers=bearer(15)
        )
        assert upgraded.status_code == 200, upgraded.text
        assert upgraded.json()["price"] == 41160

        worker = _start_worker(stack_settings)
        try:
            client.post(f"{V1}/test-harness/clock/advance", json={"days": 16}, headers=ADMIN)
            every_process_sees_the_moved_clock()
            celery.send_task("subscriptions.renew_due")  # past the monthly plan's renewal date
            assert _wait(lambda: celery_is_idle(stack_settings), 60), "the renewal pass ran"
            assert _charges(store) == {"subscription.Upgraded": 1}

            client.post(f"{V1}/test-harness/clock/advance", json={"days": 350}, headers=ADMIN)
            every_process_sees_the_moved_clock()
            celery.send_task("subscriptions.renew_due")
            celery.send_task("subscriptions.renew_due")  # beat ticking twice in the same period
            assert _wait(lambda: celery_is_idle(stack_settings), 60), "both renewal passes ran"
            assert _charges(store) == {"subscription.Upgraded": 1, "subscription.Renewed": 1}
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=20)
        history = client.get(f"{V1}/payments/licenses", headers=bearer(15 + 16 + 350)).json()
        paid = sorted(record["amount"] for record in history if record["status"] == "paid")
        assert (
            paid[0] == 2900 and paid[2] == 41160 and 41160 - 1450 <= paid[1] <= 41160 - 1440
        )  # less the unused half-month, give or take the test's own seconds
        store.close()

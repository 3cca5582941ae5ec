"""Renewals run by real Celery workers on Redis, driven by the shared test clock; a worker killed in the
middle of a batch and restarted charges nobody twice.

The test never sleeps for another process: the sandbox answers two charges and stalls the rest (a fault point),
so the kill lands while the batch is in flight, its charges made at the gateway and their answers unread; a pass
is over when Redis holds no task, queued or taken (acks are late, so a task is taken until it has run)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
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
from tests.conftest import make_settings
from tests.fakes import PlainHasher
from tests.integration.portone.harness import IMP_KEY, IMP_SECRET, RunningSandbox
from tests.support import celery_is_idle, every_process_sees_the_moved_clock, register, running_projector
from workers.celery_app import create_celery

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[3]
V1 = "/web/unicornpro/v1"
ADMIN = {"X-Admin-Token": "harness-secret"}
CARD = {"cardNumber": "4111111111111111", "expiryYear": 2030, "expiryMonth": 6, "password": "12", "birth": "900101"}
SUBSCRIBERS = 40


@pytest.fixture
def stack_settings(settings: Settings, redis_url: str, sandbox: RunningSandbox, tmp_path: Path) -> Settings:
    values = {
        "REDIS_URL": redis_url,
        "TEST_CLOCK": "1",
        "TEST_ADMIN_TOKEN": ADMIN["X-Admin-Token"],
        "PORTONE_BASE_URL": sandbox.base_url,
        "PORTONE_IMP_KEY": IMP_KEY,
        "PORTONE_IMP_SECRET": IMP_SECRET,
        "BROKER_VISIBILITY_TIMEOUT": "2",
        "PROJECTOR_POLL_SECONDS": "0.02",
    }
    if settings.database_url:
        values["DATABASE_URL"] = settings.database_url
    return make_settings(settings.var_dir, **values)


def _env(settings: Settings) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_", "REDIS_"))}
    env.update(
        APP_VAR_DIR=str(settings.var_dir),
        REDIS_URL=settings.redis_url,
        TEST_CLOCK="1",
        PORTONE_BASE_URL=settings.portone_base_url,
        PORTONE_IMP_KEY=IMP_KEY,
        PORTONE_IMP_SECRET=IMP_SECRET,
        BROKER_VISIBILITY_TIMEOUT="2",
        PORTONE_TIMEOUT_SECONDS="60",  # a stalled charge stays in flight until the test kills its worker
    )
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    return env


def _start_worker(settings: Settings) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "workers",
            "worker",
            "--concurrency",
            "2",
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=_env(settings),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _renewals(store: Storefront) -> Counter[str]:
    """How many times each subscription was renewed, per the log."""
    counts: Counter[str] = Counter()
    for notification in store.recorder.select_notifications(start=1, limit=100_000):
        if notification.topic == "subscription.Renewed":
            counts[str(notification.originator_id)] += 1
    return counts


def _wait(predicate: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def _gateway_payments(sandbox: RunningSandbox) -> int:
    """How many payments the gateway holds (answered or stalled)."""
    with sqlite3.connect(sandbox.db_path) as db:
        return int(db.execute("SELECT count(*) FROM payments").fetchone()[0])


@pytest.fixture
def client(stack_settings: Settings) -> Iterator[TestClient]:
    services = Services.build(stack_settings, hasher=PlainHasher())
    yield TestClient(create_app(services=services))
    services.close()


def test_a_worker_killed_mid_batch_and_restarted_charges_nobody_twice(
    stack_settings: Settings, client: TestClient, sandbox: RunningSandbox
) -> None:
    celery = create_celery(stack_settings)
    with running_projector(stack_settings):
        store = Storefront(stack_settings.event_store_env)
        clock = SystemClock()
        for number in range(SUBSCRIBERS):
            account_id = register(store, f"s{number}@example.com").account_id
            token = issue_access_token(stack_settings.auth_secret, account_id, 1, clock.now(), session_id=uuid4()).token
            answer = client.post(
                f"{V1}/payments/licenses/subscribe/new/new-billingkey",
                json={"licenseId": 111, "countryCode": "KR", "card": CARD},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 200, answer.text

        moved = client.post(f"{V1}/test-harness/clock/advance", json={"days": 30, "seconds": 60}, headers=ADMIN)
        assert moved.status_code == 200, moved.text
        assert client.post(f"{V1}/test-harness/clock/advance", json={"days": 1}).status_code == 401

        sandbox.plan_faults(path_prefix="/subscribe/payments/again", stall_after=2)
        paid_before = _gateway_payments(sandbox)
        worker = _start_worker(stack_settings)
        try:
            celery.send_task("subscriptions.renew_due")  # what beat sends every minute
            assert _wait(lambda: _gateway_payments(sandbox) > paid_before + 2, 60), "no charge hangs"
            os.killpg(worker.pid, signal.SIGKILL)  # charges made at the gateway, their answers not yet read
            worker.wait(timeout=10)
            at_kill = sum(_renewals(store).values())
            assert at_kill < SUBSCRIBERS, "the kill lands in the middle of the batch (a batch saves once charged)"

            sandbox.plan_faults()
            worker = _start_worker(stack_settings)
            celery.send_task("subscriptions.renew_due")  # beat's next minute
            assert _wait(lambda: celery_is_idle(stack_settings), 120), "the pass and the killed worker's tasks ran"
            assert len(_renewals(store)) == SUBSCRIBERS
            assert set(_renewals(store).values()) == {1}

            client.post(f"{V1}/test-harness/clock/advance", json={"days": 30}, headers=ADMIN)
            every_process_sees_the_moved_clock()
            celery.send_task("subscriptions.renew_due")
            celery.send_task("subscriptions.renew_due")  # beat ticking twice in the same period
            assert _wait(lambda: celery_is_idle(stack_settings), 120), "both passes ran"
            assert set(_renewals(store).values()) == {2}
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=20)
    store.close()


def test_the_harness_runs_the_renewal_pass_at_once_for_an_admin_only(
    stack_settings: Settings, client: TestClient
) -> None:
    with running_projector(stack_settings):
        store = Storefront(stack_settings.event_store_env)
        account_id = register(store, "harnessed@example.com").account_id
        now = SystemClock().now()
        token = issue_access_token(stack_settings.auth_secret, account_id, 1, now, session_id=uuid4()).token
        started = client.post(
            f"{V1}/payments/licenses/subscribe/new/new-billingkey",
            json={"licenseId": 111, "countryCode": "KR", "card": CARD},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert started.status_code == 200, started.text
        run = f"{V1}/test-harness/renewals/run"
        assert client.post(run).status_code == 401
        assert client.post(run, headers=ADMIN).json() == {"charged": []}  # nothing is due yet
        client.post(f"{V1}/test-harness/clock/advance", json={"days": 30, "seconds": 1}, headers=ADMIN)
        [charged] = client.post(run, headers=ADMIN).json()["charged"]
        assert charged.endswith("-2-1")
        assert client.post(run, headers=ADMIN).json() == {"charged": []}  # the same minute again
        assert _renewals(store) == {started.json()["subscriptionId"]: 1}
        store.close()

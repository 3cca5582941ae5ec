"""Renewal reminders with the real processes: a Celery worker and the reactor on Redis, the projector, the API, on
the shared test clock moved through the test harness. Beat's hourly reminder task records the reminders that fell
due; the reactor mails each from the log. A monthly subscriber gets exactly one reminder 3 days before each renewal,
a yearly one 7 days before; a subscriber who stopped auto-renewal gets the cancellation mail and no reminder."""

from __future__ import annotations

import email
import email.header
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
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
from tests.support import every_process_sees_the_moved_clock, reactions_all_run, register, running_projector
from workers.celery_app import create_celery

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[3]
V1 = "/web/unicornpro/v1"
ADMIN = {"X-Admin-Token": "harness-secret"}
CARD = {"cardNumber": "4111111111111111", "expiryYear": 2030, "expiryMonth": 6, "password": "12", "birth": "900101"}
REMINDER = "[유니콘] 구독 자동 갱신 안내"
CANCELLED = "[유니콘] 자동 갱신이 해지되었습니다"


@pytest.fixture
def stack_settings(settings: Settings, redis_url: str, sandbox: RunningSandbox) -> Settings:
    values = {
        "REDIS_URL": redis_url,
        "TEST_CLOCK": "1",
        "TEST_ADMIN_TOKEN": ADMIN["X-Admin-Token"],
        "PORTONE_BASE_URL": sandbox.base_url,
        "PORTONE_IMP_KEY": IMP_KEY,
        "PORTONE_IMP_SECRET": IMP_SECRET,
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
        PROJECTOR_POLL_SECONDS="0.02",
    )
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    return env


@pytest.fixture
def workers(stack_settings: Settings) -> Iterator[None]:
    """A worker and the reactor, as the Procfile runs them."""
    worker = [sys.executable, "-m", "workers", "worker", "--concurrency", "2", "--loglevel", "WARNING"]
    worker += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    processes = [
        subprocess.Popen(command, cwd=ROOT, env=_env(stack_settings), start_new_session=True, stdout=subprocess.DEVNULL)
        for command in (worker, [sys.executable, "-m", "workers.reactor"])
    ]
    try:
        yield
    finally:
        for process in processes:
            os.killpg(process.pid, 15)
        for process in processes:
            process.wait(timeout=20)


@pytest.fixture
def client(stack_settings: Settings) -> Iterator[TestClient]:
    services = Services.build(stack_settings, hasher=PlainHasher())
    yield TestClient(create_app(services=services))
    services.close()


def _wait(predicate: Callable[[], bool], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("the workers did not finish in time")


def _mails(settings: Settings) -> Counter[tuple[str, str]]:
    """(recipient, subject without its date) of every mail in the outbox, counted."""
    counts: Counter[tuple[str, str]] = Counter()
    for path in settings.outbox_dir.glob("*.eml"):
        message = email.message_from_bytes(path.read_bytes())
        subject = str(email.header.make_header(email.header.decode_header(message["Subject"])))
        counts[(str(message["To"]), subject.split(" (")[0])] += 1
    return counts


class Stack:
    def __init__(self, settings: Settings, client: TestClient) -> None:
        self.settings, self.client = settings, client
        self.store = Storefront(settings.event_store_env)
        self.celery = create_celery(settings)
        self.days = 0.0

    def subscriber(self, address: str, licence_id: int) -> str:
        account_id = register(self.store, address).account_id
        token = issue_access_token(self.settings.auth_secret, account_id, 1, SystemClock().now(), session_id=uuid4())
        headers = {"Authorization": f"Bearer {token.token}"}
        started = self.client.post(
            f"{V1}/payments/licenses/subscribe/new/new-billingkey",
            json={"licenseId": licence_id, "countryCode": "KR", "card": CARD},
            headers=headers,
        )
        assert started.status_code == 200, started.text
        self.headers = headers
        return str(started.json()["userLicenseId"])

    def to_day(self, day: float) -> None:
        """Move the shared clock to ``day`` days after the subscriptions started."""
        moved = self.client.post(
            f"{V1}/test-harness/clock/advance", json={"seconds": round((day - self.days) * 86400)}, headers=ADMIN
        )
        assert moved.status_code == 200, moved.text
        self.days = day
        every_process_sees_the_moved_clock()

    def beat(self, *tasks: str) -> None:
        """What beat sends (its hourly reminder task, its renewal task), then wait until the log's reactions ran."""
        for task in tasks:
            self.celery.send_task(task)
        _wait(lambda: reactions_all_run(self.settings))


def test_each_subscriber_is_reminded_once_ahead_of_each_renewal_and_not_after_cancelling(
    stack_settings: Settings, client: TestClient, workers: None
) -> None:
    with running_projector(stack_settings):
        stack = Stack(stack_settings, client)
        stack.subscriber("monthly@example.com", 111)
        stack.subscriber("yearly@example.com", 121)
        leaving = stack.subscriber("leaving@example.com", 111)
        stopped = client.post(
            f"{V1}/payments/licenses/subscribe/{leaving}/exit",
            json={"reasons": ["not-using"], "comment": ""},
            headers=stack.headers,
        )
        assert stopped.status_code == 200, stopped.text
        monthly, yearly, gone = (
            ("monthly@example.com", REMINDER),
            ("yearly@example.com", REMINDER),
            ("leaving@example.com", REMINDER),
        )

        remind, renew = "subscriptions.remind_upcoming", "subscriptions.renew_due"
        stack.to_day(26.5)  # 3.5 days before the first renewal
        stack.beat(remind)
        assert _mails(stack_settings)[monthly] == 0, "too early for a monthly renewal"
        stack.to_day(27.5)
        stack.beat(remind, remind)  # beat's hour ticking twice
        assert _mails(stack_settings)[monthly] == 1
        stack.to_day(30.01)
        stack.beat(renew)
        stack.beat(remind)
        assert _mails(stack_settings)[monthly] == 1, "the renewal itself is no second reminder"
        stack.to_day(56.5)
        stack.beat(remind)
        assert _mails(stack_settings)[monthly] == 1
        stack.to_day(57.5)  # 2.5 days before the second renewal
        stack.beat(remind, remind)
        assert _mails(stack_settings)[monthly] == 2, "one reminder per renewal"

        stack.to_day(357.5)  # 7.5 days before the yearly renewal
        stack.beat(remind)
        assert _mails(stack_settings)[yearly] == 0
        stack.to_day(358.5)
        stack.beat(remind, remind)
        mails = _mails(stack_settings)
        assert mails[yearly] == 1, "a week before the yearly renewal, once"
        assert mails[gone] == 0 and mails[("leaving@example.com", CANCELLED)] == 1
    stack.store.close()

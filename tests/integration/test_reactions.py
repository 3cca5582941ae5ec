"""Events start Celery tasks through the reactor, with tracking: nothing is lost, even across a crash."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker

from config.settings import Settings
from domain.store import Storefront
from eventlog.database import open_view_database
from eventlog.follower import follow
from events.accounts import AccountRegistered
from tests.conftest import make_settings
from tests.support import celery_is_idle, register
from workers.celery_app import create_celery
from workers.reactions import ReactionProcessor, TaskCall

pytestmark = pytest.mark.integration

received: list[tuple[str, str]] = []
received_lock = threading.Lock()


class Welcoming(ReactionProcessor):
    """The reactor with one test reaction in place of the real ones: a welcome task per registration."""

    def calls_for(self, event: Any) -> list[TaskCall]:
        return [TaskCall("test.welcome", {"email": event.email})] if isinstance(event, AccountRegistered) else []


@pytest.fixture(params=["embedded", "redis"])
def broker_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "redis":
        return make_settings(tmp_path, REDIS_URL=request.getfixturevalue("redis_url"))
    return make_settings(tmp_path)


@pytest.fixture
def celery_with_worker(broker_settings: Settings) -> Iterator[Celery]:
    app = create_celery(broker_settings)
    app.conf.broker_transport_options = {**app.conf.broker_transport_options, "polling_interval": 0.05}

    @app.task(name="test.welcome", bind=True)
    def welcome(self: Any, email: str) -> None:
        with received_lock:
            received.append((self.request.id, email))

    received.clear()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield app


def _wait_for(count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(received) < count:
        assert time.monotonic() < deadline, f"only {len(received)} of {count} tasks ran"
        time.sleep(0.02)


def _wait_until_idle(settings: Settings, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not celery_is_idle(settings):
        assert time.monotonic() < deadline, "the broker still holds tasks"
        time.sleep(0.02)


class CrashAfterSending(Welcoming):
    """Sends an event's tasks, then dies before recording its position (the worst moment)."""

    crash_at_email = "third@example.com"

    def process_batch(self, items: Sequence[tuple[Any, int]], previous: int) -> None:
        for number, (event, _notification_id) in enumerate(items):
            if isinstance(event, AccountRegistered) and event.email == self.crash_at_email:
                for earlier, earlier_id in items[: number + 1]:  # this one's and the batch's tasks before it
                    for call in self.calls_for(earlier):
                        self._celery.send_task(call.name, kwargs=call.kwargs, task_id=f"Storefront-{earlier_id}-0")
                raise RuntimeError("power cut")
        super().process_batch(items, previous)


def _run_until(processor: ReactionProcessor, store: Storefront, target: int) -> BaseException | None:
    stop = threading.Event()
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            follow(store, processor, stop, poll_interval=0.02)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while thread.is_alive() and processor.position() < target and time.monotonic() < deadline:
        time.sleep(0.02)
    stop.set()
    thread.join(timeout=10)
    return outcome[0] if outcome else None


def test_each_registration_starts_its_task_exactly_once_when_nothing_goes_wrong(
    celery_with_worker: Celery, broker_settings: Settings
) -> None:
    store = Storefront(broker_settings.event_store_env)
    emails = [f"r{i}@example.com" for i in range(5)]
    for email in emails:
        register(store, email)
    db = open_view_database(broker_settings.view_store_env)
    processor = Welcoming(celery_with_worker, db, store.name)
    assert _run_until(processor, store, store.max_notification_id()) is None
    _wait_for(5)
    _wait_until_idle(broker_settings)  # every task sent has run: a double would be in by now
    assert sorted(email for _, email in received) == sorted(emails)
    assert processor.position() == store.max_notification_id()
    db.close()


def test_a_reactor_that_dies_between_sending_and_recording_loses_nothing_on_restart(
    celery_with_worker: Celery, broker_settings: Settings
) -> None:
    store = Storefront(broker_settings.event_store_env)
    emails = ["first@example.com", "second@example.com", "third@example.com", "fourth@example.com"]
    for email in emails:
        register(store, email)
    db = open_view_database(broker_settings.view_store_env)

    crashed = _run_until(CrashAfterSending(celery_with_worker, db, store.name), store, 10**9)
    assert isinstance(crashed, RuntimeError)
    _wait_for(3)

    restarted = Welcoming(celery_with_worker, db, store.name)
    assert _run_until(restarted, store, store.max_notification_id()) is None
    _wait_for(5)
    _wait_until_idle(broker_settings)

    assert {email for _, email in received} == set(emails), "at least once, never lost"
    assert [email for _, email in received].count("third@example.com") >= 2, "sent before the crash, and again"
    ids_by_email = {email: {task_id for task_id, sent_to in received if sent_to == email} for email in emails}
    assert all(len(ids) == 1 for ids in ids_by_email.values()), "a re-sent task keeps its id: the task can tell"
    db.close()


class Marked(ReactionProcessor):
    """A reactor whose one reaction is a welcome task for the event ``WANTED``."""

    WANTED = object()

    def calls_for(self, event: Any) -> list[TaskCall]:
        return [TaskCall("test.welcome", {"email": "marked@example.com"})] if event is self.WANTED else []


def _recorded(db: Any, processor: ReactionProcessor) -> int:
    with db.read() as cursor:
        cursor.execute(
            "SELECT notification_id FROM view_tracking WHERE view_name = %(view)s AND application_name = %(app)s",
            {"view": processor.name, "app": "Storefront"},
        )
        return int(cursor.fetchone()["notification_id"])


def test_events_calling_for_no_task_are_recorded_with_the_next_that_does_or_when_flushed(
    celery_with_worker: Celery, broker_settings: Settings
) -> None:
    store = Storefront(broker_settings.event_store_env)
    db = open_view_database(broker_settings.view_store_env)
    processor = Marked(celery_with_worker, db, store.name)
    quiet = object()  # an event no reaction wants

    processor.process(quiet, 1, 0)
    processor.process(quiet, 2, 1)
    assert _recorded(db, processor) == 0, "no transaction of their own"
    processor.process(Marked.WANTED, 3, 2)
    assert _recorded(db, processor) == 3, "recorded with the next event that sends a task"
    _wait_for(1)

    processor.process(quiet, 4, 3)
    assert _recorded(db, processor) == 3
    processor.flush()
    assert _recorded(db, processor) == 4, "flushed"
    processor.process(quiet, 5, 4)
    assert processor.position() == 5, "the position is read after a flush"

    processor.process(quiet, 6, 5)
    restarted = Marked(celery_with_worker, db, store.name)  # the first one died before flushing
    assert restarted.position() == 5, "resumes before the event passed over: it sends nothing again"
    db.close()

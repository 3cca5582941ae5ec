"""Small helpers the tests share: an account with test defaults, a projector in a thread, whether Celery on
Redis has work left, waiting for a moved test clock."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime

from config.settings import Settings
from domain.accounts.registration import Registered, register_account
from domain.store import Storefront
from events.values import Language
from integrations.broker import broker_transport_options
from projections.catalogue import all_views
from projections.database import ViewDatabase, open_view_database
from projections.runner import Projector
from projections.test_clock import REFRESH_SECONDS
from projections.tracking import positions
from tests.fakes import ManualClock, PlainHasher
from workers.celery_app import RENEWALS_QUEUE

START = datetime(2026, 11, 1, 0, 0, tzinfo=UTC)


def register(store: Storefront, email: str, clock: ManualClock | None = None) -> Registered:
    """Register an account with test defaults."""
    return register_account(
        store,
        clock or ManualClock(START),
        PlainHasher(),
        email=email,
        password="abcd1234",
        language=Language.KO,
        marketing_push_enabled=False,
    )


@contextmanager
def running_projector(settings: Settings) -> Iterator[ViewDatabase]:
    """A projector following the log in a thread, for as long as the block runs."""
    log_app = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    projector = Projector(log_app, db, all_views(), poll_interval=0.02)
    projector.setup()
    stop = threading.Event()
    thread = threading.Thread(target=projector.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield db
    finally:
        stop.set()
        thread.join(timeout=10)
        db.close()
        log_app.close()


def celery_is_idle(settings: Settings) -> bool:
    """The broker (Redis, or the embedded one) holds no Celery task, queued or taken. Acks are late, so a taken task
    stays taken until it has run (or, its worker killed, until it is delivered again and has run): every task sent
    so far has run, and so has every task those sent."""
    if not settings.uses_redis:
        database = broker_transport_options(settings)["database"]
        with closing(sqlite3.connect(database)) as broker:
            return int(broker.execute("SELECT count(*) FROM messages").fetchone()[0]) == 0
    import redis

    with redis.Redis.from_url(settings.redis_url) as broker:
        held = int(broker.llen("storefront")) + int(broker.llen(RENEWALS_QUEUE)) + int(broker.hlen("unacked"))
        return held == 0


def reactions_all_run(settings: Settings) -> bool:
    """Everything the log has called for so far has run: the reactor has passed the log's head (so it has sent
    every task the log calls for) and Celery, on Redis, has no task left (so each has run), and nothing was
    recorded meanwhile."""
    store = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    try:
        head = store.max_notification_id()
        reacted = positions(db, store.name).get("reactions", 0) >= head
        return reacted and celery_is_idle(settings) and store.max_notification_id() == head
    finally:
        db.close()
        store.close()


def every_process_sees_the_moved_clock() -> None:
    """Wait out the shared test clock's cache: a process reads the moved clock within REFRESH_SECONDS (a bound
    of the code under test, not a guess at another process's progress)."""
    time.sleep(REFRESH_SECONDS + 0.05)

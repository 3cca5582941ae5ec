"""Small helpers the tests share: an account with test defaults, a projector in a thread, whether Celery on
Redis has work left, waiting for a moved test clock."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from uuid import UUID

from fastapi.testclient import TestClient

from bootstrap import Services
from config.settings import Settings
from domain.accounts.account import Account
from domain.accounts.claims import claim_link_token
from domain.accounts.registration import Registered, register_account
from domain.accounts.tokens import CONFIRM_EMAIL, CONFIRMATION_LINK_LIFETIME, sign_link
from domain.clock import Clock
from domain.store import Storefront
from eventlog.database import ViewDatabase, open_view_database
from eventlog.tracking import positions
from events.values import Language
from harness.clock import REFRESH_SECONDS
from integrations.broker import broker_transport_options
from projections.catalogue import all_views
from projections.runner import Projector
from projections.view import View
from tests.fakes import ManualClock, PlainHasher
from workers.celery_app import RENEWALS_QUEUE

START = datetime(2026, 11, 1, 0, 0, tzinfo=UTC)


def register(store: Storefront, email: str, clock: Clock | None = None) -> Registered:
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
    """A projector following the log in a thread, for as long as the block runs (with a connection for each view's
    follower, as ``python -m projections run`` has)."""
    views = all_views()
    settings = settings.with_connections_for(len(views) + 3)
    log_app = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    projector = Projector(log_app, db, views, poll_interval=0.02)
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


def catch_up(services: Services, *views: View) -> None:
    """Bring these views up to the log's head here and now (what the projector does as it follows the log)."""
    projector = Projector(services.store, services.views, views)
    projector.setup()
    projector.catch_up()


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


def confirm_address(client: TestClient, services: Services, account_id: str, email: str, pw: str = "abcd1234") -> None:
    """What the registrant does with the mail that follows registration: open its link (signed as the mail signs
    it). A member's address is confirmed; a guest's account is claimed with the password chosen at registration."""
    account: Account = services.store.repository.get(UUID(account_id))
    secret, now = services.settings.auth_secret, services.clock.now()
    if account.is_guest:
        claim_id = list(account.pending_claims)[-1]
        token = claim_link_token(secret, account.id, account.email, claim_id, now)
        claimed = client.post("/web/unicornpro/v1/auth/claim", json={"t": token, "pw": pw})
        assert claimed.status_code == 200, claimed.text
        return
    token = sign_link(secret, CONFIRM_EMAIL, account.id, now, CONFIRMATION_LINK_LIFETIME, email=email.lower())
    opened = client.get(f"/web/unicornpro/v1/accounts/confirm?t={token}", follow_redirects=False)
    assert opened.status_code == 303 and "errorCode" not in opened.headers["location"], opened.headers


def register_confirmed(
    client: TestClient, services: Services, email: str, pw: str = "abcd1234", language: str = "ko"
) -> str:
    """A customer who registers through the API and opens the mailed link; their account id."""
    answer = client.post("/web/unicornpro/v1/accounts", json={"email": email, "pw": pw, "language": language})
    assert answer.status_code == 200, answer.text
    account_id = str(answer.json()["userId"])
    confirm_address(client, services, account_id, email, pw)
    return account_id

"""The confirmation mail goes through the log: registration -> reactor -> Celery worker -> outbox.

A repeat of the same task (same id, as after a reactor crash) sends nothing more.
"""

from __future__ import annotations

import email
import threading
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker

from config.settings import Settings
from domain.accounts.registration import register_account
from domain.accounts.tokens import CONFIRM_EMAIL, read_link
from domain.clock import SystemClock
from domain.store import Storefront
from eventlog.database import open_view_database
from eventlog.follower import follow
from events.values import Language
from tests.fakes import ManualClock, PlainHasher
from tests.support import START
from workers.celery_app import create_celery
from workers.reactions import ReactionProcessor

pytestmark = pytest.mark.integration


@pytest.fixture
def worker(settings: Settings) -> Iterator[Celery]:
    # The task builds its services from the app's settings on first use, as in production.
    app = create_celery(settings)
    app.conf.broker_transport_options = {**app.conf.broker_transport_options, "polling_interval": 0.05}
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield app
    app.services.close()


def _outbox(settings: Settings, count: int, timeout: float = 20) -> list[Message]:
    deadline = time.monotonic() + timeout
    while True:
        files = sorted(settings.outbox_dir.glob("*.eml")) if settings.outbox_dir.exists() else []
        if len(files) >= count or time.monotonic() > deadline:
            return [email.message_from_bytes(Path(file).read_bytes()) for file in files]
        time.sleep(0.05)


def _text(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("no text part")


def test_a_registration_mails_a_confirmation_link_in_the_account_language_once(
    worker: Celery, settings: Settings
) -> None:
    store = Storefront(settings.event_store_env)
    registered = register_account(
        store,
        ManualClock(START),
        PlainHasher(),
        email="yui@example.com",
        password="abcd1234",
        language=Language.JA,
        marketing_push_enabled=False,
    )
    db = open_view_database(settings.view_store_env)
    processor = ReactionProcessor(worker, db, store.name)
    stop = threading.Event()
    thread = threading.Thread(target=follow, args=(store, processor, stop, 0.02), daemon=True)
    thread.start()
    try:
        mails = _outbox(settings, 1)
    finally:
        stop.set()
        thread.join(timeout=10)
    assert len(mails) == 1
    mail = mails[0]
    assert mail["To"] == "yui@example.com"
    text = _text(mail)
    assert "メールアドレスの認証" in text
    link = next(word for word in text.split() if "/accounts/confirm?t=" in word)
    assert link.startswith(f"{settings.base_url}/web/unicornpro/v1/accounts/confirm?t=")
    claims = read_link(settings.auth_secret, CONFIRM_EMAIL, link.split("t=", 1)[1], SystemClock().now())
    assert (claims.account_id, claims.values["email"]) == (registered.account_id, "yui@example.com")

    # The reactor re-sends after a crash with the same task id: the task recognises the repeat.
    with db.read() as cursor:
        cursor.execute("SELECT task_id, kind, recipient FROM sent_mail")
        rows = cursor.fetchall()
    assert len(rows) == 1
    assert rows[0]["task_id"].startswith(f"{store.name}-")
    assert (rows[0]["kind"], rows[0]["recipient"]) == ("confirmation", "yui@example.com")
    worker.send_task(
        "accounts.send_confirmation_mail",
        kwargs={"account_id": str(registered.account_id)},
        task_id=rows[0]["task_id"],
    )
    # A later, different task (a resend) does send; the solo worker runs tasks in order,
    # so by the time it has, the repeat above has run too.
    worker.send_task(
        "accounts.send_confirmation_mail",
        kwargs={"account_id": str(registered.account_id)},
        task_id="resend-1",
    )
    assert len(_outbox(settings, 2)) == 2
    assert len(_outbox(settings, 3, timeout=0)) == 2, "the repeat ran before the resend and sent nothing"
    db.close()
    store.close()

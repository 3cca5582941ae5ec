"""Beat signs a checkpoint of the log with the development key and writes it where finance reads it."""

from __future__ import annotations

import email
import stat
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker

from config.settings import Settings
from domain.store import Storefront
from eventlog.checkpoints import Signer, load_signing_key, open_checkpoint
from tests.support import register
from workers.celery_app import create_celery

pytestmark = pytest.mark.integration


@pytest.fixture
def finance_settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"audit_checkpoint_mail_to": "finance@example.com, auditor@example.com"})


@pytest.fixture
def worker(finance_settings: Settings) -> Iterator[Celery]:
    app = create_celery(finance_settings)
    app.conf.broker_transport_options = {**app.conf.broker_transport_options, "polling_interval": 0.05}
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield app
    app.services.close()


def test_the_scheduled_task_signs_a_checkpoint_of_the_whole_log_with_the_generated_key(
    worker: Celery, settings: Settings
) -> None:
    assert worker.conf.beat_schedule["sign-log-checkpoint"]["task"] == "audit.sign_checkpoint"
    store = Storefront(settings.event_store_env)
    for n in range(3):
        register(store, f"beat{n}@example.com")
    worker.send_task("audit.sign_checkpoint")

    latest = settings.checkpoint_dir / "latest.txt"
    deadline = time.monotonic() + 30
    while not latest.exists():
        assert time.monotonic() < deadline, "no checkpoint was written"
        time.sleep(0.05)
    assert stat.S_IMODE(settings.audit_key_file.stat().st_mode) == 0o600
    key = Signer(settings.audit_log_origin, load_signing_key("", settings.audit_key_file)).verifier_key()
    checkpoint = open_checkpoint(latest.read_text(), key)
    assert checkpoint.origin == "unicornpro.local/storefront/log"
    assert checkpoint.size == store.max_notification_id() == 6
    assert (settings.checkpoint_dir / "checkpoint-000000000006.txt").read_text() == latest.read_text()

    mails = _outbox(settings, 2)
    assert sorted(str(mail["To"]) for mail in mails) == ["auditor@example.com", "finance@example.com"]
    assert all(_text(mail) == latest.read_text() for mail in mails)

    again = worker.tasks["audit.sign_checkpoint"].apply().get()  # nothing new: the same checkpoint, no mail
    assert again["tree_size"] == 6
    assert len(_outbox(settings, 3, timeout=0)) == 2
    store.close()


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

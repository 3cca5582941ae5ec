"""The reactor's sweep starts again a mail task that never ran (a message lost with a killed worker), under
the same task id, and gives up on one that sends nothing on purpose after three tries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from eventlog.database import SQLiteViewDatabase
from tests.fakes import in_memory_store
from tests.support import register
from workers.resends import MAX_ATTEMPTS, MailResender


class RecordingBroker:
    """Stands in for Celery: what was sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def send_task(self, name: str, *, kwargs: dict[str, Any], countdown: float | None, task_id: str) -> None:
        self.sent.append((name, task_id))


def sent_mail(views: SQLiteViewDatabase, task: str) -> None:
    with views.transaction() as cursor:
        cursor.execute(
            "INSERT INTO sent_mail (task_id, kind, recipient, sent_at) VALUES (%(task)s, 'confirmation', 'x', 'now')",
            {"task": task},
        )


def test_a_confirmation_mail_that_never_ran_is_started_again_until_it_is_sent(tmp_path: Path) -> None:
    store, broker = in_memory_store(), RecordingBroker()
    views = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    resender = MailResender(broker, views, store)  # type: ignore[arg-type]
    register(store, "first@example.com")
    register(store, "second@example.com")
    head = store.max_notification_id()
    recorded = store.recorder.select_notifications(start=1, limit=100)
    registrations = [notification.id for notification in recorded if notification.topic == "account.Registered"]
    first_task, second_task = (f"{store.name}-{number}-0" for number in registrations)

    sent_mail(views, first_task)
    assert resender.sweep(head) == 1
    assert broker.sent == [("accounts.send_confirmation_mail", second_task)], "the same task id again"
    assert resender.position() == registrations[1] - 1, "it waits at the unsent one"

    sent_mail(views, second_task)
    assert resender.sweep(head) == 0
    assert resender.position() == head


def test_a_task_that_sends_nothing_is_tried_three_times_then_left(tmp_path: Path) -> None:
    store, broker = in_memory_store(), RecordingBroker()
    views = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    resender = MailResender(broker, views, store)  # type: ignore[arg-type]
    register(store, "deleted-meanwhile@example.com")
    head = store.max_notification_id()
    tries = [resender.sweep(head) for _ in range(MAX_ATTEMPTS + 1)]
    assert tries == [1, 1, 1, 0]
    assert resender.position() == head

"""The reactor sends the receipts of one batch of the log as one task, each with its own task id, and every other
task as before; the position moves past the batch once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eventlog.database import SQLiteViewDatabase
from eventlog.tracking import positions
from workers.reactions import ReactionProcessor, TaskCall


class SentTasks:
    """What a Celery app was asked to send (the reactor's one use of it)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], str]] = []

    def send_task(self, name: str, *, kwargs: dict[str, Any], task_id: str, countdown: float | None = None) -> None:
        self.sent.append((name, kwargs, task_id))


class Shop(ReactionProcessor):
    """Reactions by name: "paid" starts a receipt, "registered" a confirmation mail, anything else nothing."""

    def calls_for(self, event: Any) -> list[TaskCall]:
        if event.startswith("paid"):
            return [TaskCall("payments.send_purchase_mail", {"payment_id": event, "kind": "receipt"})]
        if event == "registered":
            return [TaskCall("accounts.send_confirmation_mail", {"account_id": "a-1"})]
        return []


@pytest.fixture
def db(tmp_path: Path) -> Iterator[SQLiteViewDatabase]:
    database = SQLiteViewDatabase(str(tmp_path / "views.sqlite3"))
    yield database
    database.close()


def test_a_batchs_receipts_go_as_one_task_and_every_other_task_as_before(db: SQLiteViewDatabase) -> None:
    celery = SentTasks()
    reactor = Shop(celery, db, "Storefront")  # type: ignore[arg-type]
    reactor.process_batch([("paid-1", 1), ("quiet", 2), ("paid-2", 3), ("registered", 4)], previous=0)
    assert celery.sent == [
        ("accounts.send_confirmation_mail", {"account_id": "a-1"}, "Storefront-4-0"),
        (
            "payments.send_purchase_mails",
            {
                "mails": [
                    {"task_id": "Storefront-1-0", "payment_id": "paid-1", "kind": "receipt"},
                    {"task_id": "Storefront-3-0", "payment_id": "paid-2", "kind": "receipt"},
                ]
            },
            "Storefront-1-0+2",
        ),
    ]
    assert positions(db, "Storefront")["reactions"] == 4


def test_a_receipt_alone_goes_as_it_always_went(db: SQLiteViewDatabase) -> None:
    celery = SentTasks()
    reactor = Shop(celery, db, "Storefront")  # type: ignore[arg-type]
    reactor.process("paid-3", 1, previous=0)
    reactor.process_batch([("quiet", 2), ("paid-4", 3)], previous=1)
    assert celery.sent == [
        ("payments.send_purchase_mail", {"payment_id": "paid-3", "kind": "receipt"}, "Storefront-1-0"),
        ("payments.send_purchase_mail", {"payment_id": "paid-4", "kind": "receipt"}, "Storefront-3-0"),
    ]
    assert positions(db, "Storefront")["reactions"] == 3

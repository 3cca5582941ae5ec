"""A poison event: the view that cannot apply it stalls alone, retries with back-off, and, once fixed,
resumes with every event applied exactly once; the other views never stop."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest

from config.settings import Settings
from domain.store import Storefront
from eventlog.database import ViewCursor, open_view_database
from eventlog.tracking import positions
from events.accounts import AccountRegistered
from projections import runner
from projections.accounts import AccountsView
from projections.runner import Projector, Stall
from projections.stalls import stalled
from projections.view import View
from tests.support import register

pytestmark = pytest.mark.integration

POISON = "poison@example.com"
NOT_YET = Stall(view="", position=0, error="", attempts=0, since=datetime.now(UTC))


class FragileView(View):
    """Keeps each registered address once; cannot cope with one address until it is fixed."""

    name: ClassVar[str] = "fragile"
    tables: ClassVar[tuple[str, ...]] = ("fragile_addresses",)
    broken = True
    attempts = 0

    def schema(self) -> list[str]:
        return ["CREATE TABLE IF NOT EXISTS fragile_addresses (email TEXT PRIMARY KEY)"]

    def apply(self, event: Any, cursor: ViewCursor) -> None:
        if not isinstance(event, AccountRegistered):
            return
        if event.email == POISON:
            FragileView.attempts += 1
            if FragileView.broken:
                raise ValueError("this view cannot handle that address (yet)")
        # A primary key: applying an event twice would fail here, not pass unnoticed.
        cursor.execute("INSERT INTO fragile_addresses (email) VALUES (%(email)s)", {"email": event.email})


def _until(condition: Any, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)


def test_a_poison_event_stalls_only_its_view_which_resumes_exactly_once_when_fixed(
    settings: Settings, store: Storefront, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "FIRST_RETRY_SECONDS", 0.05)
    monkeypatch.setattr(runner, "LONGEST_RETRY_SECONDS", 0.4)
    FragileView.broken, FragileView.attempts = True, 0
    addresses = [f"before{i}@example.com" for i in range(5)] + [POISON] + [f"after{i}@example.com" for i in range(5)]
    for address in addresses:
        register(store, address)
    head = store.max_notification_id()

    db = open_view_database(settings.view_store_env)
    projector = Projector(store, db, [AccountsView(), FragileView()], poll_interval=0.02)
    projector.setup()
    stop = threading.Event()
    thread = threading.Thread(target=projector.run, args=(stop,), daemon=True)
    thread.start()
    try:
        _until(lambda: positions(db, store.name).get("accounts") == head, "the healthy view has read everything")
        _until(lambda: projector.stalls.get("fragile", NOT_YET).attempts >= 4, "the fragile view retried a few times")
        stall = projector.stalls["fragile"]
        assert stall.error.startswith("ValueError") and stall.attempts >= 4
        poisoned_at = positions(db, store.name)["fragile"]
        assert poisoned_at == stall.position < head, "stalled before the poison event, nothing skipped"
        reported = stalled(db, store.name)  # what the API's health check reports
        assert reported["fragile"]["position"] == poisoned_at and reported["fragile"]["error"].startswith("ValueError")
        assert set(reported) == {"fragile"}
        with db.read() as cursor:
            cursor.execute("SELECT email FROM fragile_addresses ORDER BY email")
            assert [row["email"] for row in cursor.fetchall()] == sorted(addresses[:5])

        late = "late@example.com"
        register(store, late)  # the healthy view keeps going meanwhile
        _until(lambda: positions(db, store.name)["accounts"] == store.max_notification_id(), "accounts caught up")

        FragileView.broken = False  # the fix is deployed
        _until(lambda: positions(db, store.name)["fragile"] == store.max_notification_id(), "the fixed view resumed")
        with db.read() as cursor:
            cursor.execute("SELECT email FROM fragile_addresses ORDER BY email")
            assert [row["email"] for row in cursor.fetchall()] == sorted([*addresses, late])
        # The stall is cleared just after the progress that ends it commits.
        _until(lambda: "fragile" not in projector.stalls, "the projector no longer counts the view as stalled")
        _until(lambda: stalled(db, store.name) == {}, "the health check no longer reports the stall")
        print(f"poison event retried {FragileView.attempts} times with back-off; {len(addresses) + 1} applied once")
    finally:
        stop.set()
        thread.join(timeout=10)
        db.close()

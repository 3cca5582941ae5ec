"""The projector as its own process: killed mid-way and restarted, its view ends exactly right."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from config.settings import Settings
from domain.store import Storefront
from eventlog.database import ViewCursor, open_view_database
from eventlog.tracking import positions, wait_for_views
from eventlog.transparency import TransparencyLog, read_log
from events.accounts import AccountRegistered
from projections.accounts import AccountsView
from projections.runner import Projector
from tests.support import register

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


def _env(settings: Settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["APP_VAR_DIR"] = str(settings.var_dir)
    env["PROJECTOR_POLL_SECONDS"] = "0.02"
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    return env


def _start_projector(settings: Settings) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "projections", "run"], cwd=ROOT, env=_env(settings),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _emails_in_view(settings: Settings) -> list[str]:
    db = open_view_database(settings.view_store_env)
    try:
        with db.read() as cursor:
            cursor.execute("SELECT email FROM accounts_view ORDER BY email")
            return [row["email"] for row in cursor.fetchall()]
    finally:
        db.close()


def _view_count(settings: Settings) -> int:
    db = open_view_database(settings.view_store_env)
    try:
        with db.read() as cursor:
            cursor.execute("SELECT COUNT(*) AS n FROM accounts_view")
            row = cursor.fetchone()
            return int(row["n"]) if row else 0
    except Exception:
        return 0  # tables not created yet
    finally:
        db.close()


def test_a_projector_killed_mid_way_and_restarted_leaves_the_view_exactly_right(settings: Settings) -> None:
    store = Storefront(settings.event_store_env)
    first_batch = [f"customer{i:04d}@example.com" for i in range(600)]
    for email in first_batch:
        register(store, email)

    projector = _start_projector(settings)
    deadline = time.monotonic() + 60
    while _view_count(settings) < 25:
        assert time.monotonic() < deadline, "projector never started"
        time.sleep(0.005)
    projector.send_signal(signal.SIGKILL)
    projector.wait(timeout=10)
    seen_at_kill = _view_count(settings)
    assert 0 < seen_at_kill < len(first_batch), "the kill must land mid-way to prove anything"

    second_batch = [f"late{i:03d}@example.com" for i in range(40)]
    for email in second_batch:
        register(store, email)

    restarted = _start_projector(settings)
    try:
        db = open_view_database(settings.view_store_env)
        assert wait_for_views(db, store.name, ["accounts"], store.max_notification_id(), timeout=60)
        db.close()
        assert _emails_in_view(settings) == sorted(first_batch + second_batch)
        assert _transparency_log_reaches_the_head_once_per_event(settings, store)
    finally:
        restarted.send_signal(signal.SIGTERM)
        assert restarted.wait(timeout=20) == 0, restarted.stderr.read().decode() if restarted.stderr else ""
    store.close()


def _transparency_log_reaches_the_head_once_per_event(settings: Settings, store: Storefront) -> bool:
    """The projector also appends every event to the transparency log, each exactly once, in log order."""
    db = open_view_database(settings.event_store_env)
    try:
        tree = TransparencyLog(store.recorder, db, store.name)
        deadline = time.monotonic() + 60
        while tree.position() < store.max_notification_id():
            assert time.monotonic() < deadline, "the transparency log never caught up"
            time.sleep(0.05)
        return [leaf.notification_id for leaf in tree.leaves()] == [n.id for n in read_log(store.recorder)]
    finally:
        db.close()


def test_rebuild_from_scratch_replays_the_whole_log_into_an_identical_view(settings: Settings) -> None:
    store = Storefront(settings.event_store_env)
    emails = [f"rebuild{i}@example.com" for i in range(250)]  # more events than one batch of the replay
    for email in emails:
        register(store, email)
    run = subprocess.run(
        [sys.executable, "-m", "projections", "rebuild"], cwd=ROOT, env=_env(settings),
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert b"rebuilt all views" in run.stdout
    head = store.max_notification_id()
    assert b"accounts: 100%" in run.stderr and f"{head}/{head}".encode() in run.stderr  # the progress bar
    assert _emails_in_view(settings) == sorted(emails)

    db = open_view_database(settings.view_store_env)
    assert positions(db, store.name)["accounts"] == store.max_notification_id()
    db.close()

    again = subprocess.run(
        [sys.executable, "-m", "projections", "rebuild", "accounts"], cwd=ROOT, env=_env(settings),
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert again.returncode == 0
    assert _emails_in_view(settings) == sorted(emails)
    store.close()


class FailsOnce(AccountsView):
    """The accounts view, failing once on the ``at``-th registration it is given (a crash in mid-batch)."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.seen = 0

    def apply(self, event: Any, cursor: ViewCursor) -> None:
        if isinstance(event, AccountRegistered):
            self.seen += 1
            if self.seen == self.at:
                raise RuntimeError("the view fell over in the middle of a batch")
        super().apply(event, cursor)


def test_a_rebuild_that_fails_in_mid_batch_keeps_none_of_that_batch_and_then_applies_each_event_once(
    settings: Settings,
) -> None:
    store = Storefront(settings.event_store_env)
    emails = [f"batch{i}@example.com" for i in range(450)]
    for email in emails:
        register(store, email)
    db = open_view_database(settings.view_store_env)
    view = FailsOnce(at=300)
    projector = Projector(store, db, [view])
    projector.setup()
    projector.rebuild([])

    with pytest.raises(RuntimeError, match="middle of a batch"):
        projector.catch_up()

    stopped_at = positions(db, store.name)["accounts"]
    registered_before = sum(
        1
        for notification in store.recorder.select_notifications(start=1, limit=max(stopped_at, 1), stop=stopped_at)
        if notification.topic == AccountRegistered.TOPIC
    )
    assert 0 < stopped_at < store.max_notification_id()
    assert _view_count(settings) == registered_before < 300  # the failing batch left no row behind
    projector.catch_up()  # the cause is gone: the same batch again, and the rest
    assert _emails_in_view(settings) == sorted(emails)
    assert positions(db, store.name)["accounts"] == store.max_notification_id()
    print(f"rebuild stopped at {stopped_at} by a failure in mid-batch, then finished: {len(emails)} rows, once each")
    db.close()
    store.close()

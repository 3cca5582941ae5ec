"""One clock in tests: with TEST_CLOCK on, the sandbox process dates payments by the store's shared test clock, so a
payment made after a test moved the store a month ahead is paid a month ahead at the gateway too (the ledger and
``paidAt`` agree with the store's own dates)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from config.settings import Settings
from eventlog.database import open_view_database
from harness.clock import REFRESH_SECONDS, SharedTestClock
from integrations.portone.sandbox.__main__ import shared_clock

pytestmark = pytest.mark.integration


def test_the_sandbox_follows_the_stores_shared_test_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_VAR_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("TEST_CLOCK", "0")
    assert shared_clock() is None, "without TEST_CLOCK the sandbox keeps the system clock"

    monkeypatch.setenv("TEST_CLOCK", "1")
    sandbox_now = shared_clock()
    assert sandbox_now is not None
    store_clock = SharedTestClock(open_view_database(Settings().view_store_env))
    store_clock.advance(timedelta(days=31))  # the test harness moves the store's clock
    time.sleep(REFRESH_SECONDS + 0.05)
    difference = sandbox_now() - store_clock.now()
    assert abs(difference) < timedelta(seconds=2)
    assert sandbox_now() - datetime.now(UTC) > timedelta(days=30)

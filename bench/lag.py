"""Projection lag under a steady write load: the projector process (`python -m projections run`, as `make run`
starts it) follows a log receiving ``BENCH_LAG_RATE`` (200) registrations a second, one transaction each, and we
note when the slowest view's position first covers each event.

Ours: the p99 of those lags (ms), against the 200 ms target printed as the baseline. The note gives the p50 and
the write rate achieved; on SQLite the projector polls (``PROJECTOR_POLL_SECONDS``, 0.1 s by default), on
PostgreSQL it is woken by LISTEN/NOTIFY.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.harness import Result, smallest
from domain.accounts.account import Account
from domain.store import Storefront
from eventlog.database import open_view_database
from eventlog.tracking import positions
from events.values import Language
from projections.catalogue import all_views
from tests.conftest import make_settings
from tests.faults.stack import ROOT, until

RATE = int(os.environ.get("BENCH_LAG_RATE", "200"))
NO_LOGIN = "-"  # the benchmark's accounts never log in


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run(store: str, env: dict[str, str], *, seconds: int, connections: int) -> list[Result]:
    """Write at RATE for ``seconds`` while the projector follows; the lag of every event."""
    del connections
    rate = smallest(RATE, 20)
    with tempfile.TemporaryDirectory(prefix="bench-lag-") as tmp:
        settings = make_settings(Path(tmp), **env)
        log = Storefront(settings.event_store_env)
        views = open_view_database(settings.view_store_env)
        process_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CI")}
        process_env |= {"APP_VAR_DIR": tmp, **env}
        projector = subprocess.Popen(
            [sys.executable, "-m", "projections", "run"], cwd=ROOT, env=process_env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        names = [view.name for view in all_views()]
        written: dict[int, float] = {}
        seen: dict[int, float] = {}
        done = threading.Event()

        def set_up() -> bool:
            try:
                return set(positions(views, log.name)) >= set(names)
            except Exception:  # the projector has not created its tables yet
                return False

        def slowest() -> int:
            known = positions(views, log.name)
            return min(known.get(name, 0) for name in names)

        def watch() -> None:
            last = 0
            give_up = float("inf")
            while (not done.is_set() or last < max(written, default=0)) and time.monotonic() < give_up:
                if done.is_set() and give_up == float("inf"):
                    give_up = time.monotonic() + 60  # a projector that never catches up ends the run
                now_at = slowest()
                moment = time.monotonic()
                for position in range(last + 1, now_at + 1):
                    seen[position] = moment
                last = max(last, now_at)
                time.sleep(0.002)

        try:
            until(set_up, "the projector has set up its views", 60)
            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            started = time.monotonic()
            total = rate * seconds
            for number in range(total):
                time.sleep(max(0.0, started + number / rate - time.monotonic()))
                account = Account.register(
                    email=f"lag{number}@example.com", password_hash=NO_LOGIN, language=Language.KO,
                    marketing_push_enabled=False, at=datetime.now(UTC),
                )  # fmt: skip
                moment = time.monotonic()
                for recording in log.save(account):
                    written[recording.notification.id] = moment
            achieved = total / (time.monotonic() - started)
            done.set()
            watcher.join(timeout=120)
        finally:
            projector.terminate()
            projector.wait(timeout=30)
            views.close()
            log.close()
    lags = [(seen[position] - moment) * 1000 for position, moment in written.items() if position in seen]
    note = (
        f"p50 {statistics.median(lags):.0f} ms, {achieved:.0f} writes/s achieved, {len(lags)} events; baseline = target"
    )
    return [Result(f"projection lag p99 at {rate} writes/s", store, "ms", _percentile(lags, 0.99), 200.0, 1.0,
                   higher_is_better=False, note=note)]  # fmt: skip

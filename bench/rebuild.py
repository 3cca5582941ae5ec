"""A rebuild of every view from a log of ``BENCH_REBUILD_EVENTS`` (100,000) events: account registrations, each
also a licence and a payment's worth of rows in the views that care (the accounts view takes them all; views
that ignore an event still move their position past it).

Ours: events of the log replayed per second by ``python -m projections rebuild``'s path (every view emptied,
then caught up, many events per transaction). Target: ≥ 5,000 events/s, printed as the baseline; the note gives
the log's own append rate measured in the same run.
"""

from __future__ import annotations

import os
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.harness import Result, smallest
from domain.accounts.account import Account
from domain.store import Storefront
from eventlog.database import open_view_database
from events.values import Language
from projections.catalogue import all_views
from projections.runner import Projector
from tests.conftest import make_settings

EVENTS = int(os.environ.get("BENCH_REBUILD_EVENTS", "100000"))
BATCH = 500
NO_LOGIN = "-"  # the benchmark's accounts never log in


def _record(store: Storefront, events: int) -> float:
    """Append ``events`` registrations, BATCH a transaction; the append rate (events/s)."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    started = time.monotonic()
    for first in range(0, events, BATCH):
        accounts = [
            Account.register(
                email=f"rebuild{n}@example.com",
                password_hash=NO_LOGIN,
                language=Language.KO,
                marketing_push_enabled=False,
                at=start + timedelta(minutes=n),
            )
            for n in range(first, min(first + BATCH, events))
        ]
        store.save(*accounts)
    return events / (time.monotonic() - started)


def run(store: str, env: dict[str, str], *, seconds: int, connections: int) -> list[Result]:
    """Record the log, then time a rebuild of every view from it."""
    del seconds, connections  # the rebuild runs to the end of the log
    events = smallest(EVENTS, 200)
    with tempfile.TemporaryDirectory(prefix="bench-rebuild-") as tmp:
        settings = make_settings(Path(tmp), **env)
        log = Storefront(settings.event_store_env)
        views = open_view_database(settings.view_store_env)
        try:
            appended = _record(log, events)
            projector = Projector(log, views, all_views())
            projector.setup()
            started = time.monotonic()
            projector.rebuild([])
            projector.catch_up()
            replayed = events / (time.monotonic() - started)
        finally:
            views.close()
            log.close()
    note = f"{events} events; the log appends {appended:,.0f}/s; baseline = target"
    return [Result("rebuild of every view, events/s", store, "events/s", replayed, 5000.0, 1.0, note=note)]

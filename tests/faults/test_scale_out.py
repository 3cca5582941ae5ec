"""Two of each, as production runs: two API processes, two Celery workers and two projectors on one PostgreSQL and
one Redis, while guests buy and subscriptions renew. Nothing is charged twice, no view row is doubled (the live
views equal a rebuild from the log) and the views catch up; each view runs in one projector at a time, and when the
active projector is killed outright the standing-by one takes every view over.

The stack runs as `make run` runs it (supervisord over the Procfile); the second API, worker and projector are
started beside it with the same settings. The shared test clock lets a month pass between renewal rounds.
"""

from __future__ import annotations

import math
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from celery import Celery

from config.settings import Settings
from domain.store import Storefront
from eventlog.database import open_view_database
from eventlog.tracking import wait_for_views
from projections.catalogue import all_views
from tests.conftest import make_settings
from tests.faults.customers import ADMIN_TOKEN, Customers
from tests.faults.ledgers import assert_views_equal_a_rebuild, paid_once_and_recorded, renewal_charges
from tests.faults.stack import V1, Stack, free_port, until
from tests.support import reactions_all_run

pytestmark = pytest.mark.integration
SUBSCRIBERS = 6
RENEWAL_BATCH = 2  # subscriptions a renewal task takes
BUYERS = 4
LOAD_SECONDS = 15  # at least this long under the purchase load
LEASES = len(all_views()) + 1  # every view, and the transparency log's follower


def lease_holders(database_url: str) -> dict[int, int]:
    """For each projector process (by pid) connected for its leases, how many views it runs now."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT a.application_name, count(l.pid) FROM pg_stat_activity a "
            "LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted "
            "WHERE a.application_name LIKE 'projector-leases-%%' AND a.datname = current_database() "
            "GROUP BY a.application_name"
        ).fetchall()
    return {int(str(name).rsplit("-", 1)[1]): int(held) for name, held in rows}


def answers(url: str) -> bool:
    """Does ``url`` answer 200 now?"""
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def tasks_done(log_file: Path) -> int:
    """How many renewal tasks a worker's log says it finished."""
    text = log_file.read_text(encoding="utf-8", errors="replace") if log_file.exists() else ""
    return sum(1 for line in text.splitlines() if "subscriptions.renew_batch[" in line and "succeeded" in line)


@pytest.fixture
def two_of_each(settings: Settings, redis_url: str, tmp_path: Path) -> Iterator[tuple[Stack, Settings, list[str]]]:
    assert settings.database_url
    values = {
        # Nine processes on a server other tests share: one connection each kept, up to nine more while busy.
        "DATABASE_URL": f"{settings.database_url}?pool_size=1&max_overflow=9",
        "REDIS_URL": redis_url,
        "PROJECTOR_POLL_SECONDS": "0.05",
        "WORKER_POOL": "threads",
        "WORKER_CONCURRENCY": "4",
        "RENEWAL_BATCH_SIZE": str(RENEWAL_BATCH),  # several renewal tasks a month, for both workers to take
        "TEST_CLOCK": "1",
        "TEST_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    stack = Stack(tmp_path / "stack", **values)
    try:
        stack.wait_until_healthy()
        second_api = f"http://127.0.0.1:{free_port()}"
        stack.spawn("api2", "api", "--host", "127.0.0.1", "--port", second_api.rsplit(":", 1)[1])
        stack.spawn(
            "worker2", "workers", "worker", "--loglevel", "INFO", "--pool", "threads", "--concurrency", "4",
            "--without-gossip", "--without-mingle", "--hostname", "second@%h",
        )  # fmt: skip
        stack.spawn("projector2", "projections", "run")
        until(lambda: answers(f"{second_api}{V1}/health"), "the second API answers", 60)
        yield (
            stack,
            make_settings(stack.var_dir, **{**values, "DATABASE_URL": settings.database_url}),
            [
                stack.api_url,
                second_api,
            ],
        )
    finally:
        stack.stop()


def test_two_of_each_under_load_charge_once_keep_views_single_and_survive_the_active_projector(
    two_of_each: tuple[Stack, Settings, list[str]], redis_url: str
) -> None:
    stack, settings, apis = two_of_each
    assert settings.database_url
    started = time.monotonic()
    sandbox_db = stack.var_dir / "portone-sandbox.sqlite3"
    shop = Customers(apis, stack.sandbox_url, patience=60, outbox=stack.var_dir / "outbox")
    beat = Celery("faults", broker=redis_url)

    # Each view runs in one projector; the other stands by with none.
    until(lambda: sorted(lease_holders(settings.database_url).values()) == [0, LEASES], "one projector runs all")
    for number in range(SUBSCRIBERS):
        shop.subscribe(f"sub{number}@example.com")
    buyers = [threading.Thread(target=shop.keep_buying, args=(n,), daemon=True) for n in range(BUYERS)]
    load_started = time.monotonic()
    for buyer in buyers:
        buyer.start()

    def renew_a_month(month: int) -> float:
        began = time.monotonic()
        shop.a_month_passes()
        beat.send_task("subscriptions.renew_due", queue="storefront")

        def renewed() -> bool:
            if renewal_charges(sandbox_db, SUBSCRIBERS) >= month * SUBSCRIBERS:
                return True
            beat.send_task("subscriptions.renew_due", queue="storefront")  # as beat's next tick would
            time.sleep(1)
            return False

        until(renewed, f"month {month}'s renewals are charged", 60)
        return time.monotonic() - began

    time.sleep(LOAD_SECONDS / 4)
    first_month = renew_a_month(1)
    time.sleep(LOAD_SECONDS / 4)

    # The active projector killed outright: the standing-by one takes every view within seconds.
    holders = lease_holders(settings.database_url)
    active = next(pid for pid, held in holders.items() if held == LEASES)
    standby = next(pid for pid in holders if pid != active)
    bought_before = len(shop.paid_guests)
    os.kill(active, signal.SIGKILL)
    killed_at = time.monotonic()
    until(lambda: lease_holders(settings.database_url).get(standby) == LEASES, "the standby runs every view", 30)
    takeover = time.monotonic() - killed_at
    until(lambda: len(shop.paid_guests) > bought_before + BUYERS, "purchases go on after the takeover", 30)
    second_month = renew_a_month(2)
    time.sleep(max(0.0, LOAD_SECONDS - (time.monotonic() - load_started)))

    shop.stop.set()
    for buyer in buyers:
        buyer.join(timeout=60)
        assert not buyer.is_alive()
    load_seconds = time.monotonic() - load_started

    store = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    try:
        events = store.max_notification_id()
        caught_up_from = time.monotonic()
        assert wait_for_views(db, store.name, [view.name for view in all_views()], events, 30), "views catch up"
        catch_up = time.monotonic() - caught_up_from
        until(lambda: reactions_all_run(settings), "every task the log calls for has run", 60)  # and any double
        assert renewal_charges(sandbox_db, SUBSCRIBERS) == 2 * SUBSCRIBERS, "no renewal charged twice"

        recorded = paid_once_and_recorded(sandbox_db, db)
        assert len(recorded) == len(shop.paid_guests) + SUBSCRIBERS * 3

        # No view row missing or doubled: what two projectors kept in turn equals a rebuild from the log.
        stack.stop()
        assert_views_equal_a_rebuild(db, settings.database_url, settings.var_dir)
    finally:
        db.close()
        store.close()

    # Both APIs and both workers took part.
    assert all(shop.calls[api] > 0 for api in apis)
    logs = stack.var_dir / "logs"
    by_worker = (tasks_done(logs / "worker.log"), tasks_done(logs / "worker2.log"))
    assert sum(by_worker) >= 2 * math.ceil(SUBSCRIBERS / RENEWAL_BATCH)
    print(
        f"\ntwo of each: {len(shop.paid_guests)} guest purchases by {BUYERS} buyers in {load_seconds:.1f} s "
        f"({len(shop.paid_guests) / load_seconds:.1f}/s), calls per API {[shop.calls[api] for api in apis]}; "
        f"{SUBSCRIBERS} renewals a month in {first_month:.1f} s and {second_month:.1f} s, renewal tasks per worker "
        f"{list(by_worker)}; active projector killed, standby ran all {LEASES} leases after {takeover:.2f} s; "
        f"{events} events, views caught up {catch_up:.2f} s after the load, equal to a rebuild; "
        f"{len(recorded)} paid charges, each once; {time.monotonic() - started:.0f} s in all"
    )

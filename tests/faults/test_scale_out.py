"""Two of each, as production runs: two API processes, two Celery workers and two projectors on one PostgreSQL and
one Redis, while guests buy and subscriptions renew. Nothing is charged twice, no view row is doubled (the live
views equal a rebuild from the log) and the views catch up; each view runs in one projector at a time, and when the
active projector is killed outright the standing-by one takes every view over.

The stack runs as `make run` runs it (supervisord over the Procfile); the second API, worker and projector are
started beside it with the same settings. The shared test clock lets a month pass between renewal rounds.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from celery import Celery

from config.settings import Settings
from domain.store import Storefront
from events.tracking import wait_for_views
from projections.catalogue import all_views
from projections.database import ViewDatabase, open_view_database
from tests.conftest import make_settings
from tests.faults.stack import ROOT, V1, Stack, free_port, until
from tests.integration.purchases.desk import GOOD_CARD, PASSWORD

pytestmark = pytest.mark.integration
ADMIN_TOKEN = "faults-admin"
SUBSCRIBERS = 6
BUYERS = 4
LOAD_SECONDS = 15  # at least this long under the purchase load
LEASES = len(all_views()) + 1  # every view, and the transparency log's follower
TRANSIENT = (httpx.TransportError, httpx.HTTPStatusError)


@dataclass
class Customers:
    """Browsers of the running site, each call going to the next API process in turn (a load balancer)."""

    apis: list[str]
    sandbox_url: str
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=30))
    paid_guests: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    calls: Counter[str] = field(default_factory=Counter)
    _turn: Iterator[int] = field(default_factory=count)

    def post(self, path: str, **kwargs: Any) -> Any:
        """A call repeated until answered (503 is a moment of the store or broker being away)."""
        deadline = time.monotonic() + 60
        while True:
            api = self.apis[next(self._turn) % len(self.apis)]
            try:
                answer = self.http.post(f"{api}{V1}{path}", **kwargs)
                self.calls[api] += 1
                if answer.status_code != 503:
                    answer.raise_for_status()
                    return answer.json()
            except TRANSIENT:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.3)

    def buy_as_guest(self, address: str) -> None:
        """Order on one API, pay in the sandbox's window, confirm on the other (read-your-writes across them)."""
        order = self.post(
            "/payments/licenses/new",
            json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", "email": address},
        )
        window = {"pg": order["pg"], "pay_method": order["payMethod"], "merchant_uid": order["merchantUid"]}
        window |= {"name": order["name"], "amount": order["amount"], "currency": order["currency"]}
        window |= {"buyer_email": address, "card_number": GOOD_CARD["cardNumber"]}
        paid = self.http.post(f"{self.sandbox_url}/sandbox/checkout", json=window).json()
        confirmed = self.post(
            "/payments/licenses/new/confirm", json={"impUid": paid["imp_uid"], "merchantUid": order["merchantUid"]}
        )
        assert confirmed["state"] == "paid", confirmed
        self.paid_guests.append(address)

    def keep_buying(self, buyer: int) -> None:
        """Purchases one after another until told to stop."""
        for number in count():
            if self.stop.is_set():
                return
            self.buy_as_guest(f"guest{buyer}-{number}@example.com")

    def subscribe(self, address: str) -> None:
        """Register, log in and subscribe monthly with a typed card."""
        self.post("/accounts", json={"email": address, "pw": PASSWORD, "language": "ko"})
        token = self.post("/auth/login", json={"email": address, "pw": PASSWORD})["accessToken"]
        started = self.post(
            "/payments/licenses/subscribe/new/new-billingkey",
            headers={"Authorization": f"Bearer {token}"},
            json={"licenseId": 111, "countryCode": "KR", "card": GOOD_CARD},
        )
        assert started["status"] == "active", started

    def a_month_passes(self) -> None:
        """Every process's clock moves 30 days on."""
        self.post("/test-harness/clock/advance", headers={"X-Admin-Token": ADMIN_TOKEN}, json={"days": 30})


def gateway_payments(sandbox_db: Path) -> list[dict[str, Any]]:
    """Every payment the sandbox gateway holds."""
    with sqlite3.connect(sandbox_db) as db:
        return [json.loads(data) for (data,) in db.execute("SELECT data FROM payments ORDER BY seq")]


def renewal_charges(sandbox_db: Path) -> int:
    """Paid billing-key charges after each subscription's first."""
    paid = [p for p in gateway_payments(sandbox_db) if p["status"] == "paid" and p.get("customer_uid")]
    return len(paid) - SUBSCRIBERS


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


def view_rows(db: ViewDatabase) -> dict[str, list[tuple[str, ...]]]:
    """Every row of every view, in a fixed order."""
    rows = {}
    with db.read() as cursor:
        for table in (table for view in all_views() for table in view.tables):
            cursor.execute(f"SELECT * FROM {table}")
            rows[table] = sorted(tuple(str(value) for value in row.values()) for row in cursor.fetchall())
    return rows


def answers(url: str) -> bool:
    """Does ``url`` answer 200 now?"""
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def tasks_done(log_file: Path) -> int:
    """How many renewal tasks a worker's log says it finished."""
    text = log_file.read_text(encoding="utf-8", errors="replace") if log_file.exists() else ""
    return sum(1 for line in text.splitlines() if "subscriptions.renew_one[" in line and "succeeded" in line)


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
    shop = Customers(apis, stack.sandbox_url)
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
            if renewal_charges(sandbox_db) >= month * SUBSCRIBERS:
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
        time.sleep(2)  # a renewal charged twice would land now
        assert renewal_charges(sandbox_db) == 2 * SUBSCRIBERS, "no renewal charged twice"

        # Nothing charged twice or without a record: the gateway's paid charges are the payments view's, once each.
        gateway_paid = Counter(p["merchant_uid"] for p in gateway_payments(sandbox_db) if p["status"] == "paid")
        assert max(gateway_paid.values()) == 1
        with db.read() as cursor:
            cursor.execute("SELECT merchant_uid FROM payments_view WHERE state = 'paid'")
            recorded = Counter(row["merchant_uid"] for row in cursor.fetchall())
        assert recorded == gateway_paid
        assert len(recorded) == len(shop.paid_guests) + SUBSCRIBERS * 3

        # No view row missing or doubled: what two projectors kept in turn equals a rebuild from the log.
        stack.stop()
        live = view_rows(db)
        environment = {"DATABASE_URL": settings.database_url, "APP_VAR_DIR": str(settings.var_dir)}
        plain = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_", "CI"))}
        rebuild = [sys.executable, "-m", "projections", "rebuild"]
        subprocess.run(rebuild, cwd=ROOT, env={**plain, **environment}, check=True, timeout=120, capture_output=True)
        assert view_rows(db) == live
    finally:
        db.close()
        store.close()

    # Both APIs and both workers took part.
    assert all(shop.calls[api] > 0 for api in apis)
    logs = stack.var_dir / "logs"
    by_worker = (tasks_done(logs / "worker.log"), tasks_done(logs / "worker2.log"))
    assert sum(by_worker) >= 2 * SUBSCRIBERS
    print(
        f"\ntwo of each: {len(shop.paid_guests)} guest purchases by {BUYERS} buyers in {load_seconds:.1f} s "
        f"({len(shop.paid_guests) / load_seconds:.1f}/s), calls per API {[shop.calls[api] for api in apis]}; "
        f"{SUBSCRIBERS} renewals a month in {first_month:.1f} s and {second_month:.1f} s, renewal tasks per worker "
        f"{list(by_worker)}; active projector killed, standby ran all {LEASES} leases after {takeover:.2f} s; "
        f"{events} events, views caught up {catch_up:.2f} s after the load, equal to a rebuild; "
        f"{len(recorded)} paid charges, each once; {time.monotonic() - started:.0f} s in all"
    )

"""Each process killed outright in turn while customers buy, subscriptions renew and mails go out: afterwards no
event is lost, no view row is missing or doubled (the live views equal a rebuild from the log), nothing is charged
twice or without a record, and every mail is sent exactly once.

The whole stack runs as `make run` runs it (supervisord over the Procfile), on a PostgreSQL database and a Redis
broker of the test's own, with the shared test clock so that a month passes between renewal rounds.
"""

from __future__ import annotations

import email
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from celery import Celery

from config.settings import Settings
from domain.store import Storefront
from events.tracking import wait_for_views
from projections.catalogue import all_views
from projections.database import ViewDatabase, open_view_database
from tests.conftest import make_settings
from tests.faults.stack import ROOT, V1, Stack, until
from tests.integration.purchases.desk import GOOD_CARD, PASSWORD

pytestmark = pytest.mark.integration
KILLED_IN_TURN = ("api", "projector", "reactor", "worker", "beat")
ADMIN_TOKEN = "faults-admin"
SUBSCRIBERS = ("sub0@example.com", "sub1@example.com")
TRANSIENT = (httpx.TransportError, httpx.HTTPStatusError)


@dataclass
class Shop:
    """Customers of the running stack, over HTTP, as their browsers would be."""

    stack: Stack
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=30))
    paid_guests: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def post(self, path: str, **kwargs: Any) -> Any:
        """A call that a customer repeats until the site answers (a dead API is being restarted)."""
        deadline = time.monotonic() + 90
        while True:
            try:
                answer = self.http.post(f"{self.stack.api_url}{V1}{path}", **kwargs)
                if answer.status_code != 503:  # the store or the broker was away a moment: try again
                    answer.raise_for_status()
                    return answer.json()
            except TRANSIENT:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.3)

    def buy_as_guest(self, address: str) -> None:
        """Order, pay in the PG window, confirm (a confirm is repeated until answered: it is idempotent)."""
        order = self.post(
            "/payments/licenses/new",
            json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", "email": address},
        )
        window = {"pg": order["pg"], "pay_method": order["payMethod"], "merchant_uid": order["merchantUid"]}
        window |= {"name": order["name"], "amount": order["amount"], "currency": order["currency"]}
        window |= {"buyer_email": address, "card_number": GOOD_CARD["cardNumber"]}
        paid = self.http.post(f"{self.stack.sandbox_url}/sandbox/checkout", json=window).json()
        confirmed = self.post(
            "/payments/licenses/new/confirm", json={"impUid": paid["imp_uid"], "merchantUid": order["merchantUid"]}
        )
        assert confirmed["state"] == "paid", confirmed
        self.paid_guests.append(address)

    def keep_buying(self) -> None:
        """A steady stream of guest purchases until told to stop."""
        number = 0
        while not self.stop.is_set():
            self.buy_as_guest(f"guest{number}@example.com")
            number += 1

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


@dataclass
class Ledgers:
    """What the gateway, the outbox and the views hold."""

    settings: Settings
    sandbox_db: Path

    def gateway_payments(self) -> list[dict[str, Any]]:
        with sqlite3.connect(self.sandbox_db) as db:
            return [json.loads(data) for (data,) in db.execute("SELECT data FROM payments ORDER BY seq")]

    def renewal_charges(self) -> int:
        """Paid billing-key charges after each subscription's first."""
        paid = [p for p in self.gateway_payments() if p["status"] == "paid" and p.get("customer_uid")]
        return len(paid) - len(SUBSCRIBERS)

    def mails(self) -> Counter[str]:
        """How many mails went to each address."""
        outbox = self.settings.outbox_dir.glob("*.eml")
        return Counter(str(email.message_from_bytes(path.read_bytes())["To"]) for path in outbox)

    def views(self, db: ViewDatabase) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every view, in a fixed order."""
        rows = {}
        with db.read() as cursor:
            for table in (table for view in all_views() for table in view.tables):
                cursor.execute(f"SELECT * FROM {table}")
                rows[table] = sorted(tuple(str(value) for value in row.values()) for row in cursor.fetchall())
        return rows


@pytest.fixture
def running(settings: Settings, redis_url: str, tmp_path: Path) -> Iterator[tuple[Stack, Settings]]:
    assert settings.database_url
    values = {
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": redis_url,
        "BROKER_VISIBILITY_TIMEOUT": "5",  # a task a killed worker held comes back within seconds
        "MAIL_RESEND_SECONDS": "3",  # and one it lost is started again by the reactor's sweep
        "PROJECTOR_POLL_SECONDS": "0.05",
        "TEST_CLOCK": "1",
        "TEST_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    stack = Stack(tmp_path / "stack", **values)
    try:
        stack.wait_until_healthy()
        yield stack, make_settings(stack.var_dir, **values)
    finally:
        stack.stop()


def test_processes_killed_in_turn_under_load_lose_nothing_and_double_nothing(
    running: tuple[Stack, Settings], redis_url: str
) -> None:
    stack, settings = running
    shop = Shop(stack)
    ledgers = Ledgers(settings, stack.var_dir / "portone-sandbox.sqlite3")
    beat = Celery("faults", broker=redis_url)
    for address in SUBSCRIBERS:
        shop.subscribe(address)
    buyer = threading.Thread(target=shop.keep_buying, daemon=True)
    buyer.start()

    for month, name in enumerate(KILLED_IN_TURN, start=1):
        shop.a_month_passes()
        beat.send_task("subscriptions.renew_due", queue="storefront")
        killed, restarted = stack.kill_and_see_restarted(name)
        print(f"month {month}: {name} pid {killed} killed, restarted as {restarted}; {len(shop.paid_guests)} bought")
        expected_renewals = month * len(SUBSCRIBERS)

        def renewed(expected: int = expected_renewals) -> bool:
            if ledgers.renewal_charges() >= expected:
                return True
            beat.send_task("subscriptions.renew_due", queue="storefront")  # as beat's next tick would
            time.sleep(1)
            return False

        until(renewed, f"month {month}'s renewals are charged")
    bought_before_stop = len(shop.paid_guests)
    until(lambda: len(shop.paid_guests) > bought_before_stop, "one more purchase after the last restart")
    shop.stop.set()
    buyer.join(timeout=120)
    assert not buyer.is_alive()

    # Everything the log calls for is done: views caught up, every mail out.
    store = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    try:
        names = [view.name for view in all_views()]
        events = store.max_notification_id()
        assert wait_for_views(db, store.name, names, events, 60), "the views catch up"
        expected_mails = Counter(shop.paid_guests)
        for address in SUBSCRIBERS:  # the confirmation mail, the first payment's receipt and one per renewal
            expected_mails[address] = 2 + len(KILLED_IN_TURN)
        # A mail task a killed worker held comes back after the broker's visibility timeout (5 s here); one
        # it lost (popped from Redis, not yet recorded as unacknowledged) is started again by the sweep.
        deadline = time.monotonic() + 60
        while ledgers.mails() != expected_mails and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(2)  # a mail sent twice would land now
        assert ledgers.mails() == expected_mails, "each customer got exactly their mails"
        assert ledgers.renewal_charges() == len(KILLED_IN_TURN) * len(SUBSCRIBERS), "no renewal charged twice"

        # Nothing charged twice or without a record: the gateway's paid charges are the payments view's.
        gateway_paid = Counter(p["merchant_uid"] for p in ledgers.gateway_payments() if p["status"] == "paid")
        assert max(gateway_paid.values()) == 1
        with db.read() as cursor:
            cursor.execute("SELECT merchant_uid FROM payments_view WHERE state = 'paid'")
            recorded = Counter(row["merchant_uid"] for row in cursor.fetchall())
        assert recorded == gateway_paid
        assert len(recorded) == len(shop.paid_guests) + len(SUBSCRIBERS) * (1 + len(KILLED_IN_TURN))

        # No view row missing or doubled: the views the killed projector kept equal a rebuild from the log.
        stack.stop()
        live = ledgers.views(db)
        environment = {"DATABASE_URL": str(settings.database_url), "APP_VAR_DIR": str(settings.var_dir)}
        rebuild = [sys.executable, "-m", "projections", "rebuild"]
        subprocess.run(rebuild, cwd=ROOT, env={**_plain_env(), **environment}, check=True, timeout=120)
        assert ledgers.views(db) == live
    finally:
        db.close()
        store.close()
    print(
        f"{len(shop.paid_guests)} guest purchases and {len(KILLED_IN_TURN)} renewal months: {events} events, "
        f"{len(recorded)} paid charges, {sum(expected_mails.values())} mails, each once; views equal a rebuild"
    )


def _plain_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_", "CI"))}

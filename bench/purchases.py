"""Whole purchases over HTTP (order, the sandbox's card window, confirm) by 8 buyers at once, against bare
eventsourcing saves of a three-event aggregate, one transaction each, by 8 threads on the same kind of store.

A purchase needs two transactions (the order, then the confirm that pays, grants and records together), so half
of the bare save rate is its ceiling; the target is ≥ 0.25. Read-your-writes stays on: each confirm waits until
the views show what it wrote, as the browser's next page expects.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import httpx
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from bench.harness import Result, bench_stack, smallest
from bench.process_cpu import CpuMeter, per_item, quiet
from bench.profile import profiled
from tests.conftest import make_settings
from tests.faults.stack import V1, Stack

BUYERS = 8


class Order(Aggregate):
    """Three events, as a paid order records: ordered, paid, granted."""

    @event("Ordered")
    def __init__(self, merchant_uid: str, amount: int) -> None:
        self.merchant_uid = merchant_uid
        self.amount = amount
        self.state = "ordered"

    @event("Paid")
    def pay(self, imp_uid: str) -> None:
        self.imp_uid = imp_uid
        self.state = "paid"

    @event("Granted")
    def grant(self, licence_key: str) -> None:
        self.licence_key = licence_key


class BareSaves(Application[UUID]):
    """Nothing but saves of orders."""

    name = "BenchBareSaves"


def _in_threads(seconds: int, work: Callable[[int, int], object]) -> int:
    """Run ``work(thread number, round)`` in BUYERS threads for ``seconds``; how many rounds finished."""
    done = [0] * BUYERS
    deadline = time.monotonic() + seconds

    def loop(number: int) -> None:
        while time.monotonic() < deadline:
            work(number, done[number])
            done[number] += 1

    threads = [threading.Thread(target=loop, args=(number,)) for number in range(BUYERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done)


def bare_saves_per_second(env: dict[str, str], folder: Path, seconds: int) -> tuple[float, float]:
    """Three-event aggregates saved per second, one transaction each, by BUYERS threads; and the CPU milliseconds
    each save cost this process (PostgreSQL's share is left out: it is a few tenths of a millisecond)."""
    settings = make_settings(folder, **env)
    store_env = dict(settings.event_store_env)
    if "SQLITE_DBNAME" in store_env:
        store_env["SQLITE_DBNAME"] = str(folder / "bare-events.sqlite3")
    app = BareSaves(env={**store_env, "CREATE_TABLE": "y"})

    def save(number: int, round_number: int) -> None:
        order = Order(f"bare-{number}-{round_number}", 24360)
        order.pay(f"imp-{number}-{round_number}")
        order.grant("KEY")
        app.save(order)

    started, cpu = time.monotonic(), time.process_time()
    saved = _in_threads(seconds, save)
    rate = saved / (time.monotonic() - started)
    cpu_per_save = (time.process_time() - cpu) * 1000 / max(saved, 1)
    app.close()
    return rate, cpu_per_save


STEPS = ("order", "window", "confirm")


class Buyers:
    """BUYERS guest customers of a stack, each with a connection of their own."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.clients = [httpx.Client(timeout=60) for _ in range(BUYERS)]

    def buy(self, number: int, round_number: int) -> tuple[float, float, float]:
        """One whole guest purchase by buyer ``number``: how long the order, the window and the confirm took."""
        http, api = self.clients[number], f"{self.stack.api_url}{V1}"
        email = f"buyer{number}-{round_number}@example.com"
        started = time.perf_counter()
        order = http.post(
            f"{api}/payments/licenses/new",
            json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", "email": email},
        ).json()
        ordered = time.perf_counter()
        window = {"pg": order["pg"], "pay_method": order["payMethod"], "merchant_uid": order["merchantUid"]}
        window |= {"name": order["name"], "amount": order["amount"], "currency": order["currency"]}
        window |= {"buyer_email": email, "card_number": "4111111111111111"}
        paid = http.post(f"{self.stack.sandbox_url}/sandbox/checkout", json=window).json()
        windowed = time.perf_counter()
        confirmed = http.post(
            f"{api}/payments/licenses/new/confirm",
            json={"impUid": paid["imp_uid"], "merchantUid": order["merchantUid"]},
        )
        confirmed.raise_for_status()
        assert confirmed.json()["state"] == "paid"
        return ordered - started, windowed - ordered, time.perf_counter() - windowed

    def per_second(self, seconds: int) -> tuple[float, int]:
        """Guest purchases (order, window, confirm) per second by all BUYERS at once, and how many."""
        self.buy(0, -1)  # warm up
        started = time.monotonic()
        bought = _in_threads(seconds, self.buy)
        return bought / (time.monotonic() - started), bought

    def alone(self, purchases: int = 20) -> dict[str, float]:
        """The median milliseconds of each step when one buyer buys alone: where a purchase's time goes."""
        timings = [self.buy(0, 1_000_000 + round_number) for round_number in range(purchases)]
        by_step = zip(STEPS, zip(*timings, strict=True), strict=True)
        return {step: statistics.median(durations) * 1000 for step, durations in by_step}

    def close(self) -> None:
        """Hang up."""
        for client in self.clients:
            client.close()


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, profile: bool = False) -> list[Result]:
    """Purchases per second through the stack, and the bare save rate on the same store; with ``profile``, py-spy
    samples the API while the purchases are measured (the confirm is most of a purchase's time)."""
    del connections  # BUYERS buyers, as the issue measured
    with tempfile.TemporaryDirectory(prefix="bench-purchases-") as tmp:
        baseline, cpu_per_save = bare_saves_per_second(env, Path(tmp), seconds)
        with bench_stack(Path(tmp) / "var", **env) as stack:
            buyers = Buyers(stack)
            # Every process of the stack, the database's backends and the mail the purchases cause, until quiet:
            # what a purchase costs the machine, beside what a bare save costs.
            meter = CpuMeter([stack.supervisor.pid], env.get("DATABASE_URL"))
            meter.start()
            with profiled(profile, lambda: stack.pid("api"), f"purchases on {store}"):
                ours, bought = buyers.per_second(seconds)
            quiet(CpuMeter(meter.roots, meter.database_url))
            spent = meter.stop()
            alone = buyers.alone(smallest(20, 2))
            buyers.close()
    steps = ", ".join(f"{step} {alone[step]:.0f} ms" for step in STEPS)
    note = (
        f"baseline: bare saves/s ({cpu_per_save:.2f} ms CPU per save); one buyer alone, medians: {steps}; "
        f"{per_item(spent, bought, 'purchase')}"
    )
    return [Result("whole purchases/s (8 buyers)", store, "per s", ours, baseline, 0.25, note=note)]

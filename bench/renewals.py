"""Renewals with real workers: subscriptions due at once, charged through the PortOne sandbox by the Celery workers
the stack runs, first with the sandbox answering each charge after 300 ms (as a real gateway does), then at once.

Targets (absolute, so the target is printed as the baseline): ≥ 200 renewals/s with the latency, ≥ 500/s without,
and the time per renewal flat (within ±20%) as the number due grows. The stack runs its worker with a thread pool
(``WORKER_POOL=threads``, ``WORKER_CONCURRENCY``), since a renewal mostly waits for the gateway.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
from celery import Celery

from bench.harness import ADMIN_TOKEN, REDIS_URL, RESULTS, Result, bench_stack, shares_a_stack, smallest, smoke
from bench.process_cpu import CpuMeter, descendants, label, per_item, quiet
from bench.profile import recording, saved_report
from bench.reads import confirm
from bootstrap import Services
from config.settings import Settings
from domain.accounts.auth import find_account_id
from domain.payments.wallet import key_to_charge
from domain.store import Storefront
from domain.subscriptions.commands import subscribe
from eventlog.database import open_view_database
from eventlog.tracking import wait_for_views
from events.values import Language
from projections.catalogue import all_views
from tests.conftest import make_settings
from tests.faults.stack import V1, Stack, until
from tests.integration.purchases.desk import GOOD_CARD

PASSWORD = "bench2026"  # noqa: S105 - the benchmark's own subscriber
REDIS_DB = REDIS_URL  # the benchmarks' own Redis database (bench/harness.py)
COUNTS = tuple(int(item) for item in os.environ.get("BENCH_RENEWAL_COUNTS", "1000").split(","))
# With more due than this, only the first WINDOW renewals of a pass are timed (no-latency round only): the pass is
# then stopped by purging the renewals queue (what is left stays due for the next pass), so the time per renewal
# at 10,000 or 100,000 due is measured without charging them all on a shared machine. 0: every renewal.
WINDOW = int(os.environ.get("BENCH_RENEWAL_WINDOW", "0"))
CONCURRENCY = os.environ.get("BENCH_WORKER_CONCURRENCY", "64")
# Worker processes charging renewals: the stack's own (both queues: mails and renewals) and as many more beside
# it taking only renewals (`-Q renewals`), as production runs dedicated renewal workers; one process is bound by
# its GIL long before the gateway's latency is covered.
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
GATEWAY_LATENCY = 0.3
CHARGE_PATH = "/subscribe/payments/again"
RENEWALS_QUEUE = "renewals"
# How the subscriptions are started: "api" (each over HTTP, as a member would) or "domain" (the API's own command
# called in the benchmark's process: 10,000 and more in minutes rather than hours).
SEED = os.environ.get("BENCH_RENEWAL_SEED", "api")
SEED_KEYS = 16  # billing keys in the subscriber's wallet, each starting its share of the subscriptions in turn


class Subscriber:
    """One account holding many monthly subscriptions, paid with its wallet's billing keys.

    Two first charges of one plan racing on one billing key are one subscription (a retry after a lost answer must
    not charge twice: ``domain.subscriptions.charging.first_subscription_id``), so the subscriptions are started
    one after another on each key, and the keys (up to SEED_KEYS, each added with a subscription of its own) side
    by side."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.http = httpx.Client(timeout=60)
        email = "renewals@example.com"
        registered = self.http.post(
            f"{stack.api_url}{V1}/accounts", json={"email": email, "pw": PASSWORD, "language": "ko"}
        )
        registered.raise_for_status()
        # Subscribing with a new card is for members who confirmed their address: open the mailed link.
        confirm(self.http, stack, registered.json()["userId"], email)
        self.email = email
        self.log_in()
        self.keys: list[str] = []
        self.count = 0
        self.add_keys(1)

    def add_keys(self, wanted: int) -> None:
        """Subscribe with a new card until the wallet holds ``wanted`` billing keys (each a subscription)."""
        while len(self.keys) < wanted:
            started = self.post(
                "/payments/licenses/subscribe/new/new-billingkey",
                {"licenseId": 111, "countryCode": "KR", "card": {**GOOD_CARD, "cardNumber": self._card_number()}},
            )
            assert started["status"] == "active", started
            self.count += 1
            wallet = self.http.get(f"{self.stack.api_url}{V1}/billingkeys", headers=self.headers).json()
            self.keys = [str(key["billingkeyId"]) for key in wallet["billingkeys"]]

    def _card_number(self) -> str:
        """A card the wallet does not hold yet (one card is one key): the sandbox approves these (not 0002 or 0003)."""
        return f"411111111111{5000 + len(self.keys):04d}"

    def shares(self, total: int) -> list[tuple[str, int]]:
        """How many more subscriptions each key starts so that the account holds ``total``."""
        more, keys = total - self.count, len(self.keys)
        return [(key, more // keys + (number < more % keys)) for number, key in enumerate(self.keys)]

    def log_in(self) -> None:
        """A fresh access token (the rounds move the clock a month on, past the last one's lifetime)."""
        login = self.http.post(f"{self.stack.api_url}{V1}/auth/login", json={"email": self.email, "pw": PASSWORD})
        login.raise_for_status()
        self.headers = {"Authorization": f"Bearer {login.json()['accessToken']}"}

    def post(self, path: str, body: dict[str, object]) -> dict[str, object]:
        answer = self.http.post(f"{self.stack.api_url}{V1}{path}", json=body, headers=self.headers)
        answer.raise_for_status()
        result: dict[str, object] = answer.json()
        return result

    def subscribe_until(self, total: int) -> None:
        """Start monthly subscriptions (a key's one after another, SEED_KEYS keys at once) until the account holds
        ``total``."""
        self.log_in()
        self.add_keys(min(SEED_KEYS, total - self.count + len(self.keys)))

        def on_key(share: tuple[str, int]) -> None:
            body = {"licenseId": 111, "countryCode": "KR", "billingkeyId": share[0]}
            for _ in range(share[1]):
                self.post("/payments/licenses/subscribe/new", body)

        with ThreadPoolExecutor(len(self.keys)) as pool:
            list(pool.map(on_key, self.shares(total)))
        self.count = total

    def subscribe_in_process(self, total: int, settings: Settings) -> None:
        """Start monthly subscriptions until the account holds ``total``, by the same command the API runs
        (``domain.subscriptions.commands.subscribe``: a real charge at the sandbox, the subscription, licence and
        payment record saved as one transaction) called here with 8 threads, a key's one after another: the HTTP
        exchange, login and budget of each call cost the API more than the command itself, which made seeding
        10,000 take a quarter of an hour."""
        self.log_in()
        self.add_keys(min(SEED_KEYS, total - self.count + len(self.keys)))
        services = Services.build(settings)
        try:
            account_id = find_account_id(services.store, self.email)
            assert account_id is not None

            def on_key(share: tuple[str, int]) -> None:
                key = key_to_charge(services.store, account_id, share[0])
                for _ in range(share[1]):
                    subscribe(
                        services.store, services.clock, services.payments, services.catalogue,
                        account_id=account_id, licence_id=111, country_code="KR", language=Language.KO, key=key,
                    )  # fmt: skip

            with ThreadPoolExecutor(8) as pool:
                list(pool.map(on_key, self.shares(total)))
        finally:
            services.close()
        self.count = total

    def a_month_passes(self) -> None:
        """Every process's clock moves 30 days on."""
        moved = self.http.post(
            f"{self.stack.api_url}{V1}/test-harness/clock/advance",
            headers={"X-Admin-Token": ADMIN_TOKEN},
            json={"days": 30},
        )
        moved.raise_for_status()


class ChargeCounter:
    """Paid billing-key charges the sandbox made after the counter was made, counted as they appear: each poll
    reads only the rows added since the last one (a charge is written paid at once), so counting stays as cheap
    at the 100,000th renewal as at the first and never holds the sandbox's database long."""

    def __init__(self, stack: Stack) -> None:
        self.path = stack.var_dir / "portone-sandbox.sqlite3"
        (self.seen,) = self._one("SELECT coalesce(max(seq), 0) FROM payments")
        self.count = 0

    def _one(self, query: str, *params: object) -> tuple[int, ...]:
        with sqlite3.connect(self.path, timeout=30) as db:
            return tuple(int(value) for value in db.execute(query, params).fetchone())

    def poll(self) -> int:
        """The count so far."""
        paid, last = self._one(
            "SELECT count(CASE WHEN json_extract(data, '$.status') = 'paid' "
            "AND json_extract(data, '$.customer_uid') IS NOT NULL THEN 1 END), coalesce(max(seq), ?) "
            "FROM payments WHERE seq > ?",
            self.seen,
            self.seen,
        )
        self.count += paid
        self.seen = last
        return self.count


def _views_caught_up(settings: Settings) -> None:
    """Wait until every view holds every event recorded so far (the subscriptions just started are in the
    subscriptions view, so the renewal pass sees them all due, as beat's pass would in production)."""
    store = Storefront(settings.event_store_env)
    db = open_view_database(settings.view_store_env)
    try:
        head = store.max_notification_id()
        assert wait_for_views(db, store.name, [view.name for view in all_views()], head, 600), "views caught up"
    finally:
        db.close()
        store.close()


def _recordings(meter: CpuMeter, title: str, profiles: ExitStack) -> list[tuple[str, Path]]:
    """py-spy sampling every Python process of the stack (but supervisord) until ``profiles`` closes."""
    RESULTS.mkdir(exist_ok=True)
    kept = []
    for pid in sorted(descendants(meter.roots)):
        name = label(pid)
        if name != "supervisor" and "python" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            output = RESULTS / f"profile-{title}-{name.split()[0]}{pid}.txt"
            kept.append((f"{title} {name}", profiles.enter_context(recording(pid, output, rate=100))))
    return kept


def _stop_the_pass(beat: Celery, charges: ChargeCounter) -> None:
    """Drop the renewal tasks not started yet (their subscriptions stay due) and wait for those under way."""
    with beat.connection_for_write() as connection:
        dropped = connection.default_channel.queue_purge(RENEWALS_QUEUE)
    print(f"  the pass stopped: {dropped} renewal tasks dropped", flush=True)
    last = -1
    while (now := charges.poll()) != last:
        last = now
        time.sleep(2)


def _renewal_round(
    stack: Stack,
    subscriber: Subscriber,
    beat: Celery,
    latency: float,
    settings: Settings,
    meter: CpuMeter,
    profile: bool = False,
    window: int = 0,
) -> float:
    """Seconds from asking for the renewal pass until every subscription's renewal is charged (with ``window``,
    until that many are, then the pass is stopped); prints the CPU each process spent on the round (from the pass
    until the stack is quiet again) per renewal charged."""
    _views_caught_up(settings)
    quiet(meter)
    httpx.post(
        f"{stack.sandbox_url}/sandbox/faults", json={"latency_seconds": latency, "path_prefix": CHARGE_PATH}
    ).raise_for_status()
    charges = ChargeCounter(stack)
    subscriber.a_month_passes()
    with ExitStack() as profiles:
        recorded = _recordings(meter, f"renewals-{settings.store_kind}", profiles) if profile else []
        meter.start()
        load = os.getloadavg()[0]
        started = time.monotonic()
        beat.send_task("subscriptions.renew_due", queue=RENEWALS_QUEUE)
        wanted = window or subscriber.count
        until(lambda: charges.poll() >= wanted, f"{wanted} renewals are charged", seconds=smallest(1800, 120))
        elapsed = time.monotonic() - started
        if window:
            _stop_the_pass(beat, charges)
        _views_caught_up(settings)
        quiet(CpuMeter(meter.roots, meter.database_url))
        spent = meter.stop()
    for title, output in recorded:
        print(saved_report(title, output), flush=True)
    renewed = charges.poll()
    print(
        f"  {subscriber.count} due, {'the first ' if window else ''}{wanted} renewals, gateway {latency * 1000:.0f} "
        f"ms: {wanted / elapsed:.1f}/s (load average {load:.1f} before, {os.getloadavg()[0]:.1f} after); "
        f"{renewed} charged in all, {per_item(spent, renewed)}",
        flush=True,
    )
    return elapsed


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, profile: bool = False) -> list[Result]:
    """For each count of due subscriptions: a renewal round with the gateway's latency, then one without (with
    ``profile``, every process of the stack sampled by py-spy during the latter: its report printed and kept)."""
    del seconds, connections  # a renewal round runs until every renewal is charged
    import redis

    if not shares_a_stack():  # a smoke run's shared stack has mail of other benchmarks queued there
        redis.Redis.from_url(REDIS_DB).flushdb()
    values = {
        **env,
        "REDIS_URL": REDIS_DB,
        "TEST_CLOCK": "1",
        "TEST_ADMIN_TOKEN": ADMIN_TOKEN,
        "WORKER_POOL": "threads",
        "WORKER_CONCURRENCY": CONCURRENCY,
    }
    if values.get("DATABASE_URL") and "?" not in values["DATABASE_URL"]:
        # Each process keeps two connections and opens up to six more while busy: a worker's threads mostly wait
        # for the gateway without one, and every process together must fit the server's max_connections.
        values["DATABASE_URL"] += "?pool_size=2&max_overflow=6"
    results = []
    counts, workers = smallest(COUNTS, (3,)), smallest(WORKERS, 1)
    with (
        tempfile.TemporaryDirectory(prefix="bench-renewals-") as tmp,
        bench_stack(Path(tmp) / "var", **values) as stack,
    ):
        beat = Celery(broker=REDIS_DB)
        try:
            for number in range(2, workers + 1):
                stack.spawn(
                    f"worker{number}", "workers", "worker", "--loglevel", "WARNING", "-Q", "renewals",
                    "--pool", "threads", "--concurrency", CONCURRENCY,
                    "--without-gossip", "--without-mingle", "--hostname", f"w{number}@%h",
                )  # fmt: skip
            subscriber = Subscriber(stack)
            meter = CpuMeter(
                [stack.supervisor.pid, *(process.pid for process in stack.replicas.values())],
                values.get("DATABASE_URL"),
            )
            per_renewal: list[float] = []
            for count in counts:
                started = time.monotonic()
                settings = make_settings(stack.var_dir, **values, PORTONE_BASE_URL=stack.sandbox_url)
                if SEED == "domain":
                    subscriber.subscribe_in_process(count, settings)
                else:
                    subscriber.subscribe_until(count)
                print(f"  {count} subscriptions started ({SEED}) in {time.monotonic() - started:.0f} s", flush=True)
                if WINDOW and count > WINDOW:
                    fast = _renewal_round(stack, subscriber, beat, 0.0, settings, meter, profile, WINDOW)
                    per_renewal.append(fast / WINDOW)
                    results.append(
                        Result(f"renewals/s, first {WINDOW} of {count} due, no latency", store, "renewals/s",
                               WINDOW / fast, 500.0, 1.0, note=f"{WINDOW} in {fast:.1f} s, {workers} workers")
                    )  # fmt: skip
                    continue
                slow = _renewal_round(stack, subscriber, beat, GATEWAY_LATENCY, settings, meter)
                # A smoke run takes one round: the second month's jump set off a month of the stack's daily jobs,
                # which three renewals then waited behind for up to half a minute.
                fast = slow if smoke() else _renewal_round(stack, subscriber, beat, 0.0, settings, meter, profile)
                per_renewal.append(fast / count)
                results += [
                    Result(f"renewals/s, {count} due, gateway 300 ms", store, "renewals/s", count / slow, 200.0, 1.0,
                           note=f"{count} in {slow:.1f} s, {workers} workers; baseline = target"),
                    Result(f"renewals/s, {count} due, no latency", store, "renewals/s", count / fast, 500.0, 1.0,
                           note=f"{count} in {fast:.1f} s, {workers} workers; baseline = target"),
                ]  # fmt: skip
            if len(per_renewal) > 1:
                results.append(
                    Result(f"time per renewal, {counts[-1]} vs {counts[0]} due", store, "ms",
                           per_renewal[-1] * 1000, per_renewal[0] * 1000, 1.2, higher_is_better=False)
                )  # fmt: skip
        finally:
            beat.close()
            _keep_logs(stack, store)
    return results


def _keep_logs(stack: Stack, store: str) -> None:
    """Keep the stack's logs as bench/results/logs-renewals-<store>/ (the last run's only): a round much slower
    than its neighbours is explained by what its processes wrote, which would otherwise go with the stack."""
    kept = RESULTS / f"logs-renewals-{store}"
    shutil.rmtree(kept, ignore_errors=True)
    RESULTS.mkdir(exist_ok=True)
    shutil.copytree(stack.var_dir / "logs", kept, dirs_exist_ok=True)
    for name in ("supervisord.log", "console.log"):
        if (stack.var_dir / name).exists():
            shutil.copy2(stack.var_dir / name, kept / name)

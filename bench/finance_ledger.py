"""The ledger page over 100,000 payments against a licence-list read, on the same view database in the same run.

100,000 settled payments (about 830 a day over four months, three currencies, five products, three payment methods,
a tenth with a coupon, one in twenty refunded) and 100,000 licences of 20,000 customers are written straight into
the views the two reads use. Ours is what the ledger page asks (``ledger_figures``: a month of business days by
currency, product, plan and payment method, with coupons); the baseline is a customer's licence list (the two
statements of ``licence_statements``). Each is read over and over for the run's seconds; the figure is the median
time of one read, and the target is the issue's "within about the time of a licence-list read".
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

from bench.harness import Result
from eventlog.database import ViewDatabase, open_view_database
from projections.finance_daily import KEY, SUMS, FinanceDailyView
from projections.finance_ledger import ledger_figures
from projections.ledger import BUSINESS_TIME, LedgerView
from projections.licences import LicencesView, licence_statements
from projections.payments import PaymentsView
from tests.conftest import make_settings

PAYMENTS = 100_000
CUSTOMERS = 20_000
FIRST_DAY = date(2026, 7, 1)
DAYS = 120
BATCH = 2_000
CURRENCIES = (("KRW", 12_000), ("USD", 999), ("JPY", 1_200))
PRODUCTS = ("android", "ios", "mac", "windows", "bundle")
METHODS = ("card", "vbank", "trans")


def _insert(db: ViewDatabase, table: str, rows: list[dict[str, object]]) -> None:
    columns = list(rows[0])
    values = ", ".join(f"%({column})s" for column in columns)
    with db.transaction() as cursor:
        for row in rows:
            cursor.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})", row)


def seed(db: ViewDatabase) -> list[str]:
    """The payments and licences; the customers' account ids."""
    chance = random.Random(2026)
    accounts = [str(uuid.UUID(int=chance.getrandbits(128))) for _ in range(CUSTOMERS)]
    daily: dict[tuple[str, ...], dict[str, int]] = {}
    for start in range(0, PAYMENTS, BATCH):
        entries, payments, views, licences = [], [], [], []
        for n in range(start, start + BATCH):
            currency, amount = CURRENCIES[n % len(CURRENCIES)]
            product, method = PRODUCTS[n % len(PRODUCTS)], METHODS[n % len(METHODS)]
            at = datetime.combine(FIRST_DAY + timedelta(days=n * DAYS // PAYMENTS), datetime.min.time(), BUSINESS_TIME)
            at += timedelta(seconds=chance.randrange(86_400))
            uid, pid, account = f"bench-{n}", str(uuid.uuid4()), accounts[n % CUSTOMERS]
            payments.append(
                {"payment_id": pid, "merchant_uid": uid, "product_code": product, "currency": currency}
                | {"amount": amount, "pay_method": method}
            )
            entries.append(
                {"entry_id": f"{pid}:paid", "payment_id": pid, "merchant_uid": uid, "kind": "revenue"}
                | {"day": at.date().isoformat(), "at": at.isoformat(), "currency": currency, "product_code": product}
                | {"pay_method": method, "amount": amount}
            )
            refunded = n % 20 == 0
            if refunded:
                entries.append({**entries[-1], "entry_id": f"{pid}:refund-{amount}", "kind": "refund"})
            coupon = f"BENCH{n % 7}" if n % 10 == 0 else None
            sums = daily.setdefault(
                (at.date().isoformat(), currency, product, f"{product} annual", method), dict.fromkeys(SUMS, 0)
            )
            sums["revenue"] += amount
            sums["payments"] += 1
            sums["refunds"] += amount if refunded else 0
            sums["refunded"] += 1 if refunded else 0
            sums["coupon_payments"] += 1 if coupon else 0
            sums["given_away"] += amount // 10 if coupon else 0
            views.append(
                {"payment_id": pid, "merchant_uid": uid, "account_id": account, "buyer_email": f"c{n}@example.com"}
                | {"licence_id": 121, "name": f"{product} annual", "purchase_type": "new", "amount": amount}
                | {
                    "original_amount": amount + (amount // 10 if coupon else 0),
                    "cancel_amount": amount if refunded else 0,
                }
                | {"currency": currency, "country_code": "KR", "state": "paid", "pay_method": method}
                | {"ordered_at": at.isoformat(), "paid_at": at.isoformat(), "refunds": "[]", "discount_factors": "[]"}
                | {"coupon_code": coupon}
            )
            licences.append(
                {"user_licence_id": str(uuid.uuid4()), "account_id": account, "licence_id": 121}
                | {"product_code": product, "name": f"{product} annual", "life": 12, "max_devices_count": 1}
                | {"state": "active", "starts_at": at.isoformat(), "expires_at": (at + timedelta(days=365)).isoformat()}
                | {
                    "licence_key": f"KEY-{n:08d}",
                    "merchant_uid": uid,
                    "source": "purchase",
                    "created_at": at.isoformat(),
                }
            )
        _insert(db, "ledger_payments", payments)
        _insert(db, "ledger_entries", entries)
        _insert(db, "payments_view", views)
        _insert(db, "licences_view", licences)
    rows: list[dict[str, object]] = [{**dict(zip(KEY, key, strict=True)), **sums} for key, sums in daily.items()]
    _insert(db, "finance_daily", rows)
    return accounts


def _median_seconds(read: Callable[[], object], seconds: float) -> float:
    timings: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline or len(timings) < 5:
        began = time.perf_counter()
        read()
        timings.append(time.perf_counter() - began)
    return statistics.median(timings)


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, **_: object) -> list[Result]:
    """Seed, then time the ledger page's read and a licence-list read side by side."""
    del connections  # one reader: the figure is the time of one read
    with tempfile.TemporaryDirectory(prefix="bench-ledger-") as tmp:
        settings = make_settings(Path(tmp), **env)
        db = open_view_database(settings.view_store_env)
        try:
            with db.transaction() as cursor:
                for view in (LedgerView(), PaymentsView(), LicencesView(), FinanceDailyView()):
                    for statement in view.schema():
                        cursor.execute(statement)
            accounts = seed(db)
            chance = random.Random(7)
            month = (FIRST_DAY + timedelta(days=60), FIRST_DAY + timedelta(days=90))

            def licence_list() -> object:
                licences, devices = licence_statements(uuid.UUID(chance.choice(accounts)))
                with db.read() as cursor:
                    cursor.execute(*licences)
                    cursor.fetchall()
                    cursor.execute(*devices)
                    return cursor.fetchall()

            baseline = _median_seconds(licence_list, seconds)
            ours = _median_seconds(lambda: ledger_figures(db, *month, "day"), seconds)
        finally:
            db.close()
    return [
        Result(
            "ledger page (a month of 100k payments) vs licence list",
            store,
            "ms per read",
            ours * 1000,
            baseline * 1000,
            target=3.0,
            higher_is_better=False,
            note="median of one read each, same view database, same run",
        )
    ]

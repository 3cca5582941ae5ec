"""The ledger page over 100,000 payments against a licence-list read, on the same database in the same run: as the
views read them, and as the API answers them over HTTP.

A stack starts as ``make run`` starts it (tests/faults/stack.py); 100,000 settled payments (about 830 a day over four
months, three currencies, five products, three payment methods, a tenth with a coupon, one in twenty refunded) and
100,000 licences of 20,000 customers are written straight into its views. One of those customers is registered
through the API, and a finance member is added by the test harness and enrolled with a one-time code.

- The views' read: ours is what the ledger page asks (``ledger_figures``: a month of business days by currency,
  product, plan and payment method, with coupons), the baseline a customer's licence list (the two statements of
  ``licence_statements``).
- The answer: ``GET /staff/finance/ledger`` for that month as the finance member (cookie session, access check,
  serialization) against the customer's ``GET /licenses/mine`` (bearer token; five licences), one request at a
  time on kept-alive connections, taking turns.

Each is repeated for the run's seconds; the figure is the median time of one read or one request, and the target is
the issue's "the ledger page answers within about the time of a licence-list read" (ratio <= 3).
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

import httpx

from api.staff_session import SESSION_COOKIE
from bench.harness import ADMIN_TOKEN, Result, bench_stack, smallest
from bench.reads import PASSWORD, confirm
from domain.business_time import BUSINESS_TIME
from eventlog.database import ViewDatabase, open_view_database
from projections.finance_daily import KEY, SUMS, FinanceDailyView
from projections.finance_ledger import ledger_figures
from projections.ledger import LedgerView
from projections.licences import LicencesView, licence_statements
from projections.payments import PaymentsView
from tests.conftest import make_settings
from tests.faults.stack import V1, Stack, until
from tests.staff_codes import enrol_with_code_app

PAYMENTS = 100_000
CUSTOMERS = 20_000
FIRST_DAY = date(2026, 7, 1)
DAYS = 120
BATCH = 2_000
CURRENCIES = (("KRW", 12_000), ("USD", 999), ("JPY", 1_200))
PRODUCTS = ("android", "ios", "mac", "windows", "bundle")
METHODS = ("card", "vbank", "trans")
VIEWS = (LedgerView(), PaymentsView(), LicencesView(), FinanceDailyView())


def _insert(db: ViewDatabase, table: str, rows: list[dict[str, object]]) -> None:
    columns = list(rows[0])
    values = ", ".join(f"%({column})s" for column in columns)
    with db.transaction() as cursor:
        for row in rows:
            cursor.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})", row)


def seed(db: ViewDatabase, customer: str | None = None) -> list[str]:
    """The payments and licences; the customers' account ids (``customer`` the first of them, when given)."""
    chance = random.Random(2026)
    # A smoke run: a hundredth of each, so each customer still holds five licences.
    payments_made, customers = smallest(PAYMENTS, PAYMENTS // 100), smallest(CUSTOMERS, CUSTOMERS // 100)
    accounts = [str(uuid.UUID(int=chance.getrandbits(128))) for _ in range(customers)]
    if customer is not None:
        accounts[0] = customer
    daily: dict[tuple[str, ...], dict[str, int]] = {}
    for start in range(0, payments_made, BATCH):
        entries, payments, views, licences = [], [], [], []
        for n in range(start, min(start + BATCH, payments_made)):
            currency, amount = CURRENCIES[n % len(CURRENCIES)]
            product, method = PRODUCTS[n % len(PRODUCTS)], METHODS[n % len(METHODS)]
            day = FIRST_DAY + timedelta(days=n * DAYS // payments_made)
            at = datetime.combine(day, datetime.min.time(), BUSINESS_TIME)
            at += timedelta(seconds=chance.randrange(86_400))
            uid, pid, account = f"bench-{n}", str(uuid.uuid4()), accounts[n % customers]
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


def _medians_taking_turns(requests: list[Callable[[], httpx.Response]], seconds: float) -> list[float]:
    """The median seconds of each request, made one after another in turn for ``seconds`` (so the host's load
    weighs on each alike); every answer must be a 200."""
    timings: list[list[float]] = [[] for _ in requests]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline or len(timings[0]) < 5:
        for request, kept in zip(requests, timings, strict=True):
            began = time.perf_counter()
            answer = request()
            kept.append(time.perf_counter() - began)
            answer.raise_for_status()
    return [statistics.median(kept) for kept in timings]


def customer(http: httpx.Client, api: str, stack: Stack) -> tuple[str, str]:
    """A confirmed customer registered through the API: their account id and access token."""
    email = "ledger-reader@example.com"
    registered = http.post(f"{api}/accounts", json={"email": email, "pw": PASSWORD, "language": "ko"})
    registered.raise_for_status()
    account = str(registered.json()["userId"])
    confirm(http, stack, account, email)
    login = http.post(f"{api}/auth/login", json={"email": email, "pw": PASSWORD})
    login.raise_for_status()
    return account, str(login.json()["accessToken"])


def finance_member(http: httpx.Client, api: str) -> str:
    """A finance member added by the test harness and enrolled with a one-time code: their session cookie."""
    added = http.post(
        f"{api}/test-harness/staff/members",
        json={"email": "ledger-finance@example.com", "name": "Finance", "roles": ["finance"]},
        headers={"X-Admin-Token": ADMIN_TOKEN},
    )
    added.raise_for_status()
    _, enrolled = enrol_with_code_app(http, f"{api}/staff", str(added.json()["enrolmentLink"]))
    return str(enrolled.cookies[SESSION_COOKIE])


def _views_made(db: ViewDatabase) -> bool:
    """Has the stack's projector made the tables the bench writes (it makes every view's as it starts)?"""
    try:
        with db.read() as cursor:
            for table in ("ledger_payments", "ledger_entries", "payments_view", "licences_view", "finance_daily"):
                cursor.execute(f"SELECT 1 FROM {table} LIMIT 1")
                cursor.fetchall()
    except Exception:  # not yet
        return False
    return True


def run(store: str, env: dict[str, str], *, seconds: int, connections: int, **_: object) -> list[Result]:
    """Start a stack, seed its views, then time the ledger page's read and a licence-list read side by side, as the
    views read them and as the API answers them."""
    del connections  # one reader: the figure is the time of one read
    with (
        tempfile.TemporaryDirectory(prefix="bench-ledger-") as tmp,
        bench_stack(Path(tmp) / "var", TEST_ADMIN_TOKEN=ADMIN_TOKEN, **env) as stack,
    ):
        api = f"{stack.api_url}{V1}"
        db = open_view_database(make_settings(stack.var_dir, **env).view_store_env)
        try:
            with httpx.Client(timeout=30) as http:
                account, access = customer(http, api, stack)
                session = finance_member(http, api)
            until(lambda: _views_made(db), "the projector has made the views' tables")
            accounts = seed(db, customer=account)
            views = _view_reads(db, accounts, seconds)
        finally:
            db.close()
        answers = _answers(api, access, session, seconds)
    note = "median of one read each, same database, same run"
    return [
        Result(
            "ledger page (a month of 100k payments) vs licence list: views' read",
            store,
            "ms per read",
            views[0] * 1000,
            views[1] * 1000,
            target=3.0,
            higher_is_better=False,
            note=note,
        ),
        Result(
            "ledger page (a month of 100k payments) vs licence list: API's answer",
            store,
            "ms per answer",
            answers[0] * 1000,
            answers[1] * 1000,
            target=3.0,
            higher_is_better=False,
            note="median of one HTTP request each, in turn, same stack, same run",
        ),
    ]


MONTH = (FIRST_DAY + timedelta(days=60), FIRST_DAY + timedelta(days=90))


def _view_reads(db: ViewDatabase, accounts: list[str], seconds: int) -> tuple[float, float]:
    """The median seconds of the ledger page's read and of a random customer's licence list, on the views."""
    chance = random.Random(7)

    def licence_list() -> object:
        licences, devices = licence_statements(uuid.UUID(chance.choice(accounts)))
        with db.read() as cursor:
            cursor.execute(*licences)
            cursor.fetchall()
            cursor.execute(*devices)
            return cursor.fetchall()

    baseline = _median_seconds(licence_list, seconds)
    ours = _median_seconds(lambda: ledger_figures(db, *MONTH, "day"), seconds)
    return ours, baseline


def _answers(api: str, access: str, session: str, seconds: int) -> tuple[float, float]:
    """The median seconds of the finance member's ledger page and the customer's licence list, over HTTP."""
    month = {"since": MONTH[0].isoformat(), "until": MONTH[1].isoformat(), "by": "day"}
    with httpx.Client(timeout=30) as staff, httpx.Client(timeout=30) as reader:
        cookie = {"Cookie": f"{SESSION_COOKIE}={session}"}  # as a browser sends it (httpx keeps Secure ones for https)
        bearer = {"Authorization": f"Bearer {access}"}

        def ledger() -> httpx.Response:
            answer = staff.get(f"{api}/staff/finance/ledger", params=month, headers=cookie)
            if SESSION_COOKIE in answer.cookies:  # each answer renews the session, as the browser's would be
                cookie["Cookie"] = f"{SESSION_COOKIE}={answer.cookies[SESSION_COOKIE]}"
            return answer

        def licences() -> httpx.Response:
            return reader.get(f"{api}/licenses/mine", headers=bearer)

        first = ledger()
        first.raise_for_status()
        assert first.json()["series"], "the ledger page shows the seeded month"
        assert len(licences().json()) == 5, "the customer lists their five licences"
        ours, baseline = _medians_taking_turns([ledger, licences], seconds)
    return ours, baseline

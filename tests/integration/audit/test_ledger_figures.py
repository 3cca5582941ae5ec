"""The ledger page's figures, summed by the database (``ledger_statements``), equal the daily rows summed one by one
in Python (what the page did before): every period, dimension, filter and kind, on both stores, read on a thread
(``ledger_figures``) and on an event loop, with the app's pool and without it (``ledger_figures_async``)."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest

from config.settings import Settings
from eventlog.database import ViewDatabase, open_view_database
from projections.finance_daily import KEY, SUMS, FinanceDailyView
from projections.finance_ledger import DIMENSIONS, Filters, ledger_figures, ledger_figures_async, period_of

pytestmark = pytest.mark.integration

FIRST = date(2026, 1, 26)  # a Monday: weeks and months both cut the range
DAYS = 50


@pytest.fixture
def views(settings: Settings) -> Iterator[ViewDatabase]:
    db = open_view_database(settings.view_store_env)
    chance = random.Random(32)
    with db.transaction() as cursor:
        for statement in FinanceDailyView().schema():
            cursor.execute(statement)
        for offset in range(DAYS):
            for currency in ("KRW", "USD"):
                for product, plan in (("mac", "mac annual"), ("mac", "mac monthly"), ("ios", "ios annual")):
                    for method in ("card", "", "vbank"):
                        if chance.random() < 0.4:
                            continue  # not every combination every day
                        payments, refunded = chance.randrange(4), chance.randrange(2)
                        coupon_payments = chance.randrange(payments + 1)
                        row: dict[str, Any] = {
                            "day": (FIRST + timedelta(days=offset)).isoformat(),
                            "currency": currency,
                            "product": product,
                            "plan": plan,
                            "pay_method": method,
                            # a few amounts only, so breakdowns tie on revenue
                            "revenue": payments * chance.choice((1000, 2000)),
                            "refunds": refunded * 1000,
                            "payments": payments,
                            "refunded": refunded,
                            "coupon_payments": coupon_payments,
                            "given_away": coupon_payments * 100 + chance.randrange(2) * 7,  # 7: a row without coupon
                        }
                        names = KEY + SUMS
                        cursor.execute(
                            f"INSERT INTO finance_daily ({', '.join(names)}) "
                            f"VALUES ({', '.join(f'%({name})s' for name in names)})",
                            row,
                        )
    try:
        yield db
    finally:
        db.close()


def summed_in_python(db: ViewDatabase, since: date, until: date, by: str, filters: Filters) -> dict[str, Any]:
    """The page's answer as it was made before: every daily row read, summed here (equal revenue ordered by name)."""
    zero = {"revenue": 0, "refunds": 0, "payments": 0, "refunded": 0}
    with db.read() as cursor:
        cursor.execute(
            "SELECT * FROM finance_daily WHERE day >= %(since)s AND day < %(until)s",
            {"since": since.isoformat(), "until": until.isoformat()},
        )
        rows = [
            row for row in cursor.fetchall() if all(getattr(filters, name) in (None, row[name]) for name in DIMENSIONS)
        ]
    series: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict(zero))
    breakdown: dict[str, dict[tuple[str, str], dict[str, int]]] = {
        name: defaultdict(lambda: dict(zero)) for name in DIMENSIONS
    }
    coupons: dict[str, dict[str, int]] = defaultdict(lambda: {"payments": 0, "given_away": 0})
    for row in rows:
        figures = {key: int(row[key]) for key in zero}
        if filters.kind == "revenue":
            figures.update(refunds=0, refunded=0)
        elif filters.kind == "refund":
            figures.update(revenue=0, payments=0)
        for total in (
            series[(period_of(date.fromisoformat(row["day"]), by), row["currency"])],
            *(breakdown[name][(row["currency"], row[name])] for name in DIMENSIONS),
        ):
            for key, value in figures.items():
                total[key] += value
        if int(row["coupon_payments"]):
            coupons[row["currency"]]["payments"] += int(row["coupon_payments"])
            coupons[row["currency"]]["given_away"] += int(row["given_away"])

    def net(figures: dict[str, int]) -> dict[str, int]:
        return {**figures, "net": figures["revenue"] - figures["refunds"]}

    return {
        "by": by,
        "series": [{"period": p, "currency": c, **net(f)} for (p, c), f in sorted(series.items())],
        "breakdown": {
            name: [
                {"currency": c, "key": k, **net(f)}
                for (c, k), f in sorted(groups.items(), key=lambda item: (item[0][0], -item[1]["revenue"], item[0][1]))
            ]
            for name, groups in breakdown.items()
        },
        "coupons": [{"currency": c, **sums} for c, sums in sorted(coupons.items())],
    }


CASES = [
    (by, filters)
    for by in ("day", "week", "month")
    for filters in (
        Filters(),
        Filters(kind="revenue"),
        Filters(kind="refund"),
        Filters(currency="USD"),
        Filters(product="mac", pay_method=""),
        Filters(plan="ios annual", kind="refund"),
        Filters(currency="EUR"),  # nothing at all
    )
]
RANGES = [(FIRST, FIRST + timedelta(days=DAYS)), (FIRST + timedelta(days=3), FIRST + timedelta(days=40))]


def test_the_database_sums_the_figures_exactly_as_the_rows_summed_one_by_one(views: ViewDatabase) -> None:
    for since, until in RANGES:
        for by, filters in CASES:
            expected = summed_in_python(views, since, until, by, filters)
            assert ledger_figures(views, since, until, by, filters) == expected, (since, by, filters)
    whole = ledger_figures(views, *RANGES[0])
    assert whole["coupons"] and all(row["payments"] for row in whole["coupons"])
    assert any(len({row["revenue"] for row in rows}) < len(rows) for rows in whole["breakdown"].values()), "no tie"


@pytest.mark.parametrize("with_pool", [True, False], ids=["app pool", "worker threads"])
def test_the_page_reads_the_same_figures_on_an_event_loop(views: ViewDatabase, with_pool: bool) -> None:
    async def server() -> list[dict[str, Any]]:
        if with_pool:
            await views.open_async()
        try:
            return [await ledger_figures_async(views, *RANGES[1], by, filters) for by, filters in CASES]
        finally:
            if with_pool:
                await views.close_async()

    assert asyncio.run(server()) == [ledger_figures(views, *RANGES[1], by, filters) for by, filters in CASES]

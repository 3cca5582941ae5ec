"""The ledger as finance's back office reads it: revenue, refunds and net by Korean business day, week or month,
by currency, product, plan (the catalogue licence bought, by its id) and payment method, the discounts coupons gave
away, and the movements of money behind any figure.

The figures are summed by the database from the daily sums of the ``finance_daily`` view (projections/finance_daily.py)
per day, then gathered into weeks (Monday first) or months here; the movements behind a figure are read from the
``ledger`` view (projections/ledger.py) joined with the payments view.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from eventlog.database import ViewDatabase
from eventlog.page_reads import Statement

PERIODS = ("day", "week", "month")
DIMENSIONS = ("currency", "product", "plan", "pay_method")
# A plan is counted by its catalogue id (its name is a label, in the reader's language: the API adds it).
_PLAN = "COALESCE(CAST(p.licence_id AS TEXT), '')"
_COLUMNS = {"currency": "e.currency", "product": "e.product_code", "plan": _PLAN, "pay_method": "e.pay_method"}


def period_of(day: date, by: str) -> str:
    """The day, week (its Monday) or month (yyyy-mm) a business day belongs to."""
    if by == "week":
        return (day - timedelta(days=day.weekday())).isoformat()
    if by == "month":
        return day.isoformat()[:7]
    return day.isoformat()


def period_window(period: str, by: str) -> tuple[date, date]:
    """The days ``[first, after last)`` of a period named as ``period_of`` names it."""
    if by == "month":
        first = date.fromisoformat(f"{period}-01")
        return first, date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    first = date.fromisoformat(period)
    return first, first + timedelta(days=7 if by == "week" else 1)


@dataclass(frozen=True)
class Filters:
    """Which movements of money a figure counts (None: any)."""

    currency: str | None = None
    product: str | None = None
    plan: str | None = None
    pay_method: str | None = None
    kind: str | None = None  # revenue or refund


def _where(since: date, until: date, filters: Filters) -> tuple[str, dict[str, Any]]:
    clauses = ["e.day >= %(since)s", "e.day < %(until)s"]
    params: dict[str, Any] = {"since": since.isoformat(), "until": until.isoformat()}
    for name in (*DIMENSIONS, "kind"):
        value = getattr(filters, name)
        if value is not None:
            clauses.append(f"{_COLUMNS.get(name, 'e.kind')} = %({name})s")
            params[name] = value
    return " AND ".join(clauses), params


# What each summed row of ``finance_daily`` carries into a figure.
_SUMS = ("revenue", "refunds", "payments", "refunded")
_SUMMED = ", ".join(f"SUM({name}) AS {name}" for name in _SUMS)


def ledger_statements(since: date, until: date, filters: Filters | None = None) -> tuple[Statement, Statement]:
    """The reads behind ``ledger_figures``, summed by the database from the daily sums
    (projections/finance_daily.py) over days ``[since, until)``: per day and currency; and per currency, product,
    plan and payment method together (each dimension's breakdown and the coupons are folded from these, so the
    table is read twice, not once per dimension), with what coupons gave away. Independent of each other, so a page
    sends them together (``read_many_async``); the rows are a few dozen however many payments, and ``figures_of``
    turns them into the answer. Both ``WHERE``s start with the day range, the first column of the table's primary
    key."""
    wanted = filters or Filters()
    clauses = ["day >= %(since)s", "day < %(until)s"]
    params: dict[str, Any] = {"since": since.isoformat(), "until": until.isoformat()}
    for name in DIMENSIONS:
        value = getattr(wanted, name)
        if value is not None:
            clauses.append(f"{name} = %({name})s")
            params[name] = value
    where = " AND ".join(clauses)
    dimensions = ", ".join(DIMENSIONS)
    return (
        (f"SELECT day, currency, {_SUMMED} FROM finance_daily WHERE {where} GROUP BY day, currency", params),
        (
            f"SELECT {dimensions}, {_SUMMED}, "
            "SUM(CASE WHEN coupon_payments <> 0 THEN 1 ELSE 0 END) AS coupon_days, "
            "SUM(coupon_payments) AS coupon_payments, "
            "SUM(CASE WHEN coupon_payments <> 0 THEN given_away ELSE 0 END) AS given_away "
            f"FROM finance_daily WHERE {where} GROUP BY {dimensions}",
            params,
        ),
    )


def figures_of(rows: list[list[dict[str, Any]]], by: str = "day", filters: Filters | None = None) -> dict[str, Any]:
    """The ledger's figures from the rows of ``ledger_statements``: days gathered into ``by``'s periods, each
    dimension's breakdown and the coupons per currency folded from the groups, the other kind's figures zeroed when
    ``filters`` names a kind (revenue or refund)."""
    days, groups = rows
    kind = (filters or Filters()).kind
    series: dict[tuple[str, str], dict[str, int]] = defaultdict(_zero)
    breakdown: dict[str, dict[tuple[str, str], dict[str, int]]] = {name: defaultdict(_zero) for name in DIMENSIONS}
    coupons: dict[str, dict[str, int]] = defaultdict(lambda: {"payments": 0, "given_away": 0})
    periods: dict[str, str] = {}  # each day's period, worked out once for its currencies
    for row in days:
        day = row["day"]
        if day not in periods:
            periods[day] = period_of(date.fromisoformat(day), by)
        _add(series[(periods[day], row["currency"])], _figures(row, kind))
    for row in groups:
        figures = _figures(row, kind)
        for name in DIMENSIONS:
            _add(breakdown[name][(row["currency"], str(row[name] or ""))], figures)
        if int(row["coupon_days"]):  # as the daily rows that counted a coupon: a currency with none is not listed
            coupons[row["currency"]]["payments"] += int(row["coupon_payments"])
            coupons[row["currency"]]["given_away"] += int(row["given_away"])
    return {
        "by": by,
        "series": [
            {"period": period, "currency": currency, **_net(figures)}
            for (period, currency), figures in sorted(series.items())
        ],
        "breakdown": {
            name: [
                {"currency": currency, "key": key, **_net(figures)}
                for (currency, key), figures in sorted(groups.items(), key=_by_currency_then_revenue)
            ]
            for name, groups in breakdown.items()
        },
        "coupons": [{"currency": currency, **sums} for currency, sums in sorted(coupons.items())],
    }


def ledger_figures(
    db: ViewDatabase, since: date, until: date, by: str = "day", filters: Filters | None = None
) -> dict[str, Any]:
    """Revenue, refunds, net and counts per period and currency, and per currency by product, plan and payment
    method, over days ``[since, until)``; and what coupons gave away. Summed by the database from the daily sums
    (``ledger_statements``, one snapshot; on PostgreSQL one round trip)."""
    return figures_of(db.read_many(*ledger_statements(since, until, filters)), by, filters)


async def ledger_figures_async(
    db: ViewDatabase, since: date, until: date, by: str = "day", filters: Filters | None = None
) -> dict[str, Any]:
    """``ledger_figures`` read on the running event loop (``read_many_async``), as the API's page asks."""
    return figures_of(await db.read_many_async(*ledger_statements(since, until, filters)), by, filters)


def _figures(row: dict[str, Any], kind: str | None) -> dict[str, int]:
    figures = {key: int(row[key] or 0) for key in _SUMS}
    if kind == "revenue":
        figures.update(refunds=0, refunded=0)
    elif kind == "refund":
        figures.update(revenue=0, payments=0)
    return figures


def _by_currency_then_revenue(item: tuple[tuple[str, str], dict[str, int]]) -> tuple[str, int, str]:
    """Per currency, the most revenue first; equal revenue by the value's name (the database's summing has no
    order of its own to keep)."""
    return item[0][0], -item[1]["revenue"], item[0][1]


def _zero() -> dict[str, int]:
    return {"revenue": 0, "refunds": 0, "payments": 0, "refunded": 0}


def _add(total: dict[str, int], figures: dict[str, int]) -> None:
    for key, value in figures.items():
        total[key] += value


def _net(figures: dict[str, int]) -> dict[str, int]:
    return {**figures, "net": figures["revenue"] - figures["refunds"]}


def ledger_rows(
    db: ViewDatabase, since: date, until: date, filters: Filters | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """The movements of money behind a figure, in time order: each with its payment's merchantUid and plan."""
    where, params = _where(since, until, filters or Filters())
    bound = "" if limit is None else f" LIMIT {int(limit)}"
    with db.read() as cursor:
        cursor.execute(
            "SELECT e.day AS day, e.currency AS currency, e.product_code AS product_code, "
            f"{_PLAN} AS plan, e.pay_method AS pay_method, e.kind AS kind, e.merchant_uid AS merchant_uid, "
            "e.at AS at, "
            "e.amount AS amount, p.buyer_email AS buyer_email "
            "FROM ledger_entries e LEFT JOIN payments_view p ON p.merchant_uid = e.merchant_uid "
            f"WHERE {where} ORDER BY e.at, e.entry_id{bound}",
            params,
        )
        return [{**row, "amount": int(row["amount"])} for row in cursor.fetchall()]

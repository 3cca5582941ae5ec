"""The ledger as finance's back office reads it: revenue, refunds and net by Korean business day, week or month,
by currency, product, plan (the catalogue licence bought) and payment method, the discounts coupons gave away,
and the movements of money behind any figure.

Read from the ``ledger`` view (projections/ledger.py) joined with the payments view; sums are done by the database
per day, then gathered into weeks (Monday first) or months here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from projections.database import ViewDatabase

PERIODS = ("day", "week", "month")
DIMENSIONS = ("currency", "product", "plan", "pay_method")
_COLUMNS = {"currency": "e.currency", "product": "e.product_code", "plan": "p.name", "pay_method": "e.pay_method"}


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


def ledger_figures(
    db: ViewDatabase, since: date, until: date, by: str = "day", filters: Filters | None = None
) -> dict[str, Any]:
    """Revenue, refunds, net and counts per period and currency, and per currency by product, plan and payment
    method, over days ``[since, until)``; and what coupons gave away. Read from the daily sums
    (projections/finance_daily.py): a few rows a day, however many payments."""
    wanted = filters or Filters()
    clauses = ["day >= %(since)s", "day < %(until)s"]
    params: dict[str, Any] = {"since": since.isoformat(), "until": until.isoformat()}
    for name in DIMENSIONS:
        value = getattr(wanted, name)
        if value is not None:
            clauses.append(f"{name} = %({name})s")
            params[name] = value
    with db.read() as cursor:
        cursor.execute(f"SELECT * FROM finance_daily WHERE {' AND '.join(clauses)}", params)
        grouped = cursor.fetchall()
    series: dict[tuple[str, str], dict[str, int]] = defaultdict(_zero)
    breakdown: dict[str, dict[tuple[str, str], dict[str, int]]] = {name: defaultdict(_zero) for name in DIMENSIONS}
    coupons: dict[str, dict[str, int]] = defaultdict(lambda: {"payments": 0, "given_away": 0})
    for row in grouped:
        figures = {key: int(row[key] or 0) for key in ("revenue", "refunds", "payments", "refunded")}
        if wanted.kind == "revenue":
            figures.update(refunds=0, refunded=0)
        elif wanted.kind == "refund":
            figures.update(revenue=0, payments=0)
        _add(series[(period_of(date.fromisoformat(row["day"]), by), row["currency"])], figures)
        for name in DIMENSIONS:
            _add(breakdown[name][(row["currency"], str(row[name] or ""))], figures)
        if int(row["coupon_payments"]):
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


def _by_currency_then_revenue(item: tuple[tuple[str, str], dict[str, int]]) -> tuple[str, int]:
    return item[0][0], -item[1]["revenue"]


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
            "COALESCE(p.name, '') AS plan, e.pay_method AS pay_method, e.kind AS kind, e.merchant_uid AS merchant_uid, "
            "e.at AS at, "
            "e.amount AS amount, p.buyer_email AS buyer_email "
            "FROM ledger_entries e LEFT JOIN payments_view p ON p.merchant_uid = e.merchant_uid "
            f"WHERE {where} ORDER BY e.at, e.entry_id{bound}",
            params,
        )
        return [{**row, "amount": int(row["amount"])} for row in cursor.fetchall()]

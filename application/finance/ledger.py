"""Finance's ledger as the back office reads it (projections/finance_ledger.py sums it): figures by period and the
movements of money behind them, each plan labelled with its name in the reader's language; and a licence,
subscription or payment as it was at a moment beside how it is now."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from application.finance.reconciliation import business_today
from application.finance.services import FinanceServices
from domain.catalogue.versions import CatalogueVersions
from domain.errors import DomainError, ErrorCode
from domain.history import AsOf, as_of
from events.values import Language
from projections.finance_ledger import Filters, ledger_figures_async, ledger_rows, period_window

MAX_RANGE_DAYS = 800
ENTRIES_SHOWN = 1000


def days(services: FinanceServices, since: date | None, until: date | None) -> tuple[date, date]:
    """The business days ``[since, until)`` asked for (the last 30 days by default; at most ``MAX_RANGE_DAYS``)."""
    end = until or business_today(services) + timedelta(days=1)
    start = since or end - timedelta(days=30)
    if start >= end or (end - start).days > MAX_RANGE_DAYS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"since must come before until, at most {MAX_RANGE_DAYS} days")
    return start, end


def period_days(period: str, by: str) -> tuple[date, date]:
    """The days of one period of the figures (a day or a week's first day, yyyy-mm-dd; a month, yyyy-mm)."""
    try:
        return period_window(period, by)
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, "period is a day (yyyy-mm-dd) or a month (yyyy-mm)") from None


def plan_label(versions: CatalogueVersions, key: str, language: Language) -> str:
    """A plan's name in the reader's language (finance counts plans by their catalogue id)."""
    name = versions.plan_name(int(key), language) if key.isdigit() else None
    return name or key


async def figures(services: FinanceServices, start: date, end: date, by: str, language: Language) -> dict[str, Any]:
    """Revenue, refunds and net by period and by currency, product, plan and payment method (read on the event loop:
    the database sums, one snapshot)."""
    found = await ledger_figures_async(services.views, start, end, by)
    versions = services.catalogues.versions()
    for row in found["breakdown"]["plan"]:
        row["label"] = plan_label(versions, row["key"], language)
    return found


def entries(
    services: FinanceServices, start: date, end: date, filters: Filters, language: Language
) -> list[dict[str, Any]]:
    """The movements of money behind a figure, oldest first (at most ``ENTRIES_SHOWN``), each plan named."""
    versions = services.catalogues.versions()
    return [
        {**row, "plan_name": plan_label(versions, row["plan"], language)}
        for row in ledger_rows(services.views, start, end, filters, limit=ENTRIES_SHOWN)
    ]


def then_and_now(services: FinanceServices, kind: str, key: str, at: datetime) -> tuple[AsOf, AsOf]:
    """A licence, subscription or payment as it was at ``at`` and as it is now."""
    return as_of(services.store, kind, key, at), as_of(services.store, kind, key, services.clock.now())

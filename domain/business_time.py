"""The store's business time: Korea's clock (UTC+9, no daylight saving). Business days (the ledger's, the
reconciliation's, a coupon's or banner's dates, the dates mails and papers print) are Korean calendar days."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone

BUSINESS_TIME = timezone(timedelta(hours=9))


def business_day(moment: datetime) -> date:
    """The Korean calendar day ``moment`` falls on."""
    return moment.astimezone(BUSINESS_TIME).date()


def business_midnight(day: date) -> datetime:
    """The moment a Korean calendar day starts."""
    return datetime.combine(day, time(), BUSINESS_TIME)

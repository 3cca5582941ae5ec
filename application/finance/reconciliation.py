"""The daily reconciliation with the gateway (domain/payments/reconciliation.py compares, domain/finance/
reconciliation_days.py records): beat's each morning, and any re-run a finance member asks for with a reason."""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Any
from uuid import UUID

from application.finance.notices import mail_finance
from application.finance.services import FinanceServices
from domain.business_time import BUSINESS_TIME, business_day
from domain.errors import DomainError, ErrorCode
from domain.finance.reconciliation_days import (
    ReconciliationDay,
    Run,
    check_run_reason,
    explain_mismatch,
    load_day,
    record_run,
    refer_mismatch,
)
from domain.payments.reconciliation import GatewayRecords, OurPayment, day_window, reconcile
from domain.staff.disclosure import NOBODY
from projections.payments import payment_by_merchant_uid, payments_ordered_between

MORNING = time(9, 0)  # beat reconciles yesterday from 09:00 in Korea
CATCH_UP_DAYS = 3  # and the mornings before it that it missed


def business_today(services: FinanceServices) -> date:
    """Today in Korea, by the injected clock."""
    return business_day(services.clock.now())


def _ours(row: dict[str, Any]) -> OurPayment:
    return OurPayment(row["merchant_uid"], row["state"], int(row["amount"]), row["currency"], int(row["cancel_amount"]))


def reconcile_day(services: FinanceServices, day: date, actor_id: UUID | None = None, reason: str = "") -> Run | None:
    """Compare the day's payments with the gateway's and record the run (beat's when ``actor_id`` is None: at most
    one a day, None when it was recorded already); finance is mailed when something does not match."""
    if actor_id is not None:
        check_run_reason(reason)  # before asking the gateway
    gateway = services.payments
    if not isinstance(gateway, GatewayRecords):
        raise DomainError(ErrorCode.INVALID_VALUE, "the configured gateway cannot list its payments")
    since, until = day_window(day)
    ours = [_ours(row) for row in payments_ordered_between(services.views, since, until)]

    def lookup(merchant_uid: str) -> OurPayment | None:
        row = payment_by_merchant_uid(services.views, merchant_uid)
        return _ours(row) if row is not None else None

    mismatches = reconcile(ours, lookup, gateway, day)
    run = record_run(services.store, services.clock, day, mismatches, len(ours), actor_id=actor_id, reason=reason)
    if run is not None and run.mismatches:
        _mail_mismatches(services, day, run)
    return run


def _mail_mismatches(services: FinanceServices, day: date, run: Run) -> None:
    shown = NOBODY.rows(run.mismatches)  # a mail to staff carries no declared secret
    lines = [f"{m['merchant_uid']} {m['kind']}: ours {m['ours']}, PortOne {m['gateway']}" for m in shown]
    found = len(run.mismatches)
    mail_finance(
        services,
        f"Reconciliation {day.isoformat()}: {found} mismatches / 대사 불일치 / 照合の不一致",
        "\n".join(
            [
                f"Reconciliation of {day.isoformat()} (run {run.run}) found {found} mismatches.",
                f"{day.isoformat()} 대사(실행 {run.run})에서 불일치 {found}건이 발견되었습니다.",
                f"{day.isoformat()} の照合（{run.run} 回目）で {found} 件の不一致が見つかりました。",
                "",
                *lines,
                "",
                f"{services.base_url}/admin/finance/reconciliation",
            ]
        ),
        key=f"reconciliation-{day.isoformat()}-{run.run}",
    )


def reconcile_mornings(services: FinanceServices) -> list[Run]:
    """Beat's morning run: from 09:00 in Korea, yesterday's reconciliation, once; and any of the ``CATCH_UP_DAYS``
    before it whose morning run is missing (beat was down, or the clock jumped past a morning)."""
    now = services.clock.now().astimezone(BUSINESS_TIME)
    latest = now.date() - timedelta(days=1 if now.time() >= MORNING else 2)
    runs = []
    for back in range(CATCH_UP_DAYS, -1, -1):
        day = latest - timedelta(days=back)
        found = load_day(services.store, day)
        if found is not None and found.scheduled:
            continue
        run = reconcile_day(services, day)
        if run is not None:
            runs.append(run)
    return runs


MAX_LISTED_DAYS = 120


def reconciled_days(services: FinanceServices, since: date | None, until: date | None) -> list[ReconciliationDay]:
    """Every reconciled day in ``[since, until)`` (the last 14 days by default), newest first, with its runs."""
    end = until or business_today(services) + timedelta(days=1)
    start = since or end - timedelta(days=14)
    if start >= end or (end - start).days > MAX_LISTED_DAYS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"since must come before until, at most {MAX_LISTED_DAYS} days")
    days = []
    day = end - timedelta(days=1)
    while day >= start:
        found = load_day(services.store, day)
        if found is not None:
            days.append(found)
        day -= timedelta(days=1)
    return days


def run_again(services: FinanceServices, day: date, actor_id: UUID, reason: str) -> ReconciliationDay:
    """A member reconciles a day with the gateway now (again, when it was run already), with the reason."""
    if day > business_today(services):
        raise DomainError(ErrorCode.INVALID_VALUE, "a day still to come cannot be reconciled")
    reconcile_day(services, day, actor_id, reason)
    return _reconciled(services, day)


def explain(
    services: FinanceServices, actor_id: UUID, *, day: date, run: int, merchant_uid: str, kind: str, note: str
) -> ReconciliationDay:
    """A member marks a mismatch explained, with a note."""
    explain_mismatch(
        services.store, services.clock, actor_id, day=day, run=run, merchant_uid=merchant_uid, kind=kind, note=note
    )
    return _reconciled(services, day)


def refer_to_support(
    services: FinanceServices,
    actor_id: UUID,
    *,
    day: date,
    run: int,
    merchant_uid: str,
    kind: str,
    note: str,
    amount: int | None,
) -> tuple[ReconciliationDay, UUID]:
    """A member opens a refund request for support about a mismatch (support, or a second member, decides it): of
    ``amount``, or of what is left to refund of the payment."""
    row = payment_by_merchant_uid(services.views, merchant_uid)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid} in our log")
    request_id = refer_mismatch(
        services.store,
        services.clock,
        actor_id,
        day=day,
        run=run,
        merchant_uid=merchant_uid,
        kind=kind,
        note=note,
        amount=amount or int(row["amount"]) - int(row["cancel_amount"]),
        currency=row["currency"],
        account_id=UUID(row["account_id"]) if row["account_id"] else None,
    )
    return _reconciled(services, day), request_id


def _reconciled(services: FinanceServices, day: date) -> ReconciliationDay:
    found = load_day(services.store, day)
    if found is None:  # pragma: no cover  (a run, explanation or referral was just recorded on it)
        raise DomainError(ErrorCode.NOT_FOUND, f"{day.isoformat()} was never reconciled")
    return found

"""Support closes a customer's report as handled: a staff action like the others, the report's ``report.Handled``
and the member's ``staff.Acted`` saved in one transaction, both naming the member and what was done."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.reports.report import Report
from domain.staff.actions import StaffAction
from domain.staff.member import load_member
from domain.staff.permissions import Permission
from domain.store import Storefront
from events.concurrency import retry_on_conflict


def load_report(store: Storefront, report_id: UUID) -> Report:
    """The report (404 when there is none)."""
    try:
        report: object = store.repository.get(report_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such report") from None
    if not isinstance(report, Report):
        raise DomainError(ErrorCode.NOT_FOUND, "no such report")
    return report


def close_report(store: Storefront, clock: Clock, actor_id: UUID, *, report_id: UUID, reason: str) -> int:
    """Close the report as handled, saying what was done (a reason is required; a closed report stays closed);
    returns the log position of the record."""

    def attempt() -> int:
        actor, report = load_member(store, actor_id), load_report(store, report_id)
        now = clock.now()
        report.handle(actor.id, reason, now)
        details: dict[str, str | int | None] = {
            "account_id": str(report.account_id) if report.account_id else None,
            "problem": report.problem.value,
            "product": report.product,
        }
        actor.act(Permission.HELP_CUSTOMERS, StaffAction.CLOSE_REPORT, str(report.id), reason, now, details)
        return int(store.save(report, actor)[-1].notification.id)

    return retry_on_conflict(attempt)

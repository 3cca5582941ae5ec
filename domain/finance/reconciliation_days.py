"""A reconciliation day: every run of one Korean business day's reconciliation with the gateway, and what a
finance member did about each mismatch (explained it with a note, or referred it to support as a refund request).

Beat runs yesterday's reconciliation each morning (``trigger`` ``schedule``, once a day); a member may run a day
again at any time (``staff``, with a reason, which is required), and each run is kept, numbered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.payments.reconciliation import Mismatch
from domain.payments.refund_requests import RefundRequest
from domain.staff.actions import StaffAction
from domain.staff.member import load_member
from domain.staff.permissions import Permission, check_reason
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.finance import MismatchExplained, MismatchReferred, ReconciliationDayOpened, ReconciliationRan

SCHEDULE = "schedule"
STAFF = "staff"


@dataclass(frozen=True)
class Run:
    """One run of a day's reconciliation."""

    run: int
    at: datetime
    trigger: str
    actor_id: UUID | None
    reason: str
    compared: int
    mismatches: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class Resolution:
    """What a member did about one mismatch: ``explained`` (a note) or ``referred`` (a refund request)."""

    run: int
    merchant_uid: str
    kind: str
    outcome: str
    note: str
    actor_id: UUID
    at: datetime
    request_id: UUID | None


class ReconciliationDay(Aggregate):
    """The runs of one business day's reconciliation and the resolutions of their mismatches."""

    @staticmethod
    def id_for(day: date) -> UUID:
        """One aggregate per business day."""
        return uuid5(NAMESPACE_URL, f"/finance/reconciliation/{day.isoformat()}")

    @classmethod
    def open(cls, day: date, at: datetime) -> ReconciliationDay:
        """The day's first run is about to be recorded."""
        return cls._create(ReconciliationDayOpened, id=cls.id_for(day), timestamp=at, day=day.isoformat())

    @property
    def scheduled(self) -> bool:
        """Has beat's morning run of this day been recorded?"""
        return any(run.trigger == SCHEDULE for run in self.runs)

    def record_run(
        self,
        mismatches: Sequence[Mismatch],
        compared: int,
        trigger: str,
        actor_id: UUID | None,
        reason: str,
        at: datetime,
    ) -> Run:
        """Keep one run's outcome."""
        self.trigger_event(
            ReconciliationRan,
            timestamp=at,
            run=len(self.runs) + 1,
            trigger=trigger,
            actor_id=actor_id,
            reason=reason,
            compared=compared,
            mismatches=[
                {"merchant_uid": m.merchant_uid, "kind": m.kind, "ours": m.ours, "gateway": m.gateway}
                for m in mismatches
            ],
        )
        return self.runs[-1]

    def check_mismatch(self, run: int, merchant_uid: str, kind: str) -> None:
        """404 unless run ``run`` found this mismatch; -2 when it is resolved already."""
        if not 1 <= run <= len(self.runs) or not any(
            m["merchant_uid"] == merchant_uid and m["kind"] == kind for m in self.runs[run - 1].mismatches
        ):
            raise DomainError(ErrorCode.NOT_FOUND, f"run {run} of {self.day} found no {kind} for {merchant_uid}")
        if (run, merchant_uid, kind) in self.resolutions:
            raise DomainError(ErrorCode.INVALID_VALUE, "the mismatch is resolved already")

    def explain(self, run: int, merchant_uid: str, kind: str, note: str, actor_id: UUID, at: datetime) -> None:
        """A member explains a mismatch."""
        self.check_mismatch(run, merchant_uid, kind)
        self.trigger_event(
            MismatchExplained,
            timestamp=at,
            run=run,
            merchant_uid=merchant_uid,
            kind=kind,
            note=note,
            actor_id=actor_id,
        )

    def refer(
        self, run: int, merchant_uid: str, kind: str, note: str, request_id: UUID, actor_id: UUID, at: datetime
    ) -> None:
        """A member sends a mismatch to support as a refund request."""
        self.check_mismatch(run, merchant_uid, kind)
        self.trigger_event(
            MismatchReferred,
            timestamp=at,
            run=run,
            merchant_uid=merchant_uid,
            kind=kind,
            note=note,
            request_id=request_id,
            actor_id=actor_id,
        )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: ReconciliationDayOpened) -> None:
        self.day = date.fromisoformat(event.day)
        self.runs: list[Run] = []
        self.resolutions: dict[tuple[int, str, str], Resolution] = {}

    @when.register
    def _ran(self, event: ReconciliationRan) -> None:
        self.runs.append(
            Run(
                event.run,
                event.timestamp,
                event.trigger,
                event.actor_id,
                event.reason,
                event.compared,
                tuple(event.mismatches),
            )
        )

    @when.register
    def _explained(self, event: MismatchExplained) -> None:
        self.resolutions[(event.run, event.merchant_uid, event.kind)] = Resolution(
            event.run, event.merchant_uid, event.kind, "explained", event.note, event.actor_id, event.timestamp, None
        )

    @when.register
    def _referred(self, event: MismatchReferred) -> None:
        self.resolutions[(event.run, event.merchant_uid, event.kind)] = Resolution(
            event.run,
            event.merchant_uid,
            event.kind,
            "referred",
            event.note,
            event.actor_id,
            event.timestamp,
            event.request_id,
        )


def load_day(store: Storefront, day: date) -> ReconciliationDay | None:
    """The day's runs, or None when it was never reconciled."""
    try:
        found: object = store.repository.get(ReconciliationDay.id_for(day))
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, ReconciliationDay) else None


def check_run_reason(reason: str) -> str:
    """A member's run of a day says why (-1 without a reason); the reason, trimmed."""
    text = reason.strip()
    if not text:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "running a day's reconciliation again needs a reason")
    return text


def record_run(
    store: Storefront,
    clock: Clock,
    day: date,
    mismatches: Sequence[Mismatch],
    compared: int,
    *,
    actor_id: UUID | None = None,
    reason: str = "",
) -> Run | None:
    """Keep a run of ``day``: beat's (``actor_id`` None; None when the morning's run was recorded already) or a
    member's re-run (they need the read-ledger permission and a reason, and the run is also a staff action of
    theirs)."""
    if actor_id is not None:
        reason = check_run_reason(reason)

    def attempt() -> Run | None:
        now = clock.now()
        current = load_day(store, day)
        if actor_id is None and current is not None and current.scheduled:
            return None
        aggregate = current or ReconciliationDay.open(day, now)
        saved: list[Aggregate] = [aggregate]
        if actor_id is not None:
            member = load_member(store, actor_id)
            member.act(
                Permission.READ_LEDGER,
                StaffAction.RECONCILE,
                day.isoformat(),
                reason,
                now,
                {"mismatches": len(mismatches)},
            )
            saved.append(member)
        run = aggregate.record_run(
            mismatches, compared, SCHEDULE if actor_id is None else STAFF, actor_id, reason.strip(), now
        )
        store.save(*saved)
        return run

    return retry_on_conflict(attempt)


def explain_mismatch(
    store: Storefront, clock: Clock, actor_id: UUID, *, day: date, run: int, merchant_uid: str, kind: str, note: str
) -> None:
    """A finance member explains a mismatch with a note (required)."""
    text = note.strip()
    if not text:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "explaining a mismatch needs a note")

    def attempt() -> None:
        member, aggregate = load_member(store, actor_id), _day(store, day)
        now = clock.now()
        aggregate.explain(run, merchant_uid, kind, text, member.id, now)
        member.act(
            Permission.READ_LEDGER,
            StaffAction.EXPLAIN_MISMATCH,
            merchant_uid,
            text,
            now,
            {"day": day.isoformat(), "kind": kind},
        )
        store.save(aggregate, member)

    retry_on_conflict(attempt)


def refer_mismatch(
    store: Storefront,
    clock: Clock,
    actor_id: UUID,
    *,
    day: date,
    run: int,
    merchant_uid: str,
    kind: str,
    note: str,
    amount: int,
    currency: str,
    account_id: UUID | None,
) -> UUID:
    """A finance member opens a refund request about a mismatch (support or a second member decides it)."""
    why = check_reason(Permission.REFUND, note)
    if amount < 1:
        raise DomainError(ErrorCode.INVALID_VALUE, "a refund request is for at least 1")

    def attempt() -> UUID:
        member, aggregate = load_member(store, actor_id), _day(store, day)
        now = clock.now()
        request = RefundRequest.ask(
            merchant_uid=merchant_uid,
            account_id=account_id,
            amount=amount,
            currency=currency,
            reason=why,
            requested_by=member.id,
            at=now,
        )
        aggregate.refer(run, merchant_uid, kind, why, request.id, member.id, now)
        member.act(
            Permission.REFUND,
            StaffAction.REQUEST_REFUND,
            merchant_uid,
            why,
            now,
            {"amount": amount, "currency": currency, "request_id": str(request.id), "day": day.isoformat()},
        )
        store.save(request, aggregate, member)
        return request.id

    return retry_on_conflict(attempt)


def _day(store: Storefront, day: date) -> ReconciliationDay:
    found = load_day(store, day)
    if found is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"{day.isoformat()} was never reconciled")
    return found

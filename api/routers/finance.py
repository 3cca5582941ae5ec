"""Finance's part of the back office (read-ledger): the ledger with its drill-down to payments, events and proofs;
the daily reconciliation's runs and their mismatches; the log's integrity (checkpoints, verify now, consistency,
proofs); exports and the month-end close pack as jobs with progress; a licence, subscription or payment as it was;
and the staff actions audit. The work is application/finance's; the decisions domain/finance's; the answers
api/schemas/finance.py's."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import Field

from api.language import request_language
from api.schemas import CamelModel
from api.schemas.finance import (
    AlarmOut,
    AsOfOut,
    AsOfSide,
    CheckpointOut,
    FinanceJobOut,
    IntegrityOut,
    JobStarted,
    LedgerEntryOut,
    LedgerOut,
    LedgerPayment,
    LedgerPaymentOut,
    LoggedEventOut,
    ReconciliationDayOut,
    ReferredOut,
    StaffActionOut,
)
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffCaller, StaffDep
from application.finance import jobs as finance_jobs
from application.finance import ledger as finance_ledger
from application.finance import reconciliation
from application.finance.proofs import checkpoints, consistency, payment_events, proof_document
from domain.business_time import BUSINESS_TIME, business_midnight
from domain.errors import DomainError, ErrorCode
from domain.finance.jobs import JobKind
from domain.staff.disclosure import Disclosure
from eventlog.audit.export import ExportFormat
from projections.finance_ledger import Filters
from projections.payments import payment_by_merchant_uid
from projections.staff_actions import staff_actions

router = APIRouter(prefix="/staff/finance", tags=["finance"], responses=STAFF_ERRORS)

Day = Annotated[date, Path(description="the business day (Korean calendar)")]
MerchantUid = Annotated[str, Path(max_length=100)]


@router.get("/ledger")
async def ledger(
    request: Request,
    caller: StaffDep,
    services: ServicesDep,
    since: date | None = None,
    until: date | None = None,
    by: Annotated[str, Query(pattern="^(day|week|month)$")] = "day",
) -> LedgerOut:
    """Revenue, refunds and net by Korean business day, week or month, and by currency, product, plan, payment method
    over days ``[since, until)`` (the last 30 days by default)."""
    start, end = finance_ledger.days(services, since, until)
    figures = await finance_ledger.figures(services, start, end, by, request_language(request))
    return LedgerOut(since=start, until=end, **figures)


@router.get("/ledger/entries")
def ledger_entries(
    request: Request,
    caller: StaffDep,
    services: ServicesDep,
    since: date | None = None,
    until: date | None = None,
    period: Annotated[str | None, Query(max_length=10)] = None,
    by: Annotated[str, Query(pattern="^(day|week|month)$")] = "day",
    currency: Annotated[str | None, Query(max_length=3)] = None,
    product: Annotated[str | None, Query(max_length=100)] = None,
    plan: Annotated[str | None, Query(max_length=200)] = None,
    pay_method: Annotated[str | None, Query(alias="payMethod", max_length=50)] = None,
    kind: Annotated[str | None, Query(pattern="^(revenue|refund)$")] = None,
) -> list[LedgerEntryOut]:
    """The movements of money behind a figure (a period, or the range; narrowed by any dimension), oldest first."""
    start, end = (
        finance_ledger.period_days(period, by) if period is not None else finance_ledger.days(services, since, until)
    )
    filters = Filters(currency, product, plan, pay_method, kind)
    found = finance_ledger.entries(services, start, end, filters, request_language(request))
    return [LedgerEntryOut.model_validate(row) for row in found]


@router.get("/payments/{merchant_uid}")
def payment(merchant_uid: MerchantUid, caller: StaffDep, services: ServicesDep) -> LedgerPaymentOut:
    """One payment and every event of it in the log (each with its position, for its proof)."""
    row = payment_by_merchant_uid(services.views, merchant_uid)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid}")
    return LedgerPaymentOut(
        payment=LedgerPayment.model_validate(row),
        events=[LoggedEventOut.model_validate(event) for event in payment_events(services, merchant_uid)],
    )


def _download(document: dict[str, Any], name: str) -> Response:
    return Response(
        json.dumps(document, indent=2) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/proofs/payments/{merchant_uid}", response_class=Response)
def payment_proof(merchant_uid: MerchantUid, caller: StaffDep, services: ServicesDep) -> Response:
    """Inclusion proofs of every event of a payment in a checkpoint signed now, as a file the independent
    verifier checks (403 when one of them holds a field the member may not see whole)."""
    events = [event["notification_id"] for event in payment_events(services, merchant_uid)]
    document = proof_document(services, events, f"payment {merchant_uid}", _disclosure(caller))
    return _download(document, f"proof-{merchant_uid}.json")


@router.get("/proofs/events/{notification_id}", response_class=Response)
def event_proof(notification_id: Annotated[int, Path(ge=1)], caller: StaffDep, services: ServicesDep) -> Response:
    """The inclusion proof of one event (by its position in the log) in a checkpoint signed now (403 for an event
    holding a field the member may not see whole: a password's hash, a session's secret, ...)."""
    document = proof_document(services, [notification_id], f"event {notification_id}", _disclosure(caller))
    return _download(document, f"proof-event-{notification_id}.json")


def _disclosure(caller: StaffCaller) -> Disclosure:
    return Disclosure.to(caller.member.permissions)


@router.get("/reconciliation")
def reconciliation_days(
    caller: StaffDep,
    services: ServicesDep,
    since: date | None = None,
    until: date | None = None,
) -> list[ReconciliationDayOut]:
    """Every reconciled day in ``[since, until)`` (the last 14 days by default), newest first, with its runs."""
    return [ReconciliationDayOut.of(day) for day in reconciliation.reconciled_days(services, since, until)]


class RunIn(CamelModel):
    """Why the day is run again (required)."""

    reason: str = Field(default="", max_length=500)


@router.post("/reconciliation/{day}/run")
def run_reconciliation(day: Day, body: RunIn, caller: StaffDep, services: ServicesDep) -> ReconciliationDayOut:
    """Reconcile a day with PortOne now (again, when it was run already), with the reason (-1 without one); the run
    is recorded."""
    return ReconciliationDayOut.of(reconciliation.run_again(services, day, caller.member.id, body.reason))


class ResolveIn(CamelModel):
    """Which mismatch (run, merchantUid, kind) and the note; for a refund request, its amount."""

    run: int = Field(ge=1)
    merchant_uid: str = Field(min_length=1, max_length=100)
    kind: str = Field(min_length=1, max_length=40)
    note: str = Field(min_length=1, max_length=500)
    amount: int | None = Field(default=None, ge=1)


@router.post("/reconciliation/{day}/explain")
def explain(day: Day, body: ResolveIn, caller: StaffDep, services: ServicesDep) -> ReconciliationDayOut:
    """Mark a mismatch explained, with a note."""
    explained = reconciliation.explain(
        services,
        caller.member.id,
        day=day,
        run=body.run,
        merchant_uid=body.merchant_uid,
        kind=body.kind,
        note=body.note,
    )
    return ReconciliationDayOut.of(explained)


@router.post("/reconciliation/{day}/refund-request")
def refer(day: Day, body: ResolveIn, caller: StaffDep, services: ServicesDep) -> ReferredOut:
    """Open a refund request for support about a mismatch (support, or a second member, decides it)."""
    referred, request_id = reconciliation.refer_to_support(
        services,
        caller.member.id,
        day=day,
        run=body.run,
        merchant_uid=body.merchant_uid,
        kind=body.kind,
        note=body.note,
        amount=body.amount,
    )
    shown = ReconciliationDayOut.of(referred)
    return ReferredOut(day=shown.day, runs=shown.runs, request_id=request_id)


@router.get("/integrity")
def integrity(caller: StaffDep, services: ServicesDep) -> IntegrityOut:
    """The newest signed checkpoints, the verifier key, the tree's size, the verifications and the alarm."""
    services.see_latest_write("finance_jobs")
    signed = checkpoints(services)
    failed = finance_jobs.alarm(services)
    return IntegrityOut(
        verifier_key=signed["verifier_key"],
        tree_size=signed["tree_size"],
        checkpoints=[CheckpointOut.model_validate(row) for row in signed["checkpoints"]],
        verifications=[FinanceJobOut.model_validate(job) for job in finance_jobs.jobs(services, JobKind.VERIFY, 10)],
        alarm=FinanceJobOut.model_validate(failed) if failed else None,
    )


@router.get("/alarm")
def current_alarm(caller: StaffDep, services: ServicesDep) -> AlarmOut:
    """The newest verification when it failed (the back office's banner), else ``alarm`` null."""
    services.see_latest_write("finance_jobs")
    failed = finance_jobs.alarm(services)
    return AlarmOut(alarm=FinanceJobOut.model_validate(failed) if failed else None)


@router.post("/integrity/verify", status_code=202)
def verify(caller: StaffDep, services: ServicesDep) -> JobStarted:
    """Verify the whole log now, in the background (follow the job for progress); the result is recorded."""
    return JobStarted(job_id=finance_jobs.verify_now(services, caller.member.id))


@router.get("/integrity/consistency", response_class=Response)
def consistency_proof(
    caller: StaffDep,
    services: ServicesDep,
    old: Annotated[int, Query(ge=0)],
    new: Annotated[int, Query(ge=1)],
) -> Response:
    """The proof that the older signed checkpoint's tree is a prefix of the newer one's, as a file."""
    return _download(consistency(services, old, new), f"consistency-{old}-{new}.json")


class ExportIn(CamelModel):
    """An export: format, time range ``[since, until)`` (ISO 8601 with offset) and topics (``payment.*``)."""

    format: ExportFormat
    since: datetime | None = None
    until: datetime | None = None
    topics: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(default_factory=list, max_length=20)


@router.post("/exports", status_code=202)
def export(body: ExportIn, caller: StaffDep, services: ServicesDep) -> JobStarted:
    """Export events in the background with their manifest (follow the job for progress)."""
    for moment in (body.since, body.until):
        if moment is not None and moment.tzinfo is None:
            raise DomainError(ErrorCode.INVALID_VALUE, "times need their offset")
    job_id = finance_jobs.start_export(
        services, caller.member.id, body.format.value, body.since, body.until, list(body.topics)
    )
    return JobStarted(job_id=job_id)


class ClosePackIn(CamelModel):
    month: str = Field(pattern=r"^\d{4}-\d{2}$")


@router.post("/close-packs", status_code=202)
def close_pack(body: ClosePackIn, caller: StaffDep, services: ServicesDep) -> JobStarted:
    """Make a month's close pack in the background: ledger, payments and refunds CSV, checkpoint, manifest."""
    return JobStarted(job_id=finance_jobs.start_close_pack(services, caller.member.id, body.month))


@router.get("/jobs")
def jobs(
    caller: StaffDep,
    services: ServicesDep,
    kind: JobKind | None = None,
) -> list[FinanceJobOut]:
    """Finance's background jobs, newest first: state, progress, result and files."""
    services.see_latest_write("finance_jobs")
    return [FinanceJobOut.model_validate(found) for found in finance_jobs.jobs(services, kind)]


JobId = Annotated[UUID, Path(description="the job's id")]


@router.get("/jobs/{job_id}")
def job(job_id: JobId, caller: StaffDep, services: ServicesDep) -> FinanceJobOut:
    """One job: its state and progress (``done`` of ``total``), result and files."""
    found = finance_jobs.job(services, job_id)
    if found is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such job")
    return FinanceJobOut.model_validate(found)


@router.get("/jobs/{job_id}/files/{name}", response_class=Response)
def job_file(
    job_id: JobId, name: Annotated[str, Path(max_length=100)], caller: StaffDep, services: ServicesDep
) -> Response:
    """Download one file a job kept."""
    stored = finance_jobs.job_file(services, job_id, name)
    if stored is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such file")
    return Response(
        stored.data, media_type=stored.content_type, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@router.get("/as-of/{kind}/{key}")
def as_it_was(
    kind: Annotated[str, Path(pattern="^(licence|subscription|payment)$")],
    key: Annotated[str, Path(max_length=100)],
    at: datetime,
    caller: StaffDep,
    services: ServicesDep,
) -> AsOfOut:
    """A licence, subscription or payment as it was at ``at`` beside how it is now."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=BUSINESS_TIME)
    then, now = finance_ledger.then_and_now(services, kind, key, at)
    shown = _disclosure(caller)
    return AsOfOut(kind=kind, key=key, then=AsOfSide.of(then, shown), now=AsOfSide.of(now, shown))


@router.get("/staff-actions")
def staff_audit(
    caller: StaffDep,
    services: ServicesDep,
    member: UUID | None = None,
    action: Annotated[str | None, Query(max_length=60)] = None,
    since: date | None = None,
    until: date | None = None,
) -> list[StaffActionOut]:
    """Staff events, newest first (up to 500), by member, action and Korean days ``[since, until)``; each with its
    position for its proof."""
    services.see_latest_write("staff_actions")
    start = business_midnight(since) if since else None
    end = business_midnight(until) if until else None
    found = staff_actions(services.views, member, action or None, start, end)
    return [StaffActionOut.model_validate(row) for row in _disclosure(caller).rows(found)]

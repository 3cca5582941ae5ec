"""Finance's back-office answers (api/routers/finance.py); amounts in minor units of their currency."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal
from uuid import UUID

from pydantic import Field

from api.schemas import CamelModel
from domain.finance.reconciliation_days import ReconciliationDay, Resolution, Run
from domain.history import AsOf
from domain.staff.disclosure import Disclosure


class LedgerFigures(CamelModel):
    """What moved: revenue and refunds, their net, and how many payments and refunds."""

    revenue: int
    refunds: int
    payments: int
    refunded: int
    net: int


class LedgerSeriesRow(LedgerFigures):
    """The figures of one period (a day, a Monday-first week or a yyyy-mm month) in one currency."""

    period: str
    currency: str


class LedgerBreakdownRow(LedgerFigures):
    """The figures of one value of a dimension (``key``: a product code, a plan's catalogue id or a payment method)
    in one currency; ``label`` a plan's name in the reader's language."""

    currency: str
    key: str
    label: str | None = None


class LedgerBreakdown(CamelModel):
    """Each dimension's rows, per currency the most revenue first."""

    currency: list[LedgerBreakdownRow]
    product: list[LedgerBreakdownRow]
    plan: list[LedgerBreakdownRow]
    pay_method: list[LedgerBreakdownRow]


class LedgerCouponRow(CamelModel):
    """What coupon payments in one currency were given off their list price."""

    currency: str
    payments: int
    given_away: int


class LedgerOut(CamelModel):
    """Figures per period and currency, breakdowns per currency, coupons."""

    since: date
    until: date
    by: str
    series: list[LedgerSeriesRow]
    breakdown: LedgerBreakdown
    coupons: list[LedgerCouponRow]


class LedgerEntryOut(CamelModel):
    """One movement of money behind a figure, with its payment's plan and buyer."""

    day: date
    currency: str
    product_code: str
    plan: str = Field(description="the plan's catalogue id")
    plan_name: str = Field(description="the plan's name in the reader's language")
    pay_method: str
    kind: Literal["revenue", "refund"]
    merchant_uid: str
    at: str
    amount: int
    buyer_email: str | None


class LedgerPayment(CamelModel):
    """A payment as the payments view holds it, less its card number, refunds and discounts."""

    payment_id: UUID
    merchant_uid: str
    account_id: UUID | None
    buyer_email: str
    licence_id: int
    user_licence_id: UUID | None
    name: str
    purchase_type: str
    amount: int
    original_amount: int
    cancel_amount: int
    currency: str
    country_code: str
    state: str
    imp_uid: str | None
    pay_method: str | None
    pg_provider: str | None
    ordered_at: str
    paid_at: str | None
    failed_at: str | None
    fail_reason: str | None
    receipt_url: str | None
    card_name: str | None
    bank_name: str | None
    vbank_code: str | None
    vbank_name: str | None
    vbank_num: str | None
    vbank_holder: str | None
    vbank_date: str | None
    vbank_issued_at: str | None
    coupon_code: str | None
    apple_transaction_id: str | None
    upgrade_credit: int | None
    catalogue_version: int | None


class LoggedEventOut(CamelModel):
    """One event of a payment: its position in the log (for its proof), topic, time and version."""

    notification_id: int
    topic: str
    at: str
    version: int


class LedgerPaymentOut(CamelModel):
    """One payment and every event of it in the log."""

    payment: LedgerPayment
    events: list[LoggedEventOut]


class ResolutionOut(CamelModel):
    """What a member did about a mismatch: ``explained`` it, or ``referred`` it to support (``requestId``)."""

    outcome: str
    note: str
    actor_id: UUID
    at: str
    request_id: UUID | None

    @classmethod
    def of(cls, resolution: Resolution) -> ResolutionOut:
        """The wire form of a resolution."""
        return cls(
            outcome=resolution.outcome,
            note=resolution.note,
            actor_id=resolution.actor_id,
            at=resolution.at.isoformat(),
            request_id=resolution.request_id,
        )


class MismatchOut(CamelModel):
    """One thing our log and PortOne disagree on (``kind``), both sides as text, and what was done about it."""

    merchant_uid: str
    kind: str
    ours: str
    gateway: str
    resolution: ResolutionOut | None


class ReconciliationRunOut(CamelModel):
    """One run of a day's reconciliation: beat's (``schedule``) or a member's (``staff``, with the reason)."""

    run: int
    at: str
    trigger: str
    actor_id: UUID | None
    reason: str
    compared: int
    mismatches: list[MismatchOut]

    @classmethod
    def of(cls, run: Run, resolutions: dict[tuple[int, str, str], Resolution]) -> ReconciliationRunOut:
        """The wire form of a run, each mismatch with its resolution."""
        return cls(
            run=run.run,
            at=run.at.isoformat(),
            trigger=run.trigger,
            actor_id=run.actor_id,
            reason=run.reason,
            compared=run.compared,
            mismatches=[
                MismatchOut(
                    merchant_uid=mismatch["merchant_uid"],
                    kind=mismatch["kind"],
                    ours=mismatch["ours"],
                    gateway=mismatch["gateway"],
                    resolution=_resolution(resolutions.get((run.run, mismatch["merchant_uid"], mismatch["kind"]))),
                )
                for mismatch in run.mismatches
            ],
        )


def _resolution(found: Resolution | None) -> ResolutionOut | None:
    return None if found is None else ResolutionOut.of(found)


class ReconciliationDayOut(CamelModel):
    """A reconciled business day and its runs, oldest first."""

    day: date
    runs: list[ReconciliationRunOut]

    @classmethod
    def of(cls, aggregate: ReconciliationDay) -> ReconciliationDayOut:
        """The wire form of a day's reconciliation."""
        runs = [ReconciliationRunOut.of(run, aggregate.resolutions) for run in aggregate.runs]
        return cls(day=aggregate.day, runs=runs)


class ReferredOut(ReconciliationDayOut):
    """The day after a mismatch was referred, and the refund request opened for support."""

    request_id: UUID


class FinanceJobOut(CamelModel):
    """A background job (verify, export, close-pack): its state, progress (``done`` of ``total``), the parameters
    it was started with, its result (``error`` when it failed) and the files kept for download."""

    job_id: UUID
    kind: str
    state: Literal["queued", "running", "done", "failed", "stalled"]
    done: int
    total: int
    params: dict[str, Any]
    result: dict[str, Any] | None
    files: list[str]
    actor_id: UUID | None
    created_at: str
    finished_at: str | None


class JobStarted(CamelModel):
    """A job started in the background: follow it at ``GET /staff/finance/jobs/{jobId}``."""

    job_id: UUID


class CheckpointOut(CamelModel):
    """One signed checkpoint: the tree's size and root hash (hex), the signed note and when it was signed."""

    tree_size: int
    root_hash: str
    note: str
    signed_at: str


class AlarmOut(CamelModel):
    """The newest verification when it failed, else null."""

    alarm: FinanceJobOut | None


class IntegrityOut(CamelModel):
    """The verifier key, the tree's size, the newest signed checkpoints and verifications, and the alarm."""

    verifier_key: str
    tree_size: int
    checkpoints: list[CheckpointOut]
    verifications: list[FinanceJobOut]
    alarm: FinanceJobOut | None


class AsOfSide(CamelModel):
    """An aggregate at a moment: its version then and its fields, by their names in the domain."""

    at: str
    version: int
    state: dict[str, Any]

    @classmethod
    def of(cls, found: AsOf, disclosure: Disclosure) -> AsOfSide:
        """The wire form of a point-in-time read, as the member may see it."""
        return cls(at=found.at.isoformat(), version=found.version, state=disclosure.fields(found.state))


class AsOfOut(CamelModel):
    """A licence, subscription or payment as it was (``then``) beside how it is ``now``."""

    kind: str
    key: str
    then: AsOfSide
    now: AsOfSide


class StaffActionOut(CamelModel):
    """One staff event (``staff.*``, ``finance.*``): who (the member, or the actor of finance's own events; empty
    when none), what, about what and why, its details as recorded (amounts, days, a job's kind and parameters),
    with its position in the log for its proof."""

    notification_id: int
    topic: str
    action: str
    member_id: str
    subject: str
    reason: str
    details: dict[str, str | int | None]
    at: str

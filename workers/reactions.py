"""Reactions: events that start Celery tasks, driven from the log (the log is the outbox).

The reactor follows the log like a view does. For each event it sends the tasks
the event calls for, then moves its position. A crash between the two sends the
same tasks again on restart, with the same task ids, so delivery is at least once
and tasks are written to be idempotent; nothing recorded is ever lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from celery import Celery

from domain.accounts.notices import NOTICE_OF
from domain.papers.cash_receipts import CASH_PAY_METHODS
from domain.staff.actions import StaffAction
from eventlog.database import ViewDatabase
from eventlog.passed_over import PassedOver
from eventlog.tracking import PositionMovedError, advance, ensure_tracking_row
from events.accounts import (
    AccountClaimRequested,
    AccountRegistered,
    ConfirmationMailRequested,
    EmailChanged,
    EmailChangeRequested,
    PasswordChanged,
    PasswordResetCompleted,
    PasswordResetRequested,
)
from events.catalogue import CatalogueVersionScheduled
from events.finance import JobRequested
from events.payments import PaymentCancelled, PaymentRefunded, PaymentReserved, PaymentSucceeded
from events.staff import StaffActed
from events.subscriptions import (
    AutoRenewalCancelled,
    RenewalFailed,
    RenewalReminded,
    SubscriptionPriceRiseAsked,
    SubscriptionPriceRiseLapsed,
    SubscriptionPriceRiseReminded,
)


@dataclass(frozen=True)
class TaskCall:
    """One task to start: its registered name and primitive arguments."""

    name: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    countdown: float | None = None


Reaction = Callable[[Any], list[TaskCall]]


def task_id(application_name: str, notification_id: int, index: int) -> str:
    """The deterministic id of an event's ``index``-th task: a repeat is recognised as the same task."""
    return f"{application_name}-{notification_id}-{index}"


def _confirmation_mail(event: AccountRegistered | ConfirmationMailRequested) -> list[TaskCall]:
    if isinstance(event, AccountRegistered) and event.opens_guest_account:
        return []  # the receipt invites the guest to set a password instead
    return [TaskCall("accounts.send_confirmation_mail", {"account_id": str(event.originator_id)})]


def _claim_mail(event: AccountClaimRequested) -> list[TaskCall]:
    kwargs = {"account_id": str(event.originator_id), "claim_id": event.claim_id}
    return [TaskCall("accounts.send_confirmation_mail", kwargs)]


def _password_reset_mail(event: PasswordResetRequested) -> list[TaskCall]:
    kwargs = {
        "account_id": str(event.originator_id),
        "reset_id": event.reset_id,
        "language": event.language.value,
    }
    return [TaskCall("accounts.send_password_reset_mail", kwargs)]


def _email_change_mail(event: EmailChangeRequested) -> list[TaskCall]:
    kwargs = {"account_id": str(event.originator_id), "change_id": event.change_id}
    return [TaskCall("accounts.send_email_change_mail", kwargs)]


def _account_notice(event: EmailChanged | PasswordChanged | PasswordResetCompleted) -> list[TaskCall]:
    # The task reads the account as this event left it (and just before): ids and a version, no address.
    kwargs = {
        "account_id": str(event.originator_id),
        "kind": NOTICE_OF[type(event)].value,
        "version": event.originator_version,
    }
    return [TaskCall("accounts.send_account_notice", kwargs)]


def _purchase_mail(kind: str) -> Reaction:
    def reaction(event: PaymentSucceeded | PaymentReserved | PaymentCancelled) -> list[TaskCall]:
        if isinstance(event, PaymentCancelled) and event.error_code is not None:
            return []  # cancelled by us for tampering: nothing the buyer needs to act on
        return [TaskCall("payments.send_purchase_mail", {"payment_id": str(event.originator_id), "kind": kind})]

    return reaction


def _cash_receipt(event: PaymentSucceeded | PaymentRefunded) -> list[TaskCall]:
    """A bank transfer or virtual account that settled, or any refund: its cash receipt, if one was asked for, is
    issued, cancelled or issued again for the remainder (domain/papers/cash_receipts.py)."""
    if isinstance(event, PaymentSucceeded) and event.pay_method not in CASH_PAY_METHODS:
        return []
    return [TaskCall("papers.sync_cash_receipt", {"payment_id": str(event.originator_id)})]


def _settled(event: PaymentSucceeded) -> list[TaskCall]:
    return _purchase_mail("receipt")(event) + _cash_receipt(event)


def _refund_mail(event: PaymentRefunded) -> list[TaskCall]:
    """Money went back to the buyer (a staff refund, a money-back refund, a charge given back): tell them."""
    kwargs: dict[str, Any] = {
        "payment_id": str(event.originator_id),
        "amount": event.amount,
        "cancel_amount": event.cancel_amount,
        "reservation_id": event.reservation_id,
    }
    return [TaskCall("payments.send_refund_mail", kwargs)]


def _refunded(event: PaymentRefunded) -> list[TaskCall]:
    return _refund_mail(event) + _cash_receipt(event)


def _finance_job(event: JobRequested) -> list[TaskCall]:
    """Finance asked for a job (domain/finance/jobs.py): a worker runs it."""
    return [TaskCall("finance.run_job", {"job_id": str(event.originator_id)})]


def _staff_request(event: StaffActed) -> list[TaskCall]:
    """Support asked for a mail again (domain/staff/support.py): the receipt, the address confirmation, or the
    licence key."""
    details = event.details or {}
    if event.action == StaffAction.RESEND_LICENCE_KEY and details.get("user_licence_id"):
        return [TaskCall("licences.send_licence_key_mail", {"user_licence_id": str(details["user_licence_id"])})]
    if event.action == StaffAction.RESEND_RECEIPT and details.get("payment_id"):
        return [TaskCall("payments.send_purchase_mail", {"payment_id": str(details["payment_id"]), "kind": "receipt"})]
    if event.action == StaffAction.RESEND_CONFIRMATION and details.get("account_id"):
        return [TaskCall("accounts.send_confirmation_mail", {"account_id": str(details["account_id"])})]
    return []


def _dunning_mail(event: RenewalFailed) -> list[TaskCall]:
    kind = "renewal-failed" if event.retry_at is not None else "subscription-ended"
    kwargs = {
        "subscription_id": str(event.originator_id),
        "kind": kind,
        "reason": event.reason,
        "when": event.retry_at.isoformat() if event.retry_at else None,
    }
    return [TaskCall("subscriptions.send_mail", kwargs)]


def _reminder_mail(event: RenewalReminded) -> list[TaskCall]:
    """A renewal is near (domain/subscriptions/reminders.py): the price, the date, the card, the way out."""
    kwargs = {
        "subscription_id": str(event.originator_id),
        "kind": "renewal-upcoming",
        "when": event.renews_at.isoformat(),
        "amount": event.amount,
    }
    return [TaskCall("subscriptions.send_mail", kwargs)]


def _cancellation_mail(event: AutoRenewalCancelled) -> list[TaskCall]:
    """Auto-renewal was stopped: until when the licence works."""
    kwargs = {
        "subscription_id": str(event.originator_id),
        "kind": "auto-renewal-cancelled",
        "when": event.runs_out_at.isoformat() if event.runs_out_at else None,
    }
    return [TaskCall("subscriptions.send_mail", kwargs)]


def _price_rise_requests(event: CatalogueVersionScheduled) -> list[TaskCall]:
    """A new catalogue version: ask every subscriber whose price it raises for consent (docs/catalogue.md)."""
    return [] if event.version == 1 else [TaskCall("catalogue.notice_price_rises")]


def _price_rise_mail(kind: str) -> Reaction:
    """The request, its one reminder, or the lapse (auto-renewal stopped): the date, both prices, the card, the way
    out, the licence page."""

    def reaction(
        event: SubscriptionPriceRiseAsked | SubscriptionPriceRiseReminded | SubscriptionPriceRiseLapsed,
    ) -> list[TaskCall]:
        kwargs = {
            "subscription_id": str(event.originator_id),
            "kind": kind,
            "previous_amount": event.previous_amount,
            "amount": event.amount,
            "changes_at": event.changes_at.isoformat(),
        }
        return [TaskCall("subscriptions.send_price_rise_mail", kwargs)]

    return reaction


# Tasks that the events of one batch of the log start together as one task of their own (same arguments, with
# each one's task id, in a list): a renewal pass records hundreds of payments at once, each with its receipt.
TOGETHER = {"payments.send_purchase_mail": "payments.send_purchase_mails"}

# Event class -> what to start. Filled by the features that need reactions
# (confirmation mail on registration, deadlines on virtual accounts, ...).
REACTIONS: dict[type[Any], Reaction] = {
    AccountRegistered: _confirmation_mail,
    ConfirmationMailRequested: _confirmation_mail,
    AccountClaimRequested: _claim_mail,
    PasswordResetRequested: _password_reset_mail,
    EmailChangeRequested: _email_change_mail,
    EmailChanged: _account_notice,
    PasswordChanged: _account_notice,
    PasswordResetCompleted: _account_notice,
    PaymentSucceeded: _settled,
    PaymentRefunded: _refunded,
    PaymentReserved: _purchase_mail("virtual-account"),
    PaymentCancelled: _purchase_mail("lapsed"),
    RenewalFailed: _dunning_mail,
    RenewalReminded: _reminder_mail,
    AutoRenewalCancelled: _cancellation_mail,
    StaffActed: _staff_request,
    JobRequested: _finance_job,
    CatalogueVersionScheduled: _price_rise_requests,
    SubscriptionPriceRiseAsked: _price_rise_mail("asked"),
    SubscriptionPriceRiseReminded: _price_rise_mail("reminder"),
    SubscriptionPriceRiseLapsed: _price_rise_mail("lapsed"),
}


class ReactionProcessor:
    """Sends the tasks each event calls for, tracking its position in the view database.

    Most events call for no task (a renewal records four events and one of them sends a receipt): they are passed
    over (``eventlog.passed_over``), and the position moves past them with the next event that sends a task or when
    the reactor's flusher finds them waiting (``position`` flushes first).
    """

    name = "reactions"

    def __init__(self, celery: Celery, db: ViewDatabase, application_name: str) -> None:
        self._celery = celery
        self._db = db
        self._application_name = application_name
        self._lock = threading.Lock()
        self._passed_over = PassedOver(db, self.name, application_name)
        with db.transaction() as cursor:
            ensure_tracking_row(cursor, self.name, application_name)

    def position(self) -> int:
        """The recorded position (after recording the events passed over so far)."""
        self.flush()
        with self._db.read() as cursor:
            cursor.execute(
                "SELECT notification_id FROM view_tracking WHERE view_name = %(view)s AND application_name = %(app)s",
                {"view": self.name, "app": self._application_name},
            )
            row = cursor.fetchone()
            return int(row["notification_id"]) if row else 0

    def calls_for(self, event: Any) -> list[TaskCall]:
        """The tasks an event starts (none for most events)."""
        reaction = REACTIONS.get(type(event))
        return reaction(event) if reaction else []

    def process(self, event: Any, notification_id: int, previous: int) -> None:
        self.process_batch([(event, notification_id)], previous)

    def process_batch(self, items: Sequence[tuple[Any, int]], previous: int) -> None:
        """Send the tasks of several events in log order, then record the position past the last once. A failure
        part way leaves the position where it was: the batch is sent again, and its tasks' ids are the same."""
        with self._lock:
            start = self._passed_over.start(previous)
            calls = [
                (call, task_id(self._application_name, notification_id, index))
                for event, notification_id in items
                for index, call in enumerate(self.calls_for(event))
            ]
            together: dict[str, list[dict[str, Any]]] = {}
            for call, key in calls:
                if call.name in TOGETHER and call.countdown is None:
                    together.setdefault(call.name, []).append({"task_id": key, **call.kwargs})
                else:
                    self._celery.send_task(call.name, kwargs=call.kwargs, countdown=call.countdown, task_id=key)
            for name, each in together.items():
                if len(each) == 1:  # alone, as it always went
                    key = each[0].pop("task_id")
                    self._celery.send_task(name, kwargs=each[0], task_id=key)
                else:
                    first = each[0]["task_id"]
                    self._celery.send_task(TOGETHER[name], kwargs={"mails": each}, task_id=f"{first}+{len(each)}")
            if not calls:
                self._passed_over.note(items[-1][1], previous)  # the run now ends with the batch's last event
                return
            try:
                with self._db.transaction() as cursor:
                    advance(cursor, self.name, self._application_name, start, items[-1][1])
            except PositionMovedError:
                self._passed_over.forget()
                raise
            self._passed_over.forget()

    def flush(self, waited: float = 0.0) -> None:
        """Record the position past the events passed over once the first has waited ``waited`` seconds."""
        with self._lock:
            self._passed_over.flush(waited)

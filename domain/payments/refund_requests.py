"""Refunds that wait for a decision: a staff member's above the approval limit (maker-checker: a second member
with the approve-refunds permission makes it, never the one who asked), and a customer's money-back request
(refunded at once within policy and limit, otherwise queued for support)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import DomainError, ErrorCode
from domain.payments.payment import LicenceEffect
from events.staff import RefundAccepted, RefundApproved, RefundRefused, RefundReopened, RefundRequested

STAFF = "staff"
MONEY_BACK = "money-back"


class RefundState(Enum):
    """Where a request stands (the customer's licence page shows it for a money-back request)."""

    WAITING = "waiting"
    ACCEPTED = "accepted"  # decided and reserved on the payment; the gateway has not made it yet
    REFUNDED = "refunded"
    REFUSED = "refused"


class RefundRequest(Aggregate):
    """One refund waiting for, or given, its decision."""

    @staticmethod
    def money_back_id(merchant_uid: str) -> UUID:
        """A payment has at most one money-back request (asking again finds it)."""
        return uuid5(NAMESPACE_URL, f"/money-back/{merchant_uid}")

    @classmethod
    def ask(
        cls,
        *,
        merchant_uid: str,
        account_id: UUID | None,
        amount: int,
        currency: str,
        reason: str,
        requested_by: UUID | None,
        at: datetime,
        licence_effect: LicenceEffect | None = None,
    ) -> RefundRequest:
        """Record the request (a staff member's when ``requested_by`` names them, else the customer's money-back)."""
        source = STAFF if requested_by is not None else MONEY_BACK
        return cls._create(
            RefundRequested,
            id=uuid4() if requested_by is not None else cls.money_back_id(merchant_uid),
            timestamp=at,
            merchant_uid=merchant_uid,
            account_id=account_id,
            amount=amount,
            currency=currency,
            reason=reason,
            requested_by=requested_by,
            source=source,
            licence_effect=licence_effect.value if licence_effect is not None else None,
        )

    def check_waiting(self) -> None:
        """-2 for a request decided already."""
        if self.state is not RefundState.WAITING:
            raise DomainError(ErrorCode.INVALID_VALUE, f"the request is {self.state.value} already")

    def check_approver(self, approver_id: UUID) -> None:
        """Nobody approves their own request (403)."""
        if self.requested_by == approver_id:
            raise DomainError(ErrorCode.FORBIDDEN, "nobody approves their own refund")

    def accept(self, actor_id: UUID | None, reason: str, amount: int, at: datetime) -> None:
        """The refund was decided (by ``actor_id``; None: the money-back policy) and reserved on its payment."""
        self.check_waiting()
        if actor_id is not None:
            self.check_approver(actor_id)
        self.trigger_event(RefundAccepted, timestamp=at, actor_id=actor_id, reason=reason, amount=amount)

    def settle(self, refunded: int, at: datetime) -> None:
        """The gateway made (part of) the accepted refund: ``refunded`` more came back (a licence's payments given
        back together settle one by one; the event carries the request's total)."""
        if self.state not in (RefundState.ACCEPTED, RefundState.REFUNDED):
            raise DomainError(ErrorCode.INVALID_VALUE, f"the request is {self.state.value}")
        self.trigger_event(
            RefundApproved,
            timestamp=at,
            actor_id=self.decided_by,
            reason=self.decision_reason or "",
            refunded=self.refunded + refunded,
        )

    def reopen(self, reason: str, at: datetime) -> None:
        """The gateway refused the accepted refund: the request waits for a decision again."""
        if self.state is RefundState.ACCEPTED:
            self.trigger_event(RefundReopened, timestamp=at, reason=reason)

    def refuse(self, actor_id: UUID | None, reason: str, at: datetime) -> None:
        """The refund will not be made."""
        self.check_waiting()
        self.trigger_event(RefundRefused, timestamp=at, actor_id=actor_id, reason=reason)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _requested(self, event: RefundRequested) -> None:
        self.merchant_uid = event.merchant_uid
        self.account_id = event.account_id
        self.amount = event.amount
        self.currency = event.currency
        self.reason = event.reason
        self.requested_by = event.requested_by
        self.source = event.source
        self.requested_at = event.timestamp
        self.licence_effect: str | None = event.licence_effect
        self.state = RefundState.WAITING
        self.decided_by: UUID | None = None
        self.decision_reason: str | None = None
        self.refunded = 0

    @when.register
    def _approved(self, event: RefundApproved) -> None:
        self.state = RefundState.REFUNDED
        self.decided_by = event.actor_id
        self.decision_reason = event.reason
        self.refunded = event.refunded

    @when.register
    def _accepted(self, event: RefundAccepted) -> None:
        self.state = RefundState.ACCEPTED
        self.decided_by = event.actor_id
        self.decision_reason = event.reason

    @when.register
    def _reopened(self, event: RefundReopened) -> None:
        self.state = RefundState.WAITING
        self.decided_by = None
        self.decision_reason = event.reason

    @when.register
    def _refused(self, event: RefundRefused) -> None:
        self.state = RefundState.REFUSED
        self.decided_by = event.actor_id
        self.decision_reason = event.reason

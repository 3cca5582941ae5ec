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
from events.staff import RefundApproved, RefundRefused, RefundRequested

STAFF = "staff"
MONEY_BACK = "money-back"


class RefundState(Enum):
    """Where a request stands (the customer's licence page shows it for a money-back request)."""

    WAITING = "waiting"
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
        )

    def check_waiting(self) -> None:
        """-2 for a request decided already."""
        if self.state is not RefundState.WAITING:
            raise DomainError(ErrorCode.INVALID_VALUE, f"the request is {self.state.value} already")

    def check_approver(self, approver_id: UUID) -> None:
        """Nobody approves their own request (403)."""
        if self.requested_by == approver_id:
            raise DomainError(ErrorCode.FORBIDDEN, "nobody approves their own refund")

    def approve(self, actor_id: UUID | None, reason: str, refunded: int, at: datetime) -> None:
        """The refund was made."""
        self.check_waiting()
        if actor_id is not None:
            self.check_approver(actor_id)
        self.trigger_event(RefundApproved, timestamp=at, actor_id=actor_id, reason=reason, refunded=refunded)

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
    def _refused(self, event: RefundRefused) -> None:
        self.state = RefundState.REFUSED
        self.decided_by = event.actor_id
        self.decision_reason = event.reason

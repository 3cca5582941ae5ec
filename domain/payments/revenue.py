"""What counts as money in and out, for the ledger and its daily sums (projections/ledger.py,
projections/finance_daily.py): a settled payment (``payment.Succeeded``) is revenue of its ordered amount on the
Korean business day it was paid; each refund (``payment.Refunded``) is a refund of the amount it gave back on its
day. Each movement has an id of its own, so one recorded twice is counted once. Cancelled and failed payments never
took money and move nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal
from uuid import UUID

from domain.business_time import business_day
from events.payments import PaymentRefunded, PaymentSucceeded

Kind = Literal["revenue", "refund"]
REVENUE: Kind = "revenue"
REFUND: Kind = "refund"


@dataclass(frozen=True)
class Movement:
    """One movement of a payment's money: ``amount`` None means the payment's ordered amount."""

    entry_id: str
    payment_id: UUID
    kind: Kind
    at: datetime
    amount: int | None

    @property
    def day(self) -> date:
        """The business day it counts on."""
        return business_day(self.at)

    def amount_of(self, ordered: int) -> int:
        """What it moved, given the payment's ordered amount."""
        return ordered if self.amount is None else self.amount


def movement(event: PaymentSucceeded | PaymentRefunded) -> Movement:
    """The movement of money an event records."""
    payment_id = event.originator_id
    if isinstance(event, PaymentSucceeded):
        return Movement(f"{payment_id}:paid", payment_id, REVENUE, event.paid_at, None)
    return Movement(f"{payment_id}:refund-{event.cancel_amount}", payment_id, REFUND, event.refunded_at, event.amount)

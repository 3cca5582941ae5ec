"""Reconciling a day of our payments with the gateway's records, merchantUid by merchantUid.

Every payment ordered that day (in Korea, UTC+09:00) in our log, and every payment the gateway
received that day, is looked up on the other side by merchantUid (the newest gateway record when
a merchantUid was tried more than once). A report lists each mismatch: missing on either side, a
different amount or currency, a status that does not follow from ours, a different refunded amount.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Protocol, runtime_checkable

from domain.business_time import BUSINESS_TIME
from domain.payments.gateway import GatewayPayment, GatewayStatus

# The gateway statuses our state allows (None: the gateway need not have the payment at all).
ALLOWED: dict[str, set[str | None]] = {
    "ordered": {None, "failed"},
    "failed": {None, "failed"},
    "reserved": {"ready"},
    "paid": {"paid"},
    "cancelled": {None, "failed", "cancelled"},
}


@dataclass(frozen=True)
class OurPayment:
    """A payment as our log has it (from the payments view)."""

    merchant_uid: str
    state: str
    amount: int
    currency: str
    cancel_amount: int


@dataclass(frozen=True)
class Mismatch:
    """One disagreement between our record and the gateway's."""

    merchant_uid: str
    kind: str  # missing_at_gateway, missing_in_log, amount, currency, status, cancel_amount
    ours: str
    gateway: str


@runtime_checkable
class GatewayRecords(Protocol):
    """What reconciliation reads from the gateway."""

    def payments_between(self, since: datetime, until: datetime) -> list[GatewayPayment]: ...

    def find(self, merchant_uid: str) -> GatewayPayment | None: ...


def day_window(day: date) -> tuple[datetime, datetime]:
    """The Korean business day as ``[start, end)`` instants."""
    start = datetime.combine(day, time(), BUSINESS_TIME)
    return start, start + timedelta(days=1)


def reconcile(
    ours_that_day: Iterable[OurPayment],
    ours_by_merchant_uid: Callable[[str], OurPayment | None],
    gateway: GatewayRecords,
    day: date,
) -> list[Mismatch]:
    """Every mismatch between our payments and the gateway's for one business day, by merchantUid."""
    since, until = day_window(day)
    theirs: dict[str, GatewayPayment] = {}
    for record in gateway.payments_between(since, until):  # newest first: keep the first seen
        theirs.setdefault(record.merchant_uid, record)
    ours = {payment.merchant_uid: payment for payment in ours_that_day}
    mismatches: list[Mismatch] = []
    for merchant_uid in sorted(ours.keys() | theirs.keys()):
        our = ours.get(merchant_uid) or ours_by_merchant_uid(merchant_uid)
        their = theirs.get(merchant_uid) or gateway.find(merchant_uid)
        mismatches.extend(compare(merchant_uid, our, their))
    return mismatches


def compare(merchant_uid: str, our: OurPayment | None, their: GatewayPayment | None) -> list[Mismatch]:
    """The mismatches of one merchantUid."""
    if our is None:
        return [Mismatch(merchant_uid, "missing_in_log", "-", _describe(their))] if their is not None else []
    expected = _expected_statuses(our)
    if their is None:
        if None in expected:
            return []
        return [Mismatch(merchant_uid, "missing_at_gateway", f"{our.state} {our.amount} {our.currency}", "-")]
    found: list[Mismatch] = []
    if their.amount != our.amount:
        found.append(Mismatch(merchant_uid, "amount", str(our.amount), str(their.amount)))
    if their.currency != our.currency:
        found.append(Mismatch(merchant_uid, "currency", our.currency, their.currency))
    if their.status.value not in expected:
        found.append(Mismatch(merchant_uid, "status", our.state, their.status.value))
    if their.cancel_amount != our.cancel_amount:
        found.append(Mismatch(merchant_uid, "cancel_amount", str(our.cancel_amount), str(their.cancel_amount)))
    return found


def _expected_statuses(our: OurPayment) -> set[str | None]:
    if our.state == "paid" and our.amount == 0:
        return {None}  # nothing to pay: settled with method none, never sent to the gateway
    if our.state == "paid" and our.amount and our.cancel_amount >= our.amount:
        return {GatewayStatus.CANCELLED.value}  # refunded in full
    return ALLOWED.get(our.state, set())


def _describe(record: GatewayPayment | None) -> str:
    return "-" if record is None else f"{record.status.value} {record.amount} {record.currency}"

"""Giving money back at the gateway for a charge we called off (a coupon refused, an order tampered with, an upgrade
that lost its race): the one path every such charge takes, in the same three steps as a refund.

1. The payment is recorded cancelled with what the gateway took for it (``PaymentCancelled.give_back``), in the
   transaction that calls it off.
2. The gateway is asked to cancel that balance (its own balance is the checksum, so a second call cannot give back
   twice).
3. What it gave back is recorded (``payment.GivenBack``). A call that got no answer, or was refused, leaves the
   money owed; the pass that settles pending payments reads the gateway again (``settle_give_back``) and records
   what it finds, or asks again.
"""

from __future__ import annotations

import logging
from datetime import datetime

from domain.clock import Clock
from domain.errors import ErrorCode
from domain.payments.gateway import GatewayPayment, GatewayStatus, PaymentGateway
from domain.payments.methods import NONE
from domain.payments.payment import Payment, PaymentState
from domain.payments.records import recorded_payment
from domain.store import Storefront
from events.concurrency import retry_on_conflict

log = logging.getLogger(__name__)


def taken(reported: GatewayPayment) -> int:
    """What the gateway holds of a payment it reported (nothing for a payment it never took)."""
    if reported.status is not GatewayStatus.PAID or reported.pay_method == NONE:
        return 0
    return max(reported.amount - reported.cancel_amount, 0)


def call_off(payment: Payment, reported: GatewayPayment, reason: str, code: ErrorCode | None, at: datetime) -> int:
    """Record ``payment`` cancelled by us, owing back what the gateway took for ``reported`` (saved by the caller,
    who then calls ``give_back_called_off``); returns what is owed."""
    owed = taken(reported)
    payment.cancel(reported.imp_uid, reason, code, at, give_back=owed)
    return owed if payment.state is PaymentState.CANCELLED else 0


def give_back_called_off(
    store: Storefront, clock: Clock, gateway: PaymentGateway, merchant_uid: str, reported: GatewayPayment | None = None
) -> int:
    """Ask the gateway to give back what a called-off payment owes and record what it did; returns what was given
    back now (0 when nothing was owed, or the gateway did not answer: the settling pass tries again). A virtual
    account the gateway ``reported`` issued and nobody paid into yet is closed, so nobody pays into it later."""
    payment = recorded_payment(store, merchant_uid)
    if reported is not None and reported.status is GatewayStatus.READY and reported.pay_method == "vbank":
        _withdraw(gateway, reported)
    if payment is None or payment.give_back_owed <= 0 or payment.imp_uid is None:
        return 0
    try:
        reported = gateway.cancel(payment.imp_uid, None, payment.give_back_owed, payment.fail_reason or "called off")
    except Exception:
        log.exception("could not give back %s at the gateway; the settling pass tries again", merchant_uid)
        return 0
    return _record_given_back(store, clock, merchant_uid, reported)


def settle_give_back(store: Storefront, clock: Clock, gateway: PaymentGateway, merchant_uid: str) -> int:
    """The settling pass for one called-off payment that still owes money back: what the gateway gave back already
    is recorded; when it still holds some, it is asked again. Returns what was recorded now."""
    payment = recorded_payment(store, merchant_uid)
    if payment is None or payment.give_back_owed <= 0 or payment.imp_uid is None:
        return 0
    reported = gateway.get_payment(payment.imp_uid)
    if taken(reported) == 0:
        return _record_given_back(store, clock, merchant_uid, reported)
    return give_back_called_off(store, clock, gateway, merchant_uid)


def give_back_unrecorded(gateway: PaymentGateway, reported: GatewayPayment, reason: str) -> None:
    """Give back a payment no order of ours can record (a late attempt at an order settled by another one): the
    gateway's own record is the only one; reconciliation lists it until it is cancelled there."""
    owed = taken(reported)
    if reported.status is GatewayStatus.READY and reported.pay_method == "vbank":
        _withdraw(gateway, reported)
    if not owed:
        return
    log.warning("giving back %s (%s): no order records it", reported.imp_uid, reported.merchant_uid)
    try:
        gateway.cancel(reported.imp_uid, None, owed, reason)
    except Exception:
        log.exception("could not give back %s at the gateway", reported.imp_uid)


def _withdraw(gateway: PaymentGateway, reported: GatewayPayment) -> None:
    try:
        gateway.cancel(reported.imp_uid, None, None, "the order was called off")
    except Exception:
        log.exception("could not close virtual account %s at the gateway", reported.imp_uid)


def _record_given_back(store: Storefront, clock: Clock, merchant_uid: str, reported: GatewayPayment) -> int:
    def attempt() -> int:
        current = recorded_payment(store, merchant_uid)
        if current is None:
            return 0
        given = current.record_given_back(reported.cancel_amount, clock.now())
        if given:
            store.save(current)
        return given

    return retry_on_conflict(attempt)

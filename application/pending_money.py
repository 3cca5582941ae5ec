"""The pass that settles money in flight at the gateway (a Kill Bill janitor of our own): every payment whose
outcome at the gateway is not recorded yet (a first charge whose answer was lost, a refund reserved and never
answered, a called-off payment's money still owed back) is read back at the gateway after a grace period, and what
the gateway did is recorded; a refund or give-back it never made is asked for again (its checksum makes a second
one of the same money impossible). Beat runs it every minute (``workers/tasks/payments.py``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from application.refunds import subscriptions_in
from domain.clock import Clock
from domain.errors import DomainError
from domain.payments.gateway import GatewayUnreachableError, PaymentGateway
from domain.payments.give_back import settle_give_back
from domain.payments.refunds import SETTLE_AFTER, settle_pending_refund
from domain.store import Storefront
from domain.subscriptions.charging import settle_pending_first_charge
from eventlog.database import ViewDatabase
from projections.payments import FIRST_CHARGE, GIVE_BACK, REFUND, pending_payments

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settled:
    """One pending payment the pass looked at: what was pending, and what it found (or why it could not)."""

    merchant_uid: str
    pending: str
    outcome: str


def settle_pending_money(
    store: Storefront, views: ViewDatabase, clock: Clock, gateway: PaymentGateway
) -> list[Settled]:
    """Settle every payment pending at the gateway for longer than the grace period; a gateway that does not answer
    leaves it for the next pass."""
    subscription_of = subscriptions_in(store, views)
    settled: list[Settled] = []
    for merchant_uid, pending in pending_payments(views, clock.now() - SETTLE_AFTER):
        try:
            if pending == REFUND:
                outcome = settle_pending_refund(store, clock, gateway, merchant_uid, subscription_of)
                found = (
                    "not due" if outcome is None else ("pending" if outcome.pending else f"refunded {outcome.refunded}")
                )
            elif pending == GIVE_BACK:
                found = f"given back {settle_give_back(store, clock, gateway, merchant_uid)}"
            elif pending == FIRST_CHARGE:
                state = settle_pending_first_charge(store, clock, gateway, merchant_uid)
                found = state.value if state is not None else "not due"
            else:
                found = "unknown"
        except GatewayUnreachableError as unanswered:
            log.warning("settling %s (%s): the gateway did not answer: %s", merchant_uid, pending, unanswered)
            found = "gateway unreachable"
        except DomainError as refused:
            log.warning("settling %s (%s): %s %s", merchant_uid, pending, refused.code.name, refused.detail)
            found = f"refused: {refused.code.name}"
        settled.append(Settled(merchant_uid, pending, found))
    return settled

"""A refund at the domain's level, as the operator's command line makes one without a staff member: the tests of the
billing rules refund through it (reserve, call the gateway, record; domain/payments/refunds.py)."""

from __future__ import annotations

from domain.clock import Clock
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import LicenceEffect, RefundKind
from domain.payments.refunds import RefundAsked, SubscriptionOf, refund
from domain.store import Storefront


def refund_payment(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    merchant_uid: str,
    amount: int | None,
    reason: str,
    licence_effect: LicenceEffect | None = None,
    subscription_of: SubscriptionOf | None = None,
) -> int:
    """Give back all (None) or part of a payment; the amount refunded now."""
    asked = RefundAsked(merchant_uid, amount, reason, RefundKind.OPERATOR, licence_effect=licence_effect)
    return refund(store, clock, gateway, asked, subscription_of=subscription_of).refunded

"""Giving money back at the gateway for a charge we called off (a coupon refused, an order tampered with, an
upgrade that lost its race, a renewal nobody wants any more): the one helper every such path calls."""

from __future__ import annotations

import logging

from domain.payments.gateway import GatewayPayment, PaymentGateway

log = logging.getLogger(__name__)


def give_back(gateway: PaymentGateway, imp_uid: str, balance: int, reason: str) -> GatewayPayment | None:
    """Cancel the whole ``balance`` the gateway holds of a payment (its checksum for the cancel); None when the
    gateway could not (logged: the payment is recorded already, and an operator reconciles from the log)."""
    try:
        return gateway.cancel(imp_uid, None, balance, reason)
    except Exception:
        log.exception("could not give back payment %s at the gateway", imp_uid)
        return None

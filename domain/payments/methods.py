"""How the spec's payment methods map onto PortOne's pg and pay_method."""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import DomainError, ErrorCode


@dataclass(frozen=True)
class GatewayChoice:
    """What the browser passes to request_pay."""

    pg: str
    pay_method: str


PAYMENT_METHODS: dict[str, GatewayChoice] = {
    "creditCard": GatewayChoice("nice", "card"),
    "bankTransfer": GatewayChoice("nice", "trans"),
    "virtualAccount": GatewayChoice("nice", "vbank"),
    "kakaopay": GatewayChoice("kakaopay", "card"),
    "naverpay": GatewayChoice("naverpay", "card"),
}


def gateway_choice(payment_method: str) -> GatewayChoice:
    """The pg and pay_method for a payment method of the purchase page (-2 when unknown)."""
    return _choice(PAYMENT_METHODS, payment_method)


# PG windows that issue a billing key when request_pay carries a customer_uid (GET /billingkeys/customerUid).
BILLING_KEY_WINDOWS: dict[str, GatewayChoice] = {
    "creditCard": GatewayChoice("kcp_billing", "card"),
    "kakaopay": GatewayChoice("kakaopay", "card"),
    "naverpay": GatewayChoice("naverpay", "card"),
}


def billing_key_window(request_type: str) -> GatewayChoice:
    """The PG window that issues a billing key for ``requestType`` (-2 when it cannot)."""
    return _choice(BILLING_KEY_WINDOWS, request_type)


def _choice(table: dict[str, GatewayChoice], method: str) -> GatewayChoice:
    try:
        return table[method]
    except KeyError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"{method!r} is not one of {', '.join(table)}") from None

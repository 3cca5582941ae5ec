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
    try:
        return PAYMENT_METHODS[payment_method]
    except KeyError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"unknown payment method {payment_method!r}") from None


# PG windows that issue a billing key when request_pay carries a customer_uid (GET /billingkeys/customerUid).
BILLING_KEY_WINDOWS: dict[str, GatewayChoice] = {
    "creditCard": GatewayChoice("kcp_billing", "card"),
    "kakaopay": GatewayChoice("kakaopay", "card"),
    "naverpay": GatewayChoice("naverpay", "card"),
}


def billing_key_window(request_type: str) -> GatewayChoice:
    """The PG window that issues a billing key for ``requestType`` (-2 when it cannot)."""
    try:
        return BILLING_KEY_WINDOWS[request_type]
    except KeyError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"no billing-key window for {request_type!r}") from None

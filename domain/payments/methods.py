"""How the spec's payment methods map onto PortOne's pg and pay_method, per currency.

A one-time purchase is paid in the currency of the price the buyer's country pays (the catalogue's
country fallback). Won prices go through the Korean gateways: a card, a real-time bank transfer or a
virtual account on nice, kakaopay and naverpay's own windows, and points on kcp. Dollar and yen prices
are paid by card on kcp, which takes foreign currencies; the other methods take won only. ``none`` is
never chosen by a buyer: an order whose total is 0 after its coupon or credit is paid with it, without
the gateway.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import DomainError, ErrorCode


@dataclass(frozen=True)
class GatewayChoice:
    """What the browser passes to request_pay."""

    pg: str
    pay_method: str


NONE = "none"
# An order with nothing left to pay: settled by us, recorded with this pg and pay_method.
NO_GATEWAY = GatewayChoice(NONE, NONE)

WON_METHODS: dict[str, GatewayChoice] = {
    "creditCard": GatewayChoice("nice", "card"),
    "bankTransfer": GatewayChoice("nice", "trans"),
    "virtualAccount": GatewayChoice("nice", "vbank"),
    "kakaopay": GatewayChoice("kakaopay", "card"),
    "naverpay": GatewayChoice("naverpay", "card"),
    "point": GatewayChoice("kcp", "point"),
}
FOREIGN_METHODS: dict[str, GatewayChoice] = {
    "creditCard": GatewayChoice("kcp", "card"),
}
# The methods a one-time purchase may use, by the currency of its price.
PAYMENT_METHODS: dict[str, dict[str, GatewayChoice]] = {
    "KRW": WON_METHODS,
    "USD": FOREIGN_METHODS,
    "JPY": FOREIGN_METHODS,
}


def methods_for(currency: str) -> dict[str, GatewayChoice]:
    """The payment methods of a one-time purchase in ``currency``, in the order the page offers them."""
    return PAYMENT_METHODS.get(currency.upper(), FOREIGN_METHODS)


def gateway_choice(payment_method: str, currency: str = "KRW") -> GatewayChoice:
    """The pg and pay_method for a payment method of the purchase page in ``currency`` (-2 when that
    method does not exist or does not take that currency)."""
    return _choice(methods_for(currency), payment_method)


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

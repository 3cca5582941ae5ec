"""What each PortOne channel (pg) takes, as the sandbox's PG windows play it: its pay_methods, and which
currencies. Points and the bank methods are won only; only kcp's channels take foreign-currency cards."""

from __future__ import annotations

GATEWAY_METHODS: dict[str, frozenset[str]] = {
    "nice": frozenset({"card", "trans", "vbank"}),
    "kcp": frozenset({"card", "trans", "vbank", "point"}),
    "kcp_billing": frozenset({"card"}),
    "kakaopay": frozenset({"card", "point"}),
    "naverpay": frozenset({"card", "point"}),
}
WON_ONLY_METHODS = frozenset({"trans", "vbank", "point"})
FOREIGN_CURRENCY_GATEWAYS = frozenset({"kcp", "kcp_billing"})


def window_refusal(provider: str, pay_method: str, currency: str) -> str | None:
    """Why no channel takes this window (None when one does); ``provider`` is the pg without its merchant id."""
    if provider not in GATEWAY_METHODS:
        return f"unknown pg: use one of {', '.join(sorted(GATEWAY_METHODS))}"
    if pay_method not in GATEWAY_METHODS[provider]:
        return f"{provider} does not take pay_method {pay_method}"
    currency = currency.upper()
    if currency != "KRW" and (pay_method in WON_ONLY_METHODS or provider not in FOREIGN_CURRENCY_GATEWAYS):
        return f"{provider} {pay_method} takes KRW only, not {currency}"
    return None

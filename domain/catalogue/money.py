"""Showing money the way spec section 9 says (mails and receipts; the web app has its own twin)."""

from __future__ import annotations

from events.values import Currency, Language


def format_money(amount: int, currency: Currency, language: Language) -> str:
    """KRW: 24,360원 in Korean, 24,360 KRW otherwise; USD: $25.11 from cents; JPY: ¥2,772."""
    if currency is Currency.USD:
        dollars, cents = divmod(amount, 100)
        return f"${dollars:,}.{cents:02d}"
    if currency is Currency.JPY:
        return f"¥{amount:,}"
    if language is Language.KO:
        return f"{amount:,}원"
    return f"{amount:,} KRW"

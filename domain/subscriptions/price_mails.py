"""The price-rise notice mail (docs/catalogue.md), in the subscriber's language: what their plan will cost, and
from which renewal (the first one on or after the later of the new price's effective date and 30 days from now)."""

from __future__ import annotations

from datetime import datetime

from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
from domain.catalogue.money import format_money
from domain.ports import MailMessage
from events.values import Currency, Language

_PRICE_RISE = {
    Language.KO: (
        "[{brand}] 구독 가격 변경 안내",
        "{name} 구독 가격이 {old}에서 {new}으로 오릅니다.\n"
        "새 가격은 {since} 이후 첫 자동 갱신부터 적용되며, 그 전의 갱신은 지금 가격 그대로입니다.\n"
        "원하지 않으시면 그 전에 라이선스 관리 화면에서 자동 갱신을 해지해 주세요.\n",
    ),
    Language.EN: (
        "[{brand}] Your subscription price is changing",
        "The price of your {name} subscription rises from {old} to {new}.\n"
        "The new price applies from your first renewal on or after {since}; renewals before then stay at "
        "today's price.\nIf you do not want to continue, turn auto-renewal off on your licence page before then.\n",
    ),
    Language.JA: (
        "[{brand}] サブスクリプション価格変更のご案内",
        "{name}のサブスクリプション価格が{old}から{new}に変わります。\n"
        "新しい価格は{since}以降の最初の自動更新から適用され、それまでの更新は現在の価格のままです。\n"
        "ご希望でない場合は、それまでにライセンス管理画面で自動更新を解除してください。\n",
    ),
}


def render_price_rise_mail(
    *,
    to: str,
    language: Language,
    name: str,
    previous_amount: int,
    amount: int,
    currency: Currency,
    applies_from: datetime,
) -> MailMessage:
    """The notice that ``name`` rises from ``previous_amount`` to ``amount`` at the first renewal from
    ``applies_from`` on."""
    subject, body = _PRICE_RISE[language]
    fields = {
        "brand": BRAND[language],
        "name": name,
        "old": format_money(previous_amount, currency, language),
        "new": format_money(amount, currency, language),
        "since": applies_from.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d"),
    }
    return MailMessage(to=to, subject=subject.format(**fields), text=body.format(**fields))

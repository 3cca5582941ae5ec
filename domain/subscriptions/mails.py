"""Mails about subscriptions, in the subscriber's language: a renewal is near (every subscriber, ahead of each
renewal: domain/subscriptions/reminders.py), a renewal failed (with the link to change the card and pay now),
the subscription ended, auto-renewal was stopped (until when the licence works)."""

from __future__ import annotations

import re
from datetime import datetime

from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
from domain.catalogue.money import format_money
from domain.ports import MailMessage
from events.values import Currency, Language

_FAILED = {
    Language.KO: (
        "[{brand}] 정기 결제에 실패했습니다",
        "{name} 정기 결제({amount})에 실패했습니다: {reason}\n"
        "{retry}에 다시 결제를 시도합니다. 결제 수단을 확인하거나 변경해 주세요.\n"
        "카드를 바꾸고 지금 결제하기: {link}\n",
    ),
    Language.EN: (
        "[{brand}] Your renewal payment failed",
        "The renewal payment of {name} ({amount}) failed: {reason}\n"
        "We will try again on {retry}. Please check or change your payment method.\n"
        "Change the card and pay now: {link}\n",
    ),
    Language.JA: (
        "[{brand}] 定期決済に失敗しました",
        "{name}の定期決済({amount})に失敗しました: {reason}\n"
        "{retry}に再度決済を試みます。お支払い方法をご確認またはご変更ください。\n"
        "カードを変更して今すぐ支払う: {link}\n",
    ),
}
_ENDED = {
    Language.KO: (
        "[{brand}] 구독이 종료되었습니다",
        "{name} 정기 결제가 계속 실패하여 구독이 종료되었습니다.\n"
        "언제든지 라이선스 관리 화면에서 다시 구독하실 수 있습니다.\n",
    ),
    Language.EN: (
        "[{brand}] Your subscription has ended",
        "The renewal payments of {name} kept failing, so the "
        "subscription has ended.\nYou can subscribe again at any time from your licence page.\n",
    ),
    Language.JA: (
        "[{brand}] サブスクリプションが終了しました",
        "{name}の定期決済が失敗し続けたため、サブスクリプションを"
        "終了しました。\nライセンス管理画面からいつでも再度ご購読いただけます。\n",
    ),
}
_UPCOMING = {
    Language.KO: (
        "[{brand}] 구독 자동 갱신 안내 ({due})",
        "{name} 구독이 {due}에 {amount}으로 자동 갱신됩니다.\n"
        "결제 수단: {card}\n"
        "갱신을 원하지 않으시면 그 전에 자동 갱신을 해지해 주세요: {link}\n",
    ),
    Language.EN: (
        "[{brand}] Your subscription renews on {due}",
        "Your {name} subscription renews on {due} for {amount}.\n"
        "Payment method: {card}\n"
        "If you do not want it to renew, stop auto-renewal before then: {link}\n",
    ),
    Language.JA: (
        "[{brand}] サブスクリプション自動更新のご案内 ({due})",
        "{name}は{due}に{amount}で自動更新されます。\n"
        "お支払い方法: {card}\n"
        "更新を希望されない場合は、それまでに自動更新を解除してください: {link}\n",
    ),
}
_CANCELLED = {
    Language.KO: (
        "[{brand}] 자동 갱신이 해지되었습니다",
        "{name} 구독의 자동 갱신이 해지되었습니다. 더 이상 결제되지 않습니다.\n"
        "라이선스는 {until}까지 사용하실 수 있습니다.\n"
        "마음이 바뀌시면 그 전에 자동 갱신을 다시 켤 수 있습니다: {link}\n",
    ),
    Language.EN: (
        "[{brand}] Auto-renewal is off",
        "Auto-renewal of your {name} subscription is off: you will not be charged again.\n"
        "Your licence works until {until}.\n"
        "Changed your mind? Turn auto-renewal back on before then: {link}\n",
    ),
    Language.JA: (
        "[{brand}] 自動更新を解除しました",
        "{name}の自動更新を解除しました。今後お支払いは発生しません。\n"
        "ライセンスは{until}までご利用いただけます。\n"
        "気が変わった場合は、それまでに自動更新を再開できます: {link}\n",
    ),
}
_TEMPLATES = {
    "renewal-failed": _FAILED,
    "subscription-ended": _ENDED,
    "renewal-upcoming": _UPCOMING,
    "auto-renewal-cancelled": _CANCELLED,
}
_NO_CARD = {Language.KO: "등록된 카드 없음", Language.EN: "no card on file", Language.JA: "登録済みカードなし"}
MAIL_KINDS = tuple(_TEMPLATES)


def _when(moment: datetime | None) -> str:
    return moment.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d") if moment else "-"


def _until(moment: datetime | None) -> str:
    return moment.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d %H:%M (UTC+9)") if moment else "-"


def card_text(card_name: str | None, card_number: str | None, language: Language) -> str:
    """The card as the store shows it: its name and masked number (only the last four digits of an unmasked one)."""
    number = (card_number or "").strip()
    if number and not re.search(r"[*•xX]", number):
        digits = re.sub(r"\D", "", number)
        number = f"**** **** **** {digits[-4:]}" if len(digits) >= 4 else number
    parts = [part for part in ((card_name or "").strip(), number) if part]
    return " ".join(parts) if parts else _NO_CARD[language]


def render_subscription_mail(
    kind: str,
    *,
    to: str,
    language: Language,
    name: str,
    amount: int,
    currency: Currency,
    reason: str = "",
    when: datetime | None = None,
    card: str = "",
    link: str = "",
) -> MailMessage:
    """``renewal-failed`` (``when``: the retry; ``link``: change the card and pay now), ``subscription-ended``,
    ``renewal-upcoming`` (``when``: the renewal; ``card``; ``link``: stop auto-renewal) or
    ``auto-renewal-cancelled`` (``when``: the end of the paid period; ``link``: turn it back on)."""
    subject, body = _TEMPLATES[kind][language]
    fields = {
        "brand": BRAND[language],
        "name": name,
        "amount": format_money(amount, currency, language),
        "reason": reason,
        "retry": _when(when),
        "due": _when(when),
        "until": _until(when),
        "card": card,
        "link": link,
    }
    return MailMessage(to=to, subject=subject.format(**fields), text=body.format(**fields))

"""The mails of consent before a price rise (docs/catalogue.md), in the subscriber's language: the request (when a rise
is scheduled), the one reminder (7 days before the change) and the notice that auto-renewal stopped because the
subscriber did not agree. Each states the date of the change, the old and the new price, the payment method (the
card's name and masked number, never the number), how to stop and what happens without an answer; the link opens the
licence page, where only a button agrees."""

from __future__ import annotations

from datetime import datetime

from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
from domain.catalogue.money import format_money
from domain.ports import MailMessage
from events.values import Currency, Language

_ASKED = {
    Language.KO: (
        "[{brand}] 구독 가격 인상 동의 요청",
        "{name} 구독 가격이 {date} 자동 갱신부터 {old}에서 {new}으로 오릅니다.\n"
        "결제 수단: {card}\n"
        "새 가격으로 계속 이용하시려면 라이선스 관리 화면에서 '동의'를 눌러 주세요. 이 메일의 링크를 여는 것만으로는 "
        "동의가 되지 않습니다: {link}\n"
        "동의하지 않으시면 인상된 가격은 결제되지 않으며, 자동 갱신은 {date}에 이용 기간이 끝나면서 중단됩니다.\n"
        "지금 그만두시려면 같은 화면에서 '자동 갱신 해지'를 누르세요. 라이선스는 {date}까지 사용하실 수 있습니다.\n",
    ),
    Language.EN: (
        "[{brand}] Please agree to your subscription's new price",
        "The price of your {name} subscription rises from {old} to {new} from the renewal on {date}.\n"
        "Payment method: {card}\n"
        "To continue at the new price, press 'Agree' on your licence page. Opening this mail's link does not "
        "agree to anything: {link}\n"
        "If you do not agree, you will not be charged the new price: auto-renewal stops when your paid period ends "
        "on {date}.\n"
        "To stop now, press 'Stop auto-renewal' on the same page. Your licence works until {date}.\n",
    ),
    Language.JA: (
        "[{brand}] サブスクリプション価格改定への同意のお願い",
        "{name}のサブスクリプション価格が、{date}の自動更新から{old}から{new}に変わります。\n"
        "お支払い方法: {card}\n"
        "新しい価格で継続される場合は、ライセンス管理画面で「同意する」を押してください。このメールのリンクを開くだけでは"
        "同意になりません: {link}\n"
        "ご同意いただけない場合、新しい価格は決済されず、{date}のご利用期間終了をもって自動更新を停止します。\n"
        "今すぐやめる場合は、同じ画面で「自動更新を解除」を押してください。ライセンスは{date}までご利用いただけます。\n",
    ),
}
_REMINDER = {
    Language.KO: (
        "[{brand}] 구독 가격 인상 동의 요청 (다시 알림)",
        "{date}부터 {name} 구독 가격이 {old}에서 {new}으로 오릅니다. 아직 동의하지 않으셨습니다.\n"
        "결제 수단: {card}\n"
        "계속 이용하시려면 라이선스 관리 화면에서 '동의'를 눌러 주세요 (링크만으로는 동의되지 않습니다): {link}\n"
        "동의하지 않으시면 인상된 가격은 결제되지 않으며, 자동 갱신은 {date}에 중단됩니다.\n",
    ),
    Language.EN: (
        "[{brand}] Reminder: your subscription's new price needs your agreement",
        "From {date} your {name} subscription costs {new} instead of {old}, and you have not agreed yet.\n"
        "Payment method: {card}\n"
        "To continue, press 'Agree' on your licence page (the link alone agrees to nothing): {link}\n"
        "If you do not agree, you will not be charged the new price: auto-renewal stops on {date}.\n",
    ),
    Language.JA: (
        "[{brand}] 【再送】サブスクリプション価格改定への同意のお願い",
        "{date}から{name}のサブスクリプション価格が{old}から{new}に変わります。まだご同意いただいていません。\n"
        "お支払い方法: {card}\n"
        "継続される場合は、ライセンス管理画面で「同意する」を押してください(リンクだけでは同意になりません): {link}\n"
        "ご同意いただけない場合、新しい価格は決済されず、{date}に自動更新を停止します。\n",
    ),
}
_LAPSED = {
    Language.KO: (
        "[{brand}] 가격 인상에 동의하지 않으셔서 자동 갱신이 중단되었습니다",
        "{name} 구독의 새 가격({new})에 동의하지 않으셔서 결제하지 않았고, 자동 갱신은 {date}에 이용 기간이 끝나면서 "
        "중단되었습니다.\n"
        "결제 수단({card})에는 아무것도 청구되지 않았습니다.\n"
        "다시 이용하시려면 라이선스 관리 화면을 찾아 주세요: {link}\n",
    ),
    Language.EN: (
        "[{brand}] Auto-renewal stopped: the new price was not agreed to",
        "You did not agree to the new price of your {name} subscription ({new}), so nothing was charged and "
        "auto-renewal stopped when your paid period ended on {date}.\n"
        "Your payment method ({card}) was not charged. To subscribe again, visit your licence page: {link}\n",
    ),
    Language.JA: (
        "[{brand}] 価格改定にご同意いただけなかったため自動更新を停止しました",
        "{name}の新しい価格({new})にご同意いただけなかったため、決済は行わず、{date}のご利用期間終了をもって"
        "自動更新を停止しました。\n"
        "お支払い方法({card})への請求はありません。再度ご利用の場合はライセンス管理画面へ: {link}\n",
    ),
}
_TEMPLATES = {"asked": _ASKED, "reminder": _REMINDER, "lapsed": _LAPSED}
PRICE_RISE_MAIL_KINDS = tuple(_TEMPLATES)


def render_price_rise_mail(
    kind: str,
    *,
    to: str,
    language: Language,
    name: str,
    previous_amount: int,
    amount: int,
    currency: Currency,
    changes_at: datetime,
    card: str,
    link: str,
) -> MailMessage:
    """``asked``, ``reminder`` or ``lapsed``: ``name`` rises from ``previous_amount`` to ``amount`` at the renewal
    on ``changes_at``, charged to ``card`` only if the subscriber agrees on the page at ``link``."""
    subject, body = _TEMPLATES[kind][language]
    fields = {
        "brand": BRAND[language],
        "name": name,
        "old": format_money(previous_amount, currency, language),
        "new": format_money(amount, currency, language),
        "date": changes_at.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d"),
        "card": card,
        "link": link,
    }
    return MailMessage(to=to, subject=subject.format(**fields), text=body.format(**fields))

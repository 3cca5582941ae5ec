"""Mails about subscriptions, in the subscriber's language: a renewal failed, it ended, a yearly renewal is near."""

from __future__ import annotations

from datetime import datetime

from domain.brand import BRAND
from domain.catalogue.money import format_money
from domain.payments.mails import KST
from domain.ports import MailMessage
from events.values import Currency, Language

_FAILED = {
    Language.KO: (
        "[{brand}] 정기 결제에 실패했습니다",
        "{name} 정기 결제({amount})에 실패했습니다: {reason}\n"
        "{retry}에 다시 결제를 시도합니다. 결제 수단을 확인하거나 변경해 주세요.\n",
    ),
    Language.EN: (
        "[{brand}] Your renewal payment failed",
        "The renewal payment of {name} ({amount}) failed: {reason}\n"
        "We will try again on {retry}. Please check or change your payment method.\n",
    ),
    Language.JA: (
        "[{brand}] 定期決済に失敗しました",
        "{name}の定期決済({amount})に失敗しました: {reason}\n"
        "{retry}に再度決済を試みます。お支払い方法をご確認またはご変更ください。\n",
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
        "[{brand}] 연간 구독 갱신 안내",
        "{name} 구독이 {due}에 {amount}으로 자동 갱신됩니다.\n"
        "갱신을 원하지 않으시면 그 전에 라이선스 관리 화면에서 자동 갱신을 해지해 주세요.\n",
    ),
    Language.EN: (
        "[{brand}] Your yearly renewal is coming up",
        "Your {name} subscription renews on {due} for "
        "{amount}.\nIf you do not want it to renew, turn auto-renewal off on your licence page before then.\n",
    ),
    Language.JA: (
        "[{brand}] 年間サブスクリプション更新のご案内",
        "{name}は{due}に{amount}で自動更新されます。\n"
        "更新を希望されない場合は、それまでにライセンス管理画面で自動更新を解除してください。\n",
    ),
}


def _when(moment: datetime | None) -> str:
    return moment.astimezone(KST).strftime("%Y-%m-%d") if moment else "-"


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
) -> MailMessage:
    """``renewal-failed``, ``subscription-ended`` or ``renewal-upcoming``."""
    templates = {"renewal-failed": _FAILED, "subscription-ended": _ENDED, "renewal-upcoming": _UPCOMING}[kind]
    subject, body = templates[language]
    fields = {
        "brand": BRAND[language],
        "name": name,
        "amount": format_money(amount, currency, language),
        "reason": reason,
        "retry": _when(when),
        "due": _when(when),
    }
    return MailMessage(to=to, subject=subject.format(**fields), text=body.format(**fields))

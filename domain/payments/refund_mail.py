"""The mail that tells a buyer money came back: how much of which order, and what is left of it, in the language
the order was placed in. Sent from the log on every ``payment.Refunded`` (a staff refund, a money-back refund, a
charge given back), like the other purchase mails."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
from domain.catalogue.money import format_money
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.payment import LicenceEffect, Payment
from domain.ports import MailMessage
from domain.store import Storefront
from events.values import Currency, Language


@dataclass(frozen=True)
class RefundFacts:
    """What the refund mail says (amounts in minor units of ``currency``)."""

    to: str
    language: Language
    licence_name: str
    merchant_uid: str
    refunded: int
    refunded_in_all: int
    paid: int
    currency: Currency
    licence_effect: LicenceEffect = LicenceEffect.KEEP
    licence_ends: datetime | None = None  # where a shortened licence ends now


_REFUND = {
    Language.KO: (
        "[{brand}] 환불이 완료되었습니다",
        "{name} 주문의 환불이 완료되었습니다.\n\n주문 번호: {order}\n환불 금액: {refunded}\n"
        "총 환불 금액: {in_all} (결제 금액 {paid})\n\n{licence}\n\n"
        "카드사나 은행에 따라 환불이 반영되기까지 며칠이 걸릴 수 있습니다.\n",
    ),
    Language.EN: (
        "[{brand}] Your refund is complete",
        "We refunded your {name} order.\n\nOrder: {order}\nRefunded: {refunded}\n"
        "Refunded in all: {in_all} (of {paid} paid)\n\n{licence}\n\n"
        "Your card issuer or bank may take a few days to show it.\n",
    ),
    Language.JA: (
        "[{brand}] 返金が完了しました",
        "{name}のご注文の返金が完了しました。\n\n注文番号: {order}\n返金額: {refunded}\n"
        "返金額合計: {in_all} (お支払い金額 {paid})\n\n{licence}\n\n"
        "カード会社や銀行によっては反映まで数日かかる場合があります。\n",
    ),
}

# What the refund did to the licence, as the mail tells it.
_LICENCE = {
    LicenceEffect.REVOKE: {
        Language.KO: "이 라이선스는 모든 기기에서 사용이 중지되었습니다.",
        Language.EN: "The licence has stopped working on every device.",
        Language.JA: "このライセンスはすべてのデバイスで利用停止になりました。",
    },
    LicenceEffect.SHORTEN: {
        Language.KO: "남은 결제 금액만큼 라이선스 기간이 조정되어 {ends}에 만료됩니다.",
        Language.EN: "The licence now runs for what is left paid for: it ends on {ends}.",
        Language.JA: "ライセンスの期間はお支払いが残る分に調整され、{ends}に終了します。",
    },
    LicenceEffect.KEEP: {
        Language.KO: "라이선스는 그대로 사용하실 수 있습니다.",
        Language.EN: "Your licence stays as it was.",
        Language.JA: "ライセンスはこれまでどおりご利用いただけます。",
    },
}


def render_refund(facts: RefundFacts) -> MailMessage:
    """Money came back: how much now, how much in all, of what was paid."""
    subject, body = _REFUND[facts.language]
    fields = {
        "brand": BRAND[facts.language],
        "name": facts.licence_name,
        "order": facts.merchant_uid,
        "refunded": format_money(facts.refunded, facts.currency, facts.language),
        "in_all": format_money(facts.refunded_in_all, facts.currency, facts.language),
        "paid": format_money(facts.paid, facts.currency, facts.language),
        "licence": _LICENCE[facts.licence_effect][facts.language].format(
            ends=facts.licence_ends.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d") if facts.licence_ends else ""
        ),
    }
    return MailMessage(to=facts.to, subject=subject.format(**fields), text=body.format(**fields))


def refund_facts(
    store: Storefront, payment_id: UUID, *, refunded: int, refunded_in_all: int, reservation_id: str | None = None
) -> RefundFacts | None:
    """What the mail of one refund of the payment says (None when there is no such payment or nobody to tell):
    ``reservation_id`` names the refund, whose reservation decided what it does to the licence (a refund made at
    the gateway, or an older one, is told by the licence as it stands)."""
    try:
        payment: object = store.repository.get(payment_id)
    except AggregateNotFoundError:
        return None
    if not isinstance(payment, Payment) or not payment.buyer_email:
        return None
    language = payment.language
    if language is None and payment.account_id is not None:
        try:
            account: object = store.repository.get(payment.account_id)
        except AggregateNotFoundError:
            account = None
        language = account.language if isinstance(account, Account) else None
    effect, ends = _licence_effect(store, payment, reservation_id)
    return RefundFacts(
        to=payment.buyer_email,
        language=language or Language.KO,
        licence_name=payment.name,
        merchant_uid=payment.merchant_uid,
        refunded=refunded,
        refunded_in_all=refunded_in_all,
        paid=payment.amount,
        currency=payment.currency,
        licence_effect=effect,
        licence_ends=ends,
    )


def _licence_effect(
    store: Storefront, payment: Payment, reservation_id: str | None
) -> tuple[LicenceEffect, datetime | None]:
    reserved = payment.refunds_reserved.get(reservation_id or "")
    try:
        licence: object = store.repository.get(payment.licence_id_paid_for)
    except AggregateNotFoundError:
        licence = None
    if not isinstance(licence, UserLicence):
        return LicenceEffect.KEEP, None
    if reserved is not None and reserved.licence_effect is LicenceEffect.SHORTEN:
        return LicenceEffect.SHORTEN, reserved.shorten_to
    if (reserved is not None and reserved.licence_effect is LicenceEffect.REVOKE) or (
        reserved is None and licence.state is LicenceState.REVOKED
    ):
        return LicenceEffect.REVOKE, None
    return LicenceEffect.KEEP, None

"""The mail that tells a buyer money came back: how much of which order, and what is left of it, in the language
the order was placed in. Sent from the log on every ``payment.Refunded`` (a staff refund, a money-back refund, a
charge given back), like the other purchase mails."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.brand import BRAND
from domain.catalogue.money import format_money
from domain.payments.payment import Payment
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


_REFUND = {
    Language.KO: (
        "[{brand}] 환불이 완료되었습니다",
        "{name} 주문의 환불이 완료되었습니다.\n\n주문 번호: {order}\n환불 금액: {refunded}\n"
        "총 환불 금액: {in_all} (결제 금액 {paid})\n\n"
        "카드사나 은행에 따라 환불이 반영되기까지 며칠이 걸릴 수 있습니다.\n",
    ),
    Language.EN: (
        "[{brand}] Your refund is complete",
        "We refunded your {name} order.\n\nOrder: {order}\nRefunded: {refunded}\n"
        "Refunded in all: {in_all} (of {paid} paid)\n\nYour card issuer or bank may take a few days to show it.\n",
    ),
    Language.JA: (
        "[{brand}] 返金が完了しました",
        "{name}のご注文の返金が完了しました。\n\n注文番号: {order}\n返金額: {refunded}\n"
        "返金額合計: {in_all} (お支払い金額 {paid})\n\nカード会社や銀行によっては反映まで数日かかる場合があります。\n",
    ),
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
    }
    return MailMessage(to=facts.to, subject=subject.format(**fields), text=body.format(**fields))


def refund_facts(store: Storefront, payment_id: UUID, *, refunded: int, refunded_in_all: int) -> RefundFacts | None:
    """What the mail of one refund of the payment says (None when there is no such payment or nobody to tell)."""
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
    return RefundFacts(
        to=payment.buyer_email,
        language=language or Language.KO,
        licence_name=payment.name,
        merchant_uid=payment.merchant_uid,
        refunded=refunded,
        refunded_in_all=refunded_in_all,
        paid=payment.amount,
        currency=payment.currency,
    )

"""Mails about purchases, in the buyer's language: receipt, virtual account issued, virtual account lapsed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.accounts.account import Account
from domain.accounts.claims import receipt_claim_token
from domain.brand import BRAND
from domain.business_time import BUSINESS_TIME
from domain.catalogue.licences import LIFETIME_DAYS
from domain.catalogue.money import format_money
from domain.licences.licence import UserLicence
from domain.links import SiteLinks
from domain.payments.payment import Payment
from domain.ports import MailMessage
from domain.store import Storefront
from events.values import Currency, Language


@dataclass(frozen=True)
class PurchaseFacts:
    """What the purchase mails talk about."""

    to: str
    language: Language
    licence_name: str
    amount: int
    currency: Currency
    licence_key: str
    merchant_uid: str
    expires_at: datetime | None = None
    lifetime: bool = False
    register_link: str | None = None
    document_link: str | None = None  # the purchase-history page where the receipt PDF is downloaded
    vbank_name: str | None = None
    vbank_num: str | None = None
    vbank_holder: str | None = None
    vbank_date: datetime | None = None


def _when(moment: datetime | None) -> str:
    return moment.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d %H:%M (KST)") if moment else "-"


_RECEIPT = {
    Language.KO: (
        "[{brand}] 결제가 완료되었습니다",
        "{name} 결제가 완료되었습니다.\n\n결제 금액: {amount}\n주문 번호: {order}\n"
        "라이선스 키: {key}\n이용 기간: {validity}\n",
    ),
    Language.EN: (
        "[{brand}] Your payment is complete",
        "Your payment for {name} is complete.\n\nAmount: {amount}\n"
        "Order: {order}\nLicence key: {key}\nValid: {validity}\n",
    ),
    Language.JA: (
        "[{brand}] お支払いが完了しました",
        "{name}のお支払いが完了しました。\n\nお支払い金額: {amount}\n"
        "注文番号: {order}\nライセンスキー: {key}\nご利用期間: {validity}\n",
    ),
}
# How long the licence is valid: a lifetime licence has no end the customer should read (its record says 100 years).
_LIFETIME = {Language.KO: "평생 (기한 없음)", Language.EN: "lifetime (no end date)", Language.JA: "買い切り (期限なし)"}
_UNTIL = {Language.KO: "{expires}까지", Language.EN: "until {expires}", Language.JA: "{expires}まで"}
_REGISTER = {
    Language.KO: "\n계정에 라이선스를 등록하려면 아래 링크에서 비밀번호를 설정해 주세요.\n{link}\n",
    Language.EN: "\nTo add the licence to your account, set a password here:\n{link}\n",
    Language.JA: "\nアカウントにライセンスを登録するには、こちらでパスワードを設定してください。\n{link}\n",
}
_DOCUMENT = {
    Language.KO: "\n영수증(PDF)은 구매 내역에서 받을 수 있습니다.\n{link}\n",
    Language.EN: "\nDownload the receipt (PDF) from your purchase history:\n{link}\n",
    Language.JA: "\n領収書（PDF）は購入履歴からダウンロードできます。\n{link}\n",
}
_VBANK = {
    Language.KO: (
        "[{brand}] 가상계좌 입금 안내",
        "{name} 주문의 가상계좌가 발급되었습니다.\n\n입금 금액: {amount}\n"
        "은행: {bank}\n계좌 번호: {num}\n예금주: {holder}\n입금 기한: {deadline}\n\n"
        "기한까지 입금되지 않으면 주문은 자동으로 취소됩니다.\n",
    ),
    Language.EN: (
        "[{brand}] Your virtual account",
        "A virtual account was issued for your {name} order.\n\n"
        "Amount: {amount}\nBank: {bank}\nAccount number: {num}\nHolder: {holder}\nPay by: {deadline}\n\n"
        "If the money has not arrived by then, the order is cancelled automatically.\n",
    ),
    Language.JA: (
        "[{brand}] バーチャル口座のご案内",
        "{name}のご注文にバーチャル口座が発行されました。\n\n"
        "お振込金額: {amount}\n銀行: {bank}\n口座番号: {num}\n名義: {holder}\n"
        "お振込期限: {deadline}\n\n"
        "期限までにご入金がない場合、ご注文は自動的にキャンセルされます。\n",
    ),
}
_LAPSED = {
    Language.KO: (
        "[{brand}] 입금 기한이 지나 주문이 취소되었습니다",
        "{name} 주문({order})의 입금 기한({deadline})이 지나 주문이 자동으로 취소되었습니다.\n"
        "다시 구매하시려면 구매 페이지를 이용해 주세요.\n",
    ),
    Language.EN: (
        "[{brand}] Your order was cancelled",
        "The payment deadline ({deadline}) of your {name} order ({order}) passed without a deposit,\n"
        "so the order was cancelled. You are welcome to buy again at any time.\n",
    ),
    Language.JA: (
        "[{brand}] ご注文がキャンセルされました",
        "{name}のご注文({order})はお振込期限({deadline})までに\n"
        "ご入金が確認できなかったため、自動的にキャンセルされました。\n",
    ),
}


def _fields(facts: PurchaseFacts) -> dict[str, str]:
    return {
        "brand": BRAND[facts.language],
        "name": facts.licence_name,
        "amount": format_money(facts.amount, facts.currency, facts.language),
        "order": facts.merchant_uid,
        "key": facts.licence_key,
        "expires": _when(facts.expires_at),
        "validity": _LIFETIME[facts.language]
        if facts.lifetime
        else _UNTIL[facts.language].format(expires=_when(facts.expires_at)),
        "bank": facts.vbank_name or "-",
        "num": facts.vbank_num or "-",
        "holder": facts.vbank_holder or "-",
        "deadline": _when(facts.vbank_date),
    }


def render_receipt(facts: PurchaseFacts) -> MailMessage:
    """The payment is complete: amount, licence key and validity (and, for a guest, where to set a password)."""
    subject, body = _RECEIPT[facts.language]
    fields = _fields(facts)
    text = body.format(**fields)
    if facts.document_link:
        text += _DOCUMENT[facts.language].format(link=facts.document_link)
    if facts.register_link:
        text += _REGISTER[facts.language].format(link=facts.register_link)
    return MailMessage(to=facts.to, subject=subject.format(**fields), text=text)


def render_virtual_account(facts: PurchaseFacts) -> MailMessage:
    """Where to deposit, how much, and by when."""
    subject, body = _VBANK[facts.language]
    fields = _fields(facts)
    return MailMessage(to=facts.to, subject=subject.format(**fields), text=body.format(**fields))


def render_lapsed(facts: PurchaseFacts) -> MailMessage:
    """The deadline passed without a deposit; the order is cancelled."""
    subject, body = _LAPSED[facts.language]
    fields = _fields(facts)
    return MailMessage(to=facts.to, subject=subject.format(**fields), text=body.format(**fields))


def purchase_facts_of(
    store: Storefront, payment_ids: Sequence[UUID], links: SiteLinks, *, link_secret: str, now: datetime
) -> dict[UUID, PurchaseFacts]:
    """What the purchase mails of several payments say, gathered from the log in two reads on PostgreSQL: the
    payments, then their licences with their holders (the holder is the payment's account but for an order whose
    account was not known when it was placed, which reads the licence's holder on its own). An order that bought no
    licence is left out."""
    payments: dict[UUID, Payment] = {
        key: payment for key, payment in store.get_many(payment_ids).items() if isinstance(payment, Payment)
    }
    related = store.get_many(
        [payment.licence_id_paid_for for payment in payments.values()]
        + [payment.account_id for payment in payments.values() if payment.account_id]
    )
    facts = {}
    for key, payment in payments.items():
        licence: UserLicence | None = related.get(payment.licence_id_paid_for)
        if licence is None:
            continue
        account: Account | None = related.get(licence.account_id)
        if account is None:
            try:
                account = store.repository.get(licence.account_id)
            except AggregateNotFoundError:
                continue
        facts[key] = _facts(payment, licence, account, links, link_secret, now)
    return facts


def _facts(
    payment: Payment, licence: UserLicence, account: Account, links: SiteLinks, link_secret: str, now: datetime
) -> PurchaseFacts:
    # The page the order was placed on speaks for the buyer (a guest who bought on /en reads English); orders from
    # before it was kept follow the account.
    language = payment.language or account.language
    register_link = None
    if account.may_be_claimed_by_mailbox:  # invite them to set a password and own it; the signed t proves the mailbox
        token = receipt_claim_token(link_secret, account.id, account.email, now)
        register_link = links.register(language, licence_key=licence.licence_key, email=account.email, token=token)
    return PurchaseFacts(
        to=payment.buyer_email,
        language=language,
        licence_name=payment.name,
        amount=payment.amount,
        currency=payment.currency,
        licence_key=licence.licence_key,
        merchant_uid=payment.merchant_uid,
        expires_at=licence.expires_at,
        lifetime=licence.life == LIFETIME_DAYS,
        register_link=register_link,
        document_link=links.purchase_record(language, payment.merchant_uid),
        vbank_name=payment.vbank_name,
        vbank_num=payment.vbank_num,
        vbank_holder=payment.vbank_holder,
        vbank_date=payment.vbank_date,
    )

"""What a receipt or a refund note says, read from the payment's events alone, in ko, en or ja.

The document is a title, the moment it speaks of and sections of labelled rows; ``integrations/receipt_pdf.py``
lays it out as a PDF. The same events give the same document, so the same bytes (docs/papers.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from domain.business_time import BUSINESS_TIME
from domain.catalogue.licences import Catalogue
from domain.catalogue.money import format_money
from domain.errors import DomainError, ErrorCode
from domain.pricing.quotes import DiscountKind, Quote, factors_from_records
from events.payments import PaymentOrdered, PaymentRefunded, PaymentSucceeded, UpgradeOrdered
from events.values import Currency, Language

RECEIPT = "receipt"
REFUND_NOTE = "refund-note"


@dataclass(frozen=True)
class Company:
    """The seller as the footer shows it (the COMPANY_* settings)."""

    name: str
    representative: str
    address: str
    business_number: str
    mail_order_number: str


@dataclass(frozen=True)
class Section:
    """A heading and its rows of (label, value)."""

    heading: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PaperDocument:
    """A receipt or refund note, ready to lay out."""

    kind: str
    number: int
    language: Language
    title: str
    issued_at: datetime
    merchant_uid: str
    sections: tuple[Section, ...]
    note: str

    @property
    def file_name(self) -> str:
        """``receipt-unc-20261122-3f9a0c1b2d4e-ja.pdf``; a refund note carries its number."""
        suffix = f"-{self.number}" if self.kind == REFUND_NOTE else ""
        return f"{self.kind}-{self.merchant_uid}{suffix}-{self.language.value}.pdf"


_TEXT: dict[str, dict[Language, str]] = {
    "receipt": {Language.KO: "영수증", Language.EN: "Receipt", Language.JA: "領収書"},
    "refund-note": {Language.KO: "환불 확인서", Language.EN: "Refund note", Language.JA: "返金明細書"},
    "seller": {Language.KO: "판매자", Language.EN: "Seller", Language.JA: "販売者"},
    "company": {Language.KO: "상호", Language.EN: "Company", Language.JA: "商号"},
    "representative": {Language.KO: "대표자", Language.EN: "Representative", Language.JA: "代表者"},
    "address": {Language.KO: "주소", Language.EN: "Address", Language.JA: "所在地"},
    "business_number": {
        Language.KO: "사업자등록번호",
        Language.EN: "Business registration no.",
        Language.JA: "事業者登録番号",
    },
    "mail_order_number": {
        Language.KO: "통신판매업 신고번호",
        Language.EN: "Mail-order business no.",
        Language.JA: "通信販売業申告番号",
    },
    "order": {Language.KO: "주문", Language.EN: "Order", Language.JA: "注文"},
    "merchant_uid": {Language.KO: "주문 번호", Language.EN: "Order number", Language.JA: "注文番号"},
    "paid_at": {Language.KO: "결제 일시", Language.EN: "Paid at", Language.JA: "決済日時"},
    "refunded_at": {Language.KO: "환불 일시", Language.EN: "Refunded at", Language.JA: "返金日時"},
    "buyer": {Language.KO: "구매자", Language.EN: "Buyer", Language.JA: "購入者"},
    "method": {Language.KO: "결제 수단", Language.EN: "Payment method", Language.JA: "決済手段"},
    "item": {Language.KO: "상품", Language.EN: "Item", Language.JA: "商品"},
    "list_price": {Language.KO: "정가", Language.EN: "List price", Language.JA: "定価"},
    "base": {Language.KO: "기본 할인", Language.EN: "Base discount", Language.JA: "基本割引"},
    "remaining": {
        Language.KO: "업그레이드 잔여 금액 차감",
        Language.EN: "Upgrade credit",
        Language.JA: "アップグレード残額控除",
    },
    "coupon": {Language.KO: "쿠폰 할인", Language.EN: "Coupon discount", Language.JA: "クーポン割引"},
    "amount": {Language.KO: "결제 금액", Language.EN: "Amount charged", Language.JA: "お支払い金額"},
    "vat": {Language.KO: "부가세 (포함)", Language.EN: "VAT (included)", Language.JA: "付加価値税（税込）"},
    "supply": {Language.KO: "공급가액", Language.EN: "Supply value", Language.JA: "供給価額"},
    "refund": {Language.KO: "환불", Language.EN: "Refund", Language.JA: "返金"},
    "refund_amount": {Language.KO: "환불 금액", Language.EN: "Amount refunded", Language.JA: "返金額"},
    "refunded_total": {Language.KO: "누적 환불 금액", Language.EN: "Refunded in total", Language.JA: "返金累計"},
    "kept": {Language.KO: "남은 결제 금액", Language.EN: "Remaining charge", Language.JA: "残りのお支払い金額"},
    "note": {
        Language.KO: "이 문서는 결제 기록에서 만들어졌으며 같은 기록에서 언제나 같은 문서가 만들어집니다.",
        Language.EN: "This document is made from the payment's record; the same record always makes the same document.",
        Language.JA: "この書類は決済記録から作成され、同じ記録からは常に同じ書類が作成されます。",
    },
}

_METHODS: dict[str, dict[Language, str]] = {
    "card": {Language.KO: "신용카드", Language.EN: "Credit card", Language.JA: "クレジットカード"},
    "trans": {Language.KO: "실시간 계좌이체", Language.EN: "Bank transfer", Language.JA: "リアルタイム口座振替"},
    "vbank": {Language.KO: "가상계좌", Language.EN: "Virtual account", Language.JA: "バーチャル口座"},
    "point": {Language.KO: "포인트", Language.EN: "Points", Language.JA: "ポイント"},
    "none": {Language.KO: "결제할 금액 없음", Language.EN: "Nothing to pay", Language.JA: "お支払いなし"},
    "kakaopay": {Language.KO: "카카오페이", Language.EN: "KakaoPay", Language.JA: "カカオペイ"},
    "naverpay": {Language.KO: "네이버페이", Language.EN: "Naver Pay", Language.JA: "ネイバーペイ"},
}


def vat_included(amount: int, currency: Currency) -> int | None:
    """The VAT inside a won amount (one eleventh, rounded half up); None for other currencies."""
    if currency is not Currency.KRW:
        return None
    return int((Decimal(amount) / Decimal(11)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def method_in_words(succeeded: PaymentSucceeded, language: Language) -> str:
    """How it was paid, in words: the easy-pay wallet's name, else the method's (with the card or bank)."""
    key = succeeded.pg_provider if succeeded.pg_provider in ("kakaopay", "naverpay") else succeeded.pay_method
    words = _METHODS.get(key, {}).get(language, key)
    detail = succeeded.card_name if succeeded.pay_method == "card" else succeeded.bank_name
    return f"{words} ({detail})" if detail else words


def _when(moment: datetime) -> str:
    return moment.astimezone(BUSINESS_TIME).strftime("%Y-%m-%d %H:%M KST")


def _percent(factor: Decimal) -> str:
    return f"{(factor * 100).normalize():f}%"


@dataclass(frozen=True)
class _Story:
    ordered: PaymentOrdered
    upgrade: UpgradeOrdered | None
    succeeded: PaymentSucceeded | None
    refunds: tuple[PaymentRefunded, ...]


def _story(events: Iterable[Any]) -> _Story:
    ordered = upgrade = succeeded = None
    refunds = []
    for event in events:
        if isinstance(event, PaymentOrdered):
            ordered = event
        elif isinstance(event, UpgradeOrdered):
            upgrade = event
        elif isinstance(event, PaymentSucceeded):
            succeeded = event
        elif isinstance(event, PaymentRefunded):
            refunds.append(event)
    if ordered is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such payment")
    return _Story(ordered, upgrade, succeeded, tuple(refunds))


def refund_count(events: Iterable[Any]) -> int:
    """How many refunds (so refund notes) a payment has."""
    return sum(1 for event in events if isinstance(event, PaymentRefunded))


def paper_document(
    events: Iterable[Any],
    *,
    kind: str,
    number: int,
    language: Language,
    company: Company,
    catalogue: Catalogue,
) -> PaperDocument:
    """The receipt (``number`` 0) or the ``number``-th refund note of a paid payment, from its events (404 when the
    payment was never paid, or has no such refund)."""
    story = _story(events)
    ordered, succeeded = story.ordered, story.succeeded
    if succeeded is None:
        raise DomainError(ErrorCode.NOT_FOUND, "nothing was paid: no receipt")
    text = {key: values[language] for key, values in _TEXT.items()}
    currency = ordered.currency

    def money(amount: int) -> str:
        return format_money(amount, currency, language)

    seller = Section(
        text["seller"],
        (
            (text["company"], company.name),
            (text["representative"], company.representative),
            (text["address"], company.address),
            (text["business_number"], company.business_number),
            (text["mail_order_number"], company.mail_order_number),
        ),
    )
    order = Section(
        text["order"],
        (
            (text["merchant_uid"], ordered.merchant_uid),
            (text["paid_at"], _when(succeeded.paid_at)),
            (text["buyer"], ordered.buyer_email),
            (text["method"], method_in_words(succeeded, language)),
        ),
    )
    if kind == RECEIPT and number == 0:
        item = Section(text["item"], _item_rows(story, language, catalogue, text, money))
        return PaperDocument(
            RECEIPT, 0, language, text["receipt"], succeeded.timestamp, ordered.merchant_uid,
            (seller, order, item), text["note"],
        )  # fmt: skip
    if kind == REFUND_NOTE and 1 <= number <= len(story.refunds):
        refund = story.refunds[number - 1]
        rows = [
            (text["item"], _name(story, language, catalogue)),
            (text["refunded_at"], _when(refund.refunded_at)),
            (text["amount"], money(ordered.amount)),
            (text["refund_amount"], money(refund.amount)),
        ]
        vat = vat_included(refund.amount, currency)
        if vat is not None:
            rows.append((text["vat"], money(vat)))
        rows += [
            (text["refunded_total"], money(refund.cancel_amount)),
            (text["kept"], money(ordered.amount - refund.cancel_amount)),
        ]
        return PaperDocument(
            REFUND_NOTE, number, language, text["refund-note"], refund.timestamp, ordered.merchant_uid,
            (seller, order, Section(text["refund"], tuple(rows))), text["note"],
        )  # fmt: skip
    raise DomainError(ErrorCode.NOT_FOUND, "no such document")


def _name(story: _Story, language: Language, catalogue: Catalogue) -> str:
    """The item's name in the document's language: the order's own name in the language it was placed in, else the
    catalogue's localisation of the licence (the recorded name when the licence is no longer on sale)."""
    ordered = story.ordered
    if ordered.language is language:
        return ordered.name
    licence = catalogue.get(ordered.licence_id)
    return licence.localization_for(language).name if licence is not None else ordered.name


def _item_rows(
    story: _Story, language: Language, catalogue: Catalogue, text: dict[str, str], money: Callable[[int], str]
) -> tuple[tuple[str, str], ...]:
    ordered = story.ordered
    quote = Quote(
        ordered.licence_id,
        ordered.country_code,
        ordered.currency,
        ordered.original_amount,
        factors_from_records(ordered.discount_factors),
        credit=story.upgrade.credit if story.upgrade is not None else 0,
    )
    rows = [(text["item"], _name(story, language, catalogue)), (text["list_price"], money(ordered.original_amount))]
    before = ordered.original_amount
    for factor in quote.factors:
        after = quote.price_after(factor.kind)
        label = text[factor.kind.value]
        if factor.kind is DiscountKind.COUPON and ordered.coupon_code:
            label = f"{label} ({ordered.coupon_code})"
        if factor.kind is not DiscountKind.REMAINING:
            label = f"{label} {_percent(factor.factor)}"
        rows.append((label, f"-{money(before - after)}"))
        before = after
    rows.append((text["amount"], money(ordered.amount)))
    vat = vat_included(ordered.amount, ordered.currency)
    if vat is not None:
        rows += [(text["supply"], money(ordered.amount - vat)), (text["vat"], money(vat))]
    return tuple(rows)

"""What a receipt and a refund note say, read from a payment's events alone: the seller, the order, the method in
words, each discount with its amount, the amount charged and the VAT inside it; the item named in the document's
language; nothing for a payment that was never paid."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from domain.catalogue.licences import load_catalogue
from domain.errors import DomainError
from domain.licences.licence import LicenceTerms
from domain.papers.receipts import REFUND_NOTE, Company, PaperDocument, paper_document, vat_included
from domain.payments.gateway import GatewayPayment, GatewayStatus
from domain.payments.payment import Payment, RefundKind
from domain.pricing.quotes import DiscountFactor, DiscountKind, Quote
from events.values import Currency, Language

PAID_AT = datetime(2026, 11, 1, 3, 0, tzinfo=UTC)
COMPANY = Company("유니콘 주식회사", "김유니", "서울", "000-00-00000", "제0000호")


def _events(*, refunds: tuple[int, ...] = (), paid: bool = True) -> list[Any]:
    quote = Quote(
        121, "KR", Currency.KRW, 34_800,
        (DiscountFactor(DiscountKind.BASE, Decimal("0.3")), DiscountFactor(DiscountKind.COUPON, Decimal("0.1"))),
    )  # fmt: skip
    payment = Payment.order(
        merchant_uid="unc-20261101-000000000001", at=PAID_AT, quote=quote,
        terms=LicenceTerms(121, "uncpa", 365, 1, "유니콘 프로 안드로이드 1년 구독 (1대)"), catalogue_version=1,
        account_id=None, buyer_email="buyer@example.com", purchase_type="new", coupon_code="WELCOME10",
        language=Language.KO,
    )  # fmt: skip
    if paid:
        reported = GatewayPayment(
            imp_uid="imp_1", merchant_uid=payment.merchant_uid, status=GatewayStatus.PAID, amount=quote.amount,
            currency="KRW", pay_method="trans", pg_provider="nice", bank_name="KB국민은행", paid_at=PAID_AT,
        )  # fmt: skip
        payment.succeed(reported, PAID_AT)
        for n, amount in enumerate(refunds, start=1):
            at = PAID_AT + timedelta(days=n)
            payment.reserve_refund(amount, reason="asked", kind=RefundKind.OPERATOR, at=at)
            payment.record_gateway_refunds(payment.cancel_amount + amount, "at the gateway", at)
    return list(payment.collect_events())


def _rows(document: PaperDocument) -> dict[str, str]:
    return {label: value for section in document.sections for label, value in section.rows}


def test_a_receipt_names_each_discount_the_amount_and_the_vat_inside_it() -> None:
    document = paper_document(
        _events(), kind="receipt", number=0, language=Language.EN, company=COMPANY, catalogue=load_catalogue()
    )
    rows = _rows(document)
    assert document.title == "Receipt" and document.issued_at == PAID_AT
    assert rows["Company"] == "유니콘 주식회사" and rows["Order number"] == "unc-20261101-000000000001"
    assert rows["Item"] == "Unicorn Pro for Android Annual subscription (1 device)", "the catalogue's English name"
    assert rows["Payment method"] == "Bank transfer (KB국민은행)"
    assert rows["List price"] == "34,800 KRW"
    assert rows["Base discount 30%"] == "-10,440 KRW"
    assert rows["Coupon discount (WELCOME10) 10%"] == "-2,436 KRW"
    assert rows["Amount charged"] == "21,924 KRW"
    assert rows["VAT (included)"] == "1,993 KRW" and rows["Supply value"] == "19,931 KRW"
    assert document.file_name == "receipt-unc-20261101-000000000001-en.pdf"


def test_a_refund_note_says_what_went_back_and_what_remains() -> None:
    events = _events(refunds=(1_924, 20_000))
    second = paper_document(
        events, kind=REFUND_NOTE, number=2, language=Language.KO, company=COMPANY, catalogue=load_catalogue()
    )
    rows = _rows(second)
    assert second.title == "환불 확인서" and second.issued_at == PAID_AT + timedelta(days=2)
    assert rows["상품"] == "유니콘 프로 안드로이드 1년 구독 (1대)", "the order's own name in its own language"
    assert (rows["환불 금액"], rows["누적 환불 금액"], rows["남은 결제 금액"]) == ("20,000원", "21,924원", "0원")
    with pytest.raises(DomainError):
        paper_document(events, kind=REFUND_NOTE, number=3, language=Language.KO, company=COMPANY,
                       catalogue=load_catalogue())  # fmt: skip


def test_an_unpaid_order_has_no_receipt_and_vat_is_for_won_only() -> None:
    with pytest.raises(DomainError):
        paper_document(_events(paid=False), kind="receipt", number=0, language=Language.JA, company=COMPANY,
                       catalogue=load_catalogue())  # fmt: skip
    assert vat_included(24_360, Currency.KRW) == 2_215 and vat_included(11, Currency.KRW) == 1
    assert vat_included(2_511, Currency.USD) is None

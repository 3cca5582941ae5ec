"""Tax-invoice requests (세금계산서): a business buyer of a bank transfer or virtual account asks, finance issues it
through an e-tax-invoice service (outside this product: docs/papers.md). One supply gets one paper: a payment whose
buyer took a cash receipt gets no tax invoice (-380), and a request is withdrawn when the payment is refunded in
full."""

from __future__ import annotations

from dataclasses import dataclass

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.papers.cash_receipts import CASH_PAY_METHODS, papers_of
from domain.papers.numbers import business_number
from domain.papers.papers import PaymentPapers
from domain.payments.payment import PaymentState
from domain.payments.records import recorded_payment
from domain.store import Storefront
from events.concurrency import retry_on_conflict


@dataclass(frozen=True)
class TaxInvoiceRequest:
    """What the buyer fills in (the number as typed; it is checked here)."""

    business_number: str
    company_name: str
    representative: str
    address: str
    email: str


def request_tax_invoice(store: Storefront, clock: Clock, *, merchant_uid: str, request: TaxInvoiceRequest) -> int:
    """Record a tax-invoice request for a paid bank-transfer or virtual-account payment; returns the notification id.

    A card payment (or a wallet's) is refused with -320 (its card slip stands); an unpaid one with -2; a second
    request for the same payment with -3; a business number whose check digit is wrong with -2; a payment whose
    buyer took a cash receipt at checkout with -380 (부가가치세법 제33조 제2항: the cash receipt is its paper)."""
    payment = recorded_payment(store, merchant_uid)
    if payment is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    if payment.pay_method is not None and payment.pay_method not in CASH_PAY_METHODS:
        raise DomainError(ErrorCode.TAX_INVOICE_NOT_FOR_CARD)
    if payment.state is not PaymentState.PAID or payment.pay_method is None:
        raise DomainError(ErrorCode.INVALID_VALUE, "the payment is not paid")
    if payment.fully_refunded:
        raise DomainError(ErrorCode.INVALID_VALUE, "the payment was refunded in full: nothing is left to invoice")
    number = business_number(request.business_number)
    fields = (request.company_name, request.representative, request.address, request.email)
    if any(not field.strip() for field in fields):
        raise DomainError(ErrorCode.EMPTY_PARAMETER)

    def attempt() -> int:
        now = clock.now()
        papers = papers_of(store, merchant_uid) or PaymentPapers.open(merchant_uid, now)
        if papers.takes_cash_receipt:
            raise DomainError(ErrorCode.TAX_INVOICE_AFTER_CASH_RECEIPT)
        if papers.tax_invoice is not None:
            raise DomainError(ErrorCode.DUPLICATE_PARAMETER, "a tax invoice was already requested")
        papers.request_tax_invoice(
            business_number=number,
            company_name=request.company_name.strip(),
            representative=request.representative.strip(),
            address=request.address.strip(),
            email=request.email.strip(),
            amount=payment.amount - payment.cancel_amount,
            currency=payment.currency.value,
            at=now,
        )
        recordings = store.save(papers)
        return recordings[-1].notification.id

    return retry_on_conflict(attempt)


def withdraw_tax_invoice_if_refunded(store: Storefront, clock: Clock, *, merchant_uid: str) -> bool:
    """Withdraw the payment's tax-invoice request once it was refunded in full (nothing is left to invoice);
    ``True`` when this call withdrew it. Safe to repeat: a withdrawn request stays withdrawn."""

    def attempt() -> bool:
        payment = recorded_payment(store, merchant_uid)
        papers = papers_of(store, merchant_uid)
        if payment is None or papers is None or papers.tax_invoice is None:
            return False
        if papers.tax_invoice_withdrawn_at is not None or not payment.fully_refunded:
            return False
        papers.withdraw_tax_invoice("refunded in full", clock.now())
        store.save(papers)
        return True

    return retry_on_conflict(attempt)

"""A payment's papers (docs/papers.md): the receipt and refund notes as PDF, the cash receipt's state, tax-invoice
requests; and finance's queue of those requests with its export."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response
from pydantic import EmailStr, Field

from api.access import CallerDep
from api.error_docs import errors
from api.schemas import CamelModel
from api.services import Services, ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from domain.errors import DomainError, ErrorCode
from domain.papers.cash_receipts import CASH_PAY_METHODS, papers_of
from domain.papers.documents import make_document
from domain.papers.numbers import mask_business_number
from domain.papers.receipts import RECEIPT, REFUND_NOTE, Company, refund_count
from domain.papers.tax_invoices import TaxInvoiceRequest, request_tax_invoice
from domain.payments.payment import Payment, PaymentState
from events.values import Language
from integrations.receipt_pdf import ReceiptPdf
from projections.papers import tax_invoice_csv, tax_invoice_requests
from projections.payments import payment_of

router = APIRouter(prefix="/payments", tags=["papers"])
finance = APIRouter(prefix="/staff/finance", tags=["staff"], responses=STAFF_ERRORS)

MerchantUid = Annotated[str, Path(min_length=1, max_length=100, description="the payment's merchantUid")]
DocumentLanguage = Annotated[Language, Query(alias="langCode", description="the document's language: ko, en or ja")]


class CashReceiptOut(CamelModel):
    """The cash receipt the buyer asked for: ``kind`` personal or business, the number masked, ``state`` requested
    (waiting for the money), issued (for ``amount``) or cancelled (refunded in full)."""

    kind: str
    number: str
    state: str
    amount: int | None
    issued_at: datetime | None


class TaxInvoiceOut(CamelModel):
    """The tax invoice asked for (finance issues it; the business number masked): ``state`` ``requested``, or
    ``withdrawn`` once the payment was refunded in full (``withdrawnAt``)."""

    business_number: str
    company_name: str
    requested_at: datetime
    state: str
    withdrawn_at: datetime | None


class DocumentOut(CamelModel):
    """A document the customer may download: the receipt (``number`` 0) or a refund note (1, 2, ...)."""

    kind: str
    number: int


class PapersOut(CamelModel):
    """What papers a payment has and which the customer may still ask for (``allowed``: ``taxInvoice``)."""

    merchant_uid: str
    documents: list[DocumentOut]
    cash_receipt: CashReceiptOut | None
    tax_invoice: TaxInvoiceOut | None
    allowed: list[str]


def _own_payment(services: Services, caller_account_id: UUID, merchant_uid: str) -> Payment:
    """One of the caller's payments (404 when not theirs, as the purchase history decides)."""
    if payment_of(services.views, caller_account_id, merchant_uid) is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    payment: Payment = services.store.repository.get(Payment.id_for(merchant_uid))
    return payment


@router.get("/licenses/{merchant_uid}/papers", response_model=PapersOut, responses=errors(ErrorCode.NOT_FOUND))
def payment_papers(merchant_uid: MerchantUid, services: ServicesDep, caller: CallerDep) -> PapersOut:
    """The documents, cash receipt and tax invoice of one of the caller's payments (404 when not theirs)."""
    payment = _own_payment(services, caller.account_id, merchant_uid)
    papers = papers_of(services.store, merchant_uid)
    paid = payment.state is PaymentState.PAID and payment.store is None
    documents = [DocumentOut(kind=RECEIPT, number=0)] if paid else []
    if paid:
        events = services.store.repository.event_store.get(payment.id)
        documents += [DocumentOut(kind=REFUND_NOTE, number=n) for n in range(1, refund_count(events) + 1)]
    cash_receipt = None
    if papers is not None and papers.cash_receipt_choice is not None:
        issued = papers.cash_receipt
        state = "issued" if issued else ("cancelled" if papers.cash_receipts else "requested")
        last = papers.cash_receipts[-1] if papers.cash_receipts else None
        cash_receipt = CashReceiptOut(
            kind=papers.cash_receipt_choice.kind.value,
            number=papers.cash_receipt_choice.masked,
            state=state,
            amount=issued.amount if issued else (last["amount"] if last else None),
            issued_at=issued.applied_at if issued else None,
        )
    tax_invoice = None
    if papers is not None and papers.tax_invoice is not None:
        tax_invoice = TaxInvoiceOut(
            business_number=mask_business_number(papers.tax_invoice.business_number),
            company_name=papers.tax_invoice.company_name,
            requested_at=papers.tax_invoice.requested_at,
            state="requested" if papers.tax_invoice_withdrawn_at is None else "withdrawn",
            withdrawn_at=papers.tax_invoice_withdrawn_at,
        )
    allowed = []
    takes_cash_receipt = papers is not None and papers.takes_cash_receipt
    open_to_invoice = paid and payment.pay_method in CASH_PAY_METHODS and not payment.fully_refunded
    if open_to_invoice and tax_invoice is None and not takes_cash_receipt:
        allowed.append("taxInvoice")
    return PapersOut(
        merchant_uid=merchant_uid, documents=documents, cash_receipt=cash_receipt, tax_invoice=tax_invoice,
        allowed=allowed,
    )  # fmt: skip


def _pdf(services: Services, merchant_uid: str, kind: str, number: int, language: Language) -> Response:
    settings = services.settings
    company = Company(
        settings.company_name,
        settings.company_representative,
        settings.company_address,
        settings.company_business_number,
        settings.company_mail_order_number,
    )
    made = make_document(
        services.store, services.clock, services.catalogue, company,
        ReceiptPdf(settings.receipt_font_ko, settings.receipt_font_ja),
        merchant_uid=merchant_uid, kind=kind, number=number, language=language,
    )  # fmt: skip
    return Response(
        made.content,
        media_type="application/pdf",
        headers={
            "Content-Disposition": f'attachment; filename="{made.document.file_name}"',
            "X-Document-SHA256": made.sha256,
        },
    )


PDF: dict[int | str, dict[str, Any]] = {200: {"content": {"application/pdf": {}}, "description": "the document (PDF)"}}


@router.get(
    "/licenses/{merchant_uid}/receipt",
    response_class=Response,
    responses={**PDF, **errors(ErrorCode.NOT_FOUND)},
)
def payment_receipt(
    merchant_uid: MerchantUid, services: ServicesDep, caller: CallerDep, lang: DocumentLanguage = Language.KO
) -> Response:
    """The receipt of one of the caller's paid payments, as PDF in ko, en or ja (the same bytes every time)."""
    _own_payment(services, caller.account_id, merchant_uid)
    return _pdf(services, merchant_uid, RECEIPT, 0, lang)


@router.get(
    "/licenses/{merchant_uid}/refund-notes/{number}",
    response_class=Response,
    responses={**PDF, **errors(ErrorCode.NOT_FOUND)},
)
def payment_refund_note(
    merchant_uid: MerchantUid,
    number: Annotated[int, Path(ge=1, le=1000, description="the refund's number, from 1")],
    services: ServicesDep,
    caller: CallerDep,
    lang: DocumentLanguage = Language.KO,
) -> Response:
    """The note of one refund of one of the caller's payments, as PDF in ko, en or ja."""
    _own_payment(services, caller.account_id, merchant_uid)
    return _pdf(services, merchant_uid, REFUND_NOTE, number, lang)


class TaxInvoiceIn(CamelModel):
    """A business buyer's tax-invoice request."""

    business_number: str = Field(min_length=10, max_length=14, description="10 digits, dashes allowed")
    company_name: str = Field(min_length=1, max_length=100)
    representative: str = Field(min_length=1, max_length=50)
    address: str = Field(min_length=1, max_length=200)
    email: EmailStr


class TaxInvoiceAccepted(CamelModel):
    """The request is in finance's queue."""

    merchant_uid: str
    business_number: str


@router.post(
    "/licenses/{merchant_uid}/tax-invoice",
    response_model=TaxInvoiceAccepted,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.TAX_INVOICE_NOT_FOR_CARD,
        ErrorCode.TAX_INVOICE_AFTER_CASH_RECEIPT,
        ErrorCode.INVALID_VALUE,
        ErrorCode.DUPLICATE_PARAMETER,
    ),
)
def ask_for_tax_invoice(
    merchant_uid: MerchantUid, body: TaxInvoiceIn, services: ServicesDep, caller: CallerDep
) -> TaxInvoiceAccepted:
    """Ask for a tax invoice for one of the caller's bank-transfer or virtual-account payments (-320 for a card)."""
    _own_payment(services, caller.account_id, merchant_uid)
    request = TaxInvoiceRequest(
        body.business_number, body.company_name, body.representative, body.address, str(body.email)
    )
    notification_id = request_tax_invoice(services.store, services.clock, merchant_uid=merchant_uid, request=request)
    services.see_own_write(notification_id, "tax_invoices")
    papers = papers_of(services.store, merchant_uid)
    if papers is None or papers.tax_invoice is None:  # recorded just above
        raise DomainError(ErrorCode.NOT_FOUND)
    return TaxInvoiceAccepted(
        merchant_uid=merchant_uid, business_number=mask_business_number(papers.tax_invoice.business_number)
    )


class TaxInvoiceRequestOut(CamelModel):
    """One request in finance's queue (the business number masked here; whole in the export)."""

    merchant_uid: str
    business_number: str
    company_name: str
    representative: str
    address: str
    email: str
    amount: int
    currency: str
    requested_at: str
    withdrawn_at: str | None


@finance.get("/tax-invoices")
def list_tax_invoice_requests(caller: StaffDep, services: ServicesDep) -> list[TaxInvoiceRequestOut]:
    """Tax-invoice requests, oldest first (finance issues them through an e-tax-invoice service)."""
    return [
        TaxInvoiceRequestOut.model_validate({**row, "business_number": mask_business_number(row["business_number"])})
        for row in tax_invoice_requests(services.views)
    ]


@finance.get(
    "/tax-invoices.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "the requests as CSV"}},
)
def export_tax_invoice_requests(caller: StaffDep, services: ServicesDep) -> Response:
    """Every tax-invoice request as CSV, in the columns e-tax-invoice services' bulk upload takes."""
    return Response(
        tax_invoice_csv(tax_invoice_requests(services.views)).encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="tax-invoice-requests.csv"'},
    )

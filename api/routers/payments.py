"""Buying a licence (init, confirm, gateway webhook) and purchase history (spec section 7)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Annotated, Any, Literal, cast
from uuid import UUID

from fastapi import APIRouter, Query, Request
from pydantic import EmailStr, Field
from starlette.concurrency import run_in_threadpool

from api.access import CallerDep, OptionalCallerDep
from api.country import COUNTRY_IGNORED, visitor_country
from api.error_docs import errors
from api.language import request_language
from api.schemas import CamelModel
from api.schemas.coupons import COUPON_REFUSALS
from api.schemas.payments import PaymentConfirmation, PaymentRecord, PaymentRequest
from api.services import ServicesDep
from application.refunds import ask_money_back
from domain.errors import DomainError, ErrorCode
from domain.papers.numbers import CashReceiptChoice
from domain.payments.methods import BILLING_KEY_WINDOWS, methods_for
from domain.payments.payment import Payment, PaymentState
from domain.payments.purchase import confirm_payment, place_order, settle_notice
from projections.payments import decoded, payment_of, payment_statement

log = logging.getLogger(__name__)
router = APIRouter(prefix="/payments", tags=["payments"])
VIEWS = ("licences", "payments")


class PaymentSettings(CamelModel):
    """The payment access settings the web app reads once at start: the payment window's script and merchant
    code, the visitor's country and the currency its prices are paid in, and the methods that currency
    takes (one-time purchases, and the windows that issue a billing key)."""

    imp_code: str
    script_url: str
    country_code: str
    currency: str
    payment_methods: list[str]
    billing_key_methods: list[str]


@router.get("/settings", response_model=PaymentSettings)
def payment_settings(request: Request, services: ServicesDep) -> PaymentSettings:
    """Where to load PortOne's script from, the merchant code to init it with, and what this visitor pays in
    and with (the country decided by the server, never by the page's language)."""
    country = visitor_country(request, services.settings)
    currency = services.catalogue.currency_for(country)
    return PaymentSettings(
        imp_code=services.settings.portone_imp_code,
        script_url=services.settings.payment_script_url,
        country_code=country,
        currency=currency,
        payment_methods=list(methods_for(currency)),
        billing_key_methods=list(BILLING_KEY_WINDOWS),
    )


class CashReceiptIn(CamelModel):
    """The buyer's cash-receipt choice: ``personal`` with a mobile number, ``business`` with a business registration
    number (its check digit is checked), or ``none``."""

    type: Literal["personal", "business", "none"]
    number: str | None = Field(default=None, max_length=20)

    def choice(self) -> CashReceiptChoice | None:
        """The validated choice (-2 for a bad number), None for ``none``."""
        if self.type == "none":
            return None
        return CashReceiptChoice.of(self.type, self.number or "")


class NewLicencePayment(CamelModel):
    """A purchase of a new licence; guests give an email."""

    license_id: int = Field(gt=0)
    country_code: str | None = Field(
        default=None, min_length=2, max_length=2, pattern="^[A-Za-z]{2}$", description=COUNTRY_IGNORED
    )
    payment_method: str = Field(min_length=1)
    email: EmailStr | None = None
    code: str | None = Field(default=None, max_length=50, description="coupon or promotion code")
    cash_receipt: CashReceiptIn | None = Field(
        default=None, description="a cash receipt (현금영수증) for a bank transfer or virtual account (docs/papers.md)"
    )


@router.post(
    "/licenses/new",
    response_model=PaymentRequest,
    responses=errors(ErrorCode.INVALID_PRODUCT_AT_INIT, *COUPON_REFUSALS),
)
def new_licence_payment(
    body: NewLicencePayment, request: Request, services: ServicesDep, caller: OptionalCallerDep
) -> PaymentRequest:
    """Start buying a licence: fixes the amount under a new merchantUid."""
    order = place_order(
        services.store,
        services.clock,
        services.payments,
        services.catalogue,
        licence_id=body.license_id,
        country_code=visitor_country(request, services.settings),
        language=request_language(request),
        payment_method=body.payment_method,
        account_id=caller.account_id if caller else None,
        email=str(body.email) if body.email else None,
        coupon_code=body.code,
        cash_receipt=body.cash_receipt.choice() if body.cash_receipt else None,
    )
    return PaymentRequest(
        merchant_uid=order.merchant_uid,
        amount=order.amount,
        currency=order.currency,
        name=order.name,
        pg=order.pg,
        pay_method=order.pay_method,
        buyer_email=order.buyer_email,
        imp_uid=order.imp_uid,
    )


class VirtualAccount(CamelModel):
    """Where a virtual-account buyer sends the money, and by when."""

    vbank_name: str | None
    vbank_num: str | None
    vbank_holder: str | None
    vbank_date: datetime | None


class UpgradePaid(CamelModel):
    """What an upgrade payment was, for the result page: the plan as ordered, the amount paid, the credit (the
    upgraded licence's unused value) taken off, and the payment (its receipt is on the purchase-history page)."""

    merchant_uid: str
    license_name: str
    amount: int
    currency: str
    credit: int


class ConfirmedPurchase(CamelModel):
    """The licence a confirmed payment bought (reserved until a virtual account is paid)."""

    user_license_id: UUID
    license_key: str | None = Field(
        description="none for a guest who used a once-per-customer coupon: the key goes only to the buyer's mailbox"
    )
    state: PaymentState
    email: str
    account_created: bool
    vbank: VirtualAccount | None = None
    upgrade: UpgradePaid | None = Field(
        default=None, description="an upgrade's payment confirmed here (a phone's return from the window): its summary"
    )


@router.post(
    "/licenses/new/confirm",
    response_model=ConfirmedPurchase,
    responses=errors(
        ErrorCode.FORBIDDEN,
        ErrorCode.NOT_FOUND,
        ErrorCode.RESERVED_PAYMENT_MISSING,
        ErrorCode.PAYMENT_DIFFERS_FROM_INIT,
        ErrorCode.PAYMENT_REFUSED,
        *COUPON_REFUSALS,
    ),
)
def confirm_new_licence_payment(
    body: PaymentConfirmation,
    request: Request,
    services: ServicesDep,
    caller: OptionalCallerDep,
    locale_code: Annotated[str | None, Query(alias="localeCode")] = None,
) -> ConfirmedPurchase:
    """Re-read the payment at the gateway and record it with its licence (idempotent; 403 for another
    account's order)."""
    confirmed = confirm_payment(
        services.store,
        services.clock,
        services.payments,
        imp_uid=body.imp_uid,
        merchant_uid=body.merchant_uid,
        caller_account_id=caller.account_id if caller else None,
        language=request_language(request),
    )
    services.see_own_write(confirmed.notification_id, *VIEWS)
    payment: Payment = services.store.repository.get(Payment.id_for(body.merchant_uid))
    vbank = None
    if confirmed.state is PaymentState.RESERVED:
        record = payment_of(services.views, confirmed.account_id, body.merchant_uid) or {}
        vbank = VirtualAccount(
            vbank_name=record.get("vbank_name"),
            vbank_num=record.get("vbank_num"),
            vbank_holder=record.get("vbank_holder"),
            vbank_date=payment.vbank_date,
        )
    return ConfirmedPurchase(
        user_license_id=confirmed.user_licence_id,
        license_key=confirmed.shown_key,
        state=confirmed.state,
        email=payment.buyer_email,
        account_created=confirmed.account_created,
        vbank=vbank,
        upgrade=UpgradePaid(
            merchant_uid=payment.merchant_uid, license_name=payment.name, amount=payment.amount,
            currency=payment.currency.value, credit=payment.upgrade.credit,
        ) if payment.upgrade is not None else None,
    )  # fmt: skip


@router.post("/webhook", include_in_schema=False)
async def gateway_webhook(request: Request, services: ServicesDep) -> dict[str, bool]:
    """PortOne's notice: never trusted, only a hint to re-read the payment; always acknowledged."""
    try:
        body: Any = (
            await request.json()
            if request.headers.get("content-type", "").startswith("application/json")
            else dict(await request.form())
        )
    except ValueError:
        body = {}
    if not isinstance(body, dict):  # [1, 2], "x", 123: JSON, but not a notice
        raise DomainError(ErrorCode.INVALID_VALUE, "a webhook notice is a JSON object")
    imp_uid, merchant_uid = str(body.get("imp_uid") or ""), str(body.get("merchant_uid") or "")
    if not imp_uid or not merchant_uid:
        return {"ok": False}
    try:
        await run_in_threadpool(
            settle_notice,
            services.store,
            services.clock,
            services.payments,
            imp_uid=imp_uid,
            merchant_uid=merchant_uid,
        )
    except DomainError as refused:
        log.info("webhook for %s settled nothing: %s", merchant_uid, refused.code.name)
    return {"ok": True}


@router.get("/licenses", response_model=list[PaymentRecord])
async def purchase_history(services: ServicesDep, caller: CallerDep) -> list[PaymentRecord]:
    """The caller's payments, newest first."""
    # async, and the views read on the loop (bench/RESULTS.md)
    (rows,) = await services.views.read_many_async(payment_statement(caller.account_id))
    # Returned as models: FastAPI (0.165) checks them without copying and writes the JSON in one pass; writing it
    # here measured 4-8 µs less per 5 records, not worth a second way of answering.
    return [PaymentRecord.of(row) for row in decoded(rows)]


@router.get("/licenses/{merchant_uid}", response_model=PaymentRecord, responses=errors(ErrorCode.NOT_FOUND))
def purchase_record(merchant_uid: str, services: ServicesDep, caller: CallerDep) -> PaymentRecord:
    """One of the caller's payments (404 when not theirs)."""
    row = payment_of(services.views, caller.account_id, merchant_uid)
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND)
    return PaymentRecord.of(row)


class MoneyBackOut(CamelModel):
    """A money-back request's state: ``refunded`` (``amount`` came back), ``refunding`` (decided; the gateway has not
    confirmed it yet), ``waiting`` (for support), or ``refused`` (by support, ``refused`` their words). A licence the
    guarantee does not cover is answered with the code that says why (-340 to -344; docs/money-back.md)."""

    request_id: UUID
    state: Literal["refunded", "refunding", "waiting", "refused"]
    amount: int
    refused: str | None


@router.post(
    "/licenses/{merchant_uid}/money-back",
    response_model=MoneyBackOut,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.MONEY_BACK_TOO_LATE,
        ErrorCode.MONEY_BACK_NOT_A_FIRST_PURCHASE,
        ErrorCode.MONEY_BACK_USED_BEFORE,
        ErrorCode.MONEY_BACK_APP_STORE,
        ErrorCode.MONEY_BACK_NOTHING_LEFT,
        ErrorCode.REFUND_IN_PROGRESS,
        ErrorCode.REFUND_REFUSED_BY_GATEWAY,
    ),
)
def ask_for_money_back(merchant_uid: str, services: ServicesDep, caller: CallerDep) -> MoneyBackOut:
    """Ask for the 30-day money-back guarantee on the licence one of the caller's payments bought: every payment it
    was bought with comes back together (asking again answers the state)."""
    answer = ask_money_back(
        services.store,
        services.views,
        services.clock,
        services.payments,
        account_id=caller.account_id,
        merchant_uid=merchant_uid,
        auto_limits=services.settings.money_back_limits,
    )
    # The purchase history and the licence page read the views again at once (a refund revokes the licence).
    services.see_own_write(answer.notification_id, *VIEWS, "refund_requests", "subscriptions")
    state = cast(Literal["refunded", "refunding", "waiting", "refused"], answer.state)
    return MoneyBackOut(request_id=answer.request_id, state=state, amount=answer.amount, refused=answer.refused)

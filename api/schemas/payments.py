"""Payment models more than one router answers with or reads: the window's parameters, the browser's
confirmation, and a purchase-history record."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import Field

from api.schemas import CamelModel, DiscountFactorOut
from domain.payments.payment import PaymentState


class PaymentRequest(CamelModel):
    """The parameters of request_pay."""

    merchant_uid: str
    amount: int
    currency: str
    name: str
    pg: str
    pay_method: str
    buyer_email: str
    imp_uid: str | None = Field(
        default=None, description="payMethod none (nothing to pay): confirm with this id, no window is opened"
    )


class PaymentConfirmation(CamelModel):
    """The gateway's word on a payment, as the browser reports it."""

    imp_uid: str = Field(min_length=1, max_length=64)
    merchant_uid: str = Field(min_length=1, max_length=64)


class Refund(CamelModel):
    """One (partial) refund of a payment: ``source`` ``store`` (ours), ``gateway`` (made at PortOne itself), or the
    app store that gave it back (``app-store``, ``google-play``: docs/app-stores.md)."""

    amount: int
    reason: str
    refunded_at: datetime | None
    source: Literal["store", "gateway", "app-store", "google-play"] = "store"


RefundState = Literal["refunded", "partlyRefunded", "refunding"]


def refund_state(row: dict[str, Any]) -> RefundState | None:
    """What refunds left of a paid payment: all of it back, part of it, or a refund on its way at the gateway."""
    if row.get("pending") == "refund":
        return "refunding"
    if row["state"] != "paid" or not int(row["cancel_amount"]):
        return None
    return "refunded" if int(row["cancel_amount"]) >= int(row["amount"]) else "partlyRefunded"


class PaymentRecord(CamelModel):
    """A purchase-history record with every payment-record field of spec section 3."""

    merchant_uid: str
    name: str
    status: PaymentState
    purchase_type: str
    amount: int
    original_amount: int
    cancel_amount: int
    currency: str
    discount_rate: str
    discount_factors: list[DiscountFactorOut]
    coupon_code: str | None = None
    pay_method: str | None
    pg_provider: str | None
    paid_at: datetime | None
    failed_at: datetime | None
    fail_reason: str | None
    receipt_url: str | None
    refunds: list[Refund]
    refund_state: RefundState | None = Field(
        default=None,
        description="refunded (all of it came back), partlyRefunded, or refunding (a refund on its way); "
        "the refunds list says how much and when",
    )
    is_manual: bool = False
    card_name: str | None
    card_number: str | None
    bank_name: str | None
    vbank_code: str | None
    vbank_date: datetime | None
    vbank_holder: str | None
    vbank_name: str | None
    vbank_num: str | None
    vbank_issued_at: datetime | None
    license_id: int
    user_license_id: UUID | None
    apple_transaction_id: str | None = None
    catalogue_version: int | None = None  # the catalogue version the payment was priced under (docs/catalogue.md)

    @classmethod
    def of(cls, row: dict[str, Any]) -> PaymentRecord:
        """A record from a payments-view row; ``discountRate`` is the whole discount as a fraction of the list price."""
        original, amount = int(row["original_amount"]), int(row["amount"])
        rate = f"{(original - amount) / original:.4f}".rstrip("0").rstrip(".") if original else "0"
        return cls(
            merchant_uid=row["merchant_uid"],
            name=row["name"],
            status=row["state"],
            purchase_type=row["purchase_type"],
            amount=amount,
            original_amount=original,
            cancel_amount=int(row["cancel_amount"]),
            currency=row["currency"],
            discount_rate=rate,
            discount_factors=[DiscountFactorOut(**factor) for factor in row["discount_factors"]],
            coupon_code=row.get("coupon_code"),
            pay_method=row["pay_method"],
            pg_provider=row["pg_provider"],
            paid_at=row["paid_at"],
            failed_at=row["failed_at"],
            fail_reason=row["fail_reason"],
            receipt_url=row["receipt_url"],
            refunds=[Refund(**refund) for refund in row["refunds"]],
            refund_state=refund_state(row),
            card_name=row["card_name"],
            card_number=row["card_number"],
            bank_name=row["bank_name"],
            vbank_code=row["vbank_code"],
            vbank_date=row["vbank_date"],
            vbank_holder=row["vbank_holder"],
            vbank_name=row["vbank_name"],
            vbank_num=row["vbank_num"],
            vbank_issued_at=row["vbank_issued_at"],
            license_id=row["licence_id"],
            user_license_id=row["user_licence_id"],
            apple_transaction_id=row.get("apple_transaction_id"),
            catalogue_version=row.get("catalogue_version"),
        )

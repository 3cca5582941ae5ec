"""Events of the payment aggregate: one per merchantUid, from order to refund."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from events.contract import StoredCreation, StoredEvent
from events.values import Currency


class PaymentOrdered(StoredCreation):
    """A customer (or a guest, by email) started buying a licence; the amount is fixed here."""

    TOPIC = "payment.Ordered"
    merchant_uid: str
    licence_id: int
    catalogue_version: int
    product_code: str
    life: int
    max_devices_count: int
    name: str
    original_amount: int
    amount: int
    currency: Currency
    country_code: str
    account_id: UUID | None
    buyer_email: str
    purchase_type: str


class PaymentSucceeded(StoredEvent):
    """The gateway confirmed the money arrived (card approval or a virtual-account deposit)."""

    TOPIC = "payment.Succeeded"
    imp_uid: str
    paid_at: datetime
    pay_method: str
    pg_provider: str
    card_name: str | None
    card_number: str | None
    bank_name: str | None
    receipt_url: str | None


class PaymentReserved(StoredEvent):
    """A virtual account was issued; the licence waits for the deposit until the deadline."""

    TOPIC = "payment.Reserved"
    imp_uid: str
    pg_provider: str
    vbank_code: str | None
    vbank_name: str
    vbank_num: str
    vbank_holder: str | None
    vbank_date: datetime
    vbank_issued_at: datetime


class PaymentFailed(StoredEvent):
    """The gateway refused or the customer gave up; nothing was charged."""

    TOPIC = "payment.Failed"
    imp_uid: str | None
    failed_at: datetime
    fail_reason: str


class PaymentCancelled(StoredEvent):
    """We cancelled it: tampering detected, or a virtual account unpaid at its deadline."""

    TOPIC = "payment.Cancelled"
    imp_uid: str | None
    reason: str
    error_code: int | None
    cancelled_at: datetime


class PaymentRefunded(StoredEvent):
    """Money went back to the customer (full or partial); ``cancel_amount`` is cumulative."""

    TOPIC = "payment.Refunded"
    amount: int
    cancel_amount: int
    reason: str
    refunded_at: datetime

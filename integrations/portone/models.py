"""Typed results of the PortOne V1 API (payments, billing keys, prepared amounts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict


def unix_to_datetime(value: Any) -> datetime | None:
    """Turn PortOne's unix seconds into an aware UTC datetime; 0 and null mean None."""
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, bool):
        raise ValueError("a timestamp is not a boolean")
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return None
        value = int(value)
    if isinstance(value, (int, float)):
        if value == 0:
            return None
        return datetime.fromtimestamp(int(value), tz=UTC)
    raise ValueError("expected unix seconds")


UnixTime = Annotated[datetime | None, BeforeValidator(unix_to_datetime)]


class PaymentStatus(StrEnum):
    """Status of a PortOne payment."""

    READY = "ready"
    PAID = "paid"
    CANCELLED = "cancelled"
    FAILED = "failed"


class _Result(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class CancelHistoryEntry(_Result):
    """One (full or partial) cancellation of a payment."""

    pg_tid: str | None = None
    amount: int
    cancelled_at: UnixTime = None
    reason: str | None = None
    receipt_url: str | None = None


class Payment(_Result):
    """A payment as PortOne reports it. Amounts are integers in the currency's unit."""

    imp_uid: str
    merchant_uid: str
    pay_method: str | None = None
    channel: str | None = None
    pg_provider: str | None = None
    pg_tid: str | None = None
    name: str | None = None
    amount: int
    cancel_amount: int = 0
    currency: str = "KRW"
    status: PaymentStatus
    started_at: UnixTime = None
    paid_at: UnixTime = None
    failed_at: UnixTime = None
    cancelled_at: UnixTime = None
    fail_reason: str | None = None
    cancel_reason: str | None = None
    receipt_url: str | None = None
    cancel_history: tuple[CancelHistoryEntry, ...] = ()
    card_name: str | None = None
    card_number: str | None = None
    card_quota: int | None = None
    bank_name: str | None = None
    vbank_code: str | None = None
    vbank_name: str | None = None
    vbank_num: str | None = None
    vbank_holder: str | None = None
    vbank_date: UnixTime = None
    vbank_issued_at: UnixTime = None
    buyer_email: str | None = None
    buyer_name: str | None = None
    custom_data: str | None = None
    customer_uid: str | None = None
    customer_uid_usage: str | None = None


class Customer(_Result):
    """A billing key (customer_uid) with its masked card."""

    customer_uid: str
    pg_provider: str | None = None
    pg_id: str | None = None
    card_name: str | None = None
    card_code: str | None = None
    card_number: str | None = None
    card_type: str | None = None
    customer_name: str | None = None
    customer_email: str | None = None
    inserted: UnixTime = None
    updated: UnixTime = None


class Prepared(_Result):
    """An amount pre-registered for a merchant_uid."""

    merchant_uid: str
    amount: int


class Receipt(_Result):
    """A cash receipt (현금영수증) issued for a payment (``/receipts/{imp_uid}``); ``cancelled_at`` once cancelled."""

    imp_uid: str
    receipt_tid: str | None = None
    apply_num: str | None = None
    type: str | None = None  # person (income deduction) or company (expense evidence)
    amount: int = 0
    vat: int = 0
    receipt_url: str | None = None
    applied_at: UnixTime = None
    cancelled_at: UnixTime = None


class AccessToken(_Result):
    """An access token and its validity as the server counts it."""

    access_token: str
    now: UnixTime = None
    expired_at: UnixTime = None


@dataclass(frozen=True, slots=True)
class CardDetails:
    """Card fields for issuing a billing key. Never logged: repr shows only the last 4 digits.

    ``number`` as ``dddd-dddd-dddd-dddd`` (dashes optional), ``expiry`` as ``YYYY-MM``,
    ``birth`` 6 digits (or a 10-digit business number), ``pwd_2digit`` the first two
    digits of the card password.
    """

    number: str = field(repr=False)
    expiry: str = field(repr=False)
    birth: str = field(repr=False)
    pwd_2digit: str | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        digits = "".join(ch for ch in self.number if ch.isdigit())
        return f"CardDetails(number='****{digits[-4:]}')"

    def __str__(self) -> str:
        return repr(self)


@dataclass(frozen=True, slots=True)
class RefundAccount:
    """Where the refund of a virtual-account payment goes (bank code, account, holder)."""

    holder: str
    bank: str
    account: str = field(repr=False)
    tel: str | None = None

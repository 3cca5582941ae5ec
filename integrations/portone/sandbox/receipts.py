"""Cash receipts (현금영수증) as the sandbox plays PortOne V1's ``/receipts/{imp_uid}``: issue for a paid bank
transfer or virtual account (for what it still holds: the amount less what was cancelled), read, cancel; a
cancelled one may be issued again (for the remainder after a partial refund)."""

from __future__ import annotations

import secrets
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from integrations.portone.sandbox.errors import NotFoundError, RefusedError
from integrations.portone.sandbox.service import Sandbox

CASH_PAY_METHODS = ("trans", "vbank")


class ReceiptParams(BaseModel):
    """``POST /receipts/{imp_uid}``."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    identifier: str = Field(min_length=1, max_length=20)
    identifier_type: Literal["person", "business", "phone", "taxcard"] = "phone"
    type: Literal["person", "company"] = "person"
    buyer_name: str | None = None
    buyer_email: str | None = None
    buyer_tel: str | None = None
    tax_free: int = Field(default=0, ge=0)


class ReceiptRecord(BaseModel):
    """A cash receipt the sandbox issued. The identifier is kept masked only, as a real PG shows it."""

    imp_uid: str
    receipt_tid: str
    apply_num: str
    type: str
    identifier_type: str
    identifier: str  # masked
    amount: int
    vat: int
    receipt_url: str
    applied_at: int
    cancelled_at: int = 0

    def to_api(self) -> dict[str, Any]:
        """The V1 Receipt object."""
        return self.model_dump()


def _masked(identifier: str) -> str:
    return identifier[:3] + "*" * max(len(identifier) - 7, 0) + identifier[-4:] if len(identifier) > 7 else "****"


def _check_identifier(params: ReceiptParams) -> str:
    digits = params.identifier.replace("-", "")
    if not digits.isdigit():
        raise RefusedError("the identifier must be digits", code=-1)
    if params.identifier_type == "business" and len(digits) != 10:
        raise RefusedError("a business registration number has 10 digits", code=-1)
    if params.identifier_type == "phone" and len(digits) not in (10, 11):
        raise RefusedError("a phone number has 10 or 11 digits", code=-1)
    return digits


class CashReceipts:
    """The sandbox's cash receipts, kept in the sandbox's store."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.store = sandbox.store

    def issue(self, imp_uid: str, params: ReceiptParams) -> ReceiptRecord:
        """Issue one for a paid bank transfer or virtual account; refused while one is issued (code -1)."""
        digits = _check_identifier(params)
        now = int(self.sandbox.now().timestamp())
        with self.store.transaction():
            payment = self.store.get_payment(imp_uid)
            if payment is None:
                raise NotFoundError("no such payment")
            if payment.status != "paid" or payment.pay_method not in CASH_PAY_METHODS:
                raise RefusedError("a cash receipt is issued for a paid bank transfer or virtual account", code=-1)
            current = self.store.get_receipt(imp_uid)
            if current is not None and not current.get("cancelled_at"):
                raise RefusedError("a cash receipt is already issued for this payment", code=-1)
            amount = payment.amount - payment.cancel_amount
            if amount <= 0:
                raise RefusedError("nothing left to issue a cash receipt for", code=-1)
            record = ReceiptRecord(
                imp_uid=imp_uid,
                receipt_tid="cr_" + secrets.token_hex(8),
                apply_num="".join(secrets.choice("0123456789") for _ in range(9)),
                type=params.type,
                identifier_type=params.identifier_type,
                identifier=_masked(digits),
                amount=amount,
                vat=round(amount / 11),
                receipt_url=f"{self.sandbox.settings.public_url.rstrip('/')}/sandbox/receipts/{imp_uid}",
                applied_at=now,
            )
            self.store.put_receipt(imp_uid, record.model_dump())
        return record

    def get(self, imp_uid: str) -> ReceiptRecord:
        """The payment's receipt (the last issued, cancelled or not)."""
        data = self.store.get_receipt(imp_uid)
        if data is None:
            raise NotFoundError("no cash receipt for this payment")
        return ReceiptRecord.model_validate(data)

    def cancel(self, imp_uid: str) -> ReceiptRecord:
        """Cancel the issued receipt (code -1 when there is none issued)."""
        now = int(self.sandbox.now().timestamp())
        with self.store.transaction():
            record = self.get(imp_uid)
            if record.cancelled_at:
                raise RefusedError("the cash receipt is already cancelled", code=-1)
            cancelled = record.model_copy(update={"cancelled_at": now})
            self.store.put_receipt(imp_uid, cancelled.model_dump())
        return cancelled

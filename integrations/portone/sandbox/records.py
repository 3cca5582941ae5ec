"""What the sandbox stores, in the V1 wire shape (unix seconds, 0 when not applicable),
and the pure state transitions of a payment."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from integrations.portone.sandbox.errors import RefusedError

Status = Literal["ready", "paid", "cancelled", "failed"]

NOTHING_TO_CANCEL = "nothing to cancel: the payment is not paid or already fully cancelled"


class _Record(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class CancelEntry(_Record):
    """One entry of a payment's cancel_history."""

    pg_tid: str | None = None
    amount: int
    cancelled_at: int
    reason: str | None = None
    receipt_url: str | None = None


class PaymentRecord(_Record):
    """A payment with every field of the contract, plus the sandbox's own notice_url."""

    imp_uid: str
    merchant_uid: str
    pay_method: str = "card"
    channel: str = "pc"
    pg_provider: str = "nice"
    pg_tid: str | None = None
    name: str | None = None
    amount: int
    cancel_amount: int = 0
    currency: str = "KRW"
    status: Status
    started_at: int = 0
    paid_at: int = 0
    failed_at: int = 0
    cancelled_at: int = 0
    fail_reason: str | None = None
    cancel_reason: str | None = None
    receipt_url: str | None = None
    cancel_history: tuple[CancelEntry, ...] = ()
    card_name: str | None = None
    card_code: str | None = None
    card_number: str | None = None
    card_quota: int | None = None
    bank_name: str | None = None
    vbank_code: str | None = None
    vbank_name: str | None = None
    vbank_num: str | None = None
    vbank_holder: str | None = None
    vbank_date: int = 0
    vbank_issued_at: int = 0
    buyer_email: str | None = None
    buyer_name: str | None = None
    custom_data: str | None = None
    customer_uid: str | None = None
    customer_uid_usage: str | None = None
    notice_url: str | None = None

    def to_api(self) -> dict[str, Any]:
        """The payment as the API returns it."""
        return self.model_dump(mode="json", exclude={"notice_url"})

    @property
    def refundable(self) -> int:
        """What a cancel can still give back."""
        return self.amount - self.cancel_amount if self.status == "paid" else 0

    @property
    def is_unpaid_vbank(self) -> bool:
        """An issued virtual account that has not received the deposit."""
        return self.status == "ready" and self.pay_method == "vbank"

    def check_cancellable(self) -> None:
        """Refuse (code 1) when there is nothing to cancel."""
        if self.is_unpaid_vbank:
            return
        if self.refundable <= 0:
            raise RefusedError(NOTHING_TO_CANCEL)

    def cancel(
        self,
        *,
        amount: int | None,
        checksum: int | None,
        reason: str | None,
        has_refund_account: bool,
        now: int,
    ) -> PaymentRecord:
        """Cancel ``amount`` (None or 0: all that is left); checksum must equal the refundable balance.

        An unpaid virtual account can only be withdrawn as a whole (no money moves,
        no cancel_history entry, checksum ignored).
        """
        self.check_cancellable()
        if self.is_unpaid_vbank:
            if amount:
                raise RefusedError("an unpaid virtual account can only be cancelled in full")
            return self.model_copy(update={"status": "cancelled", "cancelled_at": now, "cancel_reason": reason})
        refundable = self.refundable
        if checksum is not None and checksum != refundable:
            raise RefusedError(f"checksum mismatch: the refundable balance is {refundable}, not {checksum}")
        to_cancel = amount or refundable
        if to_cancel < 0 or to_cancel > refundable:
            raise RefusedError(f"cannot cancel {to_cancel}: the refundable balance is {refundable}")
        if self.pay_method == "vbank" and not has_refund_account:
            raise RefusedError("a paid virtual account needs refund_holder, refund_bank and refund_account")
        cancel_amount = self.cancel_amount + to_cancel
        entry = CancelEntry(
            pg_tid=self.pg_tid,
            amount=to_cancel,
            cancelled_at=now,
            reason=reason,
            receipt_url=self.receipt_url,
        )
        return self.model_copy(
            update={
                "cancel_amount": cancel_amount,
                "status": "cancelled" if cancel_amount == self.amount else "paid",
                "cancelled_at": now,
                "cancel_reason": reason,
                "cancel_history": (*self.cancel_history, entry),
            }
        )

    def deposit(self, *, now: int) -> PaymentRecord:
        """The buyer paid into the virtual account: ready -> paid (refused after vbank_date)."""
        if not self.is_unpaid_vbank:
            raise RefusedError(f"no deposit expected: {self.pay_method} payment is {self.status}")
        if self.vbank_date and now > self.vbank_date:
            raise RefusedError("the virtual account has expired (vbank_date has passed)")
        return self.model_copy(update={"status": "paid", "paid_at": now})


class CustomerRecord(_Record):
    """A billing key: only the masked card and its issuer are kept."""

    customer_uid: str
    pg_provider: str
    pg_id: str | None = None
    card_name: str | None = None
    card_code: str | None = None
    card_number: str | None = None
    card_type: str | None = "credit"
    customer_name: str | None = None
    customer_email: str | None = None
    inserted: int
    updated: int

    def to_api(self) -> dict[str, Any]:
        """The billing key as the API returns it."""
        return self.model_dump(mode="json")


class PreparedRecord(_Record):
    """An amount pre-registered for a merchant_uid."""

    merchant_uid: str
    amount: int

    def to_api(self) -> dict[str, Any]:
        """The prepared amount as the API returns it."""
        return self.model_dump(mode="json")


class TokenRecord(_Record):
    """An access token issued to an imp_key."""

    access_token: str
    imp_key: str
    expired_at: int

"""In-memory stand-ins for the domain's ports, for unit tests of pure logic.

Integration tests talk to the real adapters (the PortOne sandbox over HTTP, SQLite or
PostgreSQL, SMTP); these fakes keep the same semantics without any of them.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.clock import Clock
from domain.payments.cards import Card
from domain.payments.gateway import (
    BillingKeyNotFoundAtGatewayError,
    BillingKeyRefusedError,
    CancelRefusedError,
    GatewayPayment,
    GatewayStatus,
    IssuedBillingKey,
    PaymentNotFoundAtGatewayError,
)
from domain.ports import MailMessage
from domain.store import Storefront
from integrations.portone.errors import PortOneError
from integrations.portone.sandbox import cards
from integrations.portone.sandbox.channels import window_refusal
from integrations.portone.sandbox.errors import CardRejectedError
from integrations.portone.sandbox.vbank import VBANK_CODE, VBANK_NAME

DEFAULT_CARD = "4242424242424242"
VBANK_HOLDER = "UNICORNPRO"
VBANK_DAYS = 3
AMOUNT_MISMATCH = "amount does not match the prepared amount"


class ManualClock:
    """A clock that stands still until moved; for tests of renewals, deadlines and expiry."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("the clock needs an aware datetime")
        self._now = start.astimezone(UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta) -> datetime:
        """Move time forward (never backward) and return the new now."""
        if delta < timedelta(0):
            raise ValueError("time only moves forward")
        with self._lock:
            self._now += delta
            return self._now


class PlainHasher:
    """A fast stand-in for argon2 in tests of other things (not a security boundary)."""

    def hash(self, password: str) -> str:
        return f"plain:{password}"

    def verify(self, password_hash: str, password: str) -> bool:
        return password_hash == f"plain:{password}"


class RecordingMailer:
    """Keeps every mail it is asked to send, in order."""

    def __init__(self) -> None:
        self.sent: list[MailMessage] = []

    def send(self, message: MailMessage) -> None:
        self.sent.append(message)


def in_memory_store() -> Storefront:
    """The storefront's log on eventsourcing's plain-Python persistence (nothing on disk)."""
    return Storefront({"PERSISTENCE_MODULE": "eventsourcing.popo"})


class FakeGateway:
    """PortOne V1 in memory: the domain's PaymentGateway port with the sandbox's rules.

    - ``prepare`` fixes a merchantUid's amount; paying or charging another amount then fails.
    - ``cancel`` wants the refundable balance as its checksum; an unpaid virtual account is
      withdrawn whole, and a paid one cannot be refunded (the port sends no refund account).
    - ``charge_billing_key`` is idempotent by merchantUid: a repeat returns the first payment.
    - Test cards (as in the sandbox): a number ending in 0002 is declined, so it gets neither a
      payment nor a billing key; one ending in 0003 gets a key, but recurring charges on it fail
      with insufficient funds. ``run_dry`` makes any card's later charges fail the same way.
    - Only masked card numbers are kept. Refusals raise ``PortOneError`` (a cancel's ``CancelRefusedError``), as
      the real adapter does.

    The methods after the port's play the customer's side: the PG window and the bank deposit.
    """

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self._payments: dict[str, GatewayPayment] = {}  # by imp_uid
        self._newest: dict[str, str] = {}  # merchant_uid -> imp_uid of its newest payment
        self._charged: dict[str, str] = {}  # merchant_uid -> imp_uid, billing-key charges only
        self._prepared: dict[str, int] = {}
        self._keys: dict[str, IssuedBillingKey] = {}
        self._dry: set[str] = set()  # masked numbers whose charges fail

    def prepared(self, merchant_uid: str) -> int | None:
        """The amount prepared for an order, if any (what ``GET /payments/prepare/{merchant_uid}`` reads)."""
        with self._lock:
            return self._prepared.get(merchant_uid)

    # -- the PaymentGateway port ------------------------------------------------------

    def prepare(self, merchant_uid: str, amount: int) -> None:
        with self._lock:
            known = self._prepared.setdefault(merchant_uid, amount)
            if known != amount:
                raise PortOneError("merchant_uid is already prepared with another amount", code=1)

    def get_payment(self, imp_uid: str) -> GatewayPayment:
        with self._lock:
            try:
                return self._payments[imp_uid]
            except KeyError:
                raise PaymentNotFoundAtGatewayError(imp_uid) from None

    def find(self, merchant_uid: str) -> GatewayPayment | None:
        with self._lock:
            return self._payments.get(self._newest.get(merchant_uid, ""))

    def cancel(self, imp_uid: str, amount: int | None, checksum: int | None, reason: str) -> GatewayPayment:
        with self._lock:
            payment = self._payments.get(imp_uid)
            if payment is None:
                raise CancelRefusedError("no payment to cancel")
            if payment.status is GatewayStatus.READY and payment.pay_method == "vbank":
                if amount:
                    raise CancelRefusedError("an unpaid virtual account can only be cancelled in full")
                return self._keep(replace(payment, status=GatewayStatus.CANCELLED))
            refundable = payment.amount - payment.cancel_amount if payment.status is GatewayStatus.PAID else 0
            if refundable <= 0:
                raise CancelRefusedError("nothing left to cancel")
            if checksum is not None and checksum != refundable:
                raise CancelRefusedError(f"checksum mismatch: the refundable balance is {refundable}")
            to_cancel = amount or refundable
            if not 0 < to_cancel <= refundable:
                raise CancelRefusedError(f"cannot cancel {to_cancel}: the refundable balance is {refundable}")
            if payment.pay_method == "vbank":
                raise CancelRefusedError("a paid virtual account needs a refund account")
            cancelled = payment.cancel_amount + to_cancel
            status = GatewayStatus.CANCELLED if cancelled == payment.amount else GatewayStatus.PAID
            return self._keep(replace(payment, cancel_amount=cancelled, status=status))

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        with self._lock:
            if merchant_uid in self._newest:
                return self._payments[self._newest[merchant_uid]]
            key = self._keys.get(customer_uid)
            if key is None:
                raise PortOneError("no billing key for this customer_uid", code=-1)
            if self._prepared.get(merchant_uid, amount) != amount:
                raise PortOneError(AMOUNT_MISMATCH, code=1)
            failure = cards.recurring_failure(key.card_number)
            if failure is None and key.card_number in self._dry:
                failure = cards.INSUFFICIENT_FUNDS
            payment = self._new_payment(
                merchant_uid,
                amount,
                "KRW",
                pay_method="card",
                pg_provider=key.pg,
                card_name=key.card_name,
                card_number=key.card_number,
                failure=failure,
                customer_uid=customer_uid,
            )
            self._charged[merchant_uid] = payment.imp_uid
            return payment

    def issue_billing_key(self, customer_uid: str, card: Card, pg: str) -> IssuedBillingKey:
        try:
            masked = cards.mask(card.number)
            cards.check_expiry(card.expiry, self._clock.now())
            cards.check_birth(card.birth)
            cards.check_pwd_2digit(card.password_2digit)
        except CardRejectedError as rejected:
            raise BillingKeyRefusedError(rejected.message) from None
        refusal = cards.approval_failure(masked)
        if refusal is not None:
            raise BillingKeyRefusedError(refusal)
        return self._keep_key(customer_uid, masked, pg)

    def billing_key(self, customer_uid: str) -> IssuedBillingKey:
        with self._lock:
            try:
                return self._keys[customer_uid]
            except KeyError:
                raise BillingKeyNotFoundAtGatewayError(customer_uid) from None

    # -- the customer's side ----------------------------------------------------------

    def pay(
        self,
        merchant_uid: str,
        amount: int,
        *,
        currency: str = "KRW",
        pay_method: str = "card",
        card_number: str = DEFAULT_CARD,
        pg: str = "nice",
    ) -> str:
        """The buyer completes ``IMP.request_pay`` in the PG window; the imp_uid its callback carries.

        A card is paid at once (or fails: declined card, amount other than the prepared one);
        ``vbank`` issues a virtual account that waits for ``deposit``.
        """
        refusal = window_refusal(_provider(pg), pay_method, currency)
        if refusal is not None:  # the sandbox's window refuses it before any payment exists
            raise PortOneError(refusal)
        with self._lock:
            newest = self._payments.get(self._newest.get(merchant_uid, ""))
            if newest is not None and newest.status is GatewayStatus.PAID:
                raise PortOneError("a payment for this merchant_uid is already made", code=1)
            failure = AMOUNT_MISMATCH if self._prepared.get(merchant_uid, amount) != amount else None
            if pay_method != "card":  # points and a transfer are paid at once, a virtual account waits; no card
                other = self._new_payment(
                    merchant_uid, amount, currency, pay_method=pay_method, pg_provider=_provider(pg), failure=failure
                )
                return other.imp_uid
            masked = cards.mask(card_number)
            paid = self._new_payment(
                merchant_uid,
                amount,
                currency,
                pay_method=pay_method,
                pg_provider=_provider(pg),
                card_name=masked.card_name,
                card_number=masked.card_number,
                failure=failure or cards.approval_failure(masked),
            )
            return paid.imp_uid

    def deposit(self, imp_uid: str) -> None:
        """The buyer pays into the virtual account (before its deadline)."""
        with self._lock:
            payment = self.get_payment(imp_uid)
            if payment.status is not GatewayStatus.READY or payment.pay_method != "vbank":
                raise PortOneError(f"no deposit expected: {payment.pay_method} payment is {payment.status.value}")
            now = self._clock.now()
            if payment.vbank_date is not None and now > payment.vbank_date:
                raise PortOneError("the virtual account has expired")
            self._keep(replace(payment, status=GatewayStatus.PAID, paid_at=now))

    def issue_in_window(self, customer_uid: str, card_number: str = DEFAULT_CARD, pg: str = "kakaopay") -> bool:
        """The customer completes a PG window that issues a billing key under ``customer_uid``.

        False when the card is declined: the window then issues nothing.
        """
        masked = cards.mask(card_number)
        if cards.approval_failure(masked) is not None:
            return False
        self._keep_key(customer_uid, masked, pg)
        return True

    def run_dry(self, card_number: str) -> None:
        """From now on, charges on this card fail with insufficient funds."""
        with self._lock:
            self._dry.add(cards.mask(card_number).card_number)

    def refill(self, card_number: str) -> None:
        """Charges on this card go through again."""
        with self._lock:
            self._dry.discard(cards.mask(card_number).card_number)

    @property
    def charges(self) -> dict[str, GatewayPayment]:
        """Every billing-key charge made so far, by merchantUid, as it stands now."""
        with self._lock:
            return {merchant_uid: self._payments[imp_uid] for merchant_uid, imp_uid in self._charged.items()}

    # -- records ----------------------------------------------------------------------

    def _new_payment(
        self,
        merchant_uid: str,
        amount: int,
        currency: str,
        *,
        pay_method: str,
        pg_provider: str,
        card_name: str | None = None,
        card_number: str | None = None,
        failure: str | None = None,
        customer_uid: str | None = None,
    ) -> GatewayPayment:
        imp_uid = f"imp_{next(self._ids):012d}"
        now = self._clock.now()
        vbank = pay_method == "vbank"
        status = GatewayStatus.READY if vbank else GatewayStatus.PAID
        if failure is not None:
            status = GatewayStatus.FAILED
        payment = GatewayPayment(
            imp_uid=imp_uid,
            merchant_uid=merchant_uid,
            status=status,
            amount=amount,
            currency=currency,
            pay_method=pay_method,
            pg_provider=pg_provider,
            paid_at=now if status is GatewayStatus.PAID else None,
            failed_at=now if failure is not None else None,
            fail_reason=failure,
            receipt_url=f"https://fake-portone.invalid/receipts/{imp_uid}",
            card_name=card_name,
            card_number=card_number,
            customer_uid=customer_uid,
        )
        if vbank and failure is None:
            payment = replace(
                payment,
                vbank_code=VBANK_CODE,
                vbank_name=VBANK_NAME,
                vbank_num=f"{int(imp_uid[4:]):014d}",
                vbank_holder=VBANK_HOLDER,
                vbank_date=now + timedelta(days=VBANK_DAYS),
                vbank_issued_at=now,
            )
        self._newest[merchant_uid] = imp_uid
        return self._keep(payment)

    def _keep(self, payment: GatewayPayment) -> GatewayPayment:
        self._payments[payment.imp_uid] = payment
        return payment

    def _keep_key(self, customer_uid: str, card: cards.MaskedCard, pg: str) -> IssuedBillingKey:
        key = IssuedBillingKey(customer_uid, _provider(pg), card.card_name, card.card_number)
        with self._lock:
            self._keys[customer_uid] = key
        return key


def _provider(pg: str) -> str:
    """``kcp_billing.MID`` -> ``kcp_billing``, as the gateway reports the PG."""
    return pg.partition(".")[0] or "nice"


class FakeAppStore:
    """The App Store port without Apple: "signed" data is the transaction itself, kept by id; statuses are set by the
    test (``domain/app_stores/ports.py``)."""

    def __init__(self) -> None:
        from domain.app_stores.facts import StoreNotice, StoreStatus, StoreTransaction

        self.transactions: dict[str, StoreTransaction] = {}
        self.notices: dict[str, StoreNotice] = {}
        self.statuses: dict[str, StoreStatus] = {}

    def verify_transaction(self, signed_transaction: str) -> Any:
        from domain.errors import DomainError, ErrorCode

        if signed_transaction not in self.transactions:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "unknown")
        return self.transactions[signed_transaction]

    def verify_notification(self, signed_payload: str) -> Any:
        from domain.errors import DomainError, ErrorCode

        if signed_payload not in self.notices:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "unknown")
        return self.notices[signed_payload]

    def status(self, original_transaction_id: str) -> Any:
        return self.statuses[original_transaction_id]


class FakeGooglePlay:
    """The Google Play port without Google: pushes are accepted when their token is ``good``; lookups are set by the
    test."""

    def __init__(self) -> None:
        from domain.app_stores.facts import StoreStatus

        self.lookups: dict[str, StoreStatus] = {}

    def verify_push(self, authorization: str | None, now: datetime) -> None:
        from domain.errors import DomainError, ErrorCode

        if authorization != "Bearer good":
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "bad token")

    def read_notice(self, body: bytes) -> Any:
        raise NotImplementedError

    def lookup(self, product_id: str, purchase_token: str) -> Any:
        from domain.errors import DomainError, ErrorCode

        if purchase_token not in self.lookups:
            raise DomainError(ErrorCode.STORE_PROOF_REFUSED, "unknown token")
        return self.lookups[purchase_token]

"""The payment aggregate: one per merchantUid, from order to refund."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceTerms, UserLicence
from domain.payments.gateway import GatewayPayment
from domain.pricing.quotes import DiscountFactor, Quote, factors_from_records
from events.payments import (
    AppStorePurchaseRecorded,
    BuyerAccountOpened,
    CreditSpent,
    PaymentCancelled,
    PaymentFailed,
    PaymentOrdered,
    PaymentRefunded,
    PaymentReserved,
    PaymentSucceeded,
    UpgradeOrdered,
)
from events.values import Currency, Language


class PaymentState(Enum):
    """Where a payment stands in our books."""

    ORDERED = "ordered"
    RESERVED = "reserved"
    PAID = "paid"
    FAILED = "failed"
    CANCELLED = "cancelled"


class Payment(Aggregate):
    """What a customer owes and paid for one order; the amount is fixed when ordering."""

    # How it was paid, once it succeeded (``none`` for an order with nothing to pay).
    pay_method: str | None = None
    paid_at: datetime | None = None
    settled_at: datetime | None = None  # when we recorded it paid (our clock; the gateway's paid_at is its own)
    pg_provider: str | None = None

    @staticmethod
    def id_for(merchant_uid: str) -> UUID:
        """The aggregate id of a merchantUid (so repeating an order id is a conflict)."""
        return uuid5(NAMESPACE_URL, f"/payments/{merchant_uid}")

    @classmethod
    def order(
        cls,
        *,
        merchant_uid: str,
        at: datetime,
        quote: Quote,
        terms: LicenceTerms,
        catalogue_version: int,
        account_id: UUID | None,
        buyer_email: str,
        purchase_type: str,
        user_licence_id: UUID | None = None,
        coupon_code: str | None = None,
        buyer_country: str | None = None,
        language: Language | None = None,
    ) -> Payment:
        """Record an order of a licence at a quoted price: the amount charged is the quote's, with its factors.

        ``user_licence_id`` is the licence being paid for when it exists before the payment settles;
        ``coupon_code`` the code whose factor the quote carries; ``language`` the page's (the mails' language).
        """
        return cls._create(
            PaymentOrdered,
            id=cls.id_for(merchant_uid),
            timestamp=at,
            merchant_uid=merchant_uid,
            licence_id=terms.licence_id,
            catalogue_version=catalogue_version,
            product_code=terms.product_code,
            life=terms.life,
            max_devices_count=terms.max_devices_count,
            name=terms.name,
            original_amount=quote.list_price,
            amount=quote.amount,
            currency=quote.currency,
            country_code=quote.country_code,
            account_id=account_id,
            buyer_email=buyer_email,
            purchase_type=purchase_type,
            discount_factors=quote.factor_records(),
            user_licence_id=user_licence_id,
            coupon_code=coupon_code,
            buyer_country=(buyer_country or quote.country_code).upper(),
            language=language,
        )

    def note_upgrade(
        self,
        *,
        user_licence_id: UUID,
        from_terms: LicenceTerms,
        credit: int,
        credited_merchant_uid: str,
        at: datetime,
    ) -> None:
        """Say that this (just ordered) payment upgrades ``user_licence_id`` from ``from_terms``, with ``credit``
        from ``credited_merchant_uid``'s unused value taken off its quote."""
        self.trigger_event(
            UpgradeOrdered,
            timestamp=at,
            user_licence_id=user_licence_id,
            from_licence_id=from_terms.licence_id,
            from_life=from_terms.life,
            from_max_devices_count=from_terms.max_devices_count,
            to_licence_id=self.licence_id,
            credit=credit,
            currency=self.currency,
            credited_merchant_uid=credited_merchant_uid,
        )

    def spend_credit(self, amount: int, upgrade_merchant_uid: str, at: datetime) -> None:
        """Move ``amount`` of what this payment still holds into an upgrade (-302 when it holds less now)."""
        if amount <= 0:
            return
        if amount > self.refundable:
            raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, "the credited payment no longer holds that value")
        self.trigger_event(CreditSpent, timestamp=at, amount=amount, upgrade_merchant_uid=upgrade_merchant_uid)

    def record_app_store_purchase(self, apple_transaction_id: str, at: datetime) -> None:
        """Support records that Apple took this payment (nothing was charged here)."""
        self.check_open()
        self.trigger_event(
            AppStorePurchaseRecorded, timestamp=at, apple_transaction_id=apple_transaction_id, paid_at=at
        )

    @property
    def is_upgrade(self) -> bool:
        """Does this payment upgrade a licence?"""
        return self.upgrade is not None

    @property
    def licence_id_paid_for(self) -> UUID:
        """The user licence this payment pays for (a purchase's licence is derived from its merchantUid)."""
        return self.user_licence_id or UserLicence.id_for_payment(self.merchant_uid)

    @property
    def terms(self) -> LicenceTerms:
        """What the payment buys."""
        return LicenceTerms(self.licence_id, self.product_code, self.life, self.max_devices_count, self.name)

    def check_confirmable_by(self, account_id: UUID | None) -> None:
        """An order an account placed is confirmed by that account only (403); a guest's order by anyone
        holding its ids, since the gateway re-read decides what happened."""
        if self.account_id is not None and self.account_id != account_id:
            raise DomainError(ErrorCode.FORBIDDEN, "another account's order")

    def open_buyer_account(self, account_id: UUID, at: datetime) -> None:
        """Settling this guest payment opened the buyer's passwordless account."""
        self.trigger_event(BuyerAccountOpened, timestamp=at, account_id=account_id)

    @property
    def gateway_balance(self) -> int:
        """What the gateway still holds of this payment (its checksum for a cancel)."""
        return self.amount - self.cancel_amount

    @property
    def refundable(self) -> int:
        """What can still go back to the customer."""
        if self.state is not PaymentState.PAID or self.apple_transaction_id is not None:
            return 0
        return self.amount - self.cancel_amount - self.credit_spent

    def matches(self, gateway: GatewayPayment) -> bool:
        """Does the gateway's payment carry exactly the amount and currency we ordered?"""
        return (
            gateway.merchant_uid == self.merchant_uid
            and gateway.amount == self.amount
            and gateway.currency.upper() == self.currency.value
        )

    def succeed(self, gateway: GatewayPayment, at: datetime) -> None:
        """The money arrived (card approval, or a deposit into the virtual account)."""
        self.check_open()
        self.trigger_event(
            PaymentSucceeded,
            timestamp=at,
            imp_uid=gateway.imp_uid,
            paid_at=gateway.paid_at or at,
            pay_method=gateway.pay_method,
            pg_provider=gateway.pg_provider,
            card_name=gateway.card_name,
            card_number=gateway.card_number,
            bank_name=gateway.bank_name,
            receipt_url=gateway.receipt_url,
        )

    def reserve(self, gateway: GatewayPayment, at: datetime) -> None:
        """A virtual account was issued; wait for the deposit until its deadline."""
        if self.state is not PaymentState.ORDERED:
            raise DomainError(ErrorCode.PAYMENT_DIFFERS_FROM_INIT, f"cannot reserve a {self.state.value} payment")
        if gateway.vbank_date is None or not gateway.vbank_num or not gateway.vbank_name:
            raise DomainError(ErrorCode.RESERVED_PAYMENT_MISSING, "the virtual account has no number or deadline")
        self.trigger_event(
            PaymentReserved,
            timestamp=at,
            imp_uid=gateway.imp_uid,
            pg_provider=gateway.pg_provider,
            vbank_code=gateway.vbank_code,
            vbank_name=gateway.vbank_name,
            vbank_num=gateway.vbank_num,
            vbank_holder=gateway.vbank_holder,
            vbank_date=gateway.vbank_date,
            vbank_issued_at=gateway.vbank_issued_at or at,
        )

    def fail(self, imp_uid: str | None, reason: str, at: datetime) -> None:
        """Nothing was charged: the gateway refused, or the customer closed the window."""
        self.check_open()
        self.trigger_event(PaymentFailed, timestamp=at, imp_uid=imp_uid, failed_at=at, fail_reason=reason)

    @property
    def refusal(self) -> ErrorCode:
        """What a settlement of this failed or called-off payment answers: the code it was called off with (a coupon
        refused at settling, -615), else -301 for a called-off one and -300 for a refused one."""
        if self.state is PaymentState.CANCELLED:
            return self.cancel_code or ErrorCode.PAYMENT_DIFFERS_FROM_INIT
        return ErrorCode.PAYMENT_REFUSED

    def cancel(self, imp_uid: str | None, reason: str, error_code: ErrorCode | None, at: datetime) -> None:
        """We call it off: tampering, or an unpaid virtual account past its deadline.

        Only an open (ordered or reserved) payment is called off; a paid one goes back through
        ``refund``, so a late report of another attempt at the same order cannot undo it.
        """
        if self.state not in (PaymentState.ORDERED, PaymentState.RESERVED):
            return
        code = error_code.value if error_code is not None and isinstance(error_code.value, int) else None
        self.trigger_event(
            PaymentCancelled, timestamp=at, imp_uid=imp_uid, reason=reason, error_code=code, cancelled_at=at
        )

    def refund(self, amount: int, reason: str, at: datetime) -> None:
        """Give back ``amount`` of a paid payment (partial refunds add up)."""
        if self.state is not PaymentState.PAID:
            raise DomainError(ErrorCode.INVALID_VALUE, f"cannot refund a {self.state.value} payment")
        if not 0 < amount <= self.refundable:
            raise DomainError(ErrorCode.INVALID_VALUE, f"refund must be within 1..{self.refundable}")
        self.trigger_event(
            PaymentRefunded,
            timestamp=at,
            amount=amount,
            cancel_amount=self.cancel_amount + amount,
            reason=reason,
            refunded_at=at,
        )

    def check_open(self) -> None:
        """Only an ordered or reserved payment can still succeed or fail."""
        if self.state not in (PaymentState.ORDERED, PaymentState.RESERVED):
            raise DomainError(ErrorCode.PAYMENT_DIFFERS_FROM_INIT, f"payment is already {self.state.value}")

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _ordered(self, event: PaymentOrdered) -> None:
        self.merchant_uid = event.merchant_uid
        self.licence_id = event.licence_id
        self.catalogue_version = event.catalogue_version
        self.product_code = event.product_code
        self.life = event.life
        self.max_devices_count = event.max_devices_count
        self.name = event.name
        self.original_amount = event.original_amount
        self.amount = event.amount
        self.currency: Currency = event.currency
        self.country_code = event.country_code
        self.account_id: UUID | None = event.account_id
        self.buyer_email = event.buyer_email
        self.purchase_type = event.purchase_type
        self.discount_factors: tuple[DiscountFactor, ...] = factors_from_records(event.discount_factors)
        self.opened_buyer_account = False
        self.fail_reason = ""
        self.user_licence_id: UUID | None = event.user_licence_id
        self.coupon_code: str | None = event.coupon_code
        self.buyer_country: str = event.buyer_country
        self.language: Language | None = event.language
        self.state = PaymentState.ORDERED
        self.imp_uid: str | None = None
        self.cancel_amount = 0
        self.vbank_date: datetime | None = None
        self.vbank_name: str | None = None
        self.vbank_num: str | None = None
        self.vbank_holder: str | None = None
        self.upgrade: UpgradeOrdered | None = None
        self.credit_spent = 0
        self.apple_transaction_id: str | None = None
        self.cancel_code: ErrorCode | None = None

    @when.register
    def _succeeded(self, event: PaymentSucceeded) -> None:
        self.state = PaymentState.PAID
        self.imp_uid = event.imp_uid
        self.paid_at = event.paid_at
        self.settled_at = event.timestamp
        self.pay_method, self.pg_provider = event.pay_method, event.pg_provider

    @when.register
    def _reserved(self, event: PaymentReserved) -> None:
        self.state = PaymentState.RESERVED
        self.imp_uid = event.imp_uid
        self.vbank_date = event.vbank_date
        self.vbank_name = event.vbank_name
        self.vbank_num = event.vbank_num
        self.vbank_holder = event.vbank_holder

    @when.register
    def _failed(self, event: PaymentFailed) -> None:
        self.state = PaymentState.FAILED
        self.fail_reason = event.fail_reason
        self.imp_uid = event.imp_uid or self.imp_uid

    @when.register
    def _cancelled(self, event: PaymentCancelled) -> None:
        self.state = PaymentState.CANCELLED
        self.imp_uid = event.imp_uid or self.imp_uid
        self.cancel_code = ErrorCode.for_value(event.error_code) if event.error_code is not None else None

    @when.register
    def _refunded(self, event: PaymentRefunded) -> None:
        self.cancel_amount = event.cancel_amount

    @when.register
    def _buyer_account_opened(self, event: BuyerAccountOpened) -> None:
        self.opened_buyer_account = True

    @when.register
    def _upgrade_ordered(self, event: UpgradeOrdered) -> None:
        self.upgrade = event

    @when.register
    def _credit_spent(self, event: CreditSpent) -> None:
        self.credit_spent += event.amount

    @when.register
    def _app_store(self, event: AppStorePurchaseRecorded) -> None:
        self.state = PaymentState.PAID
        self.paid_at = event.paid_at
        self.settled_at = event.timestamp
        self.apple_transaction_id = event.apple_transaction_id

"""The payment aggregate: one per merchantUid, from order to refund."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceTerms, UserLicence
from domain.payments.gateway import GatewayPayment
from domain.pricing.quotes import DiscountFactor, Quote, factors_from_records
from events.payments import (
    AppStorePurchaseRecorded,
    BuyerAccountOpened,
    CreditSpent,
    FirstChargeOrdered,
    PaymentCancelled,
    PaymentFailed,
    PaymentGivenBack,
    PaymentOrdered,
    PaymentRefunded,
    PaymentReserved,
    PaymentSucceeded,
    RefundReleased,
    RefundReserved,
    StorePurchaseVerified,
    StoreRefunded,
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


class LicenceEffect(Enum):
    """What a refund does to the licence the payment paid for."""

    REVOKE = "revoke"  # the licence stops (a full refund of what pays for it now)
    SHORTEN = "shorten"  # its end moves to what is left paid for
    KEEP = "keep"  # it stays as it is (goodwill)


class RefundKind(Enum):
    """Who decided a refund."""

    MONEY_BACK = "money-back"  # the customer, under the 30-day guarantee
    STAFF = "staff"  # a staff member, within their approval limit
    APPROVAL = "approval"  # a second member approving a waiting request
    OPERATOR = "operator"  # an operator at the command line
    UNWANTED_CHARGE = "unwanted-charge"  # a renewal charged while it stopped being wanted


# Whose refunds ``payment.Refunded`` records.
STORE = "store"
GATEWAY = "gateway"


@dataclass(frozen=True)
class PendingRefund:
    """A refund reserved on a payment whose outcome at the gateway is not recorded yet."""

    reservation_id: str
    amount: int
    reason: str
    kind: RefundKind
    actor_id: UUID | None
    request_id: UUID | None
    licence_effect: LicenceEffect
    shorten_to: datetime | None
    reserved_at: datetime


@dataclass(frozen=True)
class RecordedRefund:
    """What recording the gateway's refunds of a payment found: the store's reserved refund it made (``ours``,
    None when none was pending), and what it made outside the store (``outside``)."""

    ours: int | None
    outside: int
    pending: PendingRefund | None


@dataclass(frozen=True)
class FirstCharge:
    """The subscription a first charge starts once paid, and the key it charges."""

    subscription_id: UUID
    customer_uid: str
    card_name: str | None
    card_number: str | None


class Payment(Aggregate):
    """What a customer owes and paid for one order; the amount is fixed when ordering."""

    # How it was paid, once it succeeded (``none`` for an order with nothing to pay).
    pay_method: str | None = None
    paid_at: datetime | None = None
    settled_at: datetime | None = None  # when we recorded it paid (our clock; the gateway's paid_at is its own)
    pg_provider: str | None = None
    card_name: str | None = None  # the card's name and mask, once paid by card
    card_number: str | None = None

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

    def record_store_purchase(
        self,
        *,
        store: str,
        transaction_id: str,
        original_transaction_id: str,
        product_id: str,
        environment: str,
        paid_at: datetime,
        commission_rate: Decimal,
        commission: int,
        at: datetime,
    ) -> None:
        """A store took this payment, verified with the store (domain/app_stores/: nothing is charged here)."""
        self.check_open()
        self.trigger_event(
            StorePurchaseVerified,
            timestamp=at,
            store=store,
            transaction_id=transaction_id,
            original_transaction_id=original_transaction_id,
            product_id=product_id,
            environment=environment,
            paid_at=paid_at,
            commission_rate=commission_rate,
            commission=commission,
        )

    def record_store_refund(self, reason: str, at: datetime) -> int:
        """The store gave what it still held of this payment back; answers the amount (0: given back already)."""
        amount = self.amount - self.cancel_amount
        if self.state is not PaymentState.PAID or self.store is None or amount <= 0:
            return 0
        self.trigger_event(
            StoreRefunded,
            timestamp=at,
            store=self.store,
            amount=amount,
            cancel_amount=self.amount,
            reason=reason,
            refunded_at=at,
        )
        return amount

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

    @property
    def quote(self) -> Quote:
        """The quote the order was priced at (its amount is the payment's)."""
        return Quote(self.licence_id, self.country_code, self.currency, self.original_amount, self.discount_factors)

    @property
    def buyer_account_id(self) -> UUID:
        """The account that bought it: the one that ordered, or the account a guest's payment opened."""
        account_id = self.account_id or self.opened_account_id
        if account_id is None:
            raise ValueError(f"{self.merchant_uid} has no buyer account yet")
        return account_id

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
        """What can still go back to the customer: neither refunded, nor set aside for a refund in progress, nor
        spent on an upgrade."""
        if self.state is not PaymentState.PAID or self.store is not None:
            return 0
        reserved = self.pending_refund.amount if self.pending_refund is not None else 0
        return self.amount - self.cancel_amount - self.credit_spent - reserved

    @property
    def returnable(self) -> int:
        """What the gateway still holds of this paid payment and no refund has set aside, credit spent on an upgrade
        included: what giving back a licence as it was bought (its upgrades given back with it) may return."""
        if self.state is not PaymentState.PAID or self.store is not None:
            return 0
        reserved = self.pending_refund.amount if self.pending_refund is not None else 0
        return self.amount - self.cancel_amount - reserved

    @property
    def fully_refunded(self) -> bool:
        """Did all of the money come back (nothing of it left at the gateway)?"""
        return self.state is PaymentState.PAID and self.amount > 0 and self.cancel_amount >= self.amount

    @property
    def give_back_owed(self) -> int:
        """What the gateway took for this called-off payment and has not given back yet (as far as we know)."""
        return max(self.give_back - self.given_back, 0)

    # Refunds: reserve, call the gateway, record what it did (domain/payments/refunds.py).

    def reserve_refund(
        self,
        amount: int,
        *,
        reason: str,
        kind: RefundKind,
        at: datetime,
        actor_id: UUID | None = None,
        request_id: UUID | None = None,
        licence_effect: LicenceEffect = LicenceEffect.KEEP,
        shorten_to: datetime | None = None,
        spent_credit_too: bool = False,
    ) -> PendingRefund:
        """Set ``amount`` aside for a refund before the gateway is asked: -330 while another refund of this payment
        is in progress, -2 outside 1..refundable (1..returnable with ``spent_credit_too``: the licence goes back
        with the upgrade that spent the credit) or for a payment that was not paid here."""
        if self.state is not PaymentState.PAID or self.imp_uid is None or self.store is not None:
            raise DomainError(ErrorCode.INVALID_VALUE, f"cannot refund a {self.state.value} payment")
        if self.pending_refund is not None:
            raise DomainError(ErrorCode.REFUND_IN_PROGRESS, "a refund of this payment is in progress")
        most = self.returnable if spent_credit_too else self.refundable
        if not 0 < amount <= most:
            raise DomainError(ErrorCode.INVALID_VALUE, f"refund must be within 1..{most}")
        self.trigger_event(
            RefundReserved,
            timestamp=at,
            reservation_id=uuid4().hex,
            amount=amount,
            reason=reason,
            kind=kind.value,
            actor_id=actor_id,
            request_id=request_id,
            licence_effect=licence_effect.value,
            shorten_to=shorten_to,
            reserved_at=at,
        )
        assert self.pending_refund is not None
        return self.pending_refund

    def record_gateway_refunds(self, gateway_cancel_amount: int, outside_reason: str, at: datetime) -> RecordedRefund:
        """Record what the gateway has given back of this payment beyond what the log holds (its
        ``cancel_amount`` is cumulative): first the refund in progress, up to what it reserved (the rest of a
        reservation the gateway did not make is released when ``gateway_cancel_amount`` shows none of it), then
        anything more as a refund made outside the store."""
        pending = self.pending_refund
        unrecorded = gateway_cancel_amount - self.cancel_amount
        ours: int | None = None
        if pending is not None and unrecorded > 0:
            ours = min(unrecorded, pending.amount)
            self._refunded(ours, pending.reason, STORE, pending.reservation_id, at)
        outside = gateway_cancel_amount - self.cancel_amount
        if outside > 0:
            self._refunded(outside, outside_reason, GATEWAY, None, at)
        return RecordedRefund(ours, max(outside, 0), pending)

    def release_refund(self, reason: str, at: datetime) -> PendingRefund | None:
        """The refund in progress was not made at the gateway: its amount is refundable again (None: none was)."""
        pending = self.pending_refund
        if pending is not None:
            self.trigger_event(
                RefundReleased, timestamp=at, reservation_id=pending.reservation_id, reason=reason, released_at=at
            )
        return pending

    def _refunded(self, amount: int, reason: str, source: str, reservation_id: str | None, at: datetime) -> None:
        self.trigger_event(
            PaymentRefunded,
            timestamp=at,
            amount=amount,
            cancel_amount=self.cancel_amount + amount,
            reason=reason,
            refunded_at=at,
            source=source,
            reservation_id=reservation_id,
        )

    def record_given_back(self, gateway_cancel_amount: int, at: datetime) -> int:
        """Record what the gateway gave back of a payment we called off, up to what it took; returns it."""
        amount = min(gateway_cancel_amount, self.give_back) - self.given_back
        if self.state is PaymentState.CANCELLED and amount > 0:
            self.trigger_event(
                PaymentGivenBack,
                timestamp=at,
                amount=amount,
                cancel_amount=self.given_back + amount,
                given_back_at=at,
            )
            return amount
        return 0

    # A subscription's first charge, recorded before the gateway is asked (domain/subscriptions/charging.py).

    def note_first_charge(self, charge: FirstCharge, at: datetime) -> None:
        """Say that this (just ordered) payment is the first charge of ``charge.subscription_id``."""
        self.trigger_event(
            FirstChargeOrdered,
            timestamp=at,
            subscription_id=charge.subscription_id,
            customer_uid=charge.customer_uid,
            card_name=charge.card_name,
            card_number=charge.card_number,
        )

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

    def cancel(
        self, imp_uid: str | None, reason: str, error_code: ErrorCode | None, at: datetime, *, give_back: int = 0
    ) -> None:
        """We call it off: tampering, a coupon refused, an upgrade that lost its race, or an unpaid virtual account
        past its deadline; ``give_back`` is what the gateway took for it, which goes back
        (``domain/payments/give_back.py``).

        Only an open (ordered or reserved) payment is called off; a paid one goes back through a refund, so a late
        report of another attempt at the same order cannot undo it.
        """
        if self.state not in (PaymentState.ORDERED, PaymentState.RESERVED):
            return
        code = error_code.value if error_code is not None and isinstance(error_code.value, int) else None
        self.trigger_event(
            PaymentCancelled,
            timestamp=at,
            imp_uid=imp_uid,
            reason=reason,
            error_code=code,
            cancelled_at=at,
            give_back=max(give_back, 0),
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
        self.opened_account_id: UUID | None = None
        self.ordered_at: datetime = event.timestamp
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
        self.store: str | None = None  # the app store that took the money (domain/app_stores/), None when paid here
        self.pending_refund: PendingRefund | None = None
        self.refunds_reserved: dict[str, PendingRefund] = {}  # every reservation by id: what each refund decided
        self.give_back = 0
        self.given_back = 0
        self.first_charge: FirstCharge | None = None
        self.cancel_code: ErrorCode | None = None

    @when.register
    def _succeeded(self, event: PaymentSucceeded) -> None:
        self.state = PaymentState.PAID
        self.imp_uid = event.imp_uid
        self.paid_at = event.paid_at
        self.settled_at = event.timestamp
        self.pay_method, self.pg_provider = event.pay_method, event.pg_provider
        self.card_name, self.card_number = event.card_name, event.card_number

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
        self.give_back = event.give_back
        self.cancel_code = ErrorCode.for_value(event.error_code) if event.error_code is not None else None

    @when.register
    def _given_back(self, event: PaymentGivenBack) -> None:
        self.given_back = event.cancel_amount

    @when.register
    def _refund_reserved(self, event: RefundReserved) -> None:
        self.pending_refund = self.refunds_reserved[event.reservation_id] = PendingRefund(
            event.reservation_id,
            event.amount,
            event.reason,
            RefundKind(event.kind),
            event.actor_id,
            event.request_id,
            LicenceEffect(event.licence_effect),
            event.shorten_to,
            event.reserved_at,
        )

    @when.register
    def _refund_released(self, event: RefundReleased) -> None:
        if self.pending_refund is not None and self.pending_refund.reservation_id == event.reservation_id:
            self.pending_refund = None

    @when.register
    def _refunded_event(self, event: PaymentRefunded) -> None:
        self.cancel_amount = event.cancel_amount
        if self.pending_refund is not None and self.pending_refund.reservation_id == event.reservation_id:
            self.pending_refund = None

    @when.register
    def _first_charge_ordered(self, event: FirstChargeOrdered) -> None:
        self.first_charge = FirstCharge(event.subscription_id, event.customer_uid, event.card_name, event.card_number)

    @when.register
    def _buyer_account_opened(self, event: BuyerAccountOpened) -> None:
        self.opened_buyer_account = True
        self.opened_account_id = event.account_id

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
        self.store = "app-store"

    @when.register
    def _store_purchase(self, event: StorePurchaseVerified) -> None:
        self.state = PaymentState.PAID
        self.paid_at = event.paid_at
        self.settled_at = event.timestamp
        self.store = event.store
        self.pay_method = self.pg_provider = event.store
        if event.store == "app-store":  # the spec's Apple transaction id (isDisableUpgrade)
            self.apple_transaction_id = event.transaction_id

    @when.register
    def _store_refunded(self, event: StoreRefunded) -> None:
        self.cancel_amount = event.cancel_amount

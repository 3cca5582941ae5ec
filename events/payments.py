"""Events of the payment aggregate: one per merchantUid, from order to refund."""

from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from uuid import UUID

from events.contract import StoredCreation, StoredEvent
from events.values import Currency, DiscountRecord, Language


class PaymentOrdered(StoredCreation):
    """A customer (or a guest, by email) started buying a licence; the amount is fixed here.

    ``original_amount`` is the list price and ``discount_factors`` the discounts that brought it
    down to ``amount``, in the order they applied: ``[{"type": "base", "factor": Decimal("0.3")}]``.
    ``user_licence_id`` names the licence a charge is for when it exists already (a subscription's
    charges); a new purchase's licence is granted when the payment settles. ``coupon_code`` is the
    coupon or promotion code the order was priced with (its factor is the ``coupon`` discount), and
    ``buyer_country`` the country the buyer asked for (``country_code`` is the price's, after fallback), and
    ``language`` the language of the page the order was placed on (its mails and a guest's account use it).
    """

    TOPIC = "payment.Ordered"
    class_version = 4
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
    discount_factors: list[DiscountRecord]
    user_licence_id: UUID | None
    coupon_code: str | None
    buyer_country: str
    language: Language | None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 did not record its discounts nor its licence. The only discount then was the catalogue's base
        discount (0.3 on annual licences), charged rounded down, so it is read back from the amounts
        to two decimal places; a payment charged at its list price had none."""
        state["user_licence_id"] = None
        original, amount = int(state["original_amount"]), int(state["amount"])
        if original <= 0 or amount >= original:
            state["discount_factors"] = []
            return
        rate = (Decimal(original - amount) / Decimal(original)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        state["discount_factors"] = [{"type": "base", "factor": rate}]

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Version 2 was written before coupons existed: no order carried a code, and the buyer's country
        was not kept apart from the price's."""
        state["coupon_code"] = None
        state["buyer_country"] = state["country_code"]

    @staticmethod
    def upcast_v3_v4(state: dict[str, Any]) -> None:
        """Version 3 did not keep the order's language: its mails follow the buyer's account, as they did."""
        state["language"] = None


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
    """We called it off: tampering detected, a coupon refused, an upgrade that lost its race, or a virtual account
    unpaid at its deadline. ``give_back`` is what the gateway took for it and must give back (0 when it took
    nothing); ``payment.GivenBack`` records what it gave back."""

    TOPIC = "payment.Cancelled"
    class_version = 2
    imp_uid: str | None
    reason: str
    error_code: int | None
    cancelled_at: datetime
    give_back: int

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 gave the money back without recording it: nothing is owed by the log's account."""
        state["give_back"] = 0


class PaymentGivenBack(StoredEvent):
    """The gateway gave back money it took for a payment we called off; ``cancel_amount`` is the gateway's total."""

    TOPIC = "payment.GivenBack"
    amount: int
    cancel_amount: int
    given_back_at: datetime


class RefundReserved(StoredEvent):
    """A refund was decided and its amount set aside before the gateway is asked (so the same money cannot be spent
    on an upgrade or refunded twice meanwhile). ``kind`` says who decided it (``money-back``, ``staff``,
    ``approval``, ``operator``, ``unwanted-charge``), ``actor_id`` the staff member, ``request_id`` the refund
    request it settles; ``licence_effect`` what the refund does to the licence (``revoke``, ``shorten`` to
    ``shorten_to``, ``keep``). ``payment.Refunded`` or ``payment.RefundReleased`` closes it."""

    TOPIC = "payment.RefundReserved"
    reservation_id: str
    amount: int
    reason: str
    kind: str
    actor_id: UUID | None
    request_id: UUID | None
    licence_effect: str
    shorten_to: datetime | None
    reserved_at: datetime


class RefundReleased(StoredEvent):
    """A reserved refund the gateway did not make (it refused, or it had made none when read back): the amount is
    refundable again."""

    TOPIC = "payment.RefundReleased"
    reservation_id: str
    reason: str
    released_at: datetime


class PaymentRefunded(StoredEvent):
    """Money went back to the customer (full or partial); ``cancel_amount`` is cumulative, as the gateway counts it.

    ``source`` says who made it: ``store`` (a refund this store reserved, ``reservation_id``) or ``gateway`` (a
    refund made outside the store, in PortOne's console say, found when the payment was read back)."""

    TOPIC = "payment.Refunded"
    class_version = 2
    amount: int
    cancel_amount: int
    reason: str
    refunded_at: datetime
    source: str
    reservation_id: str | None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 recorded only the store's own refunds."""
        state["source"] = "store"
        state["reservation_id"] = None


class BuyerAccountOpened(StoredEvent):
    """Settling the payment opened a passwordless account for the guest who paid (so a repeated
    confirm can still say the purchase created it)."""

    TOPIC = "payment.BuyerAccountOpened"
    account_id: UUID


class UpgradeOrdered(StoredEvent):
    """This payment upgrades an existing licence: from which plan, to which, and the credit it got.

    ``credit`` (in the payment's currency) is the unused value of ``credited_merchant_uid``'s period,
    taken off the target's quote as its remaining step, so ``amount`` = quote less exactly ``credit``.
    """

    TOPIC = "payment.UpgradeOrdered"
    user_licence_id: UUID
    from_licence_id: int
    from_life: int
    from_max_devices_count: int
    to_licence_id: int
    credit: int
    currency: Currency
    credited_merchant_uid: str


class CreditSpent(StoredEvent):
    """Part of this payment's value moved into an upgrade as its credit; it can no longer be refunded."""

    TOPIC = "payment.CreditSpent"
    amount: int
    upgrade_merchant_uid: str


class AppStorePurchaseRecorded(StoredEvent):
    """Support recorded a purchase the customer made in Apple's App Store (paid to Apple, not here)."""

    TOPIC = "payment.AppStorePurchaseRecorded"
    apple_transaction_id: str
    paid_at: datetime


class FirstChargeOrdered(StoredEvent):
    """This payment is the first charge of a subscription that starts once it is paid: recorded before the gateway
    is asked, so a charge whose answer is lost is found again (by the customer's retry or the pass that settles
    pending payments) and never made twice. ``customer_uid`` is the billing key charged."""

    TOPIC = "payment.FirstChargeOrdered"
    subscription_id: UUID
    customer_uid: str
    card_name: str | None
    card_number: str | None


class MoneyBackClaimed(StoredCreation):
    """A customer (the mailbox: the aggregate's id is derived from the address and the product) was given the 30-day
    money-back guarantee for a product: it is given once per customer and product (docs/money-back.md)."""

    TOPIC = "moneyback.Claimed"
    account_id: UUID
    user_licence_id: UUID
    product_code: str


class StorePurchaseVerified(StoredEvent):
    """A purchase made in an app store (``store``: ``app-store`` or ``google-play``) was verified with the store and
    recorded as this payment: the store took the money (nothing is charged or refunded here). ``transaction_id`` is
    the store's id of this charge, ``original_transaction_id`` the purchase's across its renewals; ``commission`` is
    what the store keeps of ``amount`` at ``commission_rate`` (the setting of the day), so the ledger counts the
    store's revenue net of it."""

    TOPIC = "payment.StorePurchaseVerified"
    store: str
    transaction_id: str
    original_transaction_id: str
    product_id: str
    environment: str
    paid_at: datetime
    commission_rate: Decimal
    commission: int


class StoreRefunded(StoredEvent):
    """The store gave this payment's money back (the customer asked Apple or Google): ``cancel_amount`` is what it
    has given back in all."""

    TOPIC = "payment.StoreRefunded"
    store: str
    amount: int
    cancel_amount: int
    reason: str
    refunded_at: datetime

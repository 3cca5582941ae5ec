"""Events of a subscription: a licence that renews itself through a billing key."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from events.contract import StoredCreation, StoredEvent
from events.values import Currency, DiscountRecord


class SubscriptionStarted(StoredCreation):
    """The first period was paid with a billing key; renewals follow every ``life`` days.

    Each renewal is charged ``amount``: ``list_price`` in ``country_code`` less ``discount_factors``
    (the quote the subscription renews at; a first-period-only discount is not among them).
    """

    TOPIC = "subscription.Started"
    class_version = 3
    account_id: UUID
    user_licence_id: UUID
    licence_id: int
    name: str
    life: int
    amount: int
    currency: Currency
    customer_uid: str
    card_name: str | None
    card_number: str | None
    first_merchant_uid: str
    period_start: datetime
    paid_until: datetime
    list_price: int
    country_code: str
    discount_factors: list[DiscountRecord]
    catalogue_version: int

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 kept only the amount: its renewals read as charged at list price, as they were recorded."""
        state["list_price"] = state["amount"]
        state["country_code"] = ""
        state["discount_factors"] = []

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Version 2 was written before the catalogue had versions: it was priced under the shipped one, version 1."""
        state["catalogue_version"] = 1


class SubscriptionRenewed(StoredEvent):
    """Period ``period`` was charged and paid; the licence now runs to ``paid_until``."""

    TOPIC = "subscription.Renewed"
    period: int
    merchant_uid: str
    imp_uid: str
    amount: int
    paid_at: datetime
    paid_until: datetime


class RenewalFailed(StoredEvent):
    """Charging period ``period`` failed; ``retry_at`` is the next dunning attempt (None: no more)."""

    TOPIC = "subscription.RenewalFailed"
    period: int
    attempt: int
    merchant_uid: str
    reason: str
    retry_at: datetime | None


class AutoRenewalCancelled(StoredEvent):
    """The customer stopped auto-renewal; the licence runs to the end of the paid period, ``runs_out_at``.

    ``reasons`` (codes of ``domain.subscriptions.exit.EXIT_REASONS``) and ``comment`` are what the subscriber
    answered when asked why (both optional); ``offer_declined`` says the one retention offer was shown and
    declined in this cancellation."""

    TOPIC = "subscription.AutoRenewalCancelled"
    class_version = 3
    cancelled_at: datetime
    runs_out_at: datetime | None
    reasons: list[str]
    comment: str
    offer_declined: bool

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 left the end implicit: it is the paid period's end, which readers already know."""
        state["runs_out_at"] = None

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Version 2 asked nothing: no reasons, no comment, no offer shown."""
        state["reasons"] = []
        state["comment"] = ""
        state["offer_declined"] = False


class RenewalReminded(StoredEvent):
    """The subscriber is to be told (by mail) that period ``period`` will be charged ``amount`` at ``renews_at``;
    recorded once per period, ``lead_days`` before the charge (``domain.subscriptions.reminders``)."""

    TOPIC = "subscription.RenewalReminded"
    period: int
    renews_at: datetime
    amount: int
    currency: Currency
    lead_days: int


class RetentionOfferAccepted(StoredEvent):
    """Asked why they were leaving, the subscriber took the one retention offer instead: ``coupon_code`` (of the
    retention coupon group ``group_id``) takes ``factor`` off the next period's charge; auto-renewal stays on.
    ``reasons`` and ``comment`` are what they answered."""

    TOPIC = "subscription.RetentionOfferAccepted"
    coupon_code: str
    group_id: UUID
    factor: Decimal
    reasons: list[str]
    comment: str


class RetentionCouponSpent(StoredEvent):
    """The retention coupon ``coupon_code`` discounted the charge ``merchant_uid`` (period ``period``): later
    periods are charged the subscription's own price again."""

    TOPIC = "subscription.RetentionCouponSpent"
    coupon_code: str
    period: int
    merchant_uid: str


class AutoRenewalResumed(StoredEvent):
    """The customer turned auto-renewal back on before the paid period ended; it renews at ``renews_at``."""

    TOPIC = "subscription.AutoRenewalResumed"
    class_version = 2
    resumed_at: datetime
    renews_at: datetime | None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 left the next charge implicit: the paid period's end, which readers already know."""
        state["renews_at"] = None


class PaymentMethodChanged(StoredEvent):
    """Renewals now charge another billing key."""

    TOPIC = "subscription.PaymentMethodChanged"
    customer_uid: str
    card_name: str | None
    card_number: str | None


class SubscriptionEnded(StoredEvent):
    """No more renewals: cancelled and run out, or dunning gave up."""

    TOPIC = "subscription.Ended"
    reason: str
    ended_at: datetime


class SubscriptionResubscribed(StoredEvent):
    """An ended subscription was started again with a fresh paid period."""

    TOPIC = "subscription.Resubscribed"
    period: int
    merchant_uid: str
    imp_uid: str
    customer_uid: str
    period_start: datetime
    paid_until: datetime


class ResubscribeFailed(StoredEvent):
    """Charging the first period of a re-subscription failed; the subscription stays ended."""

    TOPIC = "subscription.ResubscribeFailed"
    merchant_uid: str
    reason: str


class PastDuePaymentFailed(StoredEvent):
    """The subscriber's own attempt to pay a past-due period failed; the dunning schedule is unchanged."""

    TOPIC = "subscription.PastDuePaymentFailed"
    period: int
    merchant_uid: str
    reason: str


class SubscriptionUpgraded(StoredEvent):
    """The subscription moved to a bigger plan now: ``period`` starts at ``period_start`` and is paid until
    ``paid_until`` by ``merchant_uid`` (the new plan's first period less the old one's unused value,
    ``credit``). Renewals charge the new plan's quote (``list_price`` less ``discount_factors``: ``renewal_amount``)
    on its cycle."""

    TOPIC = "subscription.Upgraded"
    period: int
    merchant_uid: str
    imp_uid: str
    licence_id: int
    name: str
    life: int
    amount: int
    credit: int
    list_price: int
    country_code: str
    discount_factors: list[DiscountRecord]
    renewal_amount: int
    period_start: datetime
    paid_until: datetime


class SubscriptionUpgradeFailed(StoredEvent):
    """The gateway refused the charge of an upgrade; the subscription stays on its plan."""

    TOPIC = "subscription.UpgradeFailed"
    merchant_uid: str
    reason: str


class SubscriptionReplacedByLifetime(StoredEvent):
    """The subscriber upgraded to a lifetime licence: ``merchant_uid`` charged ``amount`` (the lifetime plan's quote
    less ``credit``, the unused value of the period running then) with the subscription's key, the licence became
    the lifetime plan ``licence_id`` valid until ``expires_at``, and the subscription ended: it never charges
    again and cannot be resumed or re-subscribed."""

    TOPIC = "subscription.ReplacedByLifetime"
    period: int
    merchant_uid: str
    imp_uid: str
    licence_id: int
    name: str
    life: int
    amount: int
    credit: int
    ended_at: datetime
    expires_at: datetime


class SubscriptionPriceRiseNoticed(StoredEvent):
    """The subscriber was told (by the mail this event sends) that catalogue version ``catalogue_version`` raises
    their plan from ``previous_amount`` to ``amount`` (``list_price`` in ``country_code`` less ``discount_factors``)
    from ``effective_at``. Retired (no longer recorded): a notice was taken as consent 30 days after
    ``noticed_at``, which Korea's E-Commerce Act Art. 13(6) forbids; a rise is now asked
    (``SubscriptionPriceRiseAsked``) and a notice counts for nothing."""

    TOPIC = "subscription.PriceRiseNoticed"
    catalogue_version: int
    licence_id: int
    country_code: str
    currency: str
    list_price: int
    discount_factors: list[DiscountRecord]
    amount: int
    previous_amount: int
    effective_at: datetime
    noticed_at: datetime


class SubscriptionRepriced(StoredEvent):
    """From period ``period`` on, the subscription renews at catalogue version ``catalogue_version``'s price:
    ``list_price`` in ``country_code`` less ``discount_factors`` (``amount``), by docs/catalogue.md's rule."""

    TOPIC = "subscription.Repriced"
    period: int
    catalogue_version: int
    list_price: int
    country_code: str
    discount_factors: list[DiscountRecord]
    amount: int


class SubscriptionPriceRiseAsked(StoredEvent):
    """The subscriber is asked (by the mail this event sends, and a notice on their licence page) to consent to
    catalogue version ``catalogue_version``'s price: ``amount`` (``list_price`` in ``country_code`` less
    ``discount_factors``) instead of ``previous_amount``, from the first renewal due on or after ``applies_from``
    (``changes_at`` as the subscription stood when asked). ``kind``: ``price-rise``, or ``free-to-paid`` (a rise from
    0). Under docs/catalogue.md's rule the new price is charged only once they agree; a subscriber who has not agreed
    by the change is not charged it, and auto-renewal stops at the end of the paid period."""

    TOPIC = "subscription.PriceRiseAsked"
    account_id: UUID
    user_licence_id: UUID
    kind: str
    catalogue_version: int
    licence_id: int
    country_code: str
    currency: str
    list_price: int
    discount_factors: list[DiscountRecord]
    amount: int
    previous_amount: int
    effective_at: datetime
    applies_from: datetime
    changes_at: datetime
    asked_at: datetime


class SubscriptionPriceRiseAgreed(StoredEvent):
    """The subscriber agreed, on their licence page, to the price asked for by version ``catalogue_version``
    (``amount``): the renewal at the change charges it."""

    TOPIC = "subscription.PriceRiseAgreed"
    catalogue_version: int
    amount: int
    agreed_at: datetime


class SubscriptionPriceRiseDeclined(StoredEvent):
    """The subscriber declined the price asked for by version ``catalogue_version`` (``amount``) and stopped
    auto-renewal instead; they are not asked again, nor reminded, for 7 days."""

    TOPIC = "subscription.PriceRiseDeclined"
    catalogue_version: int
    amount: int
    declined_at: datetime


class SubscriptionPriceRiseReminded(StoredEvent):
    """The one reminder (the mail this event sends) of a request not agreed to: the change at ``changes_at`` to
    ``amount`` needs their consent, or auto-renewal stops then."""

    TOPIC = "subscription.PriceRiseReminded"
    catalogue_version: int
    amount: int
    previous_amount: int
    changes_at: datetime
    reminded_at: datetime


class SubscriptionPriceRiseLapsed(StoredEvent):
    """The renewal at ``changes_at`` would have charged ``amount`` (version ``catalogue_version``) instead of
    ``previous_amount``, and the subscriber had not agreed: nothing was charged, and auto-renewal stopped at the end of
    the paid period (a ``subscription.Ended`` follows; the mail this event sends says so)."""

    TOPIC = "subscription.PriceRiseLapsed"
    catalogue_version: int
    amount: int
    previous_amount: int
    changes_at: datetime
    lapsed_at: datetime

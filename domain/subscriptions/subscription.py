"""The subscription aggregate and its billing rules.

Periods are numbered from 1 and are contiguous within a run: period n+1 starts
where period n ended, however late its charge succeeded, so the licence's expiry
is always the end of the last paid period.

Every charge is a ``ChargeAttempt`` the aggregate decides, with a deterministic
merchantUid, so a retried task, a crash, two workers or a double click can never
charge one attempt twice:

- the first period: ``sub-<id>-1-1``;
- a renewal or a retry of it, scheduled or asked for by the subscriber ("pay now"):
  ``sub-<id>-<period>-<n>``, n counting the attempts made for that period, so a
  scheduled retry racing the subscriber's own payment shares one order id;
- a re-subscription after the end: ``sub-<id>-<period>-r<n>``;
- an upgrade: ``sub-<id>-<period>-u<n>``. An upgrade to another subscription plan starts its first
  period now; an upgrade to a lifetime plan ends the subscription for good (the licence is bought).

A failed scheduled attempt moves dunning on (retries 1, 3 and 7 days after the due
date, then the subscription ends); a failed attempt of the subscriber's own leaves
the dunning schedule as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import Decimal
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.domain import Aggregate

from domain.catalogue.licences import LIFETIME_DAYS, MONTH_DAYS, YEAR_DAYS
from domain.catalogue.versions import CatalogueVersions
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action
from domain.licences.licence import LicenceTerms
from domain.payments.gateway import GatewayPayment, GatewayStatus
from domain.payments.wallet import BillingKey
from domain.pricing.quotes import DiscountFactor, DiscountKind, Quote, factors_from_records
from domain.subscriptions.price_rule import (
    Answer,
    DueAsk,
    PriceRiseAsk,
    RiseKind,
    applies_from,
    first_renewal_from,
    renewal_price,
)
from domain.subscriptions.price_rule import (
    reminder_due as price_rise_reminder_due,
)
from domain.subscriptions.reminders import reminder_due, reminder_lead
from events.subscriptions import (
    AutoRenewalCancelled,
    AutoRenewalResumed,
    PastDuePaymentFailed,
    PaymentMethodChanged,
    RenewalFailed,
    RenewalReminded,
    ResubscribeFailed,
    RetentionCouponSpent,
    RetentionOfferAccepted,
    SubscriptionEnded,
    SubscriptionPriceRiseAgreed,
    SubscriptionPriceRiseAsked,
    SubscriptionPriceRiseDeclined,
    SubscriptionPriceRiseLapsed,
    SubscriptionPriceRiseNoticed,
    SubscriptionPriceRiseReminded,
    SubscriptionRenewed,
    SubscriptionReplacedByLifetime,
    SubscriptionRepriced,
    SubscriptionResubscribed,
    SubscriptionStarted,
    SubscriptionUpgraded,
    SubscriptionUpgradeFailed,
)
from events.values import Currency

# Retries after a failed renewal, counted from the period's due date; then the subscription ends.
DUNNING_SCHEDULE = (timedelta(days=1), timedelta(days=3), timedelta(days=7))


def period_length(life_days: int) -> timedelta:
    """Spec section 9: a life of 365 days renews yearly (365 days), anything else every 30 days."""
    return timedelta(days=YEAR_DAYS) if life_days == YEAR_DAYS else timedelta(days=MONTH_DAYS)


class SubscriptionStatus(Enum):
    """Active (renews), cancelled (runs to the end of the paid period), past due (dunning), ended."""

    ACTIVE = "active"
    CANCELLED = "cancelled"
    PAST_DUE = "past_due"
    ENDED = "ended"

    @property
    def is_scheduled(self) -> bool:
        """Will a subscription in this status charge again by itself (spec: isScheduled)?"""
        return self in (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE)


def subscription_actions(
    status: SubscriptionStatus,
    paid_until: datetime,
    now: datetime,
    licence_state: str = "active",
    *,
    replaced_by_lifetime: bool = False,
) -> set[Action]:
    """What a subscriber may do now.

    Renewing: stop auto-renewal or change the card. Past due: also pay now (changing the card pays
    too). Cancelled within the paid period: resume (or change the card for when it resumes); after
    it: re-subscribe. Ended: re-subscribe. Nothing once its licence was refunded (revoked), nor once
    the subscription was replaced by a lifetime licence.
    """
    if licence_state != "active" or replaced_by_lifetime:
        return set()
    if status is SubscriptionStatus.ACTIVE:
        return {Action.CANCEL_AUTO_RENEWAL, Action.CHANGE_PAYMENT_METHOD}
    if status is SubscriptionStatus.PAST_DUE:
        return {Action.CANCEL_AUTO_RENEWAL, Action.CHANGE_PAYMENT_METHOD, Action.PAY_NOW}
    if status is SubscriptionStatus.CANCELLED and now < paid_until:
        return {Action.RESUME, Action.CHANGE_PAYMENT_METHOD}
    return {Action.RESUBSCRIBE}


def with_subscription(licence_actions: set[Action], status: SubscriptionStatus) -> set[Action]:
    """A subscription licence's own actions as its subscription allows them: it upgrades only while renewing
    (a cancelled or past-due one resumes or pays first)."""
    if status is SubscriptionStatus.ACTIVE:
        return set(licence_actions)
    return licence_actions - {Action.UPGRADE}


class ChargeKind(Enum):
    """Why a subscription charges its billing key."""

    FIRST = "first"
    RENEWAL = "renewal"
    RETRY = "retry"
    PAY_NOW = "pay-now"
    RESUBSCRIPTION = "resubscription"
    UPGRADE = "upgrade"

    @property
    def purchase_type(self) -> str:
        """How the purchase history names a charge of this kind."""
        named = {
            ChargeKind.FIRST: "subscription",
            ChargeKind.RESUBSCRIPTION: "resubscribe",
            ChargeKind.UPGRADE: "upgrade",
        }
        return named.get(self, "renewal")


@dataclass(frozen=True)
class UpgradeTarget:
    """What an upgrade charge moves the subscription to, and the credit its quote took off."""

    terms: LicenceTerms
    credit: int
    credited_merchant_uid: str


@dataclass(frozen=True)
class ChargeAttempt:
    """One charge the subscription decided to make: which period, under which order id, on which key."""

    kind: ChargeKind
    period: int
    merchant_uid: str
    customer_uid: str
    quote: Quote
    card_name: str | None = None  # the card's mask, when the attempt charges another key than the current one
    card_number: str | None = None
    upgrade: UpgradeTarget | None = None  # an upgrade charge's target plan
    catalogue_version: int = 0  # the catalogue version ``quote`` was priced under (0: not known)

    @property
    def amount(self) -> int:
        """What the gateway is asked for."""
        return self.quote.amount

    def is_paid_by(self, charge: GatewayPayment) -> bool:
        """Did the gateway take exactly what this attempt asked for?"""
        return charge.status is GatewayStatus.PAID and charge.amount == self.amount


@dataclass(frozen=True)
class NextRenewal:
    """When a subscription's next renewal falls due, what it charges, and the catalogue version that prices it."""

    due_at: datetime
    quote: Quote
    catalogue_version: int
    awaiting: PriceRiseAsk | None = None  # a higher price not agreed to: nothing is charged, auto-renewal stops

    @property
    def amount(self) -> int:
        """What the renewal charges (when ``awaiting``: only if the subscriber agrees first)."""
        return self.quote.amount


def order_id(subscription_id: UUID, period: int, attempt: int | str) -> str:
    """The order id (merchantUid) of one charge attempt of a subscription."""
    return f"sub-{subscription_id.hex[:16]}-{period}-{attempt}"


class Subscription(Aggregate):
    """A licence that renews itself every period through a billing key."""

    replaced_by_lifetime = False  # set for good when the subscriber upgrades to a lifetime plan
    reminded_period = 0  # the last period whose renewal the subscriber was reminded of
    retention_offer_used = False  # the one retention offer was taken or declined (docs/subscriptions.md)
    retention_coupon: tuple[str, Decimal] | None = None  # an accepted offer's code and factor, until a charge uses it
    catalogue_version = 1  # the catalogue version the renewal quote was priced under
    price_asks: tuple[PriceRiseAsk, ...] = ()  # requests for consent to a higher price since the price last moved
    declined_at: datetime | None = None  # when the subscriber last declined a higher price (7 quiet days follow)

    @staticmethod
    def id_for_window_key(customer_uid: str) -> UUID:
        """One subscription per billing key a PG window issued, so a repeated return starts nothing new."""
        return uuid5(NAMESPACE_URL, f"/subscriptions/window/{customer_uid}")

    @staticmethod
    def first_charge(
        subscription_id: UUID, customer_uid: str, quote: Quote, catalogue_version: int = 0
    ) -> ChargeAttempt:
        """The charge of the first period of a subscription not started yet (``quote`` priced under
        ``catalogue_version``)."""
        return ChargeAttempt(
            ChargeKind.FIRST,
            1,
            order_id(subscription_id, 1, 1),
            customer_uid,
            quote,
            catalogue_version=catalogue_version,
        )

    @classmethod
    def start(
        cls,
        *,
        attempt: ChargeAttempt,
        subscription_id: UUID,
        account_id: UUID,
        user_licence_id: UUID,
        name: str,
        life: int,
        card_name: str | None,
        card_number: str | None,
        at: datetime,
    ) -> Subscription:
        """The first period was paid (``attempt``): the subscription runs from ``at`` for one period and
        renews at the same quote, less any coupon (a coupon discounts the first period only)."""
        if attempt.kind is not ChargeKind.FIRST:
            raise ValueError("a subscription starts with its first charge")
        quote = attempt.quote.with_coupon(Decimal(0))
        return cls._create(
            SubscriptionStarted,
            id=subscription_id,
            timestamp=at,
            account_id=account_id,
            user_licence_id=user_licence_id,
            licence_id=quote.licence_id,
            name=name,
            life=life,
            amount=quote.amount,
            currency=quote.currency,
            customer_uid=attempt.customer_uid,
            card_name=card_name,
            card_number=card_number,
            first_merchant_uid=attempt.merchant_uid,
            period_start=at,
            paid_until=at + period_length(life),
            list_price=quote.list_price,
            country_code=quote.country_code,
            discount_factors=quote.factor_records(),
            catalogue_version=attempt.catalogue_version or 1,
        )

    @staticmethod
    def new_id() -> UUID:
        """An id for a subscription started with a key from the wallet."""
        return uuid4()

    # What the subscription says about itself.

    @property
    def is_scheduled(self) -> bool:
        """Will the subscription charge again by itself (spec: isScheduled)?"""
        return self.status.is_scheduled

    @property
    def next_charge_at(self) -> datetime | None:
        """When the next charge attempt is due (None when nothing will be charged)."""
        if self.status is SubscriptionStatus.ACTIVE:
            return self.paid_until
        if self.status is SubscriptionStatus.PAST_DUE:
            return self.retry_at
        return None

    @property
    def due_at(self) -> datetime | None:
        """When the renewal pass must look at this subscription next: a charge, a retry, or (cancelled)
        the end of the paid period, when it ends."""
        if self.status is SubscriptionStatus.CANCELLED:
            return self.paid_until
        return self.next_charge_at

    @property
    def renewal_quote(self) -> Quote:
        """What the next period's charge costs: the subscription's own quote, less an accepted retention offer's
        coupon (the last discount step, as any coupon) until a paid charge has used it. The one place a renewal's
        price is decided."""
        return self._with_retention(self.own_quote)

    @property
    def own_quote(self) -> Quote:
        """The subscription's own price for a period, without a retention offer's coupon: the price the renewal
        price rule keeps or moves, and price-rise notices compare against."""
        return Quote(self.licence_id, self.country_code, self.currency, self.list_price, self.discount_factors)

    def _with_retention(self, quote: Quote) -> Quote:
        if self.retention_coupon is not None:
            return quote.with_coupon(self.retention_coupon[1])
        return quote

    def next_renewal(self, versions: CatalogueVersions) -> NextRenewal | None:
        """THE answer to "what will this subscription's next renewal charge, and when": the licence page, the API,
        the reminder mail, the retention offer and the renewal's charge (``priced``) all ask it. None when nothing
        will be charged by itself (cancelled, ended). The price is the renewal price rule's
        (``domain.subscriptions.price_rule``) at the renewal's due date, less an accepted retention offer's coupon;
        a retry of a past-due renewal charges what the renewal cost when it fell due."""
        if not self.is_scheduled:
            return None
        return self._renewal_due(self.paid_until, versions)

    def _renewal_due(self, due_at: datetime, versions: CatalogueVersions) -> NextRenewal:
        decided = renewal_price(
            self.own_quote, self.catalogue_version, versions.in_force(due_at), self.price_asks, due_at
        )
        # An accepted retention offer's coupon comes off whichever price the rule gave, as its last step.
        return NextRenewal(due_at, self._with_retention(decided.quote), decided.catalogue_version, decided.awaiting)

    @property
    def renews_at(self) -> datetime | None:
        """When the next period is charged by itself, if the subscription renews (a retry is no renewal)."""
        return self.paid_until if self.status is SubscriptionStatus.ACTIVE else None

    # The reminder before a renewal (domain/subscriptions/reminders.py).

    def remind_renewal(self, now: datetime, versions: CatalogueVersions) -> bool:
        """Record the reminder of the next renewal, at the price it will charge (``next_renewal``), when it falls
        due and was not recorded for that period; True when recorded now."""
        renews_at = self.renews_at
        if renews_at is None or self.reminded_period > self.period:
            return False
        length = period_length(self.life)
        if not reminder_due(renews_at, length, now):
            return False
        renewal = self.next_renewal(versions)
        assert renewal is not None
        if renewal.awaiting is not None:
            return False  # no renewal will charge unless they agree: the price rise's own reminder says so
        quote = renewal.quote
        self.trigger_event(
            RenewalReminded,
            timestamp=now,
            period=self.period + 1,
            renews_at=renews_at,
            amount=quote.amount,
            currency=quote.currency,
            lead_days=reminder_lead(length).days,
        )
        return True

    # The honest exit: one retention offer, at most (domain/subscriptions/exit.py).

    @property
    def retention_offer_open(self) -> bool:
        """May the subscriber be shown the retention offer now? Only while renewing, and only once: after it was
        taken or declined, stopping auto-renewal asks only why."""
        return self.status is SubscriptionStatus.ACTIVE and not self.retention_offer_used

    def accept_retention_offer(
        self, *, code: str, group_id: UUID, factor: Decimal, reasons: list[str], comment: str, at: datetime
    ) -> None:
        """Take the retention offer: the next period is charged less ``factor`` and auto-renewal stays on (-612
        when the offer was taken or declined before, -604 when the subscription does not renew)."""
        if self.retention_offer_used:
            raise DomainError(ErrorCode.PROMOTION_ALREADY_USED, "the retention offer was already answered")
        if not self.retention_offer_open:
            raise DomainError(ErrorCode.CODE_CANNOT_BE_USED, "only a renewing subscription is offered to stay")
        self.trigger_event(
            RetentionOfferAccepted,
            timestamp=at,
            coupon_code=code,
            group_id=group_id,
            factor=factor,
            reasons=list(reasons),
            comment=comment,
        )

    def allowed_actions(self, now: datetime, licence_state: str = "active") -> set[Action]:
        """What the subscriber may do now (``licence_state``: the state of the licence it keeps alive); nothing
        once the subscription was replaced by a lifetime licence."""
        return subscription_actions(
            self.status, self.paid_until, now, licence_state, replaced_by_lifetime=self.replaced_by_lifetime
        )

    # Charges the subscription decides.

    def due_charge(self, now: datetime) -> ChargeAttempt | None:
        """The scheduled charge due at ``now``: the renewal, or the next dunning retry."""
        due = self.next_charge_at
        if due is None or now < due:
            return None
        kind = ChargeKind.RETRY if self.status is SubscriptionStatus.PAST_DUE else ChargeKind.RENEWAL
        return self._next_period_charge(kind)

    def pay_now_charge(self, key: BillingKey | None = None) -> ChargeAttempt:
        """The subscriber pays the past-due period now (with another billing key when given)."""
        if self.status is not SubscriptionStatus.PAST_DUE:
            raise DomainError(ErrorCode.NOTHING_PAST_DUE, "nothing is past due")
        return self._next_period_charge(ChargeKind.PAY_NOW, key)

    def resubscription_charge(self, now: datetime, key: BillingKey | None = None) -> ChargeAttempt:
        """A new run after the end (or after a cancelled subscription's paid period ran out)."""
        if self.replaced_by_lifetime:
            raise DomainError(ErrorCode.SUBSCRIPTION_NOT_ENDED, "the subscription became a lifetime licence")
        if Action.RESUBSCRIBE not in self.allowed_actions(now):
            raise DomainError(ErrorCode.SUBSCRIPTION_NOT_ENDED, "the subscription has not ended")
        return self._charge(ChargeKind.RESUBSCRIPTION, f"r{self.resubscribe_attempts + 1}", key)

    def upgrade_charge(
        self, quote: Quote, target: UpgradeTarget, key: BillingKey | None = None, catalogue_version: int = 0
    ) -> ChargeAttempt:
        """Move to a bigger plan now: its first period (or, for a lifetime plan, the licence for good) at
        ``quote`` (the target's, less the unused value of the current period as its remaining step). Only a
        renewing subscription upgrades (-302 otherwise)."""
        if self.status is not SubscriptionStatus.ACTIVE:
            raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"a {self.status.value} subscription cannot upgrade")
        attempt = self._charge(ChargeKind.UPGRADE, f"u{self.upgrade_attempts + 1}", key)
        return ChargeAttempt(
            attempt.kind,
            attempt.period,
            attempt.merchant_uid,
            attempt.customer_uid,
            quote,
            attempt.card_name,
            attempt.card_number,
            target,
            catalogue_version,
        )

    def _next_period_charge(self, kind: ChargeKind, key: BillingKey | None = None) -> ChargeAttempt:
        return self._charge(kind, self.attempts_made + 1, key)

    def _charge(self, kind: ChargeKind, attempt: int | str, key: BillingKey | None) -> ChargeAttempt:
        period = self.period + 1
        merchant_uid = order_id(self.id, period, attempt)
        version = self.catalogue_version
        if key is None or key.customer_uid == self.customer_uid:
            return ChargeAttempt(
                kind, period, merchant_uid, self.customer_uid, self.renewal_quote, catalogue_version=version
            )
        return ChargeAttempt(
            kind,
            period,
            merchant_uid,
            key.customer_uid,
            self.renewal_quote,
            key.card_name,
            key.card_number,
            catalogue_version=version,
        )

    def priced(self, attempt: ChargeAttempt, versions: CatalogueVersions, at: datetime) -> ChargeAttempt:
        """``attempt`` at the price ``next_renewal`` gives when it charges a new period: a renewal, a retry or paying
        now at the renewal's due date (however late the charge is made), a re-subscription at ``at`` (a new run
        starts then); a first or upgrade charge is priced already."""
        if attempt.kind in (ChargeKind.FIRST, ChargeKind.UPGRADE):
            return attempt
        due_at = at if attempt.kind is ChargeKind.RESUBSCRIPTION else self.paid_until
        renewal = self._renewal_due(due_at, versions)
        if renewal.awaiting is not None:
            if attempt.kind is ChargeKind.RESUBSCRIPTION:
                # Coming back is no consent to the higher price: the run starts at the price they had, and its
                # renewal asks again for the agreement the page still offers.
                return replace(attempt, quote=self.renewal_quote, catalogue_version=self.catalogue_version)
            raise DomainError(ErrorCode.PRICE_RISE_NOT_AGREED, "the subscriber has not agreed to the higher price")
        return replace(attempt, quote=renewal.quote, catalogue_version=renewal.catalogue_version)

    # Consent to a higher price (domain/subscriptions/price_rule.py, docs/catalogue.md).

    @property
    def open_price_rise(self) -> PriceRiseAsk | None:
        """The latest request for consent to a higher price since the price last moved (None when none)."""
        return self.price_asks[-1] if self.price_asks else None

    def price_rise_changes_at(self, ask: PriceRiseAsk) -> datetime:
        """The renewal at which ``ask``'s price would first be charged, as the subscription stands now."""
        return first_renewal_from(self.paid_until, period_length(self.life), ask.applies_from)

    def ask_price_rise(self, due: DueAsk, at: datetime) -> None:
        """Ask the subscriber to consent to the higher price they are owed a request for (the event sends the mail
        and opens the notice on their licence page)."""
        if self.status not in (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE):
            raise DomainError(ErrorCode.INVALID_VALUE, "only a renewing subscription is asked")
        previous = self.own_quote.amount
        since = applies_from(due.version.effective_at, at)
        self.trigger_event(
            SubscriptionPriceRiseAsked,
            timestamp=at,
            account_id=self.account_id,
            user_licence_id=self.user_licence_id,
            kind=RiseKind.of(previous).value,
            catalogue_version=due.version.version,
            licence_id=due.quote.licence_id,
            country_code=due.quote.country_code,
            currency=due.quote.currency.value,
            list_price=due.quote.list_price,
            discount_factors=due.quote.factor_records(),
            amount=due.quote.amount,
            previous_amount=previous,
            effective_at=due.version.effective_at,
            applies_from=since,
            changes_at=first_renewal_from(self.paid_until, period_length(self.life), since),
            asked_at=at,
        )

    def agree_to_price_rise(self, at: datetime) -> bool:
        """The subscriber agrees to the price asked for (-360 when nothing is asked, or the subscription ended);
        True when recorded now (agreeing twice records it once)."""
        ask = self.open_price_rise
        if ask is None or self.status is SubscriptionStatus.ENDED:
            raise DomainError(ErrorCode.PRICE_RISE_NOT_ASKED, "no price change awaits an answer")
        if ask.agreed:
            return False
        self.trigger_event(
            SubscriptionPriceRiseAgreed,
            timestamp=at,
            catalogue_version=ask.catalogue_version,
            amount=ask.amount,
            agreed_at=at,
        )
        return True

    def decline_price_rise(self, at: datetime) -> bool:
        """The subscriber declines the price asked for and stops auto-renewal (-360 when nothing is asked, or the
        subscription ended); True when recorded now."""
        ask = self.open_price_rise
        if ask is None or self.status is SubscriptionStatus.ENDED:
            raise DomainError(ErrorCode.PRICE_RISE_NOT_ASKED, "no price change awaits an answer")
        if ask.answer is Answer.DECLINED and not self.is_scheduled:
            return False
        self.trigger_event(
            SubscriptionPriceRiseDeclined,
            timestamp=at,
            catalogue_version=ask.catalogue_version,
            amount=ask.amount,
            declined_at=at,
        )
        if self.is_scheduled:
            self.cancel_auto_renewal(at)
        return True

    def remind_price_rise(self, now: datetime) -> bool:
        """Record the one reminder of a request not agreed to, when it falls due (7 days before the change, never
        within 7 days after a decline, only while renewing); True when recorded now."""
        ask = self.open_price_rise
        if ask is None or self.status is not SubscriptionStatus.ACTIVE:
            return False
        changes_at = self.price_rise_changes_at(ask)
        if not price_rise_reminder_due(ask, changes_at, now, self.declined_at):
            return False
        self.trigger_event(
            SubscriptionPriceRiseReminded,
            timestamp=now,
            catalogue_version=ask.catalogue_version,
            amount=ask.amount,
            previous_amount=self.own_quote.amount,
            changes_at=changes_at,
            reminded_at=now,
        )
        return True

    def lapse_unagreed_rise(self, now: datetime, versions: CatalogueVersions) -> bool:
        """The renewal fell due at a higher price the subscriber did not agree to: nothing is charged and auto-renewal
        stops at the end of the paid period (the subscription ends now); True when it lapsed now."""
        if not self.is_scheduled or now < self.paid_until:
            return False
        renewal = self._renewal_due(self.paid_until, versions)
        if renewal.awaiting is None:
            return False
        self.trigger_event(
            SubscriptionPriceRiseLapsed,
            timestamp=now,
            catalogue_version=renewal.awaiting.catalogue_version,
            amount=renewal.amount,
            previous_amount=self.own_quote.amount,
            changes_at=self.paid_until,
            lapsed_at=now,
        )
        self.trigger_event(SubscriptionEnded, timestamp=now, reason="price rise not agreed", ended_at=now)
        return True

    def _note_price(self, attempt: ChargeAttempt, at: datetime) -> None:
        """A period charged at another price than the one kept (the rule moved it): renewals charge it from now."""
        quote = attempt.quote
        kept = self.renewal_quote
        if attempt.catalogue_version in (0, self.catalogue_version) and (quote.list_price, quote.factors) == (
            kept.list_price,
            kept.factors,
        ):
            return
        if self.retention_coupon is not None:  # the price moved; the offer's coupon is not part of the new price
            quote = quote.with_coupon(Decimal(0))
        self.trigger_event(
            SubscriptionRepriced,
            timestamp=at,
            period=attempt.period,
            catalogue_version=attempt.catalogue_version or self.catalogue_version,
            list_price=quote.list_price,
            country_code=quote.country_code,
            discount_factors=quote.factor_records(),
            amount=quote.amount,
        )

    def is_current(self, attempt: ChargeAttempt, now: datetime) -> bool:
        """Is ``attempt`` still the charge this subscription expects? Not when something was recorded for
        it meanwhile, nor when auto-renewal was stopped while a renewal was being charged (the stop wins)."""
        if attempt.kind is ChargeKind.RESUBSCRIPTION:
            return Action.RESUBSCRIBE in self.allowed_actions(now) and attempt.merchant_uid == order_id(
                self.id, self.period + 1, f"r{self.resubscribe_attempts + 1}"
            )
        if attempt.kind is ChargeKind.UPGRADE:
            return (
                self.status is SubscriptionStatus.ACTIVE
                and attempt.upgrade is not None
                and attempt.upgrade.credited_merchant_uid == self.period_merchant_uid
                and attempt.merchant_uid == order_id(self.id, self.period + 1, f"u{self.upgrade_attempts + 1}")
            )
        if attempt.kind is ChargeKind.PAY_NOW and self.status is not SubscriptionStatus.PAST_DUE:
            return False
        return (
            self.is_scheduled
            and attempt.period == self.period + 1
            and attempt.merchant_uid == order_id(self.id, attempt.period, self.attempts_made + 1)
        )

    def record_charge(self, attempt: ChargeAttempt, charge: GatewayPayment, at: datetime) -> bool:
        """Record what the gateway did with ``attempt``, which must still be current; True when it paid."""
        if attempt.kind is ChargeKind.FIRST or not self.is_current(attempt, at):
            raise DomainError(ErrorCode.CHARGE_NOT_CURRENT, f"{attempt.merchant_uid} is not the charge to record")
        if attempt.is_paid_by(charge):
            self._record_paid(attempt, charge, at)
            return True
        self._record_declined(attempt, charge.fail_reason or f"gateway status {charge.status.value}", at)
        return False

    def _record_paid(self, attempt: ChargeAttempt, charge: GatewayPayment, at: datetime) -> None:
        # The key that paid is the card from now on. It is the gateway's word on which key it charged:
        # a retry racing the subscriber's own payment with a new card shares its order id, and whichever
        # reached the gateway first decided the key.
        paid_with = charge.customer_uid or attempt.customer_uid
        if paid_with != self.customer_uid:
            chosen = paid_with == attempt.customer_uid
            self.trigger_event(
                PaymentMethodChanged,
                timestamp=at,
                customer_uid=paid_with,
                card_name=(attempt.card_name if chosen else None) or charge.card_name,
                card_number=(attempt.card_number if chosen else None) or charge.card_number,
            )
        if attempt.kind is ChargeKind.UPGRADE and attempt.upgrade is not None:
            terms = attempt.upgrade.terms
            if terms.life == LIFETIME_DAYS:
                self.trigger_event(
                    SubscriptionReplacedByLifetime,
                    timestamp=at,
                    period=attempt.period,
                    merchant_uid=attempt.merchant_uid,
                    imp_uid=charge.imp_uid,
                    licence_id=terms.licence_id,
                    name=terms.name,
                    life=terms.life,
                    amount=attempt.amount,
                    credit=attempt.upgrade.credit,
                    ended_at=at,
                    expires_at=at + timedelta(days=terms.life),
                )
                return
            renewal_factors = tuple(item for item in attempt.quote.factors if item.kind is not DiscountKind.REMAINING)
            renewal = Quote(
                terms.licence_id, attempt.quote.country_code, self.currency, attempt.quote.list_price, renewal_factors
            )
            self.trigger_event(
                SubscriptionUpgraded,
                timestamp=at,
                period=attempt.period,
                merchant_uid=attempt.merchant_uid,
                imp_uid=charge.imp_uid,
                licence_id=terms.licence_id,
                name=terms.name,
                life=terms.life,
                amount=attempt.amount,
                credit=attempt.upgrade.credit,
                list_price=attempt.quote.list_price,
                country_code=attempt.quote.country_code,
                discount_factors=renewal.factor_records(),
                renewal_amount=renewal.amount,
                period_start=at,
                paid_until=at + period_length(terms.life),
            )
            if attempt.catalogue_version and attempt.catalogue_version != self.catalogue_version:
                self.trigger_event(
                    SubscriptionRepriced,
                    timestamp=at,
                    period=attempt.period,
                    catalogue_version=attempt.catalogue_version,
                    list_price=renewal.list_price,
                    country_code=renewal.country_code,
                    discount_factors=renewal.factor_records(),
                    amount=renewal.amount,
                )
            return
        self._note_price(attempt, at)
        if attempt.kind is ChargeKind.RESUBSCRIPTION:
            self.run_out(at)
            self.trigger_event(
                SubscriptionResubscribed,
                timestamp=at,
                period=attempt.period,
                merchant_uid=attempt.merchant_uid,
                imp_uid=charge.imp_uid,
                customer_uid=paid_with,
                period_start=at,
                paid_until=at + period_length(self.life),
            )
            self._spend_retention_coupon(attempt, at)
            return
        self.trigger_event(
            SubscriptionRenewed,
            timestamp=at,
            period=attempt.period,
            merchant_uid=attempt.merchant_uid,
            imp_uid=charge.imp_uid,
            amount=attempt.amount,
            paid_at=at,
            paid_until=self.paid_until + period_length(self.life),
        )
        self._spend_retention_coupon(attempt, at)

    def _spend_retention_coupon(self, attempt: ChargeAttempt, at: datetime) -> None:
        if self.retention_coupon is not None and any(
            item.kind is DiscountKind.COUPON for item in attempt.quote.factors
        ):
            self.trigger_event(
                RetentionCouponSpent,
                timestamp=at,
                coupon_code=self.retention_coupon[0],
                period=attempt.period,
                merchant_uid=attempt.merchant_uid,
            )

    def _record_declined(self, attempt: ChargeAttempt, reason: str, at: datetime) -> None:
        if attempt.kind is ChargeKind.UPGRADE:
            self.trigger_event(
                SubscriptionUpgradeFailed, timestamp=at, merchant_uid=attempt.merchant_uid, reason=reason
            )
        elif attempt.kind is ChargeKind.RESUBSCRIPTION:
            self.trigger_event(ResubscribeFailed, timestamp=at, merchant_uid=attempt.merchant_uid, reason=reason)
        elif attempt.kind is ChargeKind.PAY_NOW:
            self.trigger_event(
                PastDuePaymentFailed,
                timestamp=at,
                period=attempt.period,
                merchant_uid=attempt.merchant_uid,
                reason=reason,
            )
        else:
            failures = self.failed_attempts + 1
            retry_at = self.paid_until + DUNNING_SCHEDULE[failures - 1] if failures <= len(DUNNING_SCHEDULE) else None
            self.trigger_event(
                RenewalFailed,
                timestamp=at,
                period=attempt.period,
                attempt=failures,
                merchant_uid=attempt.merchant_uid,
                reason=reason,
                retry_at=retry_at,
            )
            if retry_at is None:
                self.trigger_event(SubscriptionEnded, timestamp=at, reason="renewal failed", ended_at=at)

    # What the subscriber asks for.

    def cancel_auto_renewal(
        self, at: datetime, *, reasons: list[str] | None = None, comment: str = "", offer_declined: bool = False
    ) -> None:
        """Stop renewing (spec: isScheduled false); past due, the subscription ends now. ``reasons`` and
        ``comment``: why, as the subscriber answered (optional); ``offer_declined``: the retention offer was shown
        with the question and declined (it is not shown again)."""
        if self.status is SubscriptionStatus.ACTIVE:
            self.trigger_event(
                AutoRenewalCancelled,
                timestamp=at,
                cancelled_at=at,
                runs_out_at=self.paid_until,
                reasons=list(reasons or []),
                comment=comment,
                offer_declined=offer_declined and self.retention_offer_open,
            )
        elif self.status is SubscriptionStatus.PAST_DUE:
            self.trigger_event(SubscriptionEnded, timestamp=at, reason="cancelled while past due", ended_at=at)
        else:
            raise DomainError(ErrorCode.INVALID_VALUE, "auto-renewal is already off")

    def resume(self, at: datetime) -> None:
        """Turn auto-renewal back on within the paid period (after it ended: re-subscribe)."""
        if Action.RESUME not in self.allowed_actions(at):
            if self.status is SubscriptionStatus.CANCELLED:
                raise DomainError(ErrorCode.INVALID_VALUE, "the paid period is over: re-subscribe instead")
            raise DomainError(ErrorCode.AUTO_RENEWAL_NOT_OFF, "auto-renewal is not off")
        self.trigger_event(AutoRenewalResumed, timestamp=at, resumed_at=at, renews_at=self.paid_until)

    def end_with_licence(self, at: datetime) -> bool:
        """Its licence was refunded (revoked): no more renewals; True when it ended now."""
        if self.status is SubscriptionStatus.ENDED:
            return False
        self.trigger_event(SubscriptionEnded, timestamp=at, reason="licence refunded", ended_at=at)
        return True

    def run_out(self, now: datetime) -> bool:
        """A cancelled subscription ends when its paid period does; True when it ended now."""
        if self.status is SubscriptionStatus.CANCELLED and now >= self.paid_until:
            self.trigger_event(SubscriptionEnded, timestamp=now, reason="cancelled", ended_at=now)
            return True
        return False

    def change_payment_method(
        self, customer_uid: str, card_name: str | None, card_number: str | None, at: datetime
    ) -> None:
        """Charge another billing key from the next renewal on (past due: pay now with it instead)."""
        if Action.CHANGE_PAYMENT_METHOD not in self.allowed_actions(at):
            raise DomainError(ErrorCode.INVALID_VALUE, "the subscription has ended")
        if self.status is SubscriptionStatus.PAST_DUE:
            raise DomainError(ErrorCode.INVALID_VALUE, "past due: the new card pays the due period")
        if customer_uid != self.customer_uid:
            self.trigger_event(
                PaymentMethodChanged,
                timestamp=at,
                customer_uid=customer_uid,
                card_name=card_name,
                card_number=card_number,
            )

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _started(self, event: SubscriptionStarted) -> None:
        self.account_id = event.account_id
        self.user_licence_id = event.user_licence_id
        self.licence_id = event.licence_id
        self.name = event.name
        self.life = event.life
        self.amount = event.amount
        self.currency: Currency = event.currency
        self.list_price = event.list_price
        self.country_code = event.country_code
        self.discount_factors: tuple[DiscountFactor, ...] = factors_from_records(event.discount_factors)
        self.customer_uid = event.customer_uid
        self.card_name = event.card_name
        self.card_number = event.card_number
        self.first_merchant_uid = event.first_merchant_uid
        self.catalogue_version = event.catalogue_version
        self.period_merchant_uid = event.first_merchant_uid  # the payment of the period running now
        self.status = SubscriptionStatus.ACTIVE
        self.period = 1
        self.period_start = event.period_start
        self.paid_until = event.paid_until
        self._new_period()

    def _new_period(self) -> None:
        self.failed_attempts = 0  # scheduled attempts that failed (dunning)
        self.attempts_made = 0  # every attempt made for the next period, scheduled or the subscriber's
        self.resubscribe_attempts = 0
        self.upgrade_attempts = 0
        self.retry_at: datetime | None = None

    @when.register
    def _renewed(self, event: SubscriptionRenewed) -> None:
        self.status = SubscriptionStatus.ACTIVE
        self.period = event.period
        self.period_start = self.paid_until
        self.paid_until = event.paid_until
        self.period_merchant_uid = event.merchant_uid
        self._new_period()

    @when.register
    def _failed(self, event: RenewalFailed) -> None:
        self.failed_attempts = event.attempt
        self.attempts_made += 1
        self.retry_at = event.retry_at
        self.status = SubscriptionStatus.PAST_DUE

    @when.register
    def _paying_failed(self, event: PastDuePaymentFailed) -> None:
        self.attempts_made += 1

    @when.register
    def _cancelled(self, event: AutoRenewalCancelled) -> None:
        self.status = SubscriptionStatus.CANCELLED
        if event.offer_declined:
            self.retention_offer_used = True

    @when.register
    def _reminded(self, event: RenewalReminded) -> None:
        self.reminded_period = event.period

    @when.register
    def _offer_accepted(self, event: RetentionOfferAccepted) -> None:
        self.retention_offer_used = True
        self.retention_coupon = (event.coupon_code, event.factor)

    @when.register
    def _coupon_spent(self, event: RetentionCouponSpent) -> None:
        self.retention_coupon = None

    @when.register
    def _resumed(self, event: AutoRenewalResumed) -> None:
        self.status = SubscriptionStatus.ACTIVE

    @when.register
    def _method_changed(self, event: PaymentMethodChanged) -> None:
        self.customer_uid = event.customer_uid
        self.card_name = event.card_name
        self.card_number = event.card_number

    @when.register
    def _ended(self, event: SubscriptionEnded) -> None:
        self.status = SubscriptionStatus.ENDED
        self.retry_at = None

    @when.register
    def _resubscribe_failed(self, event: ResubscribeFailed) -> None:
        self.resubscribe_attempts += 1

    @when.register
    def _resubscribed(self, event: SubscriptionResubscribed) -> None:
        self.status = SubscriptionStatus.ACTIVE
        self.period = event.period
        self.period_start = event.period_start
        self.paid_until = event.paid_until
        self.customer_uid = event.customer_uid
        self.period_merchant_uid = event.merchant_uid
        self._new_period()

    @when.register
    def _upgraded(self, event: SubscriptionUpgraded) -> None:
        self.status = SubscriptionStatus.ACTIVE
        self.period = event.period
        self.period_start = event.period_start
        self.paid_until = event.paid_until
        self.period_merchant_uid = event.merchant_uid
        self.licence_id = event.licence_id
        self.name = event.name
        self.life = event.life
        self.list_price = event.list_price
        self.country_code = event.country_code
        self.discount_factors = factors_from_records(event.discount_factors)
        self.amount = event.renewal_amount
        self.price_asks = ()  # a new plan: requests were about the old one
        self._new_period()

    @when.register
    def _replaced_by_lifetime(self, event: SubscriptionReplacedByLifetime) -> None:
        self.status = SubscriptionStatus.ENDED
        self.replaced_by_lifetime = True
        self.period = event.period
        self.period_start = event.ended_at
        self.paid_until = event.expires_at
        self.period_merchant_uid = event.merchant_uid
        self.licence_id = event.licence_id
        self.name = event.name
        self.life = event.life
        self.amount = event.amount
        self._new_period()

    @when.register
    def _upgrade_failed(self, event: SubscriptionUpgradeFailed) -> None:
        self.upgrade_attempts += 1

    @when.register
    def _price_rise_noticed(self, event: SubscriptionPriceRiseNoticed) -> None:
        pass  # retired: a notice was never consent, and the rule no longer reads it

    @when.register
    def _price_rise_asked(self, event: SubscriptionPriceRiseAsked) -> None:
        ask = PriceRiseAsk(
            event.catalogue_version,
            RiseKind(event.kind),
            event.amount,
            event.previous_amount,
            event.currency,
            event.effective_at,
            event.applies_from,
            event.asked_at,
        )
        self.price_asks = (*self.price_asks, ask)

    def _answer_latest(self, catalogue_version: int, answer: Answer, at: datetime) -> None:
        asks = list(self.price_asks)
        for index in range(len(asks) - 1, -1, -1):
            if asks[index].catalogue_version == catalogue_version:
                asks[index] = asks[index].answered(answer, at)
                break
        self.price_asks = tuple(asks)

    @when.register
    def _price_rise_agreed(self, event: SubscriptionPriceRiseAgreed) -> None:
        self._answer_latest(event.catalogue_version, Answer.AGREED, event.agreed_at)

    @when.register
    def _price_rise_declined(self, event: SubscriptionPriceRiseDeclined) -> None:
        self._answer_latest(event.catalogue_version, Answer.DECLINED, event.declined_at)
        self.declined_at = event.declined_at

    @when.register
    def _price_rise_reminded(self, event: SubscriptionPriceRiseReminded) -> None:
        if self.price_asks:
            self.price_asks = (*self.price_asks[:-1], replace(self.price_asks[-1], reminded_at=event.reminded_at))

    @when.register
    def _price_rise_lapsed(self, event: SubscriptionPriceRiseLapsed) -> None:
        self._answer_latest(event.catalogue_version, Answer.LAPSED, event.lapsed_at)

    @when.register
    def _repriced(self, event: SubscriptionRepriced) -> None:
        self.catalogue_version = event.catalogue_version
        self.list_price = event.list_price
        self.country_code = event.country_code
        self.discount_factors = factors_from_records(event.discount_factors)
        self.amount = event.amount
        self.price_asks = ()  # the price moved: a later rise needs a request of its own

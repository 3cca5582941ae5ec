"""Random catalogue versions (rises and cuts, now or later), coupon groups opened and changed, subscribers starting
with and without a code, subscribers agreeing to or declining a rise they were asked about, and the clock moving day
by day with the request sweep and the renewal pass behind it:

- every charge equals the quote of the catalogue version it names, for the licence and country it was for (with
  the coupon of its code on a first period), and a first period names the version in force when it was charged;
- every renewal charges either the price the subscriber kept or the price in force at its due date, and a cut in
  force by then is passed on;
- no subscriber pays a raised price without having agreed to at least it, asked 30 days or more before the renewal
  fell due (docs/catalogue.md: consent before a rise); one who did not agree is charged nothing at the change;
- one price from page to charge: what the licence page previews for the next renewal (``next_renewal``), looked at
  any time after the last change that moves the price, is what the renewal then charges."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from domain.catalogue.versions import CatalogueVersions, load_versions, schedule_version, seed_catalogue
from domain.coupons.admin import change_group, open_group
from domain.coupons.group import UNLIMITED_USES, ConstraintType, GroupRules, GroupType
from domain.errors import DomainError
from domain.pricing.quotes import DiscountKind, factors_from_records, quote_licence
from domain.staff.member import create_first_owner
from domain.subscriptions.commands import subscribe
from domain.subscriptions.price_asks import answer_price_rise, ask_price_rises
from domain.subscriptions.price_rule import NOTICE_PERIOD, plan_quote
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import Subscription
from events.payments import PaymentOrdered, PaymentSucceeded
from events.subscriptions import SubscriptionPriceRiseAgreed, SubscriptionPriceRiseAsked
from events.values import Language
from tests.unit.billing_world import World

pytestmark = pytest.mark.property

PLANS = (111, 113)  # the Android monthly plans, one and three devices
COUNTRIES = ("KR", "US")
TICK = timedelta(days=3)  # how far the clock moves between two runs of beat's sweeps (a day's worth would be slow)


@dataclass
class Charge:
    merchant_uid: str
    licence_id: int
    country_code: str
    amount: int
    list_price: int
    factors: list[dict[str, Any]]
    catalogue_version: int
    coupon_code: str | None
    ordered_at: datetime
    paid: bool = False

    @property
    def subscription_key(self) -> str:
        return self.merchant_uid.split("-")[1]

    @property
    def period(self) -> int:
        return int(self.merchant_uid.split("-")[2])


@dataclass(frozen=True)
class Preview:
    """The next renewal a licence page showed: its period, its amount, and the state of what moves a price then (the
    catalogue's versions, the subscriber's notices, the version the subscription is priced under)."""

    period: int
    amount: int
    stamp: tuple[Any, ...]


@dataclass
class Log:
    """What the log says: charges by merchantUid, and each subscription's requests and agreements (by the id's first
    16 hex)."""

    charges: dict[str, Charge] = field(default_factory=dict)
    asks: dict[str, list[SubscriptionPriceRiseAsked]] = field(default_factory=dict)
    agreements: dict[str, list[SubscriptionPriceRiseAgreed]] = field(default_factory=dict)


class PriceChanges(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.world = World()
        self.owner: UUID = create_first_owner(
            self.world.store, self.world.clock, email="boss@example.com", name="Boss"
        ).id
        self.subscriptions: list[UUID] = []
        self.coupons: dict[str, tuple[UUID, Decimal]] = {}  # code -> (group, factor)
        self.subscribers = 0
        self.log = Log()
        self.ordered: dict[UUID, Charge] = {}  # the subscription charges by payment id
        self.read_up_to = 0
        self.previews: dict[UUID, Preview] = {}  # the last preview each subscriber saw

    @initialize(plans=st.lists(st.sampled_from(PLANS), min_size=1, max_size=3))
    def a_fresh_install_with_subscribers(self, plans: list[int]) -> None:
        seed_catalogue(self.world.store, self.world.clock)
        for plan in plans:
            self._subscribe(plan, "KR", None)

    @rule(
        plan=st.sampled_from(PLANS),
        country=st.sampled_from(COUNTRIES),
        price=st.integers(100, 9000),
        in_days=st.integers(0, 45),
    )
    def staff_schedule_a_version(self, plan: int, country: str, price: int, in_days: int) -> None:
        store, clock = self.world.store, self.world.clock
        clock.advance(timedelta(minutes=1))  # nothing else happens at the same instant
        latest = load_versions(store).latest.catalogue
        licences: list[dict[str, Any]] = latest.model_dump(mode="json", by_alias=True)["licences"]
        for licence in licences:
            for item in licence["prices"] if licence["id"] == plan else ():
                if item["countryCode"] == country:
                    item["price"] = price
        schedule_version(
            store,
            clock,
            self.owner,
            licences=licences,
            effective_at=clock.now() + timedelta(days=in_days),
            reason="a price change",
        )
        ask_price_rises(store, clock, self.subscriptions)  # what the reactor starts on the new version

    @rule(factor=st.sampled_from([Decimal("0.1"), Decimal("0.3"), Decimal("0.5")]))
    def marketing_opens_a_coupon_group(self, factor: Decimal) -> None:
        code = f"SALE{len(self.coupons)}"
        rules = GroupRules(
            name=code,
            group_type=GroupType.PUBLIC,
            constraint_type=ConstraintType.NONE,
            factor=factor,
            available_duration=30,
            sub_issued_count=UNLIMITED_USES,
        )
        opened = open_group(self.world.store, self.world.clock.now(), rules, code=code)
        self.coupons[code] = (opened.group_id, factor)

    @rule(data=st.data())
    def marketing_disables_a_coupon_group(self, data: st.DataObject) -> None:
        if not self.coupons:
            return
        code = data.draw(st.sampled_from(sorted(self.coupons)))
        change_group(self.world.store, self.world.clock.now(), self.coupons[code][0], {"enabled": False})

    @rule(plan=st.sampled_from(PLANS), country=st.sampled_from(COUNTRIES), data=st.data())
    def a_customer_subscribes(self, plan: int, country: str, data: st.DataObject) -> None:
        code = data.draw(st.none() | st.sampled_from(sorted(self.coupons))) if self.coupons else None
        self._subscribe(plan, country, code)

    def _subscribe(self, plan: int, country: str, code: str | None) -> None:
        world = self.world
        world.clock.advance(timedelta(minutes=1))
        self.subscribers += 1
        account_id = world.member(f"s{self.subscribers}@example.com")
        catalogue = load_versions(world.store).in_force(world.clock.now()).catalogue
        try:
            started = subscribe(
                world.store,
                world.clock,
                world.gateway,
                catalogue,
                account_id=account_id,
                licence_id=plan,
                country_code=country,
                language=Language.KO,
                key=world.key(account_id),
                coupon_code=code,
            )
        except DomainError:
            assert code is not None, "only a code (disabled, say) refuses a subscription here"
            return
        self.subscriptions.append(started.subscription_id)

    def _preview(self, subscription_id: UUID) -> Preview | None:
        """What the licence page shows as the next renewal now, and what it was decided from."""
        store = self.world.store
        versions = load_versions(store)
        subscription: Subscription = store.repository.get(subscription_id)
        renewal = subscription.next_renewal(versions)
        if renewal is None:
            return None
        answers = tuple((ask.catalogue_version, ask.answer) for ask in subscription.price_asks)
        stamp = (len(versions.versions), answers, subscription.catalogue_version)
        return Preview(subscription.period + 1, renewal.amount, stamp)

    @rule(data=st.data())
    def a_subscriber_looks_at_the_licence_page(self, data: st.DataObject) -> None:
        if not self.subscriptions:
            return
        subscription_id = data.draw(st.sampled_from(self.subscriptions))
        preview = self._preview(subscription_id)
        if preview is not None:
            self.previews[subscription_id] = preview

    @rule(data=st.data(), agree=st.booleans())
    def a_subscriber_answers_a_rise_on_the_licence_page(self, data: st.DataObject, agree: bool) -> None:
        asked = [key for key in self.subscriptions if self.world.subscription(key).open_price_rise is not None]
        if not asked:
            return
        subscription_id = data.draw(st.sampled_from(asked))
        try:
            answer_price_rise(
                self.world.store, self.world.clock, account_id=None, subscription_id=subscription_id, agree=agree
            )
        except DomainError:
            assert self.world.subscription(subscription_id).status.value == "ended", "only an ended one refuses"

    @rule(ticks=st.integers(1, 12))
    def time_passes(self, ticks: int) -> None:
        """Beat ticks ``ticks`` times, TICK apart: the notice sweep, then the renewal pass; each renewal charges what
        the page previewed just before it, and what it previewed earlier when nothing that moves the price happened
        since."""
        store, clock = self.world.store, self.world.clock
        for _ in range(ticks):
            clock.advance(TICK)
            ask_price_rises(store, clock, self.subscriptions)  # beat's hourly sweep
            for subscription_id in self.subscriptions:
                now = self._preview(subscription_id)
                earlier = self.previews.get(subscription_id)
                charged = renew_if_due(store, clock, self.world.gateway, subscription_id)
                if not charged.paid or charged.attempt is None:
                    continue
                assert now is not None and (charged.attempt.period, charged.attempt.amount) == (now.period, now.amount)
                if earlier is not None and (earlier.period, earlier.stamp) == (now.period, now.stamp):
                    assert earlier.amount == charged.attempt.amount, "the page said one price, the charge took another"

    def _log(self) -> Log:
        """The log read so far, brought up to date (each invariant check reads only what is new)."""
        log, ordered, store = self.log, self.ordered, self.world.store
        for notification in store.recorder.select_notifications(start=self.read_up_to + 1, limit=100_000):
            self.read_up_to = notification.id
            event = store.mapper.to_domain_event(notification)
            if isinstance(event, PaymentOrdered) and event.merchant_uid.startswith("sub-"):
                log.charges[event.merchant_uid] = ordered[event.originator_id] = Charge(
                    event.merchant_uid,
                    event.licence_id,
                    event.country_code,
                    event.amount,
                    event.original_amount,
                    event.discount_factors,
                    event.catalogue_version,
                    event.coupon_code,
                    event.timestamp,
                )
            elif isinstance(event, PaymentSucceeded) and event.originator_id in ordered:
                ordered[event.originator_id].paid = True
            elif isinstance(event, SubscriptionPriceRiseAsked):
                log.asks.setdefault(event.originator_id.hex[:16], []).append(event)
            elif isinstance(event, SubscriptionPriceRiseAgreed):
                log.agreements.setdefault(event.originator_id.hex[:16], []).append(event)
        return log

    @invariant()
    def every_charge_is_the_quote_of_the_version_it_names_and_no_rise_comes_unagreed(self) -> None:
        log = self._log()
        versions = load_versions(self.world.store)
        by_subscription: dict[str, list[Charge]] = {}
        for charge in log.charges.values():
            if charge.paid:
                by_subscription.setdefault(charge.subscription_key, []).append(charge)
        for key, charges in by_subscription.items():
            charges.sort(key=lambda item: item.period)
            for number, charge in enumerate(charges):
                version = versions.get(charge.catalogue_version)
                assert version is not None, charge
                licence = version.catalogue.get(charge.licence_id)
                assert licence is not None
                quote = quote_licence(licence, charge.country_code)
                coupon = next(
                    (f.factor for f in factors_from_records(charge.factors) if f.kind is DiscountKind.COUPON), None
                )
                if number == 0:
                    known = [item for item in versions.versions if item.recorded_at <= charge.ordered_at]
                    in_force_then = CatalogueVersions(tuple(known)).in_force(charge.ordered_at)
                    assert charge.catalogue_version == in_force_then.version, charge
                    if charge.coupon_code:
                        assert coupon == self.coupons[charge.coupon_code][1]
                        quote = quote.with_coupon(coupon)
                else:
                    assert coupon is None, "a coupon discounts the first period only"
                assert charge.amount == quote.amount, (charge, quote)
                if number == 0:
                    continue
                kept = quote_licence(
                    versions.get(charges[number - 1].catalogue_version).catalogue.get(charge.licence_id),  # type: ignore[union-attr, arg-type]
                    charge.country_code,
                )
                # Monthly plans, never failing: period n fell due 30 days times n - 1 after the first was charged.
                due_at = charges[0].ordered_at + timedelta(days=30 * (charge.period - 1))
                in_force = plan_quote(versions.in_force(due_at).catalogue, charge.licence_id, charge.country_code)
                assert charge.amount in (kept.amount, in_force.amount if in_force else kept.amount), charge
                if in_force is not None and in_force.amount < kept.amount:
                    assert charge.amount == in_force.amount, "a cut applies at the next renewal"
                if charge.amount > kept.amount:
                    asked = [
                        ask
                        for ask in log.asks.get(key, [])
                        if ask.amount >= charge.amount and ask.asked_at + NOTICE_PERIOD <= due_at
                    ]
                    assert asked, f"{charge.merchant_uid} raised {kept.amount} -> {charge.amount} unasked"
                    agreed = [
                        item
                        for item in log.agreements.get(key, [])
                        if item.amount >= charge.amount and item.agreed_at <= due_at
                    ]
                    assert agreed, f"{charge.merchant_uid} raised {kept.amount} -> {charge.amount} without consent"


TestPriceChanges = PriceChanges.TestCase
TestPriceChanges.settings = settings(
    max_examples=15, stateful_step_count=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

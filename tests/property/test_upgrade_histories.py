"""Random histories of purchases, renewals, upgrades, cancels, refunds and clock moves never break the
upgrade rules: a credit never exceeds the unused part of what was paid, no period is paid twice, a
licence ends with its last paid period (or its life), refunds never exceed charges, and a subscription
upgraded to a lifetime licence never charges again."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from uuid import UUID

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.gateway import GatewayStatus
from domain.payments.payment import Payment, PaymentState
from domain.payments.upgrade import licence_period, upgrade_choice
from domain.pricing.quotes import DiscountKind
from domain.subscriptions.commands import cancel_auto_renewal
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import Subscription, SubscriptionStatus
from domain.subscriptions.upgrade import subscription_period, subscription_upgrade_choice, upgrade_subscription
from events.values import Language
from tests.refunding import refund_payment
from tests.unit.billing_world import MONTHLY, World

pytestmark = pytest.mark.property

TARGETS = st.sampled_from([113, 121, 123, 131, 133])


def _within_unused(credit: int, held: int, starts_at: datetime, ends_at: datetime, now: datetime) -> bool:
    """credit <= held * unused / total, compared exactly in Decimal."""
    total = Decimal((ends_at - starts_at).total_seconds())
    unused = Decimal(min(max((ends_at - now).total_seconds(), 0), float(total)))
    return Decimal(credit) * total <= Decimal(held) * unused


class UpgradeHistories(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.world = World()
        self.member = self.world.member()
        self.bought = self.world.buy(MONTHLY, account_id=self.member)
        self.subscribed = self.world.subscribe(self.member, self.world.key(self.member))
        self.merchant_uids: list[str] = [
            self.bought.merchant_uid,
            self.world.subscription(self.sub_id).first_merchant_uid,
        ]
        self.charges_when_lifetime: int | None = None

    @property
    def sub_id(self) -> UUID:
        return self.subscribed.subscription_id

    def _payment(self, merchant_uid: str) -> Payment:
        return self.world.payment(merchant_uid)

    @rule(days=st.integers(min_value=0, max_value=40), hours=st.integers(min_value=0, max_value=23))
    def time_passes(self, days: int, hours: int) -> None:
        self.world.later(days=days, hours=hours)
        charged = renew_if_due(self.world.store, self.world.clock, self.world.gateway, self.sub_id)
        if charged.merchant_uid:
            self.merchant_uids.append(charged.merchant_uid)

    @rule(plan=TARGETS)
    def upgrade_the_purchase(self, plan: int) -> None:
        world = self.world
        licence = world.licence(self.bought.user_licence_id)
        period = licence_period(world.store, licence)
        try:
            choice = upgrade_choice(
                world.store, world.clock, world.catalogue, account_id=self.member, user_licence_id=licence.id
            )
        except DomainError as refused:
            if refused.code is not ErrorCode.NOTHING_PURCHASABLE:
                raise
            return
        assert period is not None
        for offer in choice.offers:
            assert _within_unused(offer.credit, period.paid, period.starts_at, period.ends_at, world.clock.now())
            assert offer.amount == offer.quote.price_after(DiscountKind.BASE) - offer.credit
        if plan not in [offer.target.id for offer in choice.offers]:
            return
        confirmed = world.upgrade(self.member, licence.id, plan)
        self.merchant_uids.append(confirmed.merchant_uid)
        upgraded = world.licence(licence.id)
        assert upgraded.licence_id == plan and upgraded.licence_key == self.bought.licence_key
        assert upgraded.expires_at == world.clock.now() + timedelta(days=upgraded.life)

    @rule(plan=TARGETS)
    def upgrade_the_subscription(self, plan: int) -> None:
        world = self.world
        subscription = world.subscription(self.sub_id)
        period = subscription_period(world.store, subscription)
        try:
            choice = subscription_upgrade_choice(
                world.store, world.clock, world.catalogue, account_id=self.member, subscription_id=self.sub_id
            )
        except DomainError as refused:
            if refused.code is not ErrorCode.NOTHING_PURCHASABLE:
                raise
            return
        assert period is not None
        offer = next((item for item in choice.offers if item.target.id == plan), None)
        if offer is None:
            return
        assert _within_unused(offer.credit, period.paid, period.starts_at, period.ends_at, world.clock.now())
        charged = upgrade_subscription(
            world.store,
            world.clock,
            world.gateway,
            world.catalogue,
            account_id=self.member,
            subscription_id=self.sub_id,
            target_id=plan,
            expected_amount=offer.amount,
            language=Language.KO,
        )
        assert charged.merchant_uid is not None
        self.merchant_uids.append(charged.merchant_uid)
        if offer.target.is_lifetime:
            assert world.subscription(self.sub_id).status is SubscriptionStatus.ENDED
            self.charges_when_lifetime = self._subscription_charges()

    def _subscription_charges(self) -> int:
        prefix = f"sub-{self.sub_id}-"
        return sum(1 for merchant_uid in self.world.gateway.charges if merchant_uid.startswith(prefix))

    @rule()
    def stop_auto_renewal(self) -> None:
        if self.world.subscription(self.sub_id).status is SubscriptionStatus.ACTIVE:
            cancel_auto_renewal(self.world.store, self.world.clock, account_id=self.member, subscription_id=self.sub_id)

    @rule(pick=st.integers(min_value=0), share=st.sampled_from([None, 1, 2]))
    def refund(self, pick: int, share: int | None) -> None:
        merchant_uid = self.merchant_uids[pick % len(self.merchant_uids)]
        payment = self._payment(merchant_uid)
        if payment.refundable <= 0:
            return
        amount = None if share is None else max(1, payment.refundable // (share + 1))
        refund_payment(
            self.world.store,
            self.world.clock,
            self.world.gateway,
            merchant_uid=merchant_uid,
            amount=amount,
            reason="asked",
        )

    @invariant()
    def refunds_never_exceed_charges_nor_give_back_a_credit(self) -> None:
        gateway_paid = [
            p for p in self.world.gateway.charges.values() if p.status in (GatewayStatus.PAID, GatewayStatus.CANCELLED)
        ]
        assert sum(p.cancel_amount for p in gateway_paid) <= sum(p.amount for p in gateway_paid)
        for merchant_uid in self.merchant_uids:
            payment = self._payment(merchant_uid)
            if payment.state is PaymentState.PAID:
                assert payment.cancel_amount + payment.credit_spent <= payment.amount

    @invariant()
    def no_period_is_paid_twice(self) -> None:
        periods: dict[int, int] = {}
        for merchant_uid in self.merchant_uids:
            if not merchant_uid.startswith("sub-"):
                continue
            payment = self._payment(merchant_uid)
            kept = payment.state is PaymentState.PAID and payment.cancel_amount < payment.amount
            given_back_whole = payment.state is PaymentState.PAID and payment.cancel_amount == payment.amount
            if kept or given_back_whole:
                period = int(merchant_uid.split("-")[2])
                periods[period] = periods.get(period, 0) + (1 if kept else 0)
        assert all(count <= 1 for count in periods.values()), periods

    @invariant()
    def a_subscription_upgraded_to_lifetime_never_charges_again(self) -> None:
        if self.charges_when_lifetime is not None:
            assert self._subscription_charges() == self.charges_when_lifetime
            assert self.world.subscription(self.sub_id).due_at is None

    @invariant()
    def licences_end_with_their_last_paid_period(self) -> None:
        subscription: Subscription = self.world.subscription(self.sub_id)
        licence: UserLicence = self.world.licence(subscription.user_licence_id)
        if licence.state is LicenceState.ACTIVE and licence.expires_at is not None:
            shortened = licence.expires_at < subscription.paid_until
            assert licence.expires_at == subscription.paid_until or shortened  # a partial refund shortens it
        bought = self.world.licence(self.bought.user_licence_id)
        if bought.state is LicenceState.ACTIVE and bought.starts_at is not None and bought.expires_at is not None:
            assert bought.expires_at <= bought.starts_at + timedelta(days=bought.life)


TestUpgradeHistories = UpgradeHistories.TestCase
TestUpgradeHistories.settings = settings(
    max_examples=25,
    stateful_step_count=15,
    suppress_health_check=[HealthCheck.too_slow],
)

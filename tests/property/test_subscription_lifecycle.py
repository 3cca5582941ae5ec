"""Random lives of subscriptions (subscribe, renew, fail, retry, cancel, resume, re-subscribe, change card,
clock moves) never break the billing rules."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path
from uuid import UUID

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, precondition, rule

from domain.catalogue.licences import load_catalogue
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.payments.cards import Card
from domain.payments.gateway import GatewayStatus
from domain.payments.wallet import BillingKey, new_customer_uid, wallet_of
from domain.subscriptions.commands import (
    cancel_auto_renewal,
    change_payment_method,
    resubscribe,
    resume_auto_renewal,
    subscribe_with_window_key,
)
from domain.subscriptions.commands import subscribe as start_subscription
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import Subscription, SubscriptionStatus, period_length
from events.subscriptions import SubscriptionRenewed, SubscriptionResubscribed, SubscriptionStarted
from events.values import Language
from projections.catalogue import all_views
from projections.database import SQLiteViewDatabase
from projections.payments import payments_of
from projections.runner import Projector
from tests.fakes import FakeGateway, ManualClock, in_memory_store
from tests.support import START, register

pytestmark = pytest.mark.property

# Two cards kept in the wallet under their names as customer_uids; PG windows issue more keys for them.
CARDS = {"card-a": "4111111111111111", "card-b": "5555555555554444"}


def _period_of(merchant_uid: str) -> int:
    return int(merchant_uid.split("-")[2])


class SubscriptionLives(RuleBasedStateMachine):
    subscriptions = Bundle("subscriptions")

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.store = in_memory_store()
        self.clock = ManualClock(START)
        self.gateway = FakeGateway(self.clock)
        for card, number in CARDS.items():
            self.gateway.issue_billing_key(card, Card(number, START.year + 3, 12, "12", "900101"), "nice")
        self.failing: set[str] = set()
        self.catalogue = load_catalogue()
        self.account_id: UUID = register(self.store, "subscriber@example.com", self.clock).account_id
        self.views = SQLiteViewDatabase(str(Path(self.folder.name) / "views.sqlite3"))
        self.projector = Projector(self.store, self.views, all_views(), poll_interval=0.01)
        self.projector.setup()
        self.known: list[UUID] = []

    def teardown(self) -> None:
        self.views.close()
        self.folder.cleanup()

    def _subscription(self, subscription_id: UUID) -> Subscription:
        subscription: Subscription = self.store.repository.get(subscription_id)
        return subscription

    @rule(target=subscriptions, annual=st.booleans(), card=st.sampled_from(sorted(CARDS)))
    def subscribe(self, annual: bool, card: str) -> UUID | None:
        try:
            started = start_subscription(
                self.store,
                self.clock,
                self.gateway,
                self.catalogue,
                account_id=self.account_id,
                licence_id=121 if annual else 111,
                country_code="KR",
                language=Language.KO,
                key=BillingKey(card, card, "nice", None, None),
            )
        except DomainError:
            assert card in self.failing
            return None
        self.known.append(started.subscription_id)
        return started.subscription_id

    @rule(target=subscriptions, annual=st.booleans(), card=st.sampled_from(sorted(CARDS)), returns=st.integers(1, 3))
    def subscribe_through_a_pg_window(self, annual: bool, card: str, returns: int) -> UUID | None:
        """The window issues a key; its return may arrive more than once (the popup's callback, a reload)."""
        customer_uid = new_customer_uid(self.account_id)
        assert self.gateway.issue_in_window(customer_uid, CARDS[card])
        outcomes: set[UUID | ErrorCode] = set()
        for _ in range(returns):
            try:
                started = subscribe_with_window_key(
                    self.store,
                    self.clock,
                    self.gateway,
                    self.catalogue,
                    account_id=self.account_id,
                    email=None,
                    customer_uid=customer_uid,
                    licence_id=121 if annual else 111,
                    country_code="KR",
                    language=Language.KO,
                )
                outcomes.add(started.subscription_id)
            except DomainError as refused:
                outcomes.add(refused.code)
        [outcome] = outcomes  # every return of one window has the same outcome
        if isinstance(outcome, ErrorCode):
            wallet = wallet_of(self.store, self.account_id)
            others = [key for key in wallet.keys.values() if key.customer_uid != customer_uid] if wallet else []
            cards_kept = {key.card_number for key in others}
            already_kept = self.gateway.billing_key(customer_uid).card_number in cards_kept
            expected = ErrorCode.BILLING_KEY_ALREADY_REGISTERED if already_kept else ErrorCode.CHECK_CARD_HELD
            assert outcome is expected
            assert expected is not ErrorCode.CHECK_CARD_HELD or card in self.failing
            return None
        self.known.append(outcome)
        return outcome

    @rule(days=st.integers(min_value=0, max_value=120))
    def time_passes_and_beat_runs(self, days: int) -> None:
        before = {sid: self._subscription(sid).status for sid in self.known}
        charged_before = set(self.gateway.charges)
        self.clock.advance(timedelta(days=days))
        for subscription_id in self.known:
            for _ in range(30):  # beat every minute would catch up one attempt at a time
                outcome = renew_if_due(self.store, self.clock, self.gateway, subscription_id)
                if outcome.charged is None:
                    break
        for merchant_uid in set(self.gateway.charges) - charged_before:
            owner = next(sid for sid in self.known if sid.hex[:16] == merchant_uid.split("-")[1])
            assert before[owner] in (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE), (
                f"{merchant_uid} charged a {before[owner].value} subscription"
            )

    @rule(card=st.sampled_from(sorted(CARDS)))
    def card_starts_failing(self, card: str) -> None:
        self.gateway.run_dry(CARDS[card])
        self.failing.add(card)

    @rule(card=st.sampled_from(sorted(CARDS)))
    def card_works_again(self, card: str) -> None:
        self.gateway.refill(CARDS[card])
        self.failing.discard(card)

    @rule(subscription=subscriptions)
    def cancel(self, subscription: UUID | None) -> None:
        if subscription is not None:
            try:
                cancel_auto_renewal(self.store, self.clock, account_id=self.account_id, subscription_id=subscription)
            except DomainError:
                assert self._subscription(subscription).status in (
                    SubscriptionStatus.CANCELLED,
                    SubscriptionStatus.ENDED,
                )

    @rule(subscription=subscriptions)
    def resume(self, subscription: UUID | None) -> None:
        if subscription is not None:
            try:
                resume_auto_renewal(self.store, self.clock, account_id=self.account_id, subscription_id=subscription)
            except DomainError:
                current = self._subscription(subscription)
                assert current.status is not SubscriptionStatus.CANCELLED or self.clock.now() >= current.paid_until

    @rule(subscription=subscriptions, card=st.sampled_from(sorted(CARDS)))
    def resubscribe_after_the_end(self, subscription: UUID | None, card: str) -> None:
        if subscription is not None:
            try:
                resubscribe(
                    self.store,
                    self.clock,
                    self.gateway,
                    account_id=self.account_id,
                    subscription_id=subscription,
                    customer_uid=card,
                )
            except DomainError:
                status = self._subscription(subscription).status
                assert status is not SubscriptionStatus.ENDED or card in self.failing

    @rule(subscription=subscriptions, card=st.sampled_from(sorted(CARDS)))
    def change_the_card(self, subscription: UUID | None, card: str) -> None:
        if subscription is not None:
            try:
                change_payment_method(
                    self.store, self.clock, account_id=self.account_id, subscription_id=subscription, customer_uid=card
                )
            except DomainError:
                assert self._subscription(subscription).status is SubscriptionStatus.ENDED

    @invariant()
    def no_period_is_ever_charged_twice(self) -> None:
        paid = [
            (uid.split("-")[1], _period_of(uid))
            for uid, charge in self.gateway.charges.items()
            if charge.status is GatewayStatus.PAID
        ]
        assert len(paid) == len(set(paid))

    @invariant()
    def paid_periods_are_contiguous_and_never_overlap(self) -> None:
        for subscription_id in self.known:
            paid_until = None
            life = None
            for event in self.store.events.get(subscription_id):
                if isinstance(event, SubscriptionStarted):
                    paid_until, life = event.paid_until, event.life
                elif isinstance(event, SubscriptionRenewed):
                    assert paid_until is not None and life is not None
                    assert event.paid_until == paid_until + period_length(life)
                    paid_until = event.paid_until
                elif isinstance(event, SubscriptionResubscribed):
                    assert paid_until is not None
                    assert event.period_start >= paid_until
                    paid_until = event.paid_until

    @invariant()
    def the_licence_ends_where_the_last_paid_period_ends(self) -> None:
        for subscription_id in self.known:
            subscription = self._subscription(subscription_id)
            licence: UserLicence = self.store.repository.get(subscription.user_licence_id)
            assert licence.expires_at == subscription.paid_until

    @precondition(lambda self: bool(self.known))
    @invariant()
    def every_charge_has_its_record_in_the_purchase_history(self) -> None:
        self.projector.catch_up()
        history = {row["merchant_uid"]: row for row in payments_of(self.views, self.account_id)}
        for merchant_uid, charge in self.gateway.charges.items():
            assert merchant_uid in history, f"{merchant_uid} missing from the history"
            assert history[merchant_uid]["state"] == ("paid" if charge.status is GatewayStatus.PAID else "failed")
            assert history[merchant_uid]["amount"] == charge.amount


TestSubscriptionLives = SubscriptionLives.TestCase
TestSubscriptionLives.settings = settings(
    max_examples=25,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

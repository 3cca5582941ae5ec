"""Random lives of subscriptions (subscribe, renew, fail, retry, cancel, resume, re-subscribe, pay a
past-due period now, change card, clock moves) never break the billing rules, and every command is
accepted exactly when the subscription says the action is allowed."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from uuid import UUID

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, precondition, rule

from domain.catalogue.licences import load_catalogue
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action
from domain.licences.licence import UserLicence
from domain.payments.cards import Card
from domain.payments.gateway import GatewayStatus
from domain.payments.wallet import BillingKey, new_customer_uid, wallet_of
from domain.subscriptions.commands import (
    cancel_auto_renewal,
    change_payment_method,
    pay_now,
    resume_or_resubscribe,
    subscribe_with_window_key,
)
from domain.subscriptions.commands import subscribe as start_subscription
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import Subscription, SubscriptionStatus, period_length
from eventlog.database import SQLiteViewDatabase
from events.subscriptions import SubscriptionRenewed, SubscriptionResubscribed, SubscriptionStarted
from events.values import Language
from projections.catalogue import all_views
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
        self.cards_by_mask = {self.gateway.billing_key(card).card_number: card for card in CARDS}
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

    @initialize(target=subscriptions, annual=st.booleans())
    def a_subscriber_starts_with_one_subscription(self, annual: bool) -> UUID | None:
        return self.subscribe(annual, "card-a")

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
                if outcome.merchant_uid is None:
                    break
        for merchant_uid in set(self.gateway.charges) - charged_before:
            owner = next(sid for sid in self.known if sid.hex[:16] == merchant_uid.split("-")[1])
            assert before[owner] in (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE), (
                f"{merchant_uid} charged a {before[owner].value} subscription"
            )

    def _renewing(self) -> list[UUID]:
        return [sid for sid in self.known if self._subscription(sid).next_charge_at is not None]

    @precondition(lambda self: bool(self._renewing()))
    @rule(data=st.data())
    def a_renewal_comes_due_and_the_card_is_declined(self, data: st.DataObject) -> None:
        """The way into dunning: the card stops working, and time reaches the next charge."""
        subscription = data.draw(st.sampled_from(self._renewing()))
        current = self._subscription(subscription)
        assert current.next_charge_at is not None
        self._run_dry(self._card_behind(current.customer_uid))
        if self.clock.now() < current.next_charge_at:
            self.clock.advance(current.next_charge_at - self.clock.now())
        renew_if_due(self.store, self.clock, self.gateway, subscription)

    @rule(card=st.sampled_from(sorted(CARDS)))
    def card_starts_failing(self, card: str) -> None:
        self._run_dry(card)

    @rule(card=st.sampled_from(sorted(CARDS)))
    def card_works_again(self, card: str) -> None:
        self._refill(card)

    def _run_dry(self, card: str) -> None:
        self.gateway.run_dry(CARDS[card])
        self.failing.add(card)

    def _refill(self, card: str) -> None:
        self.gateway.refill(CARDS[card])
        self.failing.discard(card)

    def _card_behind(self, customer_uid: str) -> str:
        """The card (by name) behind a billing key, whether kept under its name or issued in a window."""
        return self.cards_by_mask[self.gateway.billing_key(customer_uid).card_number]

    def _declines(self, customer_uid: str) -> bool:
        return self._card_behind(customer_uid) in self.failing

    def _key(self, card: str) -> BillingKey:
        return BillingKey(card, card, "nice", card, f"****{card}")

    def _allowed(self, subscription: UUID) -> set[Action]:
        return self._subscription(subscription).allowed_actions(self.clock.now())

    def _paid_until_and_licence_end(self, subscription: UUID) -> tuple[object, object]:
        current = self._subscription(subscription)
        licence: UserLicence = self.store.repository.get(current.user_licence_id)
        return current.paid_until, licence.expires_at

    @rule(subscription=subscriptions)
    def cancel(self, subscription: UUID | None) -> None:
        if subscription is None:
            return
        allowed = self._allowed(subscription)
        try:
            cancel_auto_renewal(self.store, self.clock, account_id=self.account_id, subscription_id=subscription)
        except DomainError:
            assert Action.CANCEL_AUTO_RENEWAL not in allowed
        else:
            assert Action.CANCEL_AUTO_RENEWAL in allowed
            assert not self._subscription(subscription).is_scheduled

    @rule(subscription=subscriptions, card=st.sampled_from((*sorted(CARDS), None)))
    def turn_renewals_back_on(self, subscription: UUID | None, card: str | None) -> None:
        """The licence page's resume button: resume, re-subscribe or pay now, whichever applies."""
        if subscription is None:
            return
        before = self._subscription(subscription)
        allowed = before.allowed_actions(self.clock.now())
        charging = allowed & {Action.RESUBSCRIBE, Action.PAY_NOW}
        paying_card = card or before.customer_uid
        refused = self._refusal(
            lambda: resume_or_resubscribe(
                self.store,
                self.clock,
                self.gateway,
                account_id=self.account_id,
                subscription_id=subscription,
                key=self._key(card) if card else None,
            )
        )
        if refused is None:
            assert allowed & {Action.RESUME, Action.RESUBSCRIBE, Action.PAY_NOW}
            after = self._subscription(subscription)
            assert after.status is SubscriptionStatus.ACTIVE
            assert after.customer_uid == paying_card
            return
        if refused is ErrorCode.CHECK_CARD_HELD:
            assert charging and self._declines(paying_card)
        else:
            assert refused is ErrorCode.AUTO_PAYMENT_ALREADY_SET
            assert not allowed & {Action.RESUME, Action.RESUBSCRIBE, Action.PAY_NOW}
        assert self._subscription(subscription).customer_uid == before.customer_uid  # a refused card stays out

    @staticmethod
    def _refusal(command: Callable[[], object]) -> ErrorCode | None:
        try:
            command()
        except DomainError as error:
            return error.code
        return None

    def _past_due(self) -> list[UUID]:
        return [sid for sid in self.known if self._subscription(sid).status is SubscriptionStatus.PAST_DUE]

    @precondition(lambda self: bool(self._past_due()))
    @rule(data=st.data(), card=st.sampled_from((*sorted(CARDS), None)), topped_up=st.booleans())
    def a_past_due_subscriber_pays_or_changes_the_card(
        self, data: st.DataObject, card: str | None, topped_up: bool
    ) -> None:
        """The licence page's pay-now button (no card) or its change-card button (a card), while past due,
        perhaps after sorting the card out with the bank."""
        subscription = data.draw(st.sampled_from(self._past_due()))
        if topped_up:
            self._refill(self._card_behind(card or self._subscription(subscription).customer_uid))
        if card is None:
            self.pay_a_past_due_period_now(subscription)
        else:
            self.change_the_card(subscription, card)

    @rule(subscription=subscriptions)
    def pay_a_past_due_period_now(self, subscription: UUID | None) -> None:
        if subscription is None:
            return
        before = self._subscription(subscription)
        allowed = before.allowed_actions(self.clock.now())
        paid_until = before.paid_until
        refused = self._refusal(
            lambda: pay_now(
                self.store, self.clock, self.gateway, account_id=self.account_id, subscription_id=subscription
            )
        )
        if refused is None:
            assert Action.PAY_NOW in allowed
            self._check_paid_once(subscription, paid_until)
        elif refused is ErrorCode.CHECK_CARD_HELD:
            assert Action.PAY_NOW in allowed and self._declines(before.customer_uid)
            after = self._subscription(subscription)
            assert after.status is SubscriptionStatus.PAST_DUE
            assert after.retry_at == before.retry_at  # the subscriber's own attempt leaves dunning as it was
        else:
            assert Action.PAY_NOW not in allowed

    def _check_paid_once(self, subscription: UUID, paid_until_before: object) -> None:
        """The due period was paid: dunning stopped and the licence moved on by exactly one period."""
        after = self._subscription(subscription)
        assert after.status is SubscriptionStatus.ACTIVE and after.retry_at is None
        assert after.paid_until == paid_until_before + period_length(after.life)  # type: ignore[operator]
        assert self._paid_until_and_licence_end(subscription) == (after.paid_until, after.paid_until)

    @rule(subscription=subscriptions, card=st.sampled_from(sorted(CARDS)))
    def change_the_card(self, subscription: UUID | None, card: str) -> None:
        """Past due, a new card pays the due period at once (as an open invoice after a card update)."""
        if subscription is None:
            return
        before = self._subscription(subscription)
        allowed = before.allowed_actions(self.clock.now())
        refused = self._refusal(
            lambda: change_payment_method(
                self.store,
                self.clock,
                self.gateway,
                account_id=self.account_id,
                subscription_id=subscription,
                key=self._key(card),
            )
        )
        if refused is None:
            assert Action.CHANGE_PAYMENT_METHOD in allowed
            assert self._subscription(subscription).customer_uid == card
            if Action.PAY_NOW in allowed:
                self._check_paid_once(subscription, before.paid_until)
        elif refused is ErrorCode.CHECK_CARD_HELD:
            assert Action.PAY_NOW in allowed and card in self.failing
            assert self._subscription(subscription).customer_uid == before.customer_uid
        else:
            assert Action.CHANGE_PAYMENT_METHOD not in allowed

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
    max_examples=30,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

"""A subscription's billing rules, told through its use cases on the fake gateway: the order id of
every kind of charge, dunning, the subscriber paying a past-due period (with the current card or a
new one), stopping, resuming and re-subscribing, what the subscriber may do in each status, and
what its events carry for the renewal pass."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from uuid import UUID

import pytest

from domain.errors import ErrorCode
from domain.licences.actions import Action
from domain.payments.payment import PaymentState
from domain.payments.wallet import BillingKey
from domain.pricing.quotes import DiscountFactor, DiscountKind
from domain.subscriptions.charging import Charged
from domain.subscriptions.commands import (
    Subscribed,
    cancel_auto_renewal,
    change_payment_method,
    pay_now,
    resubscribe,
    resume_or_resubscribe,
)
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import (
    DUNNING_SCHEDULE,
    Subscription,
    SubscriptionStatus,
    period_length,
    subscription_actions,
)
from events.subscriptions import (
    AutoRenewalCancelled,
    AutoRenewalResumed,
    RenewalFailed,
    SubscriptionEnded,
    SubscriptionResubscribed,
)
from tests.support import START
from tests.unit.billing_world import ANNUAL, GOOD_CARD, MONTHLY, NO_FUNDS_CARD, OTHER_CARD, World, refused

DAY = timedelta(days=1)
FIRST_END = START + timedelta(days=30)  # a monthly subscription started at START is paid until then


def uid(subscription_id: UUID, tail: str) -> str:
    """``sub-<first 16 hex of the id>-<tail>``, as the order ids of a subscription read."""
    return f"sub-{subscription_id.hex[:16]}-{tail}"


def _subscribed(world: World, licence_id: int = MONTHLY) -> tuple[UUID, Subscribed]:
    member = world.member()
    return member, world.subscribe(member, world.key(member, GOOD_CARD), licence_id)


def _renew(world: World, subscription_id: UUID) -> Charged:
    return renew_if_due(world.store, world.clock, world.gateway, subscription_id)


def _at(world: World, when: datetime) -> None:
    world.later(seconds=(when - world.clock.now()).total_seconds())


def _past_due(world: World) -> tuple[UUID, Subscribed]:
    """A monthly subscription whose first renewal was declined (order id ``-2-1``)."""
    member, started = _subscribed(world)
    world.gateway.run_dry(GOOD_CARD)
    _at(world, FIRST_END)
    assert not _renew(world, started.subscription_id).paid
    return member, started


def _pay_now(world: World, member: UUID, subscription_id: UUID, key: BillingKey | None = None) -> int:
    return pay_now(world.store, world.clock, world.gateway, account_id=member, subscription_id=subscription_id, key=key)


# -- the first period and renewals -----------------------------------------------------


def test_the_first_period_is_order_sub_id_1_1_and_the_licence_runs_to_its_end(world: World) -> None:
    _, started = _subscribed(world)
    sid = started.subscription_id
    subscription = world.subscription(sid)
    assert subscription.first_merchant_uid == uid(sid, "1-1")
    assert (subscription.status, subscription.period, subscription.paid_until) == (
        SubscriptionStatus.ACTIVE,
        1,
        FIRST_END,
    )
    assert subscription.card_number == "411111******1111"
    record = world.payment(uid(sid, "1-1"))
    assert (record.state, record.purchase_type, record.amount) == (PaymentState.PAID, "subscription", 2900)
    licence = world.licence(started.user_licence_id)
    assert (licence.source, licence.expires_at) == ("subscription", FIRST_END)


def test_a_renewal_is_order_period_1_at_the_paid_date_and_extends_the_licence_by_a_period(world: World) -> None:
    _, started = _subscribed(world)
    sid = started.subscription_id
    _at(world, FIRST_END - timedelta(seconds=1))
    assert _renew(world, sid).attempt is None, "not due yet"
    world.later(seconds=1)
    renewed = _renew(world, sid)
    assert (renewed.merchant_uid, renewed.paid) == (uid(sid, "2-1"), True)
    subscription = world.subscription(sid)
    assert (subscription.period, subscription.paid_until) == (2, FIRST_END + timedelta(days=30))
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)
    assert world.payment(uid(sid, "2-1")).purchase_type == "renewal"
    assert _renew(world, sid).attempt is None, "the next period is not due"


def test_a_yearly_subscription_renews_every_365_days_at_its_quote_with_its_discount_recorded(world: World) -> None:
    _, started = _subscribed(world, ANNUAL)
    sid = started.subscription_id
    assert period_length(365) == timedelta(days=365) and period_length(30) == timedelta(days=30)
    _at(world, START + timedelta(days=365))
    assert _renew(world, sid).merchant_uid == uid(sid, "2-1")
    renewal = world.payment(uid(sid, "2-1"))
    assert (renewal.original_amount, renewal.amount) == (34800, 24360)
    assert renewal.discount_factors == (DiscountFactor(DiscountKind.BASE, Decimal("0.3")),)
    assert world.subscription(sid).paid_until == START + timedelta(days=730)


# -- dunning ---------------------------------------------------------------------------


def test_a_declined_renewal_is_retried_one_three_and_seven_days_after_the_due_date_then_it_ends(world: World) -> None:
    _, started = _past_due(world)
    sid = started.subscription_id
    assert DUNNING_SCHEDULE == (DAY, 3 * DAY, 7 * DAY)
    subscription = world.subscription(sid)
    assert (subscription.status, subscription.retry_at) == (SubscriptionStatus.PAST_DUE, FIRST_END + DAY)
    for attempt, retry_after, next_retry in ((2, DAY, 3 * DAY), (3, 3 * DAY, 7 * DAY)):
        _at(world, FIRST_END + retry_after - timedelta(seconds=1))
        assert _renew(world, sid).attempt is None, "not before the retry date"
        world.later(seconds=1)
        assert _renew(world, sid).merchant_uid == uid(sid, f"2-{attempt}")
        assert world.subscription(sid).retry_at == FIRST_END + next_retry
    _at(world, FIRST_END + 7 * DAY)
    last = _renew(world, sid)
    assert (last.merchant_uid, last.status) == (uid(sid, "2-4"), SubscriptionStatus.ENDED)
    subscription = world.subscription(sid)
    assert (subscription.due_at, subscription.paid_until) == (None, FIRST_END)
    assert world.licence(started.user_licence_id).expires_at == FIRST_END, "the licence ends with the last paid period"


def test_a_retry_that_pays_starts_the_next_period_where_the_last_one_ended(world: World) -> None:
    _, started = _past_due(world)
    sid = started.subscription_id
    world.gateway.refill(GOOD_CARD)
    _at(world, FIRST_END + DAY)
    retried = _renew(world, sid)
    assert (retried.merchant_uid, retried.paid, retried.status) == (uid(sid, "2-2"), True, SubscriptionStatus.ACTIVE)
    assert world.subscription(sid).paid_until == FIRST_END + timedelta(days=30), "not a day later than due"
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)


# -- the subscriber paying a past-due period -------------------------------------------


def test_the_subscribers_own_failed_payment_moves_the_order_id_on_but_not_the_dunning_schedule(world: World) -> None:
    member, started = _past_due(world)
    sid = started.subscription_id
    world.later(hours=2)
    with refused(ErrorCode.CHECK_CARD_HELD):
        _pay_now(world, member, sid)
    assert world.payment(uid(sid, "2-2")).state is PaymentState.FAILED
    subscription = world.subscription(sid)
    assert (subscription.status, subscription.retry_at, subscription.failed_attempts) == (
        SubscriptionStatus.PAST_DUE,
        FIRST_END + DAY,
        1,
    )
    _at(world, FIRST_END + DAY)
    assert _renew(world, sid).merchant_uid == uid(sid, "2-3"), "n counts the subscriber's attempt too"
    assert world.subscription(sid).retry_at == FIRST_END + 3 * DAY, "the second scheduled failure: +3 days"


def test_paying_a_past_due_period_now_extends_the_licence_once_and_ends_dunning(world: World) -> None:
    member, started = _past_due(world)
    sid = started.subscription_id
    world.gateway.refill(GOOD_CARD)
    world.later(hours=2)
    _pay_now(world, member, sid)
    assert world.payment(uid(sid, "2-2")).state is PaymentState.PAID
    assert world.subscription(sid).status is SubscriptionStatus.ACTIVE
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)
    _at(world, FIRST_END + DAY)
    assert _renew(world, sid).attempt is None, "no retry once paid"
    with refused(ErrorCode.AUTO_PAYMENT_ALREADY_SET):
        _pay_now(world, member, sid)


def test_a_new_card_pays_a_past_due_period_at_once_and_becomes_the_card_only_if_it_paid(world: World) -> None:
    member, started = _past_due(world)
    sid = started.subscription_id
    first_card = world.subscription(sid).customer_uid
    no_funds, works = world.key(member, NO_FUNDS_CARD), world.key(member, OTHER_CARD)

    def change_to(key: BillingKey) -> int:
        return change_payment_method(
            world.store, world.clock, world.gateway, account_id=member, subscription_id=sid, key=key
        )

    with refused(ErrorCode.CHECK_CARD_HELD):
        change_to(no_funds)
    subscription = world.subscription(sid)
    assert (subscription.customer_uid, subscription.retry_at) == (first_card, FIRST_END + DAY)
    assert world.gateway.charges[uid(sid, "2-2")].card_number == "400000******0003"
    change_to(works)
    subscription = world.subscription(sid)
    assert (subscription.status, subscription.customer_uid, subscription.card_number) == (
        SubscriptionStatus.ACTIVE,
        works.customer_uid,
        "555555******4444",
    )
    assert world.gateway.charges[uid(sid, "2-3")].card_number == "555555******4444"
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)


def test_a_new_card_while_renewing_charges_nothing_now_and_pays_the_next_renewal(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    other = world.key(member, OTHER_CARD)
    change_payment_method(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid, key=other)
    assert list(world.gateway.charges) == [uid(sid, "1-1")]
    _at(world, FIRST_END)
    _renew(world, sid)
    assert world.gateway.charges[uid(sid, "2-1")].card_number == "555555******4444"


# -- stopping, resuming, re-subscribing ------------------------------------------------


def test_stopping_while_renewing_runs_to_the_paid_date_then_the_renewal_pass_ends_it(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    world.later(days=10)
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    subscription = world.subscription(sid)
    assert (subscription.status, subscription.is_scheduled, subscription.due_at) == (
        SubscriptionStatus.CANCELLED,
        False,
        FIRST_END,
    )
    assert world.licence(started.user_licence_id).expires_at == FIRST_END
    _at(world, FIRST_END)
    ended = _renew(world, sid)
    assert (ended.attempt, ended.status) == (None, SubscriptionStatus.ENDED)
    assert list(world.gateway.charges) == [uid(sid, "1-1")], "nothing charged"
    with refused(ErrorCode.INVALID_VALUE):
        cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)


def test_stopping_while_past_due_ends_the_subscription_now(world: World) -> None:
    member, started = _past_due(world)
    sid = started.subscription_id
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    assert world.subscription(sid).status is SubscriptionStatus.ENDED
    _at(world, FIRST_END + DAY)
    assert _renew(world, sid).attempt is None, "no more retries"


def test_resuming_within_the_paid_period_charges_nothing_and_renews_at_the_paid_date(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    world.later(days=29)
    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    assert world.subscription(sid).status is SubscriptionStatus.ACTIVE
    assert list(world.gateway.charges) == [uid(sid, "1-1")]
    _at(world, FIRST_END)
    assert _renew(world, sid).merchant_uid == uid(sid, "2-1")
    with refused(ErrorCode.AUTO_PAYMENT_ALREADY_SET):
        resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)


def test_resuming_with_a_new_card_makes_it_the_card(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    other = world.key(member, OTHER_CARD)
    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid, key=other)
    assert world.subscription(sid).customer_uid == other.customer_uid


def test_after_a_cancelled_period_ran_out_resuming_re_subscribes_even_before_the_renewal_pass_ended_it(
    world: World,
) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    _at(world, FIRST_END + 2 * DAY)
    assert world.subscription(sid).status is SubscriptionStatus.CANCELLED, "the renewal pass has not run"
    subscription = world.subscription(sid)
    with refused(ErrorCode.INVALID_VALUE):
        subscription.resume(world.clock.now())
    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    assert uid(sid, "2-r1") in world.gateway.charges
    subscription = world.subscription(sid)
    now = world.clock.now()
    assert (subscription.status, subscription.period, subscription.period_start, subscription.paid_until) == (
        SubscriptionStatus.ACTIVE,
        2,
        now,
        now + timedelta(days=30),
    )
    assert world.licence(started.user_licence_id).expires_at == now + timedelta(days=30)
    assert world.payment(uid(sid, "2-r1")).purchase_type == "resubscribe"


def test_turning_renewals_back_on_while_past_due_pays_the_due_period_now(world: World) -> None:
    member, started = _past_due(world)
    sid = started.subscription_id
    world.gateway.refill(GOOD_CARD)
    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    assert world.payment(uid(sid, "2-2")).state is PaymentState.PAID
    assert (world.subscription(sid).status, world.subscription(sid).period) == (SubscriptionStatus.ACTIVE, 2)


def test_re_subscribing_after_the_end_is_order_period_r_n_counting_refused_attempts(world: World) -> None:
    member, started = _past_due(world)
    sid = started.subscription_id
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    with refused(ErrorCode.CHECK_CARD_HELD):
        resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    assert world.payment(uid(sid, "2-r1")).state is PaymentState.FAILED
    assert world.subscription(sid).status is SubscriptionStatus.ENDED
    other = world.key(member, OTHER_CARD)
    resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid, key=other)
    subscription = world.subscription(sid)
    assert (subscription.status, subscription.customer_uid) == (SubscriptionStatus.ACTIVE, other.customer_uid)
    assert world.gateway.charges[uid(sid, "2-r2")].card_number == "555555******4444"
    _at(world, subscription.paid_until)
    assert _renew(world, sid).merchant_uid == uid(sid, "3-1"), "the next renewal is the next period's"


def test_a_running_subscription_cannot_be_re_subscribed(world: World) -> None:
    member, started = _subscribed(world)
    with refused(ErrorCode.AUTO_PAYMENT_ALREADY_SET):
        resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=started.subscription_id)
    assert len(world.gateway.charges) == 1


def test_someone_elses_subscription_looks_missing(world: World) -> None:
    _, started = _subscribed(world)
    stranger = world.member("stranger@example.com")
    with refused(ErrorCode.NOT_FOUND):
        cancel_auto_renewal(world.store, world.clock, account_id=stranger, subscription_id=started.subscription_id)


# -- what the subscriber may do --------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "now", "allowed"),
    [
        (SubscriptionStatus.ACTIVE, START, {Action.CANCEL_AUTO_RENEWAL, Action.CHANGE_PAYMENT_METHOD}),
        (
            SubscriptionStatus.PAST_DUE,
            FIRST_END + DAY,
            {Action.CANCEL_AUTO_RENEWAL, Action.CHANGE_PAYMENT_METHOD, Action.PAY_NOW},
        ),
        (
            SubscriptionStatus.CANCELLED,
            FIRST_END - timedelta(microseconds=1),
            {Action.RESUME, Action.CHANGE_PAYMENT_METHOD},
        ),
        (SubscriptionStatus.CANCELLED, FIRST_END, {Action.RESUBSCRIBE}),
        (SubscriptionStatus.ENDED, START, {Action.RESUBSCRIBE}),
    ],
    ids=["renewing", "past due", "cancelled, just before the paid date", "cancelled, at the paid date", "ended"],
)
def test_each_status_allows_its_own_actions(status: SubscriptionStatus, now: datetime, allowed: set[Action]) -> None:
    assert subscription_actions(status, FIRST_END, now) == allowed


def test_the_aggregate_answers_the_same_actions_as_it_moves_through_its_life(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    assert world.subscription(sid).allowed_actions(world.clock.now()) == {
        Action.CANCEL_AUTO_RENEWAL,
        Action.CHANGE_PAYMENT_METHOD,
    }
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    assert Action.RESUME in world.subscription(sid).allowed_actions(FIRST_END - timedelta(seconds=1))
    assert world.subscription(sid).allowed_actions(FIRST_END) == {Action.RESUBSCRIBE}


# -- what the events carry for the renewal pass ----------------------------------------


def _loaded(world: World) -> Subscription:
    _, started = _subscribed(world)
    subscription = world.subscription(started.subscription_id)
    subscription.collect_events()
    return subscription


def test_stopping_and_resuming_record_when_it_runs_out_and_when_it_renews(world: World) -> None:
    subscription = _loaded(world)
    subscription.cancel_auto_renewal(START + DAY)
    assert subscription.due_at == FIRST_END and subscription.next_charge_at is None
    subscription.resume(START + 2 * DAY)
    assert subscription.due_at == FIRST_END == subscription.next_charge_at
    cancelled, resumed = subscription.collect_events()
    assert isinstance(cancelled, AutoRenewalCancelled) and cancelled.runs_out_at == FIRST_END
    assert isinstance(resumed, AutoRenewalResumed) and resumed.renews_at == FIRST_END


def test_a_failed_renewal_records_its_retry_date_and_the_last_one_records_the_end(world: World) -> None:
    _, started = _past_due(world)
    sid = started.subscription_id
    subscription = world.subscription(sid)
    assert subscription.due_at == subscription.next_charge_at == FIRST_END + DAY
    for retry_after in (DAY, 3 * DAY, 7 * DAY):
        _at(world, FIRST_END + retry_after)
        _renew(world, sid)
    events = _events(world, sid)
    failures = [event for event in events if isinstance(event, RenewalFailed)]
    assert [event.retry_at for event in failures] == [FIRST_END + DAY, FIRST_END + 3 * DAY, FIRST_END + 7 * DAY, None]
    assert [event.attempt for event in failures] == [1, 2, 3, 4]
    assert isinstance(events[-1], SubscriptionEnded) and events[-1].reason == "renewal failed"


def test_a_re_subscription_after_the_paid_period_records_the_end_before_the_new_run(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    _at(world, FIRST_END + DAY)
    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    *_, ended, resubscribed = _events(world, sid)
    assert isinstance(ended, SubscriptionEnded) and ended.reason == "cancelled"
    assert isinstance(resubscribed, SubscriptionResubscribed)
    assert (resubscribed.merchant_uid, resubscribed.paid_until) == (uid(sid, "2-r1"), FIRST_END + DAY + 30 * DAY)


def _events(world: World, subscription_id: UUID) -> list[object]:
    return list(world.store.events.get(subscription_id))

"""Every subscriber is told before a renewal charges them: 7 days ahead of a yearly renewal, 3 days ahead of a
monthly one, once per period, only while auto-renewal is on. The timing rule, then the subscription that records
the reminder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

from hypothesis import given
from hypothesis import strategies as st

from domain.subscriptions.commands import cancel_auto_renewal
from domain.subscriptions.reminders import (
    LONGEST_REMINDER_LEAD,
    MONTHLY_REMINDER_LEAD,
    YEARLY_REMINDER_LEAD,
    reminder_due,
    reminder_lead,
)
from domain.subscriptions.renewal import remind_renewals, renew_if_due
from domain.subscriptions.subscription import period_length
from events.subscriptions import RenewalReminded
from tests.support import START
from tests.unit.billing_world import ANNUAL, GOOD_CARD, MONTHLY, World

YEAR, MONTH = period_length(365), period_length(30)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC))
offsets = st.timedeltas(min_value=timedelta(days=-40), max_value=timedelta(days=40))


def test_a_yearly_renewal_is_announced_a_week_ahead_and_a_monthly_one_three_days_ahead() -> None:
    assert (timedelta(days=7), timedelta(days=3)) == (YEARLY_REMINDER_LEAD, MONTHLY_REMINDER_LEAD)
    assert (reminder_lead(YEAR), reminder_lead(MONTH)) == (YEARLY_REMINDER_LEAD, MONTHLY_REMINDER_LEAD)
    assert LONGEST_REMINDER_LEAD == YEARLY_REMINDER_LEAD


@given(renews_at=moments, before=offsets, yearly=st.booleans())
def test_a_reminder_is_due_from_its_lead_before_the_renewal_until_the_renewal(
    renews_at: datetime, before: timedelta, yearly: bool
) -> None:
    period = YEAR if yearly else MONTH
    now = renews_at - before
    assert reminder_due(renews_at, period, now) == (timedelta(0) < before <= reminder_lead(period))


@given(renews_at=moments, before=offsets)
def test_whatever_is_due_for_a_monthly_renewal_is_due_for_a_yearly_one(renews_at: datetime, before: timedelta) -> None:
    now = renews_at - before
    if reminder_due(renews_at, MONTH, now):
        assert reminder_due(renews_at, YEAR, now)


def _subscribed(world: World, licence_id: int) -> UUID:
    member = world.member()
    return world.subscribe(member, world.key(member, GOOD_CARD), licence_id).subscription_id


def _at(world: World, when: datetime) -> None:
    world.later(seconds=(when - world.clock.now()).total_seconds())


def _reminders(world: World, subscription_id: UUID) -> list[RenewalReminded]:
    events = world.store.repository.event_store.get(subscription_id)
    return [event for event in events if isinstance(event, RenewalReminded)]


def test_a_monthly_subscriber_is_reminded_once_three_days_before_each_renewal(world: World) -> None:
    sid = _subscribed(world, MONTHLY)
    for period in (2, 3, 4):
        due = START + MONTH * (period - 1)
        _at(world, due - timedelta(days=4))
        assert remind_renewals(world.store, world.clock, [sid]) == 0, "four days ahead is too early"
        _at(world, due - timedelta(days=3))
        assert remind_renewals(world.store, world.clock, [sid]) == 1
        world.later(hours=1)
        assert remind_renewals(world.store, world.clock, [sid]) == 0, "once per period"
        _at(world, due)
        assert renew_if_due(world.store, world.clock, world.gateway, sid).paid
    reminded = _reminders(world, sid)
    assert [(event.period, event.lead_days, event.amount) for event in reminded] == [(n, 3, 2900) for n in (2, 3, 4)]
    assert [event.renews_at for event in reminded] == [START + MONTH, START + MONTH * 2, START + MONTH * 3]


def test_a_yearly_subscriber_is_reminded_a_week_ahead_at_the_renewal_price(world: World) -> None:
    sid = _subscribed(world, ANNUAL)
    _at(world, START + YEAR - timedelta(days=8))
    assert remind_renewals(world.store, world.clock, [sid]) == 0
    world.later(days=1)
    assert remind_renewals(world.store, world.clock, [sid]) == 1
    [reminded] = _reminders(world, sid)
    assert (reminded.period, reminded.lead_days, reminded.amount, reminded.renews_at) == (2, 7, 24360, START + YEAR)


def test_a_subscriber_who_stopped_auto_renewal_is_not_reminded(world: World) -> None:
    sid = _subscribed(world, MONTHLY)
    subscription = world.subscription(sid)
    cancel_auto_renewal(world.store, world.clock, account_id=subscription.account_id, subscription_id=sid)
    _at(world, START + MONTH - timedelta(days=2))
    assert remind_renewals(world.store, world.clock, [sid]) == 0
    assert _reminders(world, sid) == []


def test_too_late_is_never_reminded(world: World) -> None:
    sid = _subscribed(world, MONTHLY)
    _at(world, START + MONTH)  # the renewal is due now: the charge itself is what the subscriber sees
    assert remind_renewals(world.store, world.clock, [sid]) == 0

"""Consent before a price rise (docs/catalogue.md; Korea's E-Commerce Act Art. 13(6)), told through the use cases: a
scheduled rise asks each renewing subscriber; renewals before the change keep the old price; one who agrees pays the
new price from the change; one who does nothing is never charged it, and auto-renewal stops at the end of the paid
period; one who declines stops auto-renewal and is neither asked nor reminded for 7 days; the one reminder goes 7 days
before the change."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from domain.catalogue.versions import load_versions, schedule_version, seed_catalogue
from domain.errors import ErrorCode
from domain.staff.member import create_first_owner
from domain.subscriptions.commands import resume_or_resubscribe
from domain.subscriptions.price_asks import answer_price_rise, ask_price_rises, remind_price_rises
from domain.subscriptions.price_rule import Answer, RiseKind
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import SubscriptionStatus
from tests.support import START
from tests.unit.billing_world import GOOD_CARD, MONTHLY, World, refused

DAY = timedelta(days=1)
_OWNERS: dict[int, UUID] = {}  # each world's owner, who schedules its versions


def _topics(world: World, sid: UUID) -> list[str]:
    return [
        n.topic
        for n in world.store.recorder.select_notifications(start=1, limit=10_000)
        if n.originator_id == sid and n.topic.startswith("subscription.")
    ]


def _raise_monthly_to(world: World, price: int) -> None:
    """Marketing schedules a version pricing the monthly plan at ``price`` won in Korea, in force now; the reactor
    then runs the request sweep."""
    if seed_catalogue(world.store, world.clock):
        _OWNERS[id(world)] = create_first_owner(world.store, world.clock, email="boss@example.com", name="Boss").id
    latest = load_versions(world.store).latest.catalogue
    licences: list[dict[str, Any]] = latest.model_dump(mode="json", by_alias=True)["licences"]
    for licence in licences:
        for item in licence["prices"] if licence["id"] == MONTHLY else ():
            if item["countryCode"] == "KR":
                item["price"] = price
    schedule_version(
        world.store, world.clock, _OWNERS[id(world)], licences=licences, effective_at=world.clock.now(), reason="up"
    )


def _subscribed_then_asked(world: World) -> tuple[UUID, UUID]:
    """A monthly subscriber since START (renewals at day 30, 60, ...), asked on day 10 about 3,500 won: the change is
    the first renewal 30 or more days later, day 60."""
    member = world.member()
    sid = world.subscribe(member, world.key(member, GOOD_CARD)).subscription_id
    world.later(days=10)
    _raise_monthly_to(world, 3500)
    assert ask_price_rises(world.store, world.clock, [sid]) == [sid]
    assert ask_price_rises(world.store, world.clock, [sid]) == [], "one request per rise, however often it runs"
    return member, sid


def _to_day(world: World, day: int) -> None:
    world.clock.advance(START + day * DAY - world.clock.now())


def _renew(world: World, sid: UUID) -> int | None:
    """The renewal pass at the current time: the amount charged (None when nothing was)."""
    charged = renew_if_due(world.store, world.clock, world.gateway, sid)
    return charged.attempt.amount if charged.paid and charged.attempt else None


def test_the_request_names_the_change_both_prices_and_waits_for_a_button(world: World) -> None:
    _member, sid = _subscribed_then_asked(world)
    ask = world.subscription(sid).open_price_rise
    assert ask is not None
    assert (ask.kind, ask.previous_amount, ask.amount, ask.answer) == (RiseKind.PRICE_RISE, 2900, 3500, Answer.PENDING)
    assert world.subscription(sid).price_rise_changes_at(ask) == START + 60 * DAY
    assert _topics(world, sid)[-1] == "subscription.PriceRiseAsked"


def test_one_who_does_nothing_is_never_charged_the_new_price_and_auto_renewal_stops_at_the_change(
    world: World,
) -> None:
    _member, sid = _subscribed_then_asked(world)
    _to_day(world, 30)
    assert _renew(world, sid) == 2900, "a renewal before the change keeps the old price"
    _to_day(world, 60)
    renewal = world.subscription(sid).next_renewal(load_versions(world.store))
    assert renewal is not None and renewal.awaiting is not None, "the page shows the change awaiting an answer"
    assert _renew(world, sid) is None, "not agreed: nothing is charged"
    subscription = world.subscription(sid)
    assert subscription.status is SubscriptionStatus.ENDED and subscription.paid_until == START + 60 * DAY
    assert _topics(world, sid)[-2:] == ["subscription.PriceRiseLapsed", "subscription.Ended"]
    assert subscription.open_price_rise is not None and subscription.open_price_rise.answer is Answer.LAPSED
    history = [n.topic for n in world.store.recorder.select_notifications(start=1, limit=10_000)]
    assert history.count("subscription.Renewed") == 1 and history.count("payment.Succeeded") == 2


def test_one_who_agrees_pays_the_new_price_from_the_change_and_not_before(world: World) -> None:
    member, sid = _subscribed_then_asked(world)
    world.later(days=2)
    answer_price_rise(world.store, world.clock, account_id=member, subscription_id=sid, agree=True)
    answer_price_rise(world.store, world.clock, account_id=member, subscription_id=sid, agree=True)
    assert _topics(world, sid).count("subscription.PriceRiseAgreed") == 1, "agreeing twice records it once"
    _to_day(world, 30)
    assert _renew(world, sid) == 2900, "the change is the renewal the request named, not an earlier one"
    _to_day(world, 60)
    assert _renew(world, sid) == 3500
    _to_day(world, 90)
    assert _renew(world, sid) == 3500, "the new price is the subscriber's own now"
    assert world.subscription(sid).open_price_rise is None, "the price moved: the request is done"


def test_a_decline_stops_auto_renewal_and_nobody_asks_or_reminds_within_7_days(world: World) -> None:
    member, sid = _subscribed_then_asked(world)
    _to_day(world, 30)
    assert _renew(world, sid) == 2900
    _to_day(world, 50)
    answer_price_rise(world.store, world.clock, account_id=member, subscription_id=sid, agree=False)
    subscription = world.subscription(sid)
    assert subscription.status is SubscriptionStatus.CANCELLED, "declining is stopping auto-renewal"
    assert _topics(world, sid)[-2:] == ["subscription.PriceRiseDeclined", "subscription.AutoRenewalCancelled"]
    # They change their mind about leaving (not about the price) two days later: the reminder's window opens on
    # day 53, but no reminder comes within 7 days of the decline, nor a request for a further rise.
    world.later(days=2)
    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    _raise_monthly_to(world, 3900)
    for _ in range(4):
        world.later(days=1)
        assert remind_price_rises(world.store, world.clock, [sid]) == 0
        assert ask_price_rises(world.store, world.clock, [sid]) == []
    world.later(days=1, hours=1)  # day 57, past the 7 quiet days: the further rise is asked about now
    assert ask_price_rises(world.store, world.clock, [sid]) == [sid]
    _to_day(world, 60)
    assert _renew(world, sid) == 2900, "3,900 won is in force, but asked about only 3 days ago: the old price"
    _to_day(world, 90)
    assert _renew(world, sid) is None, "declined, resumed, never agreed: never charged more"
    assert world.subscription(sid).status is SubscriptionStatus.ENDED


def test_one_reminder_goes_7_days_before_the_change_to_one_who_has_not_agreed(world: World) -> None:
    member, sid = _subscribed_then_asked(world)
    _to_day(world, 30)
    _renew(world, sid)
    _to_day(world, 52)
    assert remind_price_rises(world.store, world.clock, [sid]) == 0, "8 days before: not yet"
    _to_day(world, 53)
    assert remind_price_rises(world.store, world.clock, [sid]) == 1
    world.later(hours=5)
    assert remind_price_rises(world.store, world.clock, [sid]) == 0, "once"
    assert _topics(world, sid).count("subscription.PriceRiseReminded") == 1
    assert world.subscription(sid).remind_renewal(world.clock.now(), load_versions(world.store)) is False, (
        "no renewal reminder promises a charge the subscriber has not agreed to"
    )
    answer_price_rise(world.store, world.clock, account_id=member, subscription_id=sid, agree=True)
    _to_day(world, 60)
    assert _renew(world, sid) == 3500, "agreeing after the reminder is agreeing"


def test_nothing_to_answer_and_someone_elses_subscription_are_refused(world: World) -> None:
    member = world.member()
    sid = world.subscribe(member, world.key(member, GOOD_CARD)).subscription_id
    with refused(ErrorCode.PRICE_RISE_NOT_ASKED):
        answer_price_rise(world.store, world.clock, account_id=member, subscription_id=sid, agree=True)
    stranger = world.member("stranger@example.com")
    with refused(ErrorCode.NOT_FOUND):
        answer_price_rise(world.store, world.clock, account_id=stranger, subscription_id=sid, agree=False)

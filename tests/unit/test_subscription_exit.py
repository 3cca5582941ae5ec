"""The honest exit, told through its use cases: stopping auto-renewal records why (if the subscriber says), the one
retention offer is shown at most once and declining it is the stop itself, an accepted offer is a real coupon code
the next renewal is charged with (and only that renewal), and finance's summary counts what was said."""

from __future__ import annotations

from decimal import Decimal
from uuid import UUID

import pytest

from domain.catalogue.licences import Catalogue, load_catalogue
from domain.catalogue.versions import CatalogueVersion, CatalogueVersions
from domain.coupons.codes import CouponCode
from domain.coupons.group import CouponGroup, GroupType
from domain.errors import ErrorCode
from domain.pricing.quotes import DiscountKind
from domain.subscriptions.commands import resume_or_resubscribe
from domain.subscriptions.exit import (
    COMMENT_LIMIT,
    ExitAnswers,
    accept_retention_offer,
    exit_question,
    retention_group_id,
    stop_auto_renewal,
)
from domain.subscriptions.exit_reasons import exit_summary
from domain.subscriptions.price_rule import price_rise_to_ask
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import ChargeKind, period_length
from events.subscriptions import AutoRenewalCancelled, RetentionOfferAccepted
from tests.support import START
from tests.unit.billing_world import ANNUAL, GOOD_CARD, MONTHLY, World, refused

FACTOR = Decimal("0.3")
MONTH = period_length(30)


def _subscribed(world: World, licence_id: int = MONTHLY, email: str = "member@example.com") -> tuple[UUID, UUID]:
    member = world.member(email)
    return member, world.subscribe(member, world.key(member, GOOD_CARD), licence_id).subscription_id


def _offer(world: World, member: UUID, sid: UUID, factor: Decimal = FACTOR):  # type: ignore[no-untyped-def]
    return exit_question(world.store, world.clock, account_id=member, subscription_id=sid, factor=factor).offer


def _stop(world: World, member: UUID, sid: UUID, answers: ExitAnswers = ExitAnswers(), declined: bool = False) -> None:
    stop_auto_renewal(
        world.store, world.clock, account_id=member, subscription_id=sid, answers=answers, offer_declined=declined
    )


def _accept(world: World, member: UUID, sid: UUID, answers: ExitAnswers = ExitAnswers()) -> None:
    accept_retention_offer(
        world.store, world.clock, account_id=member, subscription_id=sid, answers=answers, factor=FACTOR
    )


def _last(world: World, sid: UUID, kind: type) -> object:
    return [event for event in world.store.repository.event_store.get(sid) if isinstance(event, kind)][-1]


def test_the_question_offers_a_renewing_subscriber_thirty_percent_off_the_next_renewal(world: World) -> None:
    member, sid = _subscribed(world, ANNUAL)
    offer = _offer(world, member, sid)
    assert offer is not None
    assert (offer.factor, offer.price, offer.offered_price, offer.renews_at) == (
        FACTOR,
        24360,
        17052,
        START + period_length(365),
    )
    assert _offer(world, member, sid, Decimal(0)) is None, "a factor of 0 turns the offer off"


def test_the_answers_are_recorded_in_the_cancellation(world: World) -> None:
    member, sid = _subscribed(world)
    _stop(world, member, sid, ExitAnswers.of(["too-expensive", "not-using", "too-expensive"], "  costs too much  "))
    cancelled = _last(world, sid, AutoRenewalCancelled)
    assert isinstance(cancelled, AutoRenewalCancelled)
    assert (cancelled.reasons, cancelled.comment, cancelled.offer_declined) == (
        ["too-expensive", "not-using"],
        "costs too much",
        False,
    )


def test_answers_are_optional_but_must_be_known_reasons_and_a_short_comment() -> None:
    assert ExitAnswers.of(None, None) == ExitAnswers()
    with refused(ErrorCode.INVALID_VALUE):
        ExitAnswers.of(["bored"], "")
    with refused(ErrorCode.INVALID_VALUE):
        ExitAnswers.of([], "x" * (COMMENT_LIMIT + 1))


def test_a_declined_offer_is_the_stop_itself_and_is_never_shown_again(world: World) -> None:
    member, sid = _subscribed(world)
    assert _offer(world, member, sid) is not None
    _stop(world, member, sid, ExitAnswers.of(["switching"], ""), declined=True)
    assert world.subscription(sid).status.value == "cancelled", "declining needed no second answer"
    assert _offer(world, member, sid) is None
    with refused(ErrorCode.PROMOTION_ALREADY_USED):
        _accept(world, member, sid)

    resume_or_resubscribe(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    assert world.subscription(sid).status.value == "active"
    assert _offer(world, member, sid) is None, "the next cancellation asks only why"


def test_a_cancellation_without_the_offer_shown_leaves_it_for_a_later_one(world: World) -> None:
    member, sid = _subscribed(world)
    _stop(world, member, sid)  # an API client that never asked (DELETE): no offer was shown
    assert _offer(world, member, sid) is None, "a cancelled subscription is offered nothing"
    with refused(ErrorCode.CODE_CANNOT_BE_USED):
        _accept(world, member, sid)


def test_an_accepted_offer_is_a_code_of_the_retention_group_the_next_renewal_only_is_charged_with(
    world: World,
) -> None:
    member, sid = _subscribed(world)
    _accept(world, member, sid, ExitAnswers.of(["too-expensive"], "a bit much"))
    subscription = world.subscription(sid)
    assert subscription.status.value == "active" and subscription.retention_coupon is not None
    code = subscription.retention_coupon[0]
    accepted = _last(world, sid, RetentionOfferAccepted)
    assert isinstance(accepted, RetentionOfferAccepted)
    assert (accepted.coupon_code, accepted.factor, accepted.reasons) == (code, FACTOR, ["too-expensive"])
    group: CouponGroup = world.store.repository.get(retention_group_id(START.year))
    assert group.rules.group_type is GroupType.PRIVATE and group.codes == [code]
    assert _offer(world, member, sid) is None, "one offer per subscription"
    with refused(ErrorCode.PROMOTION_ALREADY_USED):
        _accept(world, member, sid)

    world.later(seconds=(START + MONTH - world.clock.now()).total_seconds())
    renewed = renew_if_due(world.store, world.clock, world.gateway, sid)
    assert renewed.paid and renewed.attempt is not None
    payment = world.payment(renewed.attempt.merchant_uid)
    assert (payment.amount, payment.coupon_code) == (2030, code)  # 2,900 less 30%, rounded down
    assert any(factor.kind is DiscountKind.COUPON for factor in payment.discount_factors)
    issued: CouponCode = world.store.repository.get(CouponCode.id_for(code))
    assert issued.used == 1
    assert world.subscription(sid).retention_coupon is None

    world.later(days=30)
    again = renew_if_due(world.store, world.clock, world.gateway, sid)
    assert again.paid and again.attempt is not None
    assert world.payment(again.attempt.merchant_uid).amount == 2900, "the period after is at the usual price"


def test_a_second_subscriber_gets_a_code_of_their_own_from_the_same_years_group(world: World) -> None:
    first, one = _subscribed(world, email="one@example.com")
    second, two = _subscribed(world, email="two@example.com")
    _accept(world, first, one)
    _accept(world, second, two)
    group: CouponGroup = world.store.repository.get(retention_group_id(START.year))
    codes = {world.subscription(one).retention_coupon[0], world.subscription(two).retention_coupon[0]}  # type: ignore[index]
    assert len(codes) == 2 and set(group.codes) == codes and group.rules.issued_count == 2


def test_finance_reads_the_reasons_with_counts(world: World) -> None:
    first, one = _subscribed(world, email="one@example.com")
    second, two = _subscribed(world, email="two@example.com")
    third, three = _subscribed(world, email="three@example.com")
    _stop(world, first, one, ExitAnswers.of(["too-expensive", "not-using"], "pricey"), declined=True)
    _accept(world, second, two, ExitAnswers.of(["too-expensive"], ""))
    _stop(world, third, three)
    summary = exit_summary(world.store)
    assert (summary.cancelled, summary.stayed, summary.unanswered, summary.offers_declined) == (2, 1, 1, 1)
    rows = {reason: (left, kept) for reason, left, kept in summary.rows()}
    assert rows["too-expensive"] == (1, 1) and rows["not-using"] == (1, 0) and rows["other"] == (0, 0)
    assert [(item.outcome, item.comment) for item in summary.comments] == [("cancelled", "pricey")]


@pytest.mark.parametrize("declined", [True, False])
def test_a_past_due_subscriber_who_stops_ends_now_and_is_offered_nothing(world: World, declined: bool) -> None:
    member, sid = _subscribed(world)
    world.gateway.run_dry(GOOD_CARD)
    world.later(seconds=(START + MONTH - world.clock.now()).total_seconds())
    assert not renew_if_due(world.store, world.clock, world.gateway, sid).paid
    assert _offer(world, member, sid) is None
    _stop(world, member, sid, declined=declined)
    assert world.subscription(sid).status.value == "ended"


def test_an_accepted_offer_is_no_price_rise_no_request_is_owed_and_a_moved_price_still_takes_the_coupon_off(
    world: World,
) -> None:
    member, sid = _subscribed(world)
    _accept(world, member, sid)
    subscription = world.subscription(sid)
    assert (subscription.renewal_quote.amount, subscription.own_quote.amount) == (2030, 2900)
    shipped = CatalogueVersion(1, START, load_catalogue(), None, "", START)
    assert price_rise_to_ask(subscription.own_quote, CatalogueVersions((shipped,)), (), START) is None, (
        "the subscriber's own price is what a rise is measured against, not the offer's"
    )
    licences = load_catalogue().model_dump(mode="json", by_alias=True)["licences"]
    for price in next(licence for licence in licences if licence["id"] == MONTHLY)["prices"]:
        price["price"] = 2500 if price["countryCode"] == "KR" else price["price"]
    cut = Catalogue.model_validate({"version": 2, "licences": licences})
    versions = CatalogueVersions((shipped, CatalogueVersion(2, START, cut, None, "a cut", START)))
    attempt = subscription.priced(subscription._next_period_charge(ChargeKind.RENEWAL), versions, START + MONTH)
    assert (attempt.quote.amount, attempt.catalogue_version) == (1750, 2), "2,500 after the cut, less the offer's 30%"

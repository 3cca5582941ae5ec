"""The renewal pass takes due subscriptions in batches: each is charged once and recorded as a renewal of its own
would be, the plain ones in one transaction; a batch that loses a race records each alone; a charge the gateway
could not make leaves that subscription due and the others renewed."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from uuid import UUID, uuid4

from domain.errors import DomainError, ErrorCode
from domain.payments.gateway import GatewayPayment, GatewayUnreachableError
from domain.subscriptions.charging import Charged
from domain.subscriptions.commands import Subscribed
from domain.subscriptions.renewal import renew_batch, renew_if_due
from domain.subscriptions.subscription import SubscriptionStatus
from tests.fakes import FakeGateway
from tests.refunding import refund_payment
from tests.support import START
from tests.unit.billing_world import GOOD_CARD, MONTHLY, OTHER_CARD, World

FIRST_END = START + timedelta(days=30)


def _subscribers(world: World, count: int, card: str = GOOD_CARD) -> list[Subscribed]:
    started = []
    for number in range(count):
        member = world.member(f"subscriber{number}-{uuid4().hex[:6]}@example.com")
        started.append(world.subscribe(member, world.key(member, card), MONTHLY))
    return started


def _charged(outcome: Charged | Exception) -> Charged:
    assert isinstance(outcome, Charged), outcome
    return outcome


class Meanwhile:
    """The fake gateway, with ``then`` run right after it charges ``merchant_uid``; or refusing to answer for it."""

    def __init__(
        self, gateway: FakeGateway, merchant_uid: str, then: Callable[[], object] | None = None, unreachable=False
    ) -> None:
        self._gateway = gateway
        self._merchant_uid = merchant_uid
        self._then = then
        self._unreachable = unreachable

    def __getattr__(self, name: str) -> object:
        return getattr(self._gateway, name)

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        if merchant_uid == self._merchant_uid and self._unreachable:
            raise GatewayUnreachableError(f"{merchant_uid}: no answer and no charge made")
        charge = self._gateway.charge_billing_key(customer_uid, merchant_uid, amount, name)
        then, self._then = (self._then, None) if merchant_uid == self._merchant_uid else (None, self._then)
        if then is not None:
            then()
        return charge


def test_a_batch_renews_every_due_subscription_once_in_one_transaction(world: World) -> None:
    started = _subscribers(world, 5)
    world.later(days=30)
    ids = [each.subscription_id for each in started]
    before = world.store.max_notification_id()

    outcomes = [_charged(outcome) for outcome in renew_batch(world.store, world.clock, world.gateway, ids)]

    assert [outcome.subscription_id for outcome in outcomes] == ids, "answered in the order asked"
    assert all(outcome.paid for outcome in outcomes)
    assert len({outcome.notification_id for outcome in outcomes}) == 1, "one save for the whole batch"
    assert outcomes[0].notification_id == world.store.max_notification_id() > before
    for each in started:
        assert world.subscription(each.subscription_id).paid_until == FIRST_END + timedelta(days=30)
        assert world.licence(each.user_licence_id).expires_at == FIRST_END + timedelta(days=30)
    assert len(world.gateway.charges) == 10, "each subscription's first period and one renewal each"

    again = renew_batch(world.store, world.clock, world.gateway, ids)  # the pass's next tick, the same month
    assert all(_charged(outcome).attempt is None for outcome in again)
    assert len(world.gateway.charges) == 10


def test_a_batch_takes_declined_cards_ended_licences_subscriptions_not_due_and_unknown_ids_as_they_come(
    world: World,
) -> None:
    paying, refunded = _subscribers(world, 2)
    [declined] = _subscribers(world, 1, OTHER_CARD)
    world.gateway.run_dry(OTHER_CARD)  # its card has no funds by the renewal
    refund_payment(
        world.store, world.clock, world.gateway,
        merchant_uid=f"sub-{refunded.subscription_id.hex[:16]}-1-1", amount=None, reason="asked",
    )  # fmt: skip
    world.later(days=30)
    [not_due] = _subscribers(world, 1)  # started today: due next month
    unknown = uuid4()
    ids = [paying.subscription_id, declined.subscription_id, refunded.subscription_id, not_due.subscription_id, unknown]

    outcomes = renew_batch(world.store, world.clock, world.gateway, ids)

    paid, refused, ended, nothing, missing = outcomes
    assert _charged(paid).paid
    assert not _charged(refused).paid and _charged(refused).attempt is not None
    assert world.subscription(declined.subscription_id).status is SubscriptionStatus.PAST_DUE
    assert _charged(ended).attempt is None and _charged(ended).status is SubscriptionStatus.ENDED
    assert _charged(nothing).attempt is None
    assert isinstance(missing, DomainError) and missing.code is ErrorCode.NOT_FOUND


def test_a_batch_that_loses_a_race_for_one_subscription_records_each_alone_and_charges_each_once(world: World) -> None:
    started = _subscribers(world, 3)
    world.later(days=30)
    raced = started[1].subscription_id
    inner: list[Charged] = []
    racing = Meanwhile(
        world.gateway,
        f"sub-{raced.hex[:16]}-2-1",
        then=lambda: inner.append(renew_if_due(world.store, world.clock, world.gateway, raced)),
    )

    ids = [each.subscription_id for each in started]
    outcomes = [_charged(outcome) for outcome in renew_batch(world.store, world.clock, racing, ids)]  # type: ignore[arg-type]

    [winner] = inner
    assert winner.paid and outcomes[1].paid and outcomes[1].merchant_uid == winner.merchant_uid
    assert all(outcome.paid for outcome in outcomes)
    assert len({outcome.notification_id for outcome in outcomes}) > 1, "the batch's one save gave way to one each"
    assert len(world.gateway.charges) == 6, "each first period and one renewal each: none charged twice"
    for each in started:
        assert world.subscription(each.subscription_id).period == 2
        assert world.licence(each.user_licence_id).expires_at == FIRST_END + timedelta(days=30)


def test_a_charge_the_gateway_could_not_make_leaves_that_subscription_due_and_renews_the_others(world: World) -> None:
    started = _subscribers(world, 3)
    world.later(days=30)
    silent = started[0].subscription_id
    gateway = Meanwhile(world.gateway, f"sub-{silent.hex[:16]}-2-1", unreachable=True)

    outcomes = renew_batch(world.store, world.clock, gateway, [s.subscription_id for s in started])  # type: ignore[arg-type]

    assert isinstance(outcomes[0], GatewayUnreachableError)
    assert _charged(outcomes[1]).paid and _charged(outcomes[2]).paid
    assert world.subscription(silent).period == 1, "nothing recorded: still due"
    retried = renew_if_due(world.store, world.clock, world.gateway, silent)  # what the worker's retry does
    assert retried.paid and world.subscription(silent).period == 2


def test_a_subscription_named_twice_in_a_batch_is_charged_and_recorded_once(world: World) -> None:
    [started] = _subscribers(world, 1)
    world.later(days=30)
    sid = started.subscription_id
    first, again = (_charged(outcome) for outcome in renew_batch(world.store, world.clock, world.gateway, [sid, sid]))
    assert first == again and first.paid
    assert world.subscription(sid).period == 2 and len(world.gateway.charges) == 2


def test_charges_made_side_by_side_answer_in_the_order_asked(world: World) -> None:
    started = _subscribers(world, 8)
    world.later(days=30)
    ids: list[UUID] = [each.subscription_id for each in started]
    with ThreadPoolExecutor(4) as charging:
        outcomes = renew_batch(world.store, world.clock, world.gateway, ids, each=charging.map)
    assert [_charged(outcome).subscription_id for outcome in outcomes] == ids
    assert all(_charged(outcome).paid for outcome in outcomes)

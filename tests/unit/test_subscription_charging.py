"""The one charging path of subscriptions: a repeated or racing attempt answers from its payment record
and the gateway charges once; a renewal charged while auto-renewal was being stopped is given back;
a revoked licence renews no more; a first charge the gateway refused stays refused; a PG window's key
starts one subscription however often its return arrives."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from uuid import UUID

from domain.accounts.account import Account
from domain.errors import ErrorCode
from domain.licences.licence import LicenceState
from domain.payments.gateway import GatewayPayment, GatewayStatus
from domain.payments.payment import PaymentState
from domain.payments.wallet import new_customer_uid, wallet_of
from domain.subscriptions.charging import LICENCE_REVOKED, NO_LONGER_WANTED, Charged, charge_subscription
from domain.subscriptions.commands import Subscribed, cancel_auto_renewal, pay_now, subscribe_with_window_key
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import ChargeAttempt, Subscription, SubscriptionStatus
from events.values import Language
from tests.fakes import FakeGateway
from tests.refunding import refund_payment
from tests.support import START
from tests.unit.billing_world import GOOD_CARD, MONTHLY, NO_FUNDS_CARD, OTHER_CARD, World, refused

FIRST_END = START + timedelta(days=30)


def uid(subscription_id: UUID, tail: str) -> str:
    return f"sub-{subscription_id.hex[:16]}-{tail}"


def _subscribed(world: World) -> tuple[UUID, Subscribed]:
    member = world.member()
    return member, world.subscribe(member, world.key(member, GOOD_CARD), MONTHLY)


class DuringCharge:
    """The fake gateway, with something else happening right after its next billing-key charge."""

    def __init__(self, gateway: FakeGateway, meanwhile: Callable[[], object]) -> None:
        self._gateway = gateway
        self._meanwhile: Callable[[], object] | None = meanwhile

    def __getattr__(self, name: str) -> object:
        return getattr(self._gateway, name)

    def charge_billing_key(self, customer_uid: str, merchant_uid: str, amount: int, name: str) -> GatewayPayment:
        charge = self._gateway.charge_billing_key(customer_uid, merchant_uid, amount, name)
        meanwhile, self._meanwhile = self._meanwhile, None
        if meanwhile is not None:
            meanwhile()
        return charge


def _renew_through(world: World, gateway: object, subscription_id: UUID) -> Charged:
    return renew_if_due(world.store, world.clock, gateway, subscription_id)  # type: ignore[arg-type]


# -- repeats and races -----------------------------------------------------------------


def test_a_repeated_attempt_answers_from_its_payment_record_without_charging_again(world: World) -> None:
    _, started = _subscribed(world)
    sid = started.subscription_id
    world.later(days=30)
    attempt = world.subscription(sid).due_charge(world.clock.now())
    assert attempt is not None and attempt.merchant_uid == uid(sid, "2-1")

    def the_same_attempt(_subscription: Subscription, _now: object) -> ChargeAttempt:
        return attempt

    first = charge_subscription(world.store, world.clock, world.gateway, subscription_id=sid, decide=the_same_attempt)
    position = world.store.max_notification_id()
    world.later(minutes=1)
    again = charge_subscription(world.store, world.clock, world.gateway, subscription_id=sid, decide=the_same_attempt)
    assert (first.paid, again.paid, again.merchant_uid) == (True, True, uid(sid, "2-1"))
    assert world.store.max_notification_id() == position, "the repeat recorded nothing"
    assert list(world.gateway.charges) == [uid(sid, "1-1"), uid(sid, "2-1")]
    assert world.subscription(sid).paid_until == FIRST_END + timedelta(days=30)
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)


def test_two_renewal_passes_racing_charge_once_and_extend_the_licence_once(world: World) -> None:
    _, started = _subscribed(world)
    sid = started.subscription_id
    world.later(days=30)
    inner: list[Charged] = []
    racing = DuringCharge(
        world.gateway, lambda: inner.append(renew_if_due(world.store, world.clock, world.gateway, sid))
    )
    outer = _renew_through(world, racing, sid)
    [winner] = inner
    assert (winner.merchant_uid, winner.paid) == (uid(sid, "2-1"), True)
    assert (outer.merchant_uid, outer.paid) == (uid(sid, "2-1"), True), "the loser answers what the winner recorded"
    assert list(world.gateway.charges) == [uid(sid, "1-1"), uid(sid, "2-1")]
    assert world.subscription(sid).period == 2
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)


def test_a_scheduled_retry_racing_the_subscribers_own_payment_shares_its_order_id_and_charges_once(
    world: World,
) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    world.gateway.run_dry(GOOD_CARD)
    world.later(days=30)
    renew_if_due(world.store, world.clock, world.gateway, sid)  # -2-1 declined
    world.gateway.refill(GOOD_CARD)
    world.later(days=1)  # the retry is due as the subscriber pays
    retries: list[Charged] = []
    racing = DuringCharge(
        world.gateway, lambda: retries.append(renew_if_due(world.store, world.clock, world.gateway, sid))
    )
    pay_now(world.store, world.clock, racing, account_id=member, subscription_id=sid)  # type: ignore[arg-type]
    [retry] = retries
    assert (retry.merchant_uid, retry.paid) == (uid(sid, "2-2"), True)
    # The subscriber's own payment did not raise: it was told it paid, from the retry's record.
    assert list(world.gateway.charges) == [uid(sid, "1-1"), uid(sid, "2-1"), uid(sid, "2-2")]
    assert world.licence(started.user_licence_id).expires_at == FIRST_END + timedelta(days=30)


# -- the stop wins ---------------------------------------------------------------------


def test_a_renewal_charged_while_auto_renewal_was_being_stopped_is_given_back_and_recorded_as_refunded(
    world: World,
) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    world.later(days=30)
    stopping = DuringCharge(
        world.gateway, lambda: cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=sid)
    )
    charged = _renew_through(world, stopping, sid)
    assert (charged.merchant_uid, charged.paid, charged.reason) == (uid(sid, "2-1"), False, NO_LONGER_WANTED)
    record = world.payment(uid(sid, "2-1"))
    assert (record.state, record.cancel_amount, record.refundable) == (PaymentState.PAID, 2900, 0)
    assert world.gateway.charges[uid(sid, "2-1")].status is GatewayStatus.CANCELLED
    subscription = world.subscription(sid)
    assert (subscription.status, subscription.period, subscription.paid_until) == (
        SubscriptionStatus.CANCELLED,
        1,
        FIRST_END,
    )
    assert world.licence(started.user_licence_id).expires_at == FIRST_END


# -- revoked licences ------------------------------------------------------------------


def test_a_refunded_subscription_licence_renews_no_more(world: World) -> None:
    _, started = _subscribed(world)
    sid = started.subscription_id
    refund_payment(world.store, world.clock, world.gateway, merchant_uid=uid(sid, "1-1"), amount=None, reason="asked")
    assert world.licence(started.user_licence_id).is_valid(world.clock.now()) is False
    world.later(days=30)
    charged = renew_if_due(world.store, world.clock, world.gateway, sid)
    assert (charged.attempt, charged.paid) == (None, False)
    assert list(world.gateway.charges) == [uid(sid, "1-1")], "nothing charged"


def test_a_renewal_charged_while_its_licence_was_being_refunded_is_given_back_and_recorded_as_refunded(
    world: World,
) -> None:
    _, started = _subscribed(world)
    sid = started.subscription_id
    world.later(days=30)
    refunding = DuringCharge(
        world.gateway,
        lambda: refund_payment(
            world.store, world.clock, world.gateway, merchant_uid=uid(sid, "1-1"), amount=None, reason="asked"
        ),
    )
    charged = _renew_through(world, refunding, sid)
    assert (charged.merchant_uid, charged.paid, charged.reason) == (uid(sid, "2-1"), False, LICENCE_REVOKED)
    record = world.payment(uid(sid, "2-1"))
    assert (record.state, record.cancel_amount, record.refundable) == (PaymentState.PAID, 2900, 0)
    assert world.gateway.charges[uid(sid, "2-1")].status is GatewayStatus.CANCELLED
    assert world.subscription(sid).paid_until == FIRST_END
    assert world.licence(started.user_licence_id).state is LicenceState.REVOKED


# -- first charges ---------------------------------------------------------------------


def test_a_refused_first_charge_starts_nothing_and_is_recorded_as_failed(world: World) -> None:
    member = world.member()
    key = world.key(member, NO_FUNDS_CARD)
    with refused(ErrorCode.CHECK_CARD_HELD):
        world.subscribe(member, key)
    [(merchant_uid, charge)] = world.gateway.charges.items()
    assert charge.status is GatewayStatus.FAILED
    assert world.payment(merchant_uid).state is PaymentState.FAILED


def _window(world: World, account_id: UUID | None, email: str | None, customer_uid: str) -> Subscribed:
    return subscribe_with_window_key(
        world.store, world.clock, world.gateway, world.catalogue, account_id=account_id, email=email,
        customer_uid=customer_uid, licence_id=MONTHLY, country_code="KR", language=Language.KO,
    )  # fmt: skip


def test_a_windows_return_arriving_twice_starts_one_subscription_and_charges_once(world: World) -> None:
    member = world.member()
    customer_uid = new_customer_uid(member)
    assert world.gateway.issue_in_window(customer_uid, GOOD_CARD)
    first = _window(world, member, None, customer_uid)
    again = _window(world, member, None, customer_uid)
    assert first.subscription_id == again.subscription_id == Subscription.id_for_window_key(customer_uid)
    assert first.licence_key == again.licence_key
    assert list(world.gateway.charges) == [uid(first.subscription_id, "1-1")]
    wallet = wallet_of(world.store, member)
    assert wallet is not None and [key.customer_uid for key in wallet.keys.values()] == [customer_uid]


def test_a_guest_subscribing_through_a_window_gets_a_passwordless_account_and_a_repeat_says_so_too(
    world: World,
) -> None:
    customer_uid = new_customer_uid(None)
    world.gateway.issue_in_window(customer_uid, GOOD_CARD)
    first = _window(world, None, "Guest@Example.com", customer_uid)
    again = _window(world, None, "guest@example.com", customer_uid)
    assert first.account_created and again.account_created
    guest = world.get(first.account_id, Account)
    assert (guest.email, guest.is_guest) == ("guest@example.com", True)
    with refused(ErrorCode.BILLING_KEY_ALREADY_REGISTERED):
        _window(world, None, "someone-else@example.com", customer_uid)


def test_a_guest_cannot_put_a_card_into_a_members_wallet_by_their_address(world: World) -> None:
    world.member("member@example.com")
    customer_uid = new_customer_uid(None)
    world.gateway.issue_in_window(customer_uid, GOOD_CARD)
    with refused(ErrorCode.EMAIL_ALREADY_REGISTERED):
        _window(world, None, "member@example.com", customer_uid)
    assert world.gateway.charges == {}


def test_a_window_key_whose_first_charge_was_refused_stays_refused_even_once_the_card_works(world: World) -> None:
    member = world.member()
    customer_uid = new_customer_uid(member)
    world.gateway.issue_in_window(customer_uid, GOOD_CARD)
    world.gateway.run_dry(GOOD_CARD)
    with refused(ErrorCode.CHECK_CARD_HELD):
        _window(world, member, None, customer_uid)
    world.gateway.refill(GOOD_CARD)
    with refused(ErrorCode.CHECK_CARD_HELD):
        _window(world, member, None, customer_uid)
    assert [charge.status for charge in world.gateway.charges.values()] == [GatewayStatus.FAILED]


def test_a_retry_that_records_the_subscribers_new_card_payment_makes_that_card_the_card(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    world.gateway.run_dry(GOOD_CARD)
    world.later(days=30)
    renew_if_due(world.store, world.clock, world.gateway, sid)  # -2-1 declined: past due
    world.later(days=1)  # the retry is due as the subscriber pays with another card
    other = world.key(member, OTHER_CARD)
    retries: list[Charged] = []
    racing = DuringCharge(
        world.gateway, lambda: retries.append(renew_if_due(world.store, world.clock, world.gateway, sid))
    )
    pay_now(world.store, world.clock, racing, account_id=member, subscription_id=sid, key=other)  # type: ignore[arg-type]
    [retry] = retries  # it recorded the charge the gateway made on the new card under their shared order id
    assert (retry.merchant_uid, retry.paid) == (uid(sid, "2-2"), True)
    subscription = world.subscription(sid)
    assert (subscription.customer_uid, subscription.card_number) == (other.customer_uid, other.card_number)


def test_a_subscription_whose_licence_was_refunded_ends_and_offers_nothing(world: World) -> None:
    member, started = _subscribed(world)
    sid = started.subscription_id
    refund_payment(world.store, world.clock, world.gateway, merchant_uid=uid(sid, "1-1"), amount=None, reason="asked")
    assert world.licence(started.user_licence_id).state is LicenceState.REVOKED
    assert world.subscription(sid).allowed_actions(world.clock.now(), "revoked") == set()
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        pay_now(world.store, world.clock, world.gateway, account_id=member, subscription_id=sid)
    ended = renew_if_due(world.store, world.clock, world.gateway, sid)  # the renewal pass's next visit
    assert (ended.attempt, ended.status) == (None, SubscriptionStatus.ENDED)
    world.later(days=31)
    assert renew_if_due(world.store, world.clock, world.gateway, sid).attempt is None
    assert list(world.gateway.charges) == [uid(sid, "1-1")]

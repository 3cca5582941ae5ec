"""Buying a licence: the payment aggregate (order, transitions and their guards, refunds) and the
use cases around it (order, confirm with the buyer check, settle, lapse an unpaid virtual account,
refund), on the fake gateway."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from uuid import UUID

import pytest
from eventsourcing.application import AggregateNotFoundError

from domain.errors import ErrorCode
from domain.licences.licence import LicenceState, LicenceTerms, UserLicence
from domain.payments.gateway import GatewayPayment, GatewayStatus
from domain.payments.payment import LicenceEffect, Payment, PaymentState, RefundKind
from domain.payments.purchase import Confirmation, confirm_payment, lapse_if_unpaid, settle_payment
from domain.pricing.quotes import DiscountFactor, DiscountKind, quote_licence
from events.payments import PaymentCancelled
from events.values import Currency
from tests.refunding import refund_payment
from tests.support import START
from tests.unit.billing_world import ANNUAL, DECLINED_CARD, MONTHLY, World, refused


def _ordered(world: World, merchant_uid: str = "unc-test-1", account_id: UUID | None = None) -> Payment:
    licence = world.catalogue.get(ANNUAL)
    assert licence is not None
    return Payment.order(
        merchant_uid=merchant_uid,
        at=START,
        quote=quote_licence(licence, "KR"),
        terms=LicenceTerms.of(licence, "Unicorn Pro (annual)"),
        catalogue_version=world.catalogue.version,
        account_id=account_id,
        buyer_email="buyer@example.com",
        purchase_type="new",
    )


def _at_gateway(payment: Payment, **changes: object) -> GatewayPayment:
    """What the gateway reports: by default, the order paid in full by card."""
    paid = GatewayPayment(
        imp_uid="imp_1",
        merchant_uid=payment.merchant_uid,
        status=GatewayStatus.PAID,
        amount=payment.amount,
        currency="KRW",
        pay_method="card",
        paid_at=START,
    )
    return replace(paid, **changes)  # type: ignore[arg-type]


def _settle(world: World, merchant_uid: str, imp_uid: str) -> Confirmation:
    return settle_payment(world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=merchant_uid)


def _refund(world: World, merchant_uid: str, amount: int | None) -> int:
    return refund_payment(
        world.store, world.clock, world.gateway, merchant_uid=merchant_uid, amount=amount, reason="asked"
    )


# -- the aggregate ---------------------------------------------------------------------


def test_an_order_records_its_quote_list_price_discount_factors_and_amount(world: World) -> None:
    payment = _ordered(world)
    assert payment.id == Payment.id_for("unc-test-1")
    assert (payment.original_amount, payment.amount, payment.currency) == (34800, 24360, Currency.KRW)
    assert payment.discount_factors == (DiscountFactor(DiscountKind.BASE, Decimal("0.3")),)
    assert payment.state is PaymentState.ORDERED
    assert payment.licence_id_paid_for == UserLicence.id_for_payment("unc-test-1")
    [ordered] = payment.collect_events()
    assert ordered.discount_factors == [{"type": "base", "factor": Decimal("0.3")}]  # type: ignore[attr-defined]


def test_a_payment_succeeds_once_and_then_neither_succeeds_nor_fails_again(world: World) -> None:
    payment = _ordered(world)
    payment.succeed(_at_gateway(payment), START)
    assert (payment.state, payment.imp_uid, payment.refundable) == (PaymentState.PAID, "imp_1", 24360)
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        payment.succeed(_at_gateway(payment), START)
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        payment.fail("imp_1", "late", START)


def test_a_virtual_account_is_reserved_only_from_an_order_and_only_with_its_number_and_deadline(world: World) -> None:
    payment = _ordered(world)
    ready = _at_gateway(payment, status=GatewayStatus.READY, pay_method="vbank", paid_at=None)
    with refused(ErrorCode.RESERVED_PAYMENT_MISSING):
        payment.reserve(ready, START)
    issued = replace(ready, vbank_num="0001", vbank_name="Bank", vbank_date=START + timedelta(days=3))
    payment.reserve(issued, START)
    assert (payment.state, payment.vbank_date) == (PaymentState.RESERVED, START + timedelta(days=3))
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        payment.reserve(issued, START)
    payment.succeed(_at_gateway(payment), START)  # the deposit arrived
    assert payment.state is PaymentState.PAID


def test_a_failed_payment_is_final_and_cancelling_a_failed_or_cancelled_one_records_nothing(world: World) -> None:
    failed = _ordered(world)
    failed.fail("imp_1", "card declined", START)
    assert (failed.state, failed.fail_reason) == (PaymentState.FAILED, "card declined")
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        failed.succeed(_at_gateway(failed), START)
    failed.cancel("imp_1", "too late", None, START)
    assert failed.state is PaymentState.FAILED
    cancelled = _ordered(world, "unc-test-2")
    cancelled.cancel("imp_2", "tampered", ErrorCode.PAYMENT_DIFFERS_FROM_INIT, START)
    cancelled.cancel("imp_2", "again", None, START)
    [_, cancel] = cancelled.collect_events()
    assert isinstance(cancel, PaymentCancelled) and cancel.error_code == -301
    assert cancelled.state is PaymentState.CANCELLED


def test_a_paid_payment_is_never_called_off_only_refunded(world: World) -> None:
    payment = _ordered(world)
    payment.succeed(_at_gateway(payment), START)
    payment.cancel("imp_2", "a late tampered report", ErrorCode.PAYMENT_DIFFERS_FROM_INIT, START)
    assert (payment.state, payment.imp_uid, payment.refundable) == (PaymentState.PAID, "imp_1", 24360)
    assert [type(event).__name__ for event in payment.collect_events()] == ["PaymentOrdered", "PaymentSucceeded"]


def test_refunds_are_reserved_then_recorded_add_up_and_never_exceed_what_was_paid(world: World) -> None:
    payment = _ordered(world)
    with refused(ErrorCode.INVALID_VALUE):
        payment.reserve_refund(1, reason="not paid yet", kind=RefundKind.OPERATOR, at=START)
    payment.succeed(_at_gateway(payment), START)
    first = payment.reserve_refund(10000, reason="part", kind=RefundKind.OPERATOR, at=START)
    assert payment.refundable == 14360, "reserved money is not refundable twice"
    with refused(ErrorCode.REFUND_IN_PROGRESS):
        payment.reserve_refund(1, reason="meanwhile", kind=RefundKind.OPERATOR, at=START)
    recorded = payment.record_gateway_refunds(10000, "outside", START)
    assert (recorded.ours, recorded.outside, payment.pending_refund) == (10000, 0, None)
    assert first.reservation_id == payment.collect_events()[-1].reservation_id  # type: ignore[attr-defined]
    payment.reserve_refund(4000, reason="more", kind=RefundKind.OPERATOR, at=START)
    payment.record_gateway_refunds(14000, "outside", START)
    assert (payment.cancel_amount, payment.refundable) == (14000, 10360)
    with refused(ErrorCode.INVALID_VALUE):
        payment.reserve_refund(10361, reason="too much", kind=RefundKind.OPERATOR, at=START)
    with refused(ErrorCode.INVALID_VALUE):
        payment.reserve_refund(0, reason="nothing", kind=RefundKind.OPERATOR, at=START)
    payment.reserve_refund(10360, reason="the rest", kind=RefundKind.OPERATOR, at=START)
    payment.record_gateway_refunds(24360, "outside", START)
    assert (payment.cancel_amount, payment.refundable, payment.fully_refunded) == (24360, 0, True)


def test_a_refund_the_gateway_did_not_make_is_released_and_one_made_outside_the_store_is_recorded_as_such(
    world: World,
) -> None:
    payment = _ordered(world)
    payment.succeed(_at_gateway(payment), START)
    payment.reserve_refund(5000, reason="asked", kind=RefundKind.OPERATOR, at=START)
    recorded = payment.record_gateway_refunds(1000, "refunded at the payment gateway", START)
    assert (recorded.ours, recorded.outside) == (1000, 0), "the gateway made less than reserved: that much is ours"
    payment.reserve_refund(3000, reason="asked", kind=RefundKind.OPERATOR, at=START)
    assert payment.release_refund("refused", START) is not None
    assert (payment.pending_refund, payment.refundable) == (None, 23360)
    outside = payment.record_gateway_refunds(3000, "refunded at the payment gateway", START)
    assert (outside.ours, outside.outside, payment.cancel_amount) == (None, 2000, 3000)
    sources = [event.source for event in payment.collect_events() if type(event).__name__ == "PaymentRefunded"]  # type: ignore[attr-defined]
    assert sources == ["store", "gateway"]


def test_only_the_ordering_account_may_confirm_its_order_and_anyone_may_confirm_a_guests(world: World) -> None:
    buyer, stranger = world.member("buyer@example.com"), world.member("stranger@example.com")
    members = _ordered(world, account_id=buyer)
    members.check_confirmable_by(buyer)
    with refused(ErrorCode.FORBIDDEN):
        members.check_confirmable_by(stranger)
    with refused(ErrorCode.FORBIDDEN):
        members.check_confirmable_by(None)
    guests = _ordered(world, "unc-test-2")
    guests.check_confirmable_by(None)
    guests.check_confirmable_by(stranger)


# -- ordering --------------------------------------------------------------------------


def test_an_order_fixes_the_quoted_amount_at_the_gateway_and_is_addressed_to_the_member(world: World) -> None:
    buyer = world.member("Buyer@Example.com")
    order = world.order(ANNUAL, account_id=buyer, email="someone-else@example.com")
    assert (order.amount, order.currency, order.buyer_email, order.pg) == (24360, "KRW", "buyer@example.com", "nice")
    assert world.payment(order.merchant_uid).account_id == buyer
    with pytest.raises(Exception, match="another amount"):
        world.gateway.prepare(order.merchant_uid, 100)


@pytest.mark.parametrize(
    ("licence_id", "method", "email", "code"),
    [
        (999, "creditCard", "guest@example.com", ErrorCode.INVALID_PRODUCT_AT_INIT),
        (ANNUAL, "cash", "guest@example.com", ErrorCode.INVALID_VALUE),
        (ANNUAL, "creditCard", "  ", ErrorCode.EMPTY_PARAMETER),
    ],
    ids=["not on sale", "unknown payment method", "a guest without an address"],
)
def test_an_order_is_refused_for_what_cannot_be_sold_or_paid(
    world: World, licence_id: int, method: str, email: str, code: ErrorCode
) -> None:
    with refused(code):
        world.order(licence_id, email=email, method=method)
    assert world.store.max_notification_id() in (0, None), "nothing was recorded"


# -- confirming and settling -----------------------------------------------------------


def test_a_paid_order_grants_the_licence_it_paid_for(world: World) -> None:
    buyer = world.member()
    confirmed = world.buy(ANNUAL, account_id=buyer)
    assert (confirmed.state, confirmed.account_id, confirmed.account_created) == (PaymentState.PAID, buyer, False)
    assert confirmed.user_licence_id == UserLicence.id_for_payment(confirmed.merchant_uid)
    licence = world.licence(confirmed.user_licence_id)
    assert (licence.state, licence.account_id, licence.licence_key) == (
        LicenceState.ACTIVE,
        buyer,
        confirmed.licence_key,
    )
    assert (licence.source, licence.expires_at) == ("purchase", START + timedelta(days=365))


def test_another_account_cannot_confirm_a_members_order(world: World) -> None:
    buyer, stranger = world.member("buyer@example.com"), world.member("stranger@example.com")
    order = world.order(ANNUAL, account_id=buyer)
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount)

    def confirm_as(caller: UUID) -> Confirmation:
        return confirm_payment(
            world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid,
            caller_account_id=caller,
        )  # fmt: skip

    with refused(ErrorCode.FORBIDDEN):
        confirm_as(stranger)
    assert world.payment(order.merchant_uid).state is PaymentState.ORDERED
    assert confirm_as(buyer).state is PaymentState.PAID


def test_a_guests_settlement_records_that_it_opened_the_account_and_a_repeat_answers_as_the_first(
    world: World,
) -> None:
    order = world.order(ANNUAL, email="Guest@Example.com")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount)
    first = _settle(world, order.merchant_uid, imp_uid)
    position = world.store.max_notification_id()
    again = _settle(world, order.merchant_uid, imp_uid)
    assert first.account_created and again.account_created
    assert (again.user_licence_id, again.licence_key, again.account_id) == (
        first.user_licence_id,
        first.licence_key,
        first.account_id,
    )
    assert world.store.max_notification_id() == position, "the repeat recorded nothing"
    assert world.payment(order.merchant_uid).opened_buyer_account


def test_a_guest_paying_with_a_members_address_buys_for_that_account_without_opening_one(world: World) -> None:
    member = world.member("member@example.com")
    confirmed = world.buy(ANNUAL, email="member@example.com")
    assert (confirmed.account_id, confirmed.account_created) == (member, False)
    assert not world.payment(confirmed.merchant_uid).opened_buyer_account


def test_a_tampered_currency_is_cancelled_at_the_gateway_and_recorded_as_cancelled(world: World) -> None:
    order = world.order(ANNUAL, email="guest@example.com")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount, currency="USD", pg="kcp")
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        _settle(world, order.merchant_uid, imp_uid)
    assert world.payment(order.merchant_uid).state is PaymentState.CANCELLED
    assert world.gateway.get_payment(imp_uid).status is GatewayStatus.CANCELLED
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        _settle(world, order.merchant_uid, imp_uid)


def test_a_tampered_amount_is_recorded_as_cancelled_and_grants_nothing(world: World) -> None:
    order = world.order(ANNUAL, email="guest@example.com")
    imp_uid = world.gateway.pay(order.merchant_uid, 100)  # the gateway refuses an amount other than the prepared one
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        _settle(world, order.merchant_uid, imp_uid)
    payment = world.payment(order.merchant_uid)
    assert payment.state is PaymentState.CANCELLED
    with pytest.raises(AggregateNotFoundError):
        world.licence(payment.licence_id_paid_for)


def test_a_late_report_of_an_earlier_refused_attempt_does_not_undo_a_paid_order(world: World) -> None:
    order = world.order(ANNUAL, email="guest@example.com")
    tampered = world.gateway.pay(order.merchant_uid, 100)  # refused by the gateway: not the prepared amount
    paid = world.gateway.pay(order.merchant_uid, order.amount)
    confirmed = _settle(world, order.merchant_uid, paid)
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        _settle(world, order.merchant_uid, tampered)  # its webhook arrives after the paid one's
    payment = world.payment(order.merchant_uid)
    assert (payment.state, payment.imp_uid) == (PaymentState.PAID, paid)
    assert world.licence(confirmed.user_licence_id).state is LicenceState.ACTIVE
    assert _refund(world, order.merchant_uid, None) == 24360, "still refundable in full"


def test_a_declined_card_fails_the_payment_for_good(world: World) -> None:
    order = world.order(ANNUAL, email="guest@example.com")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount, card_number=DECLINED_CARD)
    with refused(ErrorCode.PAYMENT_REFUSED):
        _settle(world, order.merchant_uid, imp_uid)
    assert world.payment(order.merchant_uid).fail_reason == "card declined"
    with refused(ErrorCode.PAYMENT_REFUSED):
        _settle(world, order.merchant_uid, imp_uid)


def test_a_report_of_another_orders_payment_of_no_payment_or_of_no_order_is_refused(world: World) -> None:
    first, second = world.order(ANNUAL, email="a@example.com"), world.order(MONTHLY, email="b@example.com")
    imp_uid = world.gateway.pay(first.merchant_uid, first.amount)
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        _settle(world, second.merchant_uid, imp_uid)
    with refused(ErrorCode.RESERVED_PAYMENT_MISSING):
        _settle(world, first.merchant_uid, "imp_nothing")
    with refused(ErrorCode.NOT_FOUND):
        confirm_payment(
            world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid="unc-none", caller_account_id=None
        )
    assert world.payment(second.merchant_uid).state is PaymentState.ORDERED


# -- virtual accounts ------------------------------------------------------------------


def _vbank(world: World) -> tuple[str, str]:
    order = world.order(ANNUAL, email="guest@example.com", method="virtualAccount")
    assert order.pay_method == "vbank"
    return order.merchant_uid, world.gateway.pay(order.merchant_uid, order.amount, pay_method="vbank")


def test_a_virtual_account_reserves_the_licence_and_the_deposit_activates_it_from_then(world: World) -> None:
    merchant_uid, imp_uid = _vbank(world)
    reserved = _settle(world, merchant_uid, imp_uid)
    assert reserved.state is PaymentState.RESERVED and reserved.account_created
    licence = world.licence(reserved.user_licence_id)
    assert (licence.state, licence.expires_at) == (LicenceState.RESERVED, None)
    assert _settle(world, merchant_uid, imp_uid).state is PaymentState.RESERVED, "no deposit yet: as before"
    world.later(days=2)
    world.gateway.deposit(imp_uid)
    paid = _settle(world, merchant_uid, imp_uid)
    assert paid.state is PaymentState.PAID and paid.account_created
    licence = world.licence(reserved.user_licence_id)
    assert (licence.state, licence.expires_at) == (LicenceState.ACTIVE, START + timedelta(days=2 + 365))


def test_an_unpaid_virtual_account_lapses_only_after_its_deadline_and_only_once(world: World) -> None:
    merchant_uid, imp_uid = _vbank(world)
    reserved = _settle(world, merchant_uid, imp_uid)

    def lapse() -> bool:
        return lapse_if_unpaid(world.store, world.clock, world.gateway, merchant_uid=merchant_uid)

    world.later(days=2)
    assert lapse() is False
    assert world.payment(merchant_uid).state is PaymentState.RESERVED
    world.later(days=1)
    assert lapse() is True
    assert world.payment(merchant_uid).state is PaymentState.CANCELLED
    assert world.licence(reserved.user_licence_id).state is LicenceState.LAPSED
    assert world.gateway.get_payment(imp_uid).status is GatewayStatus.CANCELLED
    assert lapse() is False


def test_a_deposit_whose_webhook_never_came_is_settled_by_the_deadline_sweep(world: World) -> None:
    merchant_uid, imp_uid = _vbank(world)
    reserved = _settle(world, merchant_uid, imp_uid)
    world.later(days=1)
    world.gateway.deposit(imp_uid)
    world.later(days=5)
    assert lapse_if_unpaid(world.store, world.clock, world.gateway, merchant_uid=merchant_uid) is False
    assert world.payment(merchant_uid).state is PaymentState.PAID
    assert world.licence(reserved.user_licence_id).state is LicenceState.ACTIVE


# -- refunds ---------------------------------------------------------------------------


def test_a_partial_refund_chosen_to_shorten_keeps_what_is_left_paid_for_and_the_rest_revokes_it(world: World) -> None:
    confirmed = world.buy(ANNUAL, account_id=world.member())
    half = refund_payment(
        world.store, world.clock, world.gateway, merchant_uid=confirmed.merchant_uid, amount=12180, reason="asked",
        licence_effect=LicenceEffect.SHORTEN,
    )  # fmt: skip
    assert half == 12180  # half of 24,360 won: 182 of 365 days
    assert world.licence(confirmed.user_licence_id).expires_at == START + timedelta(days=182)
    imp_uid = world.payment(confirmed.merchant_uid).imp_uid
    assert imp_uid is not None and world.gateway.get_payment(imp_uid).cancel_amount == 12180
    world.later(days=1)
    assert _refund(world, confirmed.merchant_uid, None) == 12180
    licence = world.licence(confirmed.user_licence_id)
    assert (licence.state, licence.expires_at) == (LicenceState.REVOKED, START + timedelta(days=1))
    assert world.payment(confirmed.merchant_uid).refundable == 0


def test_a_refund_is_refused_beyond_the_refundable_balance_or_for_an_unpaid_order(world: World) -> None:
    confirmed = world.buy(ANNUAL, account_id=world.member())
    unpaid = world.order(ANNUAL, email="guest@example.com")
    with refused(ErrorCode.INVALID_VALUE):
        _refund(world, confirmed.merchant_uid, 24361)
    with refused(ErrorCode.INVALID_VALUE):
        _refund(world, unpaid.merchant_uid, None)
    assert world.payment(confirmed.merchant_uid).cancel_amount == 0
    assert world.licence(confirmed.user_licence_id).expires_at == START + timedelta(days=365)


def test_a_late_report_of_another_attempt_leaves_a_reserved_virtual_account_waiting_for_its_deposit(
    world: World,
) -> None:
    merchant_uid, imp_uid = _vbank(world)
    tampered = world.gateway.pay(merchant_uid, 100)  # another attempt at the order, refused by the gateway
    _settle(world, merchant_uid, imp_uid)
    with refused(ErrorCode.PAYMENT_DIFFERS_FROM_INIT):
        _settle(world, merchant_uid, tampered)  # its webhook arrives after the reservation
    assert world.payment(merchant_uid).state is PaymentState.RESERVED
    world.gateway.deposit(imp_uid)
    assert _settle(world, merchant_uid, imp_uid).state is PaymentState.PAID

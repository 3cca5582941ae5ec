"""Stories of upgrading a purchased licence through the payment window and a subscription with its card: the
credit for the unused value, the licence keeping its key and devices, the two-tab race, refunds afterwards,
reserved licences, and a subscription that becomes a lifetime licence."""

from __future__ import annotations

from datetime import timedelta

from domain.errors import ErrorCode
from domain.licences.actions import Action
from domain.licences.upgrades import PaidPeriod, remaining_credit
from domain.payments.app_store import AppStorePurchase, record_app_store_purchase
from domain.payments.gateway import GatewayStatus
from domain.payments.payment import PaymentState
from domain.payments.purchase import confirm_payment, settle_payment
from domain.payments.upgrade import upgrade_choice
from domain.pricing.quotes import DiscountKind
from domain.subscriptions.commands import cancel_auto_renewal, resubscribe
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import SubscriptionStatus, with_subscription
from domain.subscriptions.upgrade import subscription_upgrade_choice, upgrade_subscription
from events.values import Currency, Language
from tests.refunding import refund_payment
from tests.support import START
from tests.unit.billing_world import (
    ANNUAL,
    ANNUAL_3,
    GOOD_CARD,
    LIFETIME,
    LIFETIME_3,
    MONTHLY,
    OTHER_CARD,
    World,
    refused,
)


def test_credit_is_the_unused_fraction_of_what_was_paid_rounded_down() -> None:
    period = PaidPeriod("m", 2900, Currency.KRW, "KR", START, START + timedelta(days=30))
    assert remaining_credit(period, START) == 2900
    assert remaining_credit(period, START + timedelta(days=15)) == 1450
    assert remaining_credit(period, START + timedelta(days=10)) == 1933  # 2900 * 2/3 = 1933.33
    assert remaining_credit(period, START + timedelta(days=31)) == 0
    assert remaining_credit(period, START - timedelta(days=1)) == 2900


def test_a_monthly_licence_halfway_through_becomes_annual_3_devices_for_the_quote_less_exactly_the_credit() -> None:
    world = World()
    member = world.member()
    bought = world.buy(MONTHLY, account_id=member)
    world.licence(bought.user_licence_id)
    world.later(days=15)

    choice = upgrade_choice(
        world.store, world.clock, world.catalogue, account_id=member, user_licence_id=bought.user_licence_id
    )
    annual_3 = next(item for item in choice.offers if item.target.id == ANNUAL_3)
    assert annual_3.credit == 1450
    assert annual_3.quote.price_after(DiscountKind.BASE) == 41160
    assert annual_3.amount == 41160 - 1450

    order = world.upgrade_order(member, bought.user_licence_id, ANNUAL_3, amount=41160 - 1450)
    assert order.amount == 39710 and order.credit == 1450
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount)
    confirmed = confirm_payment(
        world.store,
        world.clock,
        world.gateway,
        imp_uid=imp_uid,
        merchant_uid=order.merchant_uid,
        caller_account_id=member,
    )

    licence = world.licence(bought.user_licence_id)
    assert confirmed.user_licence_id == licence.id and confirmed.licence_key == bought.licence_key
    assert (licence.licence_id, licence.life, licence.max_devices_count) == (ANNUAL_3, 365, 3)
    assert licence.expires_at == world.clock.now() + timedelta(days=365)
    upgrade = world.payment(order.merchant_uid)
    assert upgrade.state is PaymentState.PAID and upgrade.amount == 39710 and upgrade.upgrade is not None
    assert upgrade.upgrade.credit == 1450 and upgrade.upgrade.from_licence_id == MONTHLY
    old = world.payment(bought.merchant_uid)
    assert old.credit_spent == 1450 and old.refundable == 2900 - 1450


def test_devices_registered_before_the_upgrade_stay_on_the_licence() -> None:
    world = World()
    member = world.member()
    bought = world.buy(LIFETIME, account_id=member)
    world.licence(bought.user_licence_id)
    licence = world.licence(bought.user_licence_id)
    licence.activate_device("phone-1", "My phone", "android", world.clock.now())
    world.store.save(licence)
    world.later(days=100)

    world.upgrade(member, bought.user_licence_id, LIFETIME_3)

    upgraded = world.licence(bought.user_licence_id)
    assert list(upgraded.devices) == ["phone-1"] and upgraded.max_devices_count == 3
    assert upgraded.licence_key == bought.licence_key


def test_the_page_price_must_match_the_quote_and_the_target_must_be_an_upgrade() -> None:
    world = World()
    member = world.member()
    bought = world.buy(ANNUAL_3, account_id=member)
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        world.upgrade_order(member, bought.user_licence_id, ANNUAL)  # fewer devices
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        world.upgrade_order(member, bought.user_licence_id, MONTHLY)  # shorter life
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        world.upgrade_order(member, bought.user_licence_id, LIFETIME_3, amount=1)
    with refused(ErrorCode.NOT_FOUND):
        world.upgrade_order(world.member("other@example.com"), bought.user_licence_id, LIFETIME_3)


def test_a_licence_with_nothing_bigger_has_no_upgrade_information() -> None:
    world = World()
    member = world.member()
    bought = world.buy(LIFETIME_3, account_id=member)
    with refused(ErrorCode.NOTHING_PURCHASABLE):
        upgrade_choice(
            world.store, world.clock, world.catalogue, account_id=member, user_licence_id=bought.user_licence_id
        )


def test_a_reserved_virtual_account_licence_cannot_be_upgraded_until_paid() -> None:
    world = World()
    member = world.member()
    order = world.order(MONTHLY, account_id=member, method="virtualAccount")
    imp_uid = world.gateway.pay(order.merchant_uid, order.amount, pay_method="vbank")
    reserved = confirm_payment(
        world.store,
        world.clock,
        world.gateway,
        imp_uid=imp_uid,
        merchant_uid=order.merchant_uid,
        caller_account_id=member,
    )
    with refused(ErrorCode.NOTHING_PURCHASABLE):
        upgrade_choice(
            world.store, world.clock, world.catalogue, account_id=member, user_licence_id=reserved.user_licence_id
        )
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        world.upgrade_order(member, reserved.user_licence_id, ANNUAL)

    world.gateway.deposit(imp_uid)
    settle_payment(world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    world.upgrade(member, reserved.user_licence_id, ANNUAL)
    assert world.licence(reserved.user_licence_id).licence_id == ANNUAL


def test_of_two_tabs_upgrading_one_licence_the_second_payment_is_cancelled_at_the_gateway() -> None:
    world = World()
    member = world.member()
    bought = world.buy(MONTHLY, account_id=member)
    first = world.upgrade_order(member, bought.user_licence_id, ANNUAL)
    second = world.upgrade_order(member, bought.user_licence_id, LIFETIME)
    first_imp = world.gateway.pay(first.merchant_uid, first.amount)
    second_imp = world.gateway.pay(second.merchant_uid, second.amount)

    confirm_payment(
        world.store,
        world.clock,
        world.gateway,
        imp_uid=first_imp,
        merchant_uid=first.merchant_uid,
        caller_account_id=member,
    )
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        confirm_payment(
            world.store,
            world.clock,
            world.gateway,
            imp_uid=second_imp,
            merchant_uid=second.merchant_uid,
            caller_account_id=member,
        )

    assert world.licence(bought.user_licence_id).licence_id == ANNUAL
    assert world.payment(second.merchant_uid).state is PaymentState.CANCELLED
    assert world.gateway.get_payment(second_imp).cancel_amount == second.amount
    assert world.payment(bought.merchant_uid).credit_spent == first.credit


def test_a_refund_after_an_upgrade_never_gives_back_the_credit_twice() -> None:
    world = World()
    member = world.member()
    bought = world.buy(MONTHLY, account_id=member)
    world.later(days=10)
    confirmed = world.upgrade(member, bought.user_licence_id, ANNUAL)
    upgrade = world.payment(confirmed.merchant_uid)

    with refused(ErrorCode.INVALID_VALUE):
        refund_payment(
            world.store, world.clock, world.gateway, merchant_uid=bought.merchant_uid, amount=2900, reason="asked"
        )
    refunded_old = refund_payment(
        world.store, world.clock, world.gateway, merchant_uid=bought.merchant_uid, amount=None, reason="asked"
    )
    refunded_new = refund_payment(
        world.store, world.clock, world.gateway, merchant_uid=upgrade.merchant_uid, amount=None, reason="asked"
    )

    assert refunded_old == 2900 - upgrade.upgrade.credit  # the used third of the month, not the credit
    assert refunded_old + refunded_new == 2900 + upgrade.amount - upgrade.upgrade.credit
    assert refunded_old + refunded_new <= 2900 + upgrade.amount


# -- subscriptions ------------------------------------------------------------------------


def _upgrade_subscription(world: World, member, subscribed, target: int, key=None):
    return upgrade_subscription(
        world.store,
        world.clock,
        world.gateway,
        world.catalogue,
        account_id=member,
        subscription_id=subscribed.subscription_id,
        target_id=target,
        expected_amount=None,
        language=Language.KO,
        key=key,
    )


def test_a_monthly_subscription_upgraded_halfway_charges_once_and_renews_yearly_at_the_new_price() -> None:
    world = World()
    member = world.member()
    subscribed = world.subscribe(member, world.key(member))
    world.later(days=15)

    charged = _upgrade_subscription(world, member, subscribed, ANNUAL_3)

    assert charged.paid and charged.merchant_uid is not None and charged.merchant_uid.endswith("-2-u1")
    upgrade = world.payment(charged.merchant_uid)
    assert upgrade.amount == 41160 - 1450 and upgrade.upgrade is not None and upgrade.upgrade.credit == 1450
    subscription = world.subscription(subscribed.subscription_id)
    upgraded_at = world.clock.now()
    assert subscription.life == 365 and subscription.paid_until == upgraded_at + timedelta(days=365)
    assert subscription.renewal_quote.amount == 41160
    licence = world.licence(subscribed.user_licence_id)
    assert (licence.licence_id, licence.max_devices_count, licence.expires_at) == (ANNUAL_3, 3, subscription.paid_until)

    # The old monthly plan never charges again: nothing is due at its old renewal date.
    world.later(days=15)
    assert renew_if_due(world.store, world.clock, world.gateway, subscribed.subscription_id).attempt is None
    world.later(days=350)
    renewed = renew_if_due(world.store, world.clock, world.gateway, subscribed.subscription_id)
    assert renewed.paid and world.payment(renewed.merchant_uid).amount == 41160
    assert world.licence(subscribed.user_licence_id).expires_at == upgraded_at + timedelta(days=730)
    charges = [p for p in world.gateway.charges.values() if p.status is GatewayStatus.PAID]
    assert sorted(p.amount for p in charges) == [2900, 39710, 41160]


def test_a_monthly_subscription_upgraded_to_lifetime_halfway_is_charged_once_and_never_renews() -> None:
    world = World()
    member = world.member()
    subscribed = world.subscribe(member, world.key(member))
    world.later(days=15)
    [lifetime] = [
        offer
        for offer in subscription_upgrade_choice(
            world.store, world.clock, world.catalogue, account_id=member, subscription_id=subscribed.subscription_id
        ).offers
        if offer.target.id == LIFETIME
    ]
    assert lifetime.credit == 1450 and lifetime.amount == lifetime.quote.price_after(DiscountKind.BASE) - 1450

    charged = _upgrade_subscription(world, member, subscribed, LIFETIME)

    assert charged.paid and charged.status is SubscriptionStatus.ENDED
    assert charged.merchant_uid is not None and world.payment(charged.merchant_uid).amount == lifetime.amount
    upgraded_at = world.clock.now()
    licence = world.licence(subscribed.user_licence_id)
    assert (licence.licence_id, licence.source, licence.expires_at) == (
        LIFETIME,
        "purchase",
        upgraded_at + timedelta(days=36500),
    )
    subscription = world.subscription(subscribed.subscription_id)
    assert subscription.due_at is None and subscription.allowed_actions(world.clock.now()) == set()
    # Nothing is charged at the old renewal date nor ever after, and it cannot be started again.
    for _ in range(3):
        world.later(days=200)
        assert renew_if_due(world.store, world.clock, world.gateway, subscribed.subscription_id).attempt is None
    with refused(ErrorCode.AUTO_PAYMENT_ALREADY_SET):
        resubscribe(
            world.store, world.clock, world.gateway, account_id=member, subscription_id=subscribed.subscription_id
        )
    assert sorted(p.amount for p in world.gateway.charges.values()) == [2900, lifetime.amount]
    assert world.licence(subscribed.user_licence_id).expires_at == upgraded_at + timedelta(days=36500)


def test_two_tabs_upgrading_a_subscription_take_effect_once() -> None:
    world = World()
    member = world.member()
    subscribed = world.subscribe(member, world.key(member))
    first = _upgrade_subscription(world, member, subscribed, ANNUAL)
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):  # the licence is annual now: 121 is no upgrade of it
        _upgrade_subscription(world, member, subscribed, ANNUAL)
    assert first.paid
    paid = [p for p in world.gateway.charges.values() if p.status is GatewayStatus.PAID]
    assert len(paid) == 2  # the first month and one upgrade


def test_a_refused_card_leaves_the_subscription_on_its_plan_and_a_new_card_can_try_again() -> None:
    world = World()
    member = world.member()
    subscribed = world.subscribe(member, world.key(member))
    world.gateway.run_dry(GOOD_CARD)
    with refused(ErrorCode.CHECK_CARD_HELD):
        _upgrade_subscription(world, member, subscribed, ANNUAL)
    assert world.licence(subscribed.user_licence_id).licence_id == MONTHLY
    charged = _upgrade_subscription(world, member, subscribed, ANNUAL, key=world.key(member, OTHER_CARD))
    assert charged.paid and charged.merchant_uid is not None and charged.merchant_uid.endswith("-2-u2")
    assert world.subscription(subscribed.subscription_id).life == 365


def test_a_stopped_subscription_upgrades_no_more() -> None:
    world = World()
    member = world.member()
    subscribed = world.subscribe(member, world.key(member))
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=subscribed.subscription_id)
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        _upgrade_subscription(world, member, subscribed, ANNUAL)


# -- App Store purchases ---------------------------------------------------------------------


def test_a_licence_bought_from_apple_is_recorded_once_and_cannot_be_upgraded_here() -> None:
    world = World()
    member = world.member()

    def record() -> AppStorePurchase:
        return record_app_store_purchase(
            world.store,
            world.clock,
            world.catalogue,
            account_id=member,
            licence_id=ANNUAL,
            apple_transaction_id="2000000123456789",
            country_code="KR",
            language=Language.KO,
        )

    recorded = record()
    assert record() == recorded
    payment = world.payment(recorded.merchant_uid)
    assert payment.apple_transaction_id == "2000000123456789" and payment.refundable == 0
    licence = world.licence(recorded.user_licence_id)
    assert licence.is_valid(world.clock.now())
    assert Action.UPGRADE not in licence.allowed_actions(world.catalogue, world.clock.now())
    with refused(ErrorCode.NOTHING_PURCHASABLE):
        upgrade_choice(world.store, world.clock, world.catalogue, account_id=member, user_licence_id=licence.id)
    with refused(ErrorCode.INVALID_PRODUCT_AT_INIT):
        world.upgrade_order(member, licence.id, ANNUAL_3)


def test_a_subscription_licence_offers_an_upgrade_only_while_it_renews() -> None:
    world = World()
    member = world.member()
    subscribed = world.subscribe(member, world.key(member))
    licence = world.licence(subscribed.user_licence_id)
    now = world.clock.now()
    own = licence.allowed_actions(world.catalogue, now)
    assert Action.UPGRADE in with_subscription(own, SubscriptionStatus.ACTIVE)
    cancel_auto_renewal(world.store, world.clock, account_id=member, subscription_id=subscribed.subscription_id)
    status = world.subscription(subscribed.subscription_id).status
    assert Action.UPGRADE not in with_subscription(own, status)

"""Use cases on held licences: registering a key (a guest purchase's key moves to whoever registers
it), apps activating devices, renaming and removing devices, and the open beta."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import pytest

from domain.errors import ErrorCode
from domain.licences.licence import LicenceState
from domain.licences.management import (
    Activation,
    activate_device,
    join_open_beta,
    key_holder,
    register_by_key,
    remove_device,
    rename_device,
)
from domain.payments.purchase import lapse_if_unpaid, settle_payment
from tests.support import START
from tests.unit.billing_world import ANNUAL, MONTHLY, MONTHLY_3, World, refused

BETA_ENDS = START + timedelta(days=150)


def _register(world: World, account_id: UUID, licence_key: str) -> UUID:
    return register_by_key(world.store, world.clock, account_id=account_id, licence_key=licence_key).user_licence_id


def _activate(world: World, licence_key: str, device_id: str = "phone-1", platform: str = "android") -> Activation:
    return activate_device(
        world.store, world.clock, licence_key=licence_key, device_id=device_id, device_name="Phone", platform=platform
    )


# -- registering a key -----------------------------------------------------------------


def test_a_guest_purchases_key_moves_to_the_member_who_registers_it(world: World) -> None:
    bought = world.buy(ANNUAL, email="guest@example.com")
    member = world.member()
    holder = key_holder(world.store, bought.licence_key)
    assert (holder.registered, holder.email_confirmed) == (False, False)
    typed = bought.licence_key.replace("-", "").lower()  # as a customer may type it
    assert _register(world, member, typed) == bought.user_licence_id
    assert world.licence(bought.user_licence_id).account_id == member
    assert key_holder(world.store, bought.licence_key).registered


def test_registering_a_key_already_on_the_account_is_106(world: World) -> None:
    member = world.member()
    bought = world.buy(ANNUAL, account_id=member)
    with refused(ErrorCode.LICENSE_KEY_ALREADY_REGISTERED):
        _register(world, member, bought.licence_key)


def test_another_members_key_is_in_use_and_stays_theirs(world: World) -> None:
    owner, other = world.member("owner@example.com"), world.member("other@example.com")
    bought = world.buy(ANNUAL, account_id=owner)
    with refused(ErrorCode.LICENSE_KEY_IN_USE):
        _register(world, other, bought.licence_key)
    assert world.licence(bought.user_licence_id).account_id == owner


@pytest.mark.parametrize("key", ["ABCD-EFGH-JKMN-PQRS", "not a key"], ids=["unknown", "malformed"])
def test_an_unknown_or_malformed_key_is_404(world: World, key: str) -> None:
    with refused(ErrorCode.NOT_FOUND):
        _register(world, world.member(), key)


def test_an_expired_key_cannot_be_registered(world: World) -> None:
    bought = world.buy(MONTHLY, email="guest@example.com")
    world.later(days=30)
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _register(world, world.member(), bought.licence_key)


def test_a_reserved_key_can_be_registered_but_a_lapsed_one_cannot(world: World) -> None:
    member = world.member()
    orders = [world.order(ANNUAL, email="guest@example.com", method="virtualAccount") for _ in range(2)]
    reserved = []
    for order in orders:
        imp_uid = world.gateway.pay(order.merchant_uid, order.amount, pay_method="vbank")
        reserved.append(
            settle_payment(world.store, world.clock, world.gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
        )
    assert _register(world, member, reserved[0].licence_key) == reserved[0].user_licence_id
    world.later(days=3)
    assert lapse_if_unpaid(world.store, world.clock, world.gateway, merchant_uid=orders[1].merchant_uid)
    assert world.licence(reserved[1].user_licence_id).state is LicenceState.LAPSED
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _register(world, member, reserved[1].licence_key)


# -- apps activating devices -----------------------------------------------------------


def test_an_app_activates_a_device_once_and_again_is_a_no_op(world: World) -> None:
    bought = world.buy(MONTHLY_3, email="guest@example.com")
    first = _activate(world, bought.licence_key, platform="Android")
    position = world.store.max_notification_id()
    again = _activate(world, bought.licence_key)
    assert (first.newly_added, first.devices_count, first.max_devices_count) == (True, 1, 3)
    assert (again.newly_added, again.devices_count) == (False, 1)
    assert first.expires_at == START + timedelta(days=30)
    assert world.store.max_notification_id() == position, "the repeat recorded nothing"


def test_a_full_licence_refuses_another_device_with_the_device_limit(world: World) -> None:
    bought = world.buy(ANNUAL, email="guest@example.com")  # one device
    _activate(world, bought.licence_key, "phone-1")
    with refused(ErrorCode.DEVICE_LIMIT_REACHED):
        _activate(world, bought.licence_key, "phone-2")


def test_a_key_for_another_platform_or_an_expired_key_is_100(world: World) -> None:
    bought = world.buy(MONTHLY, email="guest@example.com")  # Unicorn Pro for Android
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _activate(world, bought.licence_key, platform="windows")
    world.later(days=30)
    with refused(ErrorCode.LICENSE_KEY_UNUSABLE):
        _activate(world, bought.licence_key)


@pytest.mark.parametrize(
    ("device_id", "platform", "code"),
    [
        ("phone-1", "linux", ErrorCode.INVALID_VALUE),
        ("  ", "android", ErrorCode.INVALID_VALUE),
        ("x" * 129, "android", ErrorCode.INVALID_VALUE),
    ],
    ids=["unknown platform", "blank device id", "device id over 128 characters"],
)
def test_an_activation_with_an_unknown_platform_or_an_unusable_device_id_is_2(
    world: World, device_id: str, platform: str, code: ErrorCode
) -> None:
    bought = world.buy(MONTHLY_3, email="guest@example.com")
    with refused(code):
        _activate(world, bought.licence_key, device_id, platform)


def test_an_activation_with_an_unknown_key_is_404(world: World) -> None:
    with refused(ErrorCode.NOT_FOUND):
        _activate(world, "ABCD-EFGH-JKMN-PQRS")


# -- the holder's devices --------------------------------------------------------------


def test_the_holder_renames_and_removes_a_device_and_its_slot_is_free_again(world: World) -> None:
    member = world.member()
    bought = world.buy(ANNUAL, account_id=member)
    _activate(world, bought.licence_key, "phone-1")
    rename_device(
        world.store, world.clock, account_id=member, user_licence_id=bought.user_licence_id, device_id="phone-1",
        device_name="Kitchen tablet",
    )  # fmt: skip
    assert world.licence(bought.user_licence_id).devices["phone-1"].device_name == "Kitchen tablet"
    remove_device(
        world.store, world.clock, account_id=member, user_licence_id=bought.user_licence_id, device_id="phone-1"
    )
    assert _activate(world, bought.licence_key, "phone-2").newly_added


def test_someone_elses_licence_looks_missing_and_a_missing_device_is_1404(world: World) -> None:
    owner, stranger = world.member("owner@example.com"), world.member("stranger@example.com")
    bought = world.buy(ANNUAL, account_id=owner)
    _activate(world, bought.licence_key, "phone-1")
    for account_id, licence_id in ((stranger, bought.user_licence_id), (owner, uuid4())):
        with refused(ErrorCode.NOT_FOUND):
            remove_device(
                world.store, world.clock, account_id=account_id, user_licence_id=licence_id, device_id="phone-1"
            )
    with refused(ErrorCode.DEVICE_NOT_FOUND):
        rename_device(
            world.store, world.clock, account_id=owner, user_licence_id=bought.user_licence_id, device_id="ghost",
            device_name="Name",
        )  # fmt: skip
    with refused(ErrorCode.INVALID_VALUE):
        rename_device(
            world.store, world.clock, account_id=owner, user_licence_id=bought.user_licence_id, device_id="phone-1",
            device_name="x" * 51,
        )  # fmt: skip
    assert list(world.licence(bought.user_licence_id).devices) == ["phone-1"]


# -- the open beta ---------------------------------------------------------------------


def test_an_account_joins_the_open_beta_once_for_a_ninety_day_windows_licence(world: World) -> None:
    member = world.member()
    joined = join_open_beta(world.store, world.clock, account_id=member, ends_at=BETA_ENDS)
    licence = world.licence(joined.user_licence_id)
    assert (licence.product_code, licence.source, licence.max_devices_count) == ("uncpw", "open-beta", 1)
    assert licence.expires_at == START + timedelta(days=90)
    assert _activate(world, licence.licence_key, platform="windows").newly_added, "its key works in the app"
    with refused(ErrorCode.ALREADY_IN_OPEN_BETA):
        join_open_beta(world.store, world.clock, account_id=member, ends_at=BETA_ENDS)


def test_the_open_beta_takes_nobody_once_it_has_ended(world: World) -> None:
    member = world.member()
    world.later(days=150)
    with refused(ErrorCode.SERVER_ERROR_CONTACT_ADMIN):
        join_open_beta(world.store, world.clock, account_id=member, ends_at=BETA_ENDS)

"""The wallet: billing keys kept by their card's mask, which one is charged, and keys a PG window
issued under a customerUid we handed out."""

from __future__ import annotations

from uuid import uuid4

from domain.errors import ErrorCode
from domain.payments.wallet import (
    BillingKey,
    Wallet,
    choose_default_billing_key,
    is_minted_for,
    issued_in_window,
    keep_window_billing_key,
    key_to_charge,
    new_customer_uid,
    open_key_window,
    wallet_of,
)
from tests.support import START
from tests.unit.billing_world import DECLINED_CARD, GOOD_CARD, OTHER_CARD, World, refused

VISA = BillingKey("key-visa", "cust-visa", "nice", "VISA", "411111******1111")
MASTER = BillingKey("key-master", "cust-master", "nice", "MASTER", "555555******4444")


def _wallet(*keys: BillingKey) -> Wallet:
    wallet = Wallet.open(uuid4(), START)
    for key in keys:
        wallet.add(key, START)
    return wallet


# -- the aggregate ---------------------------------------------------------------------


def test_the_first_key_becomes_the_default_and_later_ones_do_not() -> None:
    wallet = _wallet(VISA, MASTER)
    assert wallet.default_id == "key-visa"
    assert set(wallet.keys) == {"key-visa", "key-master"}
    wallet.choose_default("key-master", START)
    assert wallet.default_id == "key-master"


def test_the_same_card_under_another_customer_uid_is_308() -> None:
    wallet = _wallet(VISA)
    with refused(ErrorCode.BILLING_KEY_ALREADY_REGISTERED):
        wallet.add(BillingKey("key-2", "cust-other", "kakaopay", "VISA", "411111******1111"), START)
    assert list(wallet.keys) == ["key-visa"]


def test_the_same_customer_uid_twice_is_the_same_key_and_records_nothing() -> None:
    wallet = _wallet(VISA)
    kept = wallet.add(BillingKey("key-again", "cust-visa", "nice", "VISA", "411111******1111"), START)
    assert kept == VISA
    assert [type(event).__name__ for event in wallet.collect_events()] == [
        "WalletOpened",
        "BillingKeyAdded",
        "DefaultBillingKeyChosen",
    ]


def test_the_key_to_charge_is_the_named_one_else_the_default() -> None:
    wallet = _wallet(VISA, MASTER)
    assert wallet.key_to_charge("key-master") == MASTER
    assert wallet.key_to_charge(None) == VISA
    with refused(ErrorCode.NOT_FOUND):
        wallet.key_to_charge("key-unknown")


def test_an_empty_wallet_has_no_key_to_charge_and_no_wallet_neither(world: World) -> None:
    with refused(ErrorCode.RESERVED_PAYMENT_MISSING):
        _wallet().key_to_charge(None)
    with refused(ErrorCode.RESERVED_PAYMENT_MISSING):
        key_to_charge(world.store, world.member(), None)


def test_only_a_key_of_the_wallet_can_become_the_default() -> None:
    wallet = _wallet(VISA)
    with refused(ErrorCode.NOT_FOUND):
        wallet.choose_default("key-master", START)


# -- registering cards -----------------------------------------------------------------


def test_a_typed_card_is_kept_as_its_mask_and_the_first_is_charged_by_default(world: World) -> None:
    member = world.member()
    first, second = world.key(member, GOOD_CARD), world.key(member, OTHER_CARD)
    assert (first.card_name, first.card_number, first.pg) == ("VISA", "411111******1111", "kcp_billing")
    assert key_to_charge(world.store, member, None) == first
    assert key_to_charge(world.store, member, second.billing_key_id) == second
    choose_default_billing_key(world.store, world.clock, account_id=member, billing_key_id=second.billing_key_id)
    assert key_to_charge(world.store, member, None) == second


def test_a_declined_card_is_303_and_the_same_card_twice_is_308(world: World) -> None:
    member = world.member()
    with refused(ErrorCode.CHECK_CARD_HELD):
        world.key(member, DECLINED_CARD)
    assert wallet_of(world.store, member) is None
    world.key(member, GOOD_CARD)
    with refused(ErrorCode.BILLING_KEY_ALREADY_REGISTERED):
        world.key(member, GOOD_CARD)
    wallet = wallet_of(world.store, member)
    assert wallet is not None and len(wallet.keys) == 1


def test_another_accounts_default_is_never_charged(world: World) -> None:
    owner, other = world.member("owner@example.com"), world.member("other@example.com")
    owners = world.key(owner, GOOD_CARD)
    world.key(other, OTHER_CARD)
    with refused(ErrorCode.NOT_FOUND):
        key_to_charge(world.store, other, owners.billing_key_id)


# -- keys from a PG window -------------------------------------------------------------


def test_a_window_is_opened_under_a_customer_uid_minted_for_the_caller(world: World) -> None:
    member = world.member()
    window = open_key_window("kakaopay", member)
    assert window.customer_uid.startswith(f"cust-{member.hex[:12]}-")
    assert (window.merchant_uid, window.pg, window.pay_method) == (f"issue-{window.customer_uid}", "kakaopay", "card")
    assert is_minted_for(window.customer_uid, member) and not is_minted_for(window.customer_uid, None)
    assert new_customer_uid(None).startswith("cust-guest-")
    with refused(ErrorCode.INVALID_VALUE):
        open_key_window("bankTransfer", member)


def test_a_windows_key_is_the_same_key_however_often_it_is_presented(world: World) -> None:
    member = world.member()
    customer_uid = new_customer_uid(member)
    world.gateway.issue_in_window(customer_uid, GOOD_CARD)
    first = keep_window_billing_key(
        world.store, world.clock, world.gateway, account_id=member, customer_uid=customer_uid
    )
    again = keep_window_billing_key(
        world.store, world.clock, world.gateway, account_id=member, customer_uid=customer_uid
    )
    assert first == again and first.card_number == "411111******1111"
    wallet = wallet_of(world.store, member)
    assert wallet is not None and list(wallet.keys) == [first.billing_key_id]


def test_a_window_key_issued_for_another_caller_is_403_and_none_issued_is_304(world: World) -> None:
    member, other = world.member("member@example.com"), world.member("other@example.com")
    theirs = new_customer_uid(other)
    world.gateway.issue_in_window(theirs, GOOD_CARD)
    with refused(ErrorCode.FORBIDDEN):
        issued_in_window(world.gateway, customer_uid=theirs, account_id=member)
    with refused(ErrorCode.FORBIDDEN):
        issued_in_window(world.gateway, customer_uid=theirs, account_id=None)
    closed = new_customer_uid(member)
    assert not world.gateway.issue_in_window(closed, DECLINED_CARD), "the window issued nothing"
    with refused(ErrorCode.RESERVED_PAYMENT_MISSING):
        issued_in_window(world.gateway, customer_uid=closed, account_id=member)

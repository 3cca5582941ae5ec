"""The one rule that brings our record of a store purchase to what the store says (domain/app_stores/recording.py),
with the stores faked: statuses arriving twice, late or out of order record each change once."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from domain.app_stores.facts import NoticeKind, Store, StoreNotice, StoreState, StoreStatus, StoreTransaction
from domain.app_stores.products import StoreRules, parse_products
from domain.app_stores.recording import link_purchase, reconcile_subscription, take_notice
from domain.app_stores.subscription import StoreSubscription
from domain.catalogue.licences import load_catalogue
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.payment import Payment
from tests.fakes import ManualClock, in_memory_store
from tests.support import register

START = datetime(2026, 11, 1, tzinfo=UTC)
RULES = StoreRules(
    products={Store.APP_STORE: parse_products("ios.annual=321,ios.monthly=311")},
    commission={Store.APP_STORE: Decimal("0.30")},
)


def charge(number: int, starts: datetime, days: int = 30) -> StoreTransaction:
    return StoreTransaction(
        store=Store.APP_STORE,
        transaction_id=f"10{number}",
        original_transaction_id="100",
        product_id="ios.monthly",
        purchased_at=starts,
        expires_at=starts + timedelta(days=days),
        renewing=True,
        environment="Sandbox",
        amount=2900,
        currency="KRW",
        country_code="KOR",
    )


@pytest.fixture
def world() -> tuple[object, ManualClock, object]:
    store = in_memory_store()
    clock = ManualClock(START)
    account = register(store, "buyer@example.com", clock)
    return store, clock, account


def test_a_renewal_told_twice_and_by_reconciliation_is_recorded_once(world: tuple) -> None:
    store, clock, account = world
    catalogue = load_catalogue()
    first = charge(0, START)
    linked = link_purchase(
        store,
        clock,
        catalogue,
        RULES,
        account_id=account.account_id,
        status=StoreStatus(StoreState.ACTIVE, first, True),
        linked_by="app",
    )
    payment = store.repository.get(Payment.id_for("apple-100"))
    assert payment.amount == 2900 and payment.store == "app-store" and payment.apple_transaction_id == "100"

    clock.advance(timedelta(days=30))
    renewal = StoreStatus(StoreState.ACTIVE, charge(1, START + timedelta(days=30)), True)
    notice = StoreNotice(Store.APP_STORE, "n-1", NoticeKind.RENEWED, "DID_RENEW/", clock.now(), renewal)
    assert take_notice(store, clock, catalogue, RULES, notice).outcome == "applied"
    assert take_notice(store, clock, catalogue, RULES, notice).outcome == "duplicate"
    again = replace(notice, notification_id="n-2")  # the same news under another id
    assert take_notice(store, clock, catalogue, RULES, again).outcome == "applied"
    subscription_id = StoreSubscription.id_for(Store.APP_STORE, "100")
    assert reconcile_subscription(store, clock, catalogue, RULES, subscription_id, renewal) is False

    licence = store.repository.get(linked.user_licence_id)
    assert licence.expires_at == START + timedelta(days=60)
    renewed = store.repository.get(Payment.id_for("apple-101"))
    assert renewed.user_licence_id == licence.id


def test_an_old_period_refunded_keeps_the_licence_the_current_one_revokes_it(world: tuple) -> None:
    store, clock, account = world
    catalogue = load_catalogue()
    first = charge(0, START)
    linked = link_purchase(
        store,
        clock,
        catalogue,
        RULES,
        account_id=account.account_id,
        status=StoreStatus(StoreState.ACTIVE, first, True),
        linked_by="app",
    )
    clock.advance(timedelta(days=30))
    second = charge(1, START + timedelta(days=30))
    subscription_id = StoreSubscription.id_for(Store.APP_STORE, "100")
    reconcile_subscription(
        store, clock, catalogue, RULES, subscription_id, StoreStatus(StoreState.ACTIVE, second, True)
    )

    old_refund = StoreStatus(StoreState.REFUNDED, first, True, reason="0")
    reconcile_subscription(store, clock, catalogue, RULES, subscription_id, old_refund)
    licence: UserLicence = store.repository.get(linked.user_licence_id)
    assert licence.state is LicenceState.ACTIVE
    assert store.repository.get(Payment.id_for("apple-100")).cancel_amount == 2900

    reconcile_subscription(
        store, clock, catalogue, RULES, subscription_id, StoreStatus(StoreState.REFUNDED, second, True)
    )
    assert store.repository.get(linked.user_licence_id).state is LicenceState.REVOKED
    # Nothing the store says later gives it back.
    third = charge(2, START + timedelta(days=60))
    reconcile_subscription(store, clock, catalogue, RULES, subscription_id, StoreStatus(StoreState.ACTIVE, third, True))
    assert store.repository.get(linked.user_licence_id).state is LicenceState.REVOKED


def test_a_purchase_naming_another_account_or_linked_to_one_is_refused(world: tuple) -> None:
    store, clock, account = world
    catalogue = load_catalogue()
    other = register(store, "other@example.com", clock)
    named = replace(charge(0, START), account_token=str(other.account_id))
    with pytest.raises(DomainError) as refused:
        link_purchase(
            store,
            clock,
            catalogue,
            RULES,
            account_id=account.account_id,
            status=StoreStatus(StoreState.ACTIVE, named, True),
            linked_by="app",
        )
    assert refused.value.code is ErrorCode.FORBIDDEN
    link_purchase(
        store,
        clock,
        catalogue,
        RULES,
        account_id=other.account_id,
        status=StoreStatus(StoreState.ACTIVE, named, True),
        linked_by="app",
    )
    with pytest.raises(DomainError) as taken:
        link_purchase(
            store,
            clock,
            catalogue,
            RULES,
            account_id=account.account_id,
            status=StoreStatus(StoreState.ACTIVE, charge(0, START), True),
            linked_by="app",
        )
    assert taken.value.code is ErrorCode.STORE_PURCHASE_OF_ANOTHER


def test_commission_is_rounded_down_and_unknown_products_are_refused() -> None:
    assert RULES.commission_of(Store.APP_STORE, 2999) == 899
    with pytest.raises(DomainError) as refused:
        RULES.licence_id_of(Store.APP_STORE, "someone.elses")
    assert refused.value.code is ErrorCode.INVALID_PRODUCT_AT_INIT


def test_a_purchase_the_back_office_recorded_by_hand_is_joined_not_granted_twice(world: tuple) -> None:
    from domain.payments.app_store import record_app_store_purchase
    from events.values import Language

    store, clock, account = world
    catalogue = load_catalogue()
    by_hand = record_app_store_purchase(
        store,
        clock,
        catalogue,
        account_id=account.account_id,
        licence_id=311,
        apple_transaction_id="100",
        country_code="KR",
        language=Language.KO,
    )
    clock.advance(timedelta(days=30))
    renewal = charge(1, START + timedelta(days=30))
    linked = link_purchase(
        store,
        clock,
        catalogue,
        RULES,
        account_id=account.account_id,
        status=StoreStatus(StoreState.ACTIVE, renewal, True),
        linked_by="app",
    )
    assert linked.user_licence_id == by_hand.user_licence_id
    assert store.repository.get(Payment.id_for("apple-101")).user_licence_id == by_hand.user_licence_id
    assert store.repository.get(linked.user_licence_id).expires_at == renewal.expires_at

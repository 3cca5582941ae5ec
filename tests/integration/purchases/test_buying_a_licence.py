"""Buying a licence: order, pay in the sandbox, confirm; guests, vbanks, refunds, races and tampering."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from domain.accounts.account import EmailIndex
from domain.catalogue.licences import Catalogue
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceKeyIndex, LicenceState, UserLicence
from domain.payments.payment import LicenceEffect, Payment, PaymentState
from domain.payments.purchase import Order, lapse_if_unpaid, place_order, settle_payment
from domain.store import Storefront
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from tests.integration.portone.harness import RunningSandbox, TestClock
from tests.integration.purchases.conftest import SharedClock
from tests.refunding import refund_payment
from tests.support import register

pytestmark = pytest.mark.integration

ANNUAL_ANDROID_PRO = 121  # 34,800 won less 30% = 24,360 won
CARD = "4111111111111111"
DECLINED_CARD = "4111111111110002"


def _order(store: Storefront, clock: SharedClock, gateway: Any, catalogue: Catalogue, **overrides: Any) -> Order:
    arguments: dict[str, Any] = {
        "licence_id": ANNUAL_ANDROID_PRO, "country_code": "KR", "language": Language.KO,
        "payment_method": "creditCard", "account_id": None, "email": "guest@example.com",
    }  # fmt: skip
    arguments.update(overrides)
    return place_order(store, clock, gateway, catalogue, **arguments)


def _pay(sandbox: RunningSandbox, order: Order, **overrides: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "pg": order.pg, "pay_method": order.pay_method, "merchant_uid": order.merchant_uid,
        "name": order.name, "amount": order.amount, "currency": order.currency,
        "buyer_email": order.buyer_email, "card_number": CARD,
    }  # fmt: skip
    params.update(overrides)
    return sandbox.checkout(**params)


def test_a_customer_buys_an_annual_licence_valid_for_a_year(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue,
) -> None:  # fmt: skip
    customer = register(store, "minji@example.com").account_id
    order = _order(store, domain_clock, gateway, catalogue, account_id=customer, email=None)
    assert (order.amount, order.currency, order.pg, order.pay_method) == (24360, "KRW", "nice", "card")
    assert order.buyer_email == "minji@example.com"

    callback = _pay(sandbox, order)
    assert callback["success"] is True
    confirmed = settle_payment(
        store, domain_clock, gateway, imp_uid=callback["imp_uid"], merchant_uid=order.merchant_uid
    )

    assert confirmed.state is PaymentState.PAID
    assert confirmed.account_id == customer
    assert confirmed.account_created is False
    licence: UserLicence = store.repository.get(confirmed.user_licence_id)
    assert licence.is_valid(domain_clock.now())
    assert licence.expires_at == domain_clock.now() + timedelta(days=365)
    assert (licence.max_devices_count, licence.product_code) == (1, "uncpa")
    key_index: LicenceKeyIndex = store.repository.get(LicenceKeyIndex.id_for(confirmed.licence_key.lower()))
    assert key_index.user_licence_id == licence.id


def test_a_guest_purchase_creates_the_account_and_gives_back_the_licence_key(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue,
) -> None:  # fmt: skip
    first = _order(store, domain_clock, gateway, catalogue, email="New.Buyer@Example.com")
    confirmed = settle_payment(
        store, domain_clock, gateway, imp_uid=_pay(sandbox, first)["imp_uid"], merchant_uid=first.merchant_uid
    )
    assert confirmed.account_created is True
    assert len(confirmed.licence_key) == 19
    index: EmailIndex = store.repository.get(EmailIndex.id_for("new.buyer@example.com"))
    assert index.account_id == confirmed.account_id

    second = _order(store, domain_clock, gateway, catalogue, email="new.buyer@example.com", licence_id=131)
    again = settle_payment(
        store,
        domain_clock,
        gateway,
        imp_uid=_pay(sandbox, second)["imp_uid"],
        merchant_uid=second.merchant_uid,
    )
    assert again.account_created is False
    assert again.account_id == confirmed.account_id


def test_twenty_racing_confirms_of_one_payment_make_exactly_one_licence(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue, settings: Any,
) -> None:  # fmt: skip
    order = _order(store, domain_clock, gateway, catalogue)
    imp_uid = _pay(sandbox, order)["imp_uid"]
    # Four API processes' worth of stores, twenty requests in flight at once.
    stores = [Storefront(settings.event_store_env) for _ in range(4)]

    def confirm(attempt: int) -> UUID:
        each = stores[attempt % len(stores)]
        return settle_payment(
            each, domain_clock, gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid
        ).user_licence_id

    with ThreadPoolExecutor(max_workers=20) as pool:
        licence_ids = set(pool.map(confirm, range(20)))
    assert len(licence_ids) == 1
    grants = [n for n in store.recorder.select_notifications(start=1, limit=1000) if n.topic == "licence.Granted"]
    assert len(grants) == 1
    for each in stores:
        each.close()


class ForgetfulGateway(PortOneGateway):
    """Skips prepare, as if the amount had never been pre-registered, so the window can be tampered with."""

    def prepare(self, merchant_uid: str, amount: int) -> None:
        return None


def test_a_payment_for_another_amount_is_refused_and_cancelled_at_the_gateway(
    store: Storefront, domain_clock: SharedClock, sandbox: RunningSandbox, catalogue: Catalogue
) -> None:
    gateway = ForgetfulGateway(sandbox.client())
    order = _order(store, domain_clock, gateway, catalogue)
    callback = _pay(sandbox, order, amount=100)
    assert callback["success"] is True  # the customer paid 100 won for a 24,360 won licence

    with pytest.raises(DomainError) as refused:
        settle_payment(store, domain_clock, gateway, imp_uid=callback["imp_uid"], merchant_uid=order.merchant_uid)
    assert refused.value.code is ErrorCode.PAYMENT_DIFFERS_FROM_INIT
    payment: Payment = store.repository.get(Payment.id_for(order.merchant_uid))
    assert payment.state is PaymentState.CANCELLED
    assert gateway.get_payment(callback["imp_uid"]).cancel_amount == 100
    assert not [n for n in store.recorder.select_notifications(start=1, limit=100) if n.topic == "licence.Granted"]
    gateway.close()


def test_a_declined_card_fails_the_payment_with_minus_300(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue,
) -> None:  # fmt: skip
    order = _order(store, domain_clock, gateway, catalogue)
    callback = _pay(sandbox, order, card_number=DECLINED_CARD)
    assert callback["success"] is False
    with pytest.raises(DomainError) as refused:
        settle_payment(store, domain_clock, gateway, imp_uid=callback["imp_uid"], merchant_uid=order.merchant_uid)
    assert refused.value.code is ErrorCode.PAYMENT_REFUSED
    assert store.repository.get(Payment.id_for(order.merchant_uid)).state is PaymentState.FAILED


def test_a_virtual_account_reserves_the_licence_until_the_deposit_arrives(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue,
) -> None:  # fmt: skip
    order = _order(store, domain_clock, gateway, catalogue, payment_method="virtualAccount")
    imp_uid = _pay(sandbox, order)["imp_uid"]
    reserved = settle_payment(store, domain_clock, gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert reserved.state is PaymentState.RESERVED
    licence: UserLicence = store.repository.get(reserved.user_licence_id)
    assert licence.state is LicenceState.RESERVED
    assert not licence.is_valid(domain_clock.now())

    assert sandbox.deposit(imp_uid).status_code == 200
    paid = settle_payment(store, domain_clock, gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert paid.state is PaymentState.PAID
    assert paid.user_licence_id == reserved.user_licence_id
    assert store.repository.get(paid.user_licence_id).is_valid(domain_clock.now())
    again = settle_payment(store, domain_clock, gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    assert again.state is PaymentState.PAID


def test_an_unpaid_virtual_account_is_cancelled_once_its_deadline_passes(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue, clock: TestClock,
) -> None:  # fmt: skip
    order = _order(store, domain_clock, gateway, catalogue, payment_method="virtualAccount")
    imp_uid = _pay(sandbox, order)["imp_uid"]
    reserved = settle_payment(store, domain_clock, gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)

    clock.advance(timedelta(days=2))
    assert lapse_if_unpaid(store, domain_clock, gateway, merchant_uid=order.merchant_uid) is False
    clock.advance(timedelta(days=2))
    assert lapse_if_unpaid(store, domain_clock, gateway, merchant_uid=order.merchant_uid) is True

    assert store.repository.get(Payment.id_for(order.merchant_uid)).state is PaymentState.CANCELLED
    assert store.repository.get(reserved.user_licence_id).state is LicenceState.LAPSED
    assert gateway.get_payment(imp_uid).status.value == "cancelled"
    assert sandbox.deposit(imp_uid).status_code != 200 or gateway.get_payment(imp_uid).status.value == "cancelled"


def test_a_partial_refund_chosen_to_shorten_then_the_rest_revokes_the_licence(
    store: Storefront, domain_clock: SharedClock, gateway: PortOneGateway, sandbox: RunningSandbox,
    catalogue: Catalogue,
) -> None:  # fmt: skip
    order = _order(store, domain_clock, gateway, catalogue)
    imp_uid = _pay(sandbox, order)["imp_uid"]
    confirmed = settle_payment(store, domain_clock, gateway, imp_uid=imp_uid, merchant_uid=order.merchant_uid)
    bought_at = domain_clock.now()

    half = refund_payment(
        store,
        domain_clock,
        gateway,
        merchant_uid=order.merchant_uid,
        amount=12180,
        reason="half",
        licence_effect=LicenceEffect.SHORTEN,
    )
    assert half == 12180
    licence: UserLicence = store.repository.get(confirmed.user_licence_id)
    assert licence.expires_at == bought_at + timedelta(days=182)  # half of 365 days, rounded down
    assert store.repository.get(Payment.id_for(order.merchant_uid)).cancel_amount == 12180

    assert (
        refund_payment(store, domain_clock, gateway, merchant_uid=order.merchant_uid, amount=None, reason="rest")
        == 12180
    )
    licence = store.repository.get(confirmed.user_licence_id)
    assert licence.state is LicenceState.REVOKED
    assert not licence.is_valid(domain_clock.now())
    assert gateway.get_payment(imp_uid).cancel_amount == 24360
    with pytest.raises(DomainError):
        refund_payment(store, domain_clock, gateway, merchant_uid=order.merchant_uid, amount=1, reason="more")

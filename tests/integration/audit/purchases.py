"""A licence bought through the PortOne sandbox, then partly refunded: the payment stories the audit tests read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from domain.catalogue.licences import Catalogue
from domain.payments.payment import LicenceEffect
from domain.payments.purchase import place_order, settle_payment
from domain.store import Storefront
from events.values import Language
from integrations.portone.gateway import PortOneGateway
from tests.integration.portone.harness import RunningSandbox, SharedClock, TestClock
from tests.refunding import refund_payment


@dataclass(frozen=True)
class Bought:
    merchant_uid: str
    imp_uid: str
    user_licence_id: UUID
    amount: int
    currency: str
    paid_at: datetime


def buy(
    store: Storefront,
    clock: SharedClock,
    gateway: PortOneGateway,
    sandbox: RunningSandbox,
    catalogue: Catalogue,
    *,
    licence_id: int = 131,
    country_code: str = "US",
    email: str = "finance.story@example.com",
) -> Bought:
    """A guest orders a licence, pays in the sandbox's window by card and the payment settles."""
    order = place_order(
        store,
        clock,
        gateway,
        catalogue,
        licence_id=licence_id,
        country_code=country_code,
        language=Language.EN,
        payment_method="creditCard",
        account_id=None,
        email=email,
    )
    paid = sandbox.checkout(
        pg=order.pg,
        pay_method=order.pay_method,
        merchant_uid=order.merchant_uid,
        name=order.name,
        amount=order.amount,
        currency=order.currency,
        buyer_email=order.buyer_email,
        card_number="4111111111111111",
    )
    paid_at = clock.now()
    confirmed = settle_payment(store, clock, gateway, imp_uid=paid["imp_uid"], merchant_uid=order.merchant_uid)
    return Bought(order.merchant_uid, paid["imp_uid"], confirmed.user_licence_id, order.amount, order.currency, paid_at)


def refund(
    store: Storefront, clock: SharedClock, time: TestClock, gateway: PortOneGateway, bought: Bought, amount: int
) -> None:
    """An operator refunds part of the payment a day later, shortening the licence to what is left paid for."""
    time.advance(timedelta(days=1))
    refund_payment(
        store,
        clock,
        gateway,
        merchant_uid=bought.merchant_uid,
        amount=amount,
        reason="goodwill",
        licence_effect=None if amount >= bought.amount else LicenceEffect.SHORTEN,
    )

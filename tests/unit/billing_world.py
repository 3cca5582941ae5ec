"""A small billing world for unit stories: the in-memory log, a standing clock, the fake gateway
and the catalogue, with the steps most stories begin with (an account, a card, a purchase, a
subscription). Nothing here decides anything: every step calls the domain's own use cases."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TypeVar
from uuid import UUID

import pytest

from domain.accounts.account import Account
from domain.catalogue.licences import Catalogue, load_catalogue
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.payments.cards import Card
from domain.payments.payment import Payment
from domain.payments.purchase import Confirmation, Order, confirm_payment, place_order
from domain.payments.upgrade import UpgradeOrder, place_upgrade_order
from domain.payments.wallet import BillingKey, register_billing_key
from domain.store import Storefront
from domain.subscriptions.commands import Subscribed, subscribe
from domain.subscriptions.subscription import Subscription
from events.values import Language
from tests.fakes import FakeGateway, ManualClock, in_memory_store
from tests.support import START, register

GOOD_CARD = "4111111111111111"
OTHER_CARD = "5555555555554444"
DECLINED_CARD = "4000000000000002"  # the window and the key form refuse it
NO_FUNDS_CARD = "4000000000000003"  # gets a key, but recurring charges on it fail

MONTHLY = 111  # Unicorn Pro for Android, 30 days, 1 device, 2,900 won
MONTHLY_3 = 113  # the same with 3 devices
ANNUAL = 121  # 365 days, 1 device, 34,800 won less 30% = 24,360 won
ANNUAL_3 = 123  # 365 days, 3 devices, 58,800 won less 30% = 41,160 won
LIFETIME = 131  # 1 device for life, 59,000 won
LIFETIME_3 = 133  # 3 devices for life, 89,000 won

A = TypeVar("A")


@contextmanager
def refused(code: ErrorCode) -> Iterator[None]:
    """The block is refused with ``code``."""
    with pytest.raises(DomainError) as caught:
        yield
    assert caught.value.code is code, f"refused with {caught.value.code.name}: {caught.value.detail}"


def card(number: str) -> Card:
    """A card as the key form sends it (valid for years after the stories' start)."""
    return Card(number, START.year + 3, 12, "12", "900101")


@dataclass
class World:
    store: Storefront = field(default_factory=in_memory_store)
    clock: ManualClock = field(default_factory=lambda: ManualClock(START))
    catalogue: Catalogue = field(default_factory=load_catalogue)
    gateway: FakeGateway = field(init=False)

    def __post_init__(self) -> None:
        self.gateway = FakeGateway(self.clock)

    def get(self, aggregate_id: UUID, _kind: type[A]) -> A:
        """An aggregate as the log has it now."""
        aggregate: A = self.store.repository.get(aggregate_id)
        return aggregate

    def later(self, **delta: float) -> None:
        self.clock.advance(timedelta(**delta))

    # -- accounts and cards -------------------------------------------------------------

    def member(self, email: str = "member@example.com") -> UUID:
        """A registered account (with a password) whose address is confirmed."""
        account_id = register(self.store, email, self.clock).account_id
        account: Account = self.store.repository.get(account_id)
        account.confirm_email(email, self.clock.now())
        self.store.save(account)
        return account_id

    def key(self, account_id: UUID, number: str = GOOD_CARD) -> BillingKey:
        """A card typed into the wallet form, kept as a billing key."""
        return register_billing_key(self.store, self.clock, self.gateway, account_id=account_id, card=card(number))

    # -- buying -------------------------------------------------------------------------

    def order(
        self,
        licence_id: int = ANNUAL,
        *,
        account_id: UUID | None = None,
        email: str | None = None,
        method: str = "creditCard",
        code: str | None = None,
        country: str = "KR",
    ) -> Order:
        return place_order(
            self.store,
            self.clock,
            self.gateway,
            self.catalogue,
            licence_id=licence_id,
            country_code=country,
            language=Language.KO,
            payment_method=method,
            account_id=account_id,
            email=email,
            coupon_code=code,
        )

    def buy(
        self,
        licence_id: int = ANNUAL,
        *,
        account_id: UUID | None = None,
        email: str | None = None,
        code: str | None = None,
    ) -> Confirmation:
        """Order, pay by card in the window, and confirm from the browser."""
        order = self.order(licence_id, account_id=account_id, email=email, code=code)
        imp_uid = self.gateway.pay(order.merchant_uid, order.amount)
        return confirm_payment(
            self.store,
            self.clock,
            self.gateway,
            imp_uid=imp_uid,
            merchant_uid=order.merchant_uid,
            caller_account_id=account_id,
        )

    def payment(self, merchant_uid: str) -> Payment:
        return self.get(Payment.id_for(merchant_uid), Payment)

    def licence(self, user_licence_id: UUID) -> UserLicence:
        return self.get(user_licence_id, UserLicence)

    # -- upgrading ----------------------------------------------------------------------

    def upgrade_order(
        self, account_id: UUID, user_licence_id: UUID, target: int, amount: int | None = None
    ) -> UpgradeOrder:
        return place_upgrade_order(
            self.store,
            self.clock,
            self.gateway,
            self.catalogue,
            account_id=account_id,
            user_licence_id=user_licence_id,
            target_id=target,
            expected_amount=amount,
            payment_method="creditCard",
            language=Language.KO,
        )

    def upgrade(self, account_id: UUID, user_licence_id: UUID, target: int) -> Confirmation:
        """Order an upgrade, pay it in the window and confirm from the browser."""
        order = self.upgrade_order(account_id, user_licence_id, target)
        imp_uid = self.gateway.pay(order.merchant_uid, order.amount)
        return confirm_payment(
            self.store,
            self.clock,
            self.gateway,
            imp_uid=imp_uid,
            merchant_uid=order.merchant_uid,
            caller_account_id=account_id,
        )

    # -- subscribing --------------------------------------------------------------------

    def subscribe(self, account_id: UUID, key: BillingKey, licence_id: int = MONTHLY) -> Subscribed:
        return subscribe(
            self.store,
            self.clock,
            self.gateway,
            self.catalogue,
            account_id=account_id,
            licence_id=licence_id,
            country_code="KR",
            language=Language.KO,
            key=key,
        )

    def subscription(self, subscription_id: UUID) -> Subscription:
        return self.get(subscription_id, Subscription)

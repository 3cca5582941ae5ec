"""An account's wallet of billing keys, and registering a card to it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.payments.cards import Card
from domain.payments.gateway import BillingKeyNotFoundAtGatewayError, BillingKeyRefusedError, PaymentGateway
from domain.payments.methods import billing_key_window
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.wallets import BillingKeyAdded, DefaultBillingKeyChosen, WalletOpened

BILLING_PG = "kcp_billing"
GUEST_OWNER = "guest"


def new_customer_uid(account_id: UUID | None) -> str:
    """A fresh customer_uid naming its owner (an account, or a guest) and an unguessable part."""
    return f"cust-{_owner_of(account_id)}-{uuid4().hex[:24]}"


def _owner_of(account_id: UUID | None) -> str:
    return account_id.hex[:12] if account_id is not None else GUEST_OWNER


def is_minted_for(customer_uid: str, account_id: UUID | None) -> bool:
    """Was this customer_uid handed out to this account (or to a guest)?"""
    return customer_uid.startswith(f"cust-{_owner_of(account_id)}-")


@dataclass(frozen=True)
class KeyWindow:
    """What IMP.request_pay needs to have a PG window issue a billing key (a payment of 0)."""

    customer_uid: str
    merchant_uid: str
    pg: str
    pay_method: str


def open_key_window(request_type: str, account_id: UUID | None) -> KeyWindow:
    """A customer_uid for the caller and the window that issues a key under it (-2 for an unknown type)."""
    choice = billing_key_window(request_type)
    customer_uid = new_customer_uid(account_id)
    return KeyWindow(customer_uid, f"issue-{customer_uid}", choice.pg, choice.pay_method)


@dataclass(frozen=True)
class BillingKey:
    """A card kept at the gateway, as we know it: its customer_uid and its mask."""

    billing_key_id: str
    customer_uid: str
    pg: str
    card_name: str | None
    card_number: str | None


class Wallet(Aggregate):
    """The billing keys of one account, and which one is the default."""

    @staticmethod
    def id_for(account_id: UUID) -> UUID:
        """One wallet per account."""
        return uuid5(NAMESPACE_URL, f"/wallets/{account_id}")

    @classmethod
    def open(cls, account_id: UUID, at: datetime) -> Wallet:
        """An empty wallet."""
        return cls._create(WalletOpened, id=cls.id_for(account_id), timestamp=at, account_id=account_id)

    def add(self, key: BillingKey, at: datetime) -> BillingKey:
        """Keep a new billing key (-308 when the same card is already there); the first becomes default.

        Adding a customer_uid the wallet already holds changes nothing and returns the key kept.
        """
        for known in self.keys.values():
            if known.customer_uid == key.customer_uid:
                return known
        for known in self.keys.values():
            if (known.card_name, known.card_number) == (key.card_name, key.card_number) and key.card_number:
                raise DomainError(ErrorCode.BILLING_KEY_ALREADY_REGISTERED)
        self.trigger_event(
            BillingKeyAdded,
            timestamp=at,
            billing_key_id=key.billing_key_id,
            customer_uid=key.customer_uid,
            pg=key.pg,
            card_name=key.card_name,
            card_number=key.card_number,
        )
        if self.default_id is None:
            self.choose_default(key.billing_key_id, at)
        return key

    def choose_default(self, billing_key_id: str, at: datetime) -> None:
        """Make a key the default (404 when it is not in this wallet)."""
        if billing_key_id not in self.keys:
            raise DomainError(ErrorCode.NOT_FOUND)
        if billing_key_id != self.default_id:
            self.trigger_event(DefaultBillingKeyChosen, timestamp=at, billing_key_id=billing_key_id)

    def get(self, billing_key_id: str) -> BillingKey:
        """One key (404 when not here)."""
        try:
            return self.keys[billing_key_id]
        except KeyError:
            raise DomainError(ErrorCode.NOT_FOUND) from None

    def key_to_charge(self, billing_key_id: str | None) -> BillingKey:
        """The named key, else the default one (-304 when there is none to charge)."""
        if billing_key_id is None and self.default_id is None:
            raise DomainError(ErrorCode.RESERVED_PAYMENT_MISSING, "no billing key registered")
        return self.get(billing_key_id or self.default_id or "")

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: WalletOpened) -> None:
        self.account_id = event.account_id
        self.keys: dict[str, BillingKey] = {}
        self.default_id: str | None = None

    @when.register
    def _added(self, event: BillingKeyAdded) -> None:
        self.keys[event.billing_key_id] = BillingKey(
            event.billing_key_id, event.customer_uid, event.pg, event.card_name, event.card_number
        )

    @when.register
    def _default(self, event: DefaultBillingKeyChosen) -> None:
        self.default_id = event.billing_key_id


def wallet_of(store: Storefront, account_id: UUID) -> Wallet | None:
    """The account's wallet, if it has registered a card."""
    try:
        wallet: Wallet = store.repository.get(Wallet.id_for(account_id))
    except AggregateNotFoundError:
        return None
    return wallet


def key_to_charge(store: Storefront, account_id: UUID, billing_key_id: str | None) -> BillingKey:
    """The account's key named ``billing_key_id``, else its default key (-304 without a wallet or a default)."""
    wallet = wallet_of(store, account_id)
    if wallet is None:
        raise DomainError(ErrorCode.RESERVED_PAYMENT_MISSING, "no billing key registered")
    return wallet.key_to_charge(billing_key_id)


def register_billing_key(
    store: Storefront, clock: Clock, gateway: PaymentGateway, *, account_id: UUID, card: Card, pg: str = BILLING_PG
) -> BillingKey:
    """Have the gateway issue a billing key for the card, and keep only its mask (-303 refused, -308 twice)."""
    customer_uid = new_customer_uid(account_id)
    try:
        issued = gateway.issue_billing_key(customer_uid, card, pg)
    except BillingKeyRefusedError:
        raise DomainError(ErrorCode.CHECK_CARD_HELD) from None
    key = BillingKey(uuid4().hex, issued.customer_uid, issued.pg, issued.card_name, issued.card_number)
    return _keep(store, clock, account_id, key)


def issued_in_window(gateway: PaymentGateway, *, customer_uid: str, account_id: UUID | None) -> BillingKey:
    """The billing key a PG window issued under a customer_uid we handed to this caller.

    403 when the customer_uid was minted for someone else; -304 when the gateway holds no key
    under it (the window was closed or refused). Its id derives from the customer_uid, so the
    same window's key is the same key however often it is presented.
    """
    if not is_minted_for(customer_uid, account_id):
        raise DomainError(ErrorCode.FORBIDDEN, "this customerUid was not issued to the caller")
    try:
        issued = gateway.billing_key(customer_uid)
    except BillingKeyNotFoundAtGatewayError:
        raise DomainError(
            ErrorCode.RESERVED_PAYMENT_MISSING, "no billing key was issued under this customerUid"
        ) from None
    key_id = uuid5(NAMESPACE_URL, f"/billing-keys/{customer_uid}").hex
    return BillingKey(key_id, issued.customer_uid, issued.pg, issued.card_name, issued.card_number)


def keep_window_billing_key(
    store: Storefront, clock: Clock, gateway: PaymentGateway, *, account_id: UUID, customer_uid: str
) -> BillingKey:
    """Add the key a PG window issued to the caller's wallet (idempotent; -308 for a card already there)."""
    key = issued_in_window(gateway, customer_uid=customer_uid, account_id=account_id)
    return _keep(store, clock, account_id, key)


def _keep(store: Storefront, clock: Clock, account_id: UUID, key: BillingKey) -> BillingKey:
    def attempt() -> BillingKey:
        now = clock.now()
        wallet = wallet_of(store, account_id) or Wallet.open(account_id, now)
        kept = wallet.add(key, now)
        store.save(wallet)
        return kept

    return retry_on_conflict(attempt)


def choose_default_billing_key(store: Storefront, clock: Clock, *, account_id: UUID, billing_key_id: str) -> None:
    """Make one of the caller's keys the default (404 otherwise)."""

    def attempt() -> None:
        wallet = wallet_of(store, account_id)
        if wallet is None:
            raise DomainError(ErrorCode.NOT_FOUND)
        wallet.choose_default(billing_key_id, clock.now())
        store.save(wallet)

    retry_on_conflict(attempt)

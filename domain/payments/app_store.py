"""Purchases made in Apple's App Store, recorded so the customer's licence shows here: by an operator from the command
line, or by support with a second member who verified the transaction (domain/staff/grants.py: nothing here can
verify one with Apple, so a member's record waits, unverified, until then).

Apple took the money, so nothing is charged or refunded here, and such a licence is not upgraded here
either (its payment carries ``appleTransactionId``; ``bought_in_app_store`` says so for the licence detail's
``isDisableUpgrade`` and its allowed actions).
Recording the same transaction again answers the licence recorded the first time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.granting import new_licence
from domain.licences.licence import LicenceTerms, UserLicence
from domain.payments.payment import Payment
from domain.pricing.quotes import quote_licence
from domain.store import Storefront
from events.values import Language

APP_STORE_SOURCE = "app-store"


@dataclass(frozen=True)
class AppStorePurchase:
    """The licence an App Store transaction granted."""

    merchant_uid: str
    user_licence_id: UUID
    licence_key: str


# How a payment taken by an app store is paid (docs/app-stores.md).
STORE_PAY_METHODS = ("app-store", "google-play")


def bought_in_app_store(apple_transaction_ids: Iterable[str | None]) -> bool:
    """A licence is the App Store's when any of its payments carries an Apple transaction id (the spec's rule
    for ``isDisableUpgrade``); we hold Google Play's to the same rule (``store_transaction``): a store bills it,
    so it is never upgraded here."""
    return any(apple_transaction_ids)


def store_transaction(apple_transaction_id: str | None, pay_method: str | None) -> str | None:
    """What marks a payment as a store's: Apple's transaction id, or a store as its payment method."""
    return apple_transaction_id or (pay_method if pay_method in STORE_PAY_METHODS else None)


def app_store_merchant_uid(apple_transaction_id: str) -> str:
    """One payment record per App Store transaction."""
    return f"apple-{apple_transaction_id}"


def transaction_id(apple_transaction_id: str) -> str:
    """The transaction id, trimmed (-2 unless it is 1-64 letters and digits)."""
    transaction = apple_transaction_id.strip()
    if not transaction or len(transaction) > 64 or not transaction.isalnum():
        raise DomainError(ErrorCode.INVALID_VALUE, "an App Store transaction id is 1-64 letters and digits")
    return transaction


def recorded_purchase(store: Storefront, apple_transaction_id: str) -> AppStorePurchase | None:
    """The licence this transaction granted, when it was recorded."""
    merchant_uid = app_store_merchant_uid(transaction_id(apple_transaction_id))
    try:
        earlier: UserLicence = store.repository.get(UserLicence.id_for_payment(merchant_uid))
    except AggregateNotFoundError:
        return None
    return AppStorePurchase(merchant_uid, earlier.id, earlier.licence_key)


def record_app_store_purchase(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    *,
    account_id: UUID,
    licence_id: int,
    apple_transaction_id: str,
    country_code: str,
    language: Language,
    recorded_with: Callable[[AppStorePurchase, datetime], Sequence[Aggregate]] | None = None,
) -> AppStorePurchase:
    """Grant the account the licence it bought from Apple, with a payment record carrying the transaction id
    (and what ``recorded_with`` gives, in the same transaction: a staff member's record of doing it)."""
    transaction = transaction_id(apple_transaction_id)
    merchant_uid = app_store_merchant_uid(transaction)
    user_licence_id = UserLicence.id_for_payment(merchant_uid)
    earlier = recorded_purchase(store, transaction)
    if earlier is not None:
        return earlier
    licence = catalogue.get(licence_id)
    if licence is None:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not in the catalogue")
    try:
        account: Account = store.repository.get(account_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such account") from None
    now = clock.now()
    terms = LicenceTerms.of(licence, licence.localization_for(language).name)
    payment = Payment.order(
        merchant_uid=merchant_uid,
        at=now,
        quote=quote_licence(licence, country_code),
        terms=terms,
        catalogue_version=catalogue.version,
        account_id=account_id,
        buyer_email=str(account.email),
        purchase_type=APP_STORE_SOURCE,
        user_licence_id=user_licence_id,
    )
    payment.record_app_store_purchase(transaction, now)
    granted, index = new_licence(
        account_id=account_id,
        terms=terms,
        merchant_uid=merchant_uid,
        source=APP_STORE_SOURCE,
        at=now,
        user_licence_id=user_licence_id,
    )
    recorded = AppStorePurchase(merchant_uid, granted.id, granted.licence_key)
    extra = recorded_with(recorded, now) if recorded_with else ()
    store.save(payment, granted, index, *extra)
    return recorded

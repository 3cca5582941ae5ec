"""Store purchases as payments of ours and the licences they pay for: linking a verified purchase to a customer, and
bringing our record to what the store says (a notification, or the reconciliation pass asking the store).

One rule does both: ``converge`` takes the store's status of a purchase and records what our log lacks of it, each
change once: a charge not recorded yet becomes a payment (``payment.StorePurchaseVerified``) and extends the licence
to the store's expiry; a grace period extends it to the grace's end; a billing retry or an expiry ends it with its
paid time; a refund of the charge paying for the time running now revokes it, as a refund of ours does (an earlier
period's refund is recorded only); a revocation revokes it. Repeating a status records nothing new, so a duplicate
notification, a reconciliation racing a notification, or a notification arriving after the app's own link are all
harmless, and a notification is saved with its changes in one transaction (``StoreNotification``), exactly once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account
from domain.app_stores.facts import (
    Store,
    StoreNotice,
    StoreState,
    StoreStatus,
    StoreTransaction,
    merchant_uid_of,
)
from domain.app_stores.products import StoreRules
from domain.app_stores.subscription import StoreNotification, StoreSubscription, subscription_key
from domain.catalogue.licences import Catalogue, PurchasableLicence
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.granting import new_licence
from domain.licences.licence import LicenceState, LicenceTerms, UserLicence
from domain.payments.app_store import app_store_merchant_uid
from domain.payments.payment import Payment, PaymentState
from domain.pricing.quotes import Quote, quote_licence
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.values import Currency

log = logging.getLogger(__name__)

# Apple names storefronts by ISO 3166 alpha-3; the catalogue's prices are by alpha-2.
_ALPHA3 = {"KOR": "KR", "USA": "US", "JPN": "JP", "GBR": "GB", "CAN": "CA", "AUS": "AU", "DEU": "DE", "FRA": "FR"}

APPLIED = "applied"
UNLINKED = "unlinked"
IGNORED = "ignored"
DUPLICATE = "duplicate"


@dataclass(frozen=True)
class Linked:
    """A store purchase as the customer's licence."""

    subscription_id: UUID
    user_licence_id: UUID
    licence_key: str
    store: Store
    original_transaction_id: str
    state: StoreState
    expires_at: datetime | None


def country_of(transaction: StoreTransaction) -> str | None:
    """The buyer's country as the catalogue names it (alpha-2), when the store said."""
    code = (transaction.country_code or "").upper()
    return _ALPHA3.get(code, code if len(code) == 2 else None)


def store_quote(licence: PurchasableLicence, transaction: StoreTransaction) -> Quote:
    """What the customer paid the store: the store's own price when it gave one in a currency we keep (no discounts
    of ours apply), else the catalogue's price for the buyer's country (Google's lookups carry no price)."""
    country = country_of(transaction) or "US"
    if transaction.amount is not None and transaction.currency in Currency._value2member_map_:
        return Quote(licence.id, country, Currency(transaction.currency), transaction.amount, ())
    return quote_licence(licence, country)


def _get(store: Storefront, aggregate_id: UUID) -> object | None:
    try:
        found: object = store.repository.get(aggregate_id)
    except AggregateNotFoundError:
        return None
    return found


def _account(store: Storefront, account_id: UUID) -> Account:
    account = _get(store, account_id)
    if not isinstance(account, Account):
        raise DomainError(ErrorCode.NOT_FOUND, "no such account")
    return account


def _record_charge(
    store: Storefront,
    catalogue: Catalogue,
    rules: StoreRules,
    transaction: StoreTransaction,
    account: Account,
    user_licence_id: UUID,
    now: datetime,
) -> Payment | None:
    """A payment of ours for one store charge, recorded paid (None when it is recorded already)."""
    merchant_uid = merchant_uid_of(transaction)
    if _get(store, Payment.id_for(merchant_uid)) is not None:
        return None
    licence = catalogue.get(rules.licence_id_of(transaction.store, transaction.product_id))
    if licence is None:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"{transaction.product_id} is not in the catalogue")
    quote = store_quote(licence, transaction)
    payment = Payment.order(
        merchant_uid=merchant_uid,
        at=now,
        quote=quote,
        terms=LicenceTerms.of(licence, licence.localization_for(account.language).name),
        catalogue_version=catalogue.version,
        account_id=account.id,
        buyer_email=str(account.email),
        purchase_type=transaction.store.value,
        user_licence_id=user_licence_id,
        buyer_country=country_of(transaction),
        language=account.language,
    )
    payment.record_store_purchase(
        store=transaction.store.value,
        transaction_id=transaction.transaction_id,
        original_transaction_id=transaction.original_transaction_id,
        product_id=transaction.product_id,
        environment=transaction.environment,
        paid_at=transaction.purchased_at,
        commission_rate=rules.commission_rate(transaction.store),
        commission=rules.commission_of(transaction.store, quote.amount),
        at=now,
    )
    return payment


def _earlier_record(store: Storefront, transaction: StoreTransaction) -> UserLicence | None:
    """The licence the back office recorded for this App Store purchase by hand, if it did (by its original or its
    own transaction id): the verified purchase is linked to it rather than granted twice."""
    if transaction.store is not Store.APP_STORE:
        return None
    for transaction_id in {transaction.original_transaction_id, transaction.transaction_id}:
        found = _get(store, UserLicence.id_for_payment(app_store_merchant_uid(transaction_id)))
        if isinstance(found, UserLicence):
            return found
    return None


def link_purchase(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    rules: StoreRules,
    *,
    account_id: UUID,
    status: StoreStatus,
    linked_by: str,
) -> Linked:
    """Make a verified store purchase the customer's licence (or find it made): a payment for its charge, a licence
    under a new key running to the store's expiry, and the store subscription, saved together; then whatever else
    the status says. 403 when the app named another account on the purchase; -351 when the purchase is another
    account's licence already."""
    transaction = status.latest
    if transaction.account_token and transaction.account_token.lower() != str(account_id):
        raise DomainError(ErrorCode.FORBIDDEN, "the purchase names another account")

    def attempt() -> Linked:
        linked, changed = _link(store, catalogue, rules, account_id, status, linked_by, clock.now())
        store.save(*changed)
        return linked

    return retry_on_conflict(attempt)


def _link(
    store: Storefront,
    catalogue: Catalogue,
    rules: StoreRules,
    account_id: UUID,
    status: StoreStatus,
    linked_by: str,
    now: datetime,
) -> tuple[Linked, list[Aggregate]]:
    """``link_purchase``'s changes, to be saved together (with a notification that brought them, say)."""
    transaction = status.latest
    account = _account(store, account_id)
    subscription = _get(store, StoreSubscription.id_for(transaction.store, subscription_key(transaction)))
    if isinstance(subscription, StoreSubscription):
        if subscription.account_id != account_id:
            raise DomainError(ErrorCode.STORE_PURCHASE_OF_ANOTHER, "the purchase is another account's licence")
        licence = _licence(store, subscription.user_licence_id)
        changed = converge(store, catalogue, rules, subscription, licence, status, now)
        return _linked(subscription, licence), [subscription, licence, *changed]
    earlier = _earlier_record(store, transaction)
    if earlier is not None and earlier.account_id != account_id:
        raise DomainError(ErrorCode.STORE_PURCHASE_OF_ANOTHER, "the purchase is another account's licence")
    licence_id = rules.licence_id_of(transaction.store, transaction.product_id)
    made: list[Aggregate] = []
    if earlier is not None:
        licence, merchant_uid = earlier, earlier.merchant_uid or merchant_uid_of(transaction)
    else:
        merchant_uid = merchant_uid_of(transaction)
        bought = catalogue.get(licence_id)
        if bought is None:
            raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not in the catalogue")
        user_licence_id = UserLicence.id_for_payment(merchant_uid)
        payment = _record_charge(store, catalogue, rules, transaction, account, user_licence_id, now)
        licence, index = new_licence(
            account_id=account_id,
            terms=LicenceTerms.of(bought, bought.localization_for(account.language).name),
            merchant_uid=merchant_uid,
            source=transaction.store.value,
            at=now,
            user_licence_id=user_licence_id,
        )
        if transaction.expires_at is not None:
            licence.extend_to(transaction.expires_at, now)
        made = [index, *([payment] if payment else [])]
    subscription = StoreSubscription.link(
        transaction=transaction,
        licence_id=licence_id,
        account_id=account_id,
        user_licence_id=licence.id,
        merchant_uid=merchant_uid,
        linked_by=linked_by,
        at=now,
    )
    changed = converge(store, catalogue, rules, subscription, licence, status, now)
    return _linked(subscription, licence), [*made, licence, subscription, *changed]


def _licence(store: Storefront, user_licence_id: UUID) -> UserLicence:
    licence = _get(store, user_licence_id)
    assert isinstance(licence, UserLicence), f"a store subscription's licence {user_licence_id} is missing"
    return licence


def _linked(subscription: StoreSubscription, licence: UserLicence) -> Linked:
    return Linked(
        subscription.id,
        licence.id,
        licence.licence_key,
        subscription.store,
        subscription.original_transaction_id,
        subscription.state,
        licence.expires_at,
    )


def converge(
    store: Storefront,
    catalogue: Catalogue,
    rules: StoreRules,
    subscription: StoreSubscription,
    licence: UserLicence,
    status: StoreStatus,
    now: datetime,
) -> list[Aggregate]:
    """Record what the store's ``status`` says that our log lacks, on ``subscription`` and ``licence`` (the caller
    saves them) and on payments (returned to be saved with them)."""
    changed: list[Aggregate] = []
    latest = status.latest
    reason = status.reason or status.state.value
    subscription.change_auto_renew(status.renewing, now)
    if status.state is StoreState.REFUNDED:
        payment = _get(store, Payment.id_for(merchant_uid_of(latest)))
        if payment is None and not subscription.ended and latest.expires_at is not None:
            payment = _charged(store, catalogue, rules, subscription, licence, latest, now)  # its renewal was lost
        if isinstance(payment, Payment) and payment.state is PaymentState.PAID:
            amount = payment.record_store_refund(reason, now)
            if amount:
                changed.append(payment)
                if subscription.refunded(latest.transaction_id, payment.merchant_uid, amount, reason, now):
                    licence.revoke(f"refunded by the {subscription.store.value}: {reason}", now)
        return changed
    if status.state is StoreState.REVOKED:
        if subscription.revoke(reason, now):
            licence.revoke(f"revoked by the {subscription.store.value}: {reason}", now)
        return changed
    if subscription.ended or licence.state is not LicenceState.ACTIVE:
        return changed  # nothing the store says later gives a refunded or revoked licence back
    if latest.expires_at is not None and merchant_uid_of(latest) != subscription.period_merchant_uid:
        charged = _charged(store, catalogue, rules, subscription, licence, latest, now)
        if charged is not None:
            changed.append(charged)
    paid_until = subscription.expires_at
    if status.state is StoreState.ACTIVE and paid_until is not None and licence.expires_at != paid_until:
        if subscription.state is not StoreState.ACTIVE:  # recovered without a new charge
            subscription.renew(latest, subscription.period_merchant_uid or merchant_uid_of(latest), now)
        _run_until(licence, paid_until, now)
    elif status.state is StoreState.GRACE_PERIOD and status.grace_until is not None:
        subscription.start_grace_period(status.grace_until, reason, now)
        _run_until(licence, max(status.grace_until, paid_until or status.grace_until), now)
    elif status.state is StoreState.BILLING_RETRY:
        subscription.start_billing_retry(reason, now)
        if paid_until is not None:
            _run_until(licence, paid_until, now)
    elif status.state is StoreState.EXPIRED:
        ended_at = min(paid_until or now, now)
        if subscription.expire(ended_at, reason, now) and licence.expires_at is not None and licence.expires_at > now:
            licence.shorten_to(now, f"expired in the {subscription.store.value}: {reason}", now)
    return changed


def _charged(
    store: Storefront,
    catalogue: Catalogue,
    rules: StoreRules,
    subscription: StoreSubscription,
    licence: UserLicence,
    transaction: StoreTransaction,
    now: datetime,
) -> Payment | None:
    """A renewal our log lacks, recorded as a payment for the licence (None when recorded already); the subscription
    moves to it when it is the newest."""
    account = _account(store, subscription.account_id)
    payment = _record_charge(store, catalogue, rules, transaction, account, licence.id, now)
    newest = subscription.expires_at is None or (
        transaction.expires_at is not None and transaction.expires_at >= subscription.expires_at
    )
    if payment is not None and transaction.expires_at is not None and newest:
        subscription.renew(transaction, payment.merchant_uid, now)
    return payment


def _run_until(licence: UserLicence, until: datetime, now: datetime) -> None:
    """The licence runs until ``until``: extended, or (after a grace period the store ended) shortened, never into
    the past."""
    if licence.expires_at is None or until == licence.expires_at:
        return
    if until > licence.expires_at:
        licence.extend_to(until, now)
    else:
        licence.shorten_to(until, "the store's paid time ended", now)


@dataclass(frozen=True)
class NoticeTaken:
    """What a notification did: ``applied``, ``unlinked``, ``ignored``, or ``duplicate`` (taken before)."""

    outcome: str
    subscription_id: UUID | None = None


def take_notice(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    rules: StoreRules,
    notice: StoreNotice,
) -> NoticeTaken:
    """Apply a verified (and fresh) notification once: saved with its changes in one transaction, so a duplicate, at
    any time or at the same moment, finds it taken and changes nothing. A notification about a purchase nobody linked
    yet links it to the account the app named on it, when that account exists; otherwise it is taken as
    ``unlinked`` (the customer's link later takes the store's state as it is then)."""
    notification_id = StoreNotification.id_for(notice.store, notice.notification_id)

    def attempt() -> NoticeTaken:
        if _get(store, notification_id) is not None:
            return NoticeTaken(DUPLICATE)
        now = clock.now()
        status = notice.status
        original = status.latest.original_transaction_id if status else None

        def taken(outcome: str) -> StoreNotification:
            return StoreNotification.take(
                store=notice.store,
                notification_id=notice.notification_id,
                kind=notice.kind.value,
                subtype=notice.subtype,
                signed_at=notice.signed_at,
                original_transaction_id=original,
                outcome=outcome,
                at=now,
            )

        if status is None:
            store.save(taken(IGNORED))
            return NoticeTaken(IGNORED)
        subscription = _get(store, StoreSubscription.id_for(notice.store, subscription_key(status.latest)))
        if not isinstance(subscription, StoreSubscription):
            account_id = _named_account(store, status.latest)
            if account_id is None or status.state in (StoreState.REFUNDED, StoreState.REVOKED):
                log.info("%s notification %s is about a purchase nobody linked", notice.store.value, original)
                store.save(taken(UNLINKED))
                return NoticeTaken(UNLINKED)
            linked, changed = _link(store, catalogue, rules, account_id, status, "notification", now)
            store.save(taken(APPLIED), *changed)
            return NoticeTaken(APPLIED, linked.subscription_id)
        licence = _licence(store, subscription.user_licence_id)
        changed = converge(store, catalogue, rules, subscription, licence, status, now)
        store.save(taken(APPLIED), subscription, licence, *changed)
        return NoticeTaken(APPLIED, subscription.id)

    return retry_on_conflict(attempt)


def _named_account(store: Storefront, transaction: StoreTransaction) -> UUID | None:
    """The account the app named on the purchase (its appAccountToken or obfuscated account id), if it exists."""
    if not transaction.account_token:
        return None
    try:
        account_id = UUID(transaction.account_token)
    except ValueError:
        return None
    return account_id if isinstance(_get(store, account_id), Account) else None


def reconcile_subscription(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    rules: StoreRules,
    subscription_id: UUID,
    status: StoreStatus,
) -> bool:
    """Bring one store subscription to the status the store answered the reconciliation pass with; True when that
    recorded anything (a notification was lost), else it is recorded as checked."""

    def attempt() -> bool:
        now = clock.now()
        subscription = _get(store, subscription_id)
        if not isinstance(subscription, StoreSubscription):
            return False
        licence = _licence(store, subscription.user_licence_id)
        before = (subscription.version, licence.version)
        changed = converge(store, catalogue, rules, subscription, licence, status, now)
        found = bool(changed) or (subscription.version, licence.version) != before
        if not found:
            subscription.checked(status.state, now)
        store.save(subscription, licence, *changed)
        return found

    return retry_on_conflict(attempt)

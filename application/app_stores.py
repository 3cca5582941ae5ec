"""Purchases made in the apps' stores (docs/app-stores.md), as the API, the workers and the command line ask for them:
a customer links a store purchase (the store's proof verified first), the stores' server notifications are verified
and taken once, and the reconciliation pass asks the stores about subscriptions gone silent. The rules are
``domain/app_stores/recording.py``'s; the stores are the ``StoreGateways`` ports.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.app_stores.facts import NoticeKind, Store, StoreState, StoreStatus, StoreTransaction, check_fresh
from domain.app_stores.ports import StoreGateways
from domain.app_stores.recording import Linked, NoticeTaken, link_purchase, reconcile_subscription, take_notice
from domain.app_stores.subscription import StoreSubscription
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.store import Storefront
from eventlog.database import ViewDatabase
from projections.app_stores import due_store_subscriptions

log = logging.getLogger(__name__)


def status_of_transaction(transaction: StoreTransaction, now: datetime) -> StoreStatus:
    """What a signed transaction says on its own: refunded when Apple revoked it, expired past its end, else active."""
    if transaction.revoked_at is not None:
        return StoreStatus(StoreState.REFUNDED, transaction, False, reason=transaction.revocation_reason or "")
    if transaction.expires_at is not None and transaction.expires_at <= now:
        return StoreStatus(StoreState.EXPIRED, transaction, False, reason="expired")
    return StoreStatus(StoreState.ACTIVE, transaction, transaction.renewing)


def link_app_store_purchase(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    stores: StoreGateways,
    *,
    account_id: UUID,
    signed_transaction: str,
    linked_by: str = "app",
) -> Linked:
    """The app (or the web) sends the signed transaction of a purchase: verified to Apple's root, then linked to the
    caller's licence (-350 when it does not verify)."""
    transaction = stores.app_store.verify_transaction(signed_transaction)
    status = status_of_transaction(transaction, clock.now())
    return link_purchase(
        store, clock, catalogue, stores.rules, account_id=account_id, status=status, linked_by=linked_by
    )


def link_google_play_purchase(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    stores: StoreGateways,
    *,
    account_id: UUID,
    product_id: str,
    purchase_token: str,
    linked_by: str = "app",
) -> Linked:
    """The app sends a purchase's token: looked up with Google Play (a token Google does not know is -350), then
    linked to the caller's licence."""
    stores.rules.licence_id_of(Store.GOOGLE_PLAY, product_id)  # -302 before asking Google about a product not ours
    status = stores.google_play.lookup(product_id, purchase_token)
    return link_purchase(
        store, clock, catalogue, stores.rules, account_id=account_id, status=status, linked_by=linked_by
    )


def take_app_store_notification(
    store: Storefront, clock: Clock, catalogue: Catalogue, stores: StoreGateways, signed_payload: str
) -> NoticeTaken:
    """An App Store Server Notification v2: verified to Apple's root and within its signing window, else refused
    (-350, logged, nothing applied); then taken once."""
    notice = stores.app_store.verify_notification(signed_payload)
    try:
        check_fresh(notice.signed_at, clock.now(), stores.notification_window)
    except DomainError:
        log.warning("refused App Store notification %s signed at %s", notice.notification_id, notice.signed_at)
        raise
    return take_notice(store, clock, catalogue, stores.rules, notice)


@dataclass(frozen=True)
class PushedNotice:
    """What a Google Play push did."""

    taken: NoticeTaken
    kind: NoticeKind


def take_google_play_notification(
    store: Storefront,
    clock: Clock,
    catalogue: Catalogue,
    stores: StoreGateways,
    *,
    authorization: str | None,
    body: bytes,
) -> PushedNotice:
    """A Pub/Sub push of a Real-time Developer Notification: its OIDC token verified (-350 otherwise, logged,
    nothing applied), the purchase looked up with Google Play (what Google says now is what is recorded), then taken
    once per message id."""
    google = stores.google_play
    try:
        google.verify_push(authorization, clock.now())
    except DomainError as refused:  # who sent it is not proven: 401, as Pub/Sub expects
        raise DomainError(ErrorCode.UNAUTHORIZED, str(refused)) from None
    notice = google.read_notice(body)
    if notice.kind is not NoticeKind.OTHER and notice.purchase_token:
        status = google.lookup(notice.product_id or _product_of(store, notice.purchase_token), notice.purchase_token)
        if notice.kind is NoticeKind.REFUNDED:
            voided = notice.subtype.removeprefix("voided/") or status.latest.transaction_id
            status = replace(
                status,
                state=StoreState.REFUNDED,
                latest=replace(status.latest, transaction_id=voided),
                reason="voided purchase",
            )
        elif notice.kind is NoticeKind.REVOKED:
            status = replace(status, state=StoreState.REVOKED, reason="revoked")
        notice = replace(notice, status=status)
    return PushedNotice(take_notice(store, clock, catalogue, stores.rules, notice), notice.kind)


def _product_of(store: Storefront, purchase_token: str) -> str:
    """The product of a purchase we hold (a voided purchase's notification does not name it)."""
    try:
        found: object = store.repository.get(StoreSubscription.id_for(Store.GOOGLE_PLAY, purchase_token))
    except AggregateNotFoundError:
        return ""
    return found.product_id if isinstance(found, StoreSubscription) else ""


@dataclass(frozen=True)
class Reconciled:
    """What one reconciliation pass did: subscriptions asked, those where the store said something our log lacked
    (a lost notification), and those whose store did not answer (asked again next pass)."""

    asked: int
    found: list[str]
    unanswered: list[str]


def reconcile_stores(
    store: Storefront, views: ViewDatabase, clock: Clock, catalogue: Catalogue, stores: StoreGateways
) -> Reconciled:
    """Ask each store about every subscription whose paid time ended over ``reconcile_after`` ago with nothing heard
    since, and record what the store says (beat's hourly ``app_stores.reconcile``)."""
    due = due_store_subscriptions(views, clock.now(), stores.reconcile_after)
    found: list[str] = []
    unanswered: list[str] = []
    for row in due:
        original = row["original_transaction_id"]
        try:
            if row["store"] == Store.APP_STORE.value:
                status = stores.app_store.status(original)
            else:
                status = stores.google_play.lookup(row["product_id"], row["purchase_token"] or "")
            if reconcile_subscription(store, clock, catalogue, stores.rules, UUID(row["subscription_id"]), status):
                log.warning("reconciliation found news of %s %s a notification never brought", row["store"], original)
                found.append(original)
        except DomainError as error:
            log.warning("reconciliation could not ask %s about %s: %s", row["store"], original, error.code.name)
            unanswered.append(original)
    return Reconciled(len(due), found, unanswered)

"""Refunds as the API, the workers and the operator's command line ask for them (docs/payments.md): the domain's
reserve-call-record path (``domain/payments/refunds.py``), each given the subscription a revoked licence ends, found
in the subscriptions view, so a refunded subscription stops renewing in the same transaction."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.clock import Clock
from domain.licences.licence import UserLicence
from domain.payments import money_back
from domain.payments.gateway import PaymentGateway
from domain.payments.money_back import MoneyBackAnswer
from domain.payments.payment import LicenceEffect
from domain.payments.refunds import RefundPreview, SubscriptionOf, refund_preview
from domain.staff import support
from domain.staff.support import StaffRefund
from domain.store import Storefront
from domain.subscriptions.subscription import Subscription
from eventlog.database import ViewDatabase
from projections.subscriptions import subscription_keeping


def subscriptions_in(store: Storefront, views: ViewDatabase) -> SubscriptionOf:
    """Finds the subscription that keeps a licence alive (through the subscriptions view), as the log has it."""

    def find(user_licence_id: UUID) -> Subscription | None:
        subscription_id = subscription_keeping(views, user_licence_id)
        if subscription_id is None:
            return None
        try:
            subscription: object = store.repository.get(subscription_id)
        except AggregateNotFoundError:
            return None
        return subscription if isinstance(subscription, Subscription) else None

    return find


def refund_by_staff(
    store: Storefront,
    views: ViewDatabase,
    clock: Clock,
    gateway: PaymentGateway,
    actor_id: UUID,
    *,
    merchant_uid: str,
    amount: int | None,
    reason: str,
    approval_limits: Mapping[str, int],
    licence_effect: LicenceEffect | None,
) -> StaffRefund:
    """A staff member refunds a payment (at once within the approval limit, else a request for a second member)."""
    return support.refund(
        store,
        clock,
        gateway,
        actor_id,
        merchant_uid=merchant_uid,
        amount=amount,
        reason=reason,
        approval_limits=approval_limits,
        licence_effect=licence_effect,
        subscription_of=subscriptions_in(store, views),
    )


def preview_refund(
    store: Storefront, clock: Clock, gateway: PaymentGateway, merchant_uid: str, amount: int | None
) -> RefundPreview:
    """What a refund would do before it is made (the amount, the licence's end kept, shortened or revoked, and what
    the gateway refunded that the log does not hold yet)."""
    return refund_preview(store, clock, gateway, merchant_uid, amount)


def approve_refund(
    store: Storefront,
    views: ViewDatabase,
    clock: Clock,
    gateway: PaymentGateway,
    approver_id: UUID,
    *,
    request_id: UUID,
    reason: str,
) -> StaffRefund:
    """A second member makes a waiting refund."""
    return support.approve_refund(
        store,
        clock,
        gateway,
        approver_id,
        request_id=request_id,
        reason=reason,
        subscription_of=subscriptions_in(store, views),
    )


def record_gateway_refund(
    store: Storefront,
    views: ViewDatabase,
    clock: Clock,
    gateway: PaymentGateway,
    actor_id: UUID,
    *,
    merchant_uid: str,
    reason: str,
) -> int:
    """A staff member records a refund made at the gateway (PortOne's console) that the log does not hold yet."""
    return support.record_gateway_refund(
        store,
        clock,
        gateway,
        actor_id,
        merchant_uid=merchant_uid,
        reason=reason,
        subscription_of=subscriptions_in(store, views),
    )


def ask_money_back(
    store: Storefront,
    views: ViewDatabase,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    account_id: UUID,
    merchant_uid: str,
    auto_limits: Mapping[str, int],
) -> MoneyBackAnswer:
    """A customer asks the 30-day money-back guarantee for the licence ``merchant_uid`` paid for."""
    return money_back.ask_money_back(
        store,
        clock,
        gateway,
        account_id=account_id,
        merchant_uid=merchant_uid,
        auto_limits=auto_limits,
        subscription_of=subscriptions_in(store, views),
    )


def money_back_offer(
    store: Storefront, clock: Clock, user_licence_id: UUID, auto_limits: Mapping[str, int]
) -> money_back.MoneyBackOffer | None:
    """The money-back guarantee the licence page offers for a licence now (None where the answer can only be no)."""
    try:
        licence: object = store.repository.get(user_licence_id)
    except AggregateNotFoundError:
        return None
    if not isinstance(licence, UserLicence):
        return None
    return money_back.offer(store, licence, clock.now(), auto_limits)

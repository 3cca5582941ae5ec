"""What support does for a customer, as staff actions: each checks the member's permission, needs a reason where
money or a licence changes, and is saved in one transaction with the ``StaffActed`` event that names the member.

Refunds up to the approval limit of their currency are made at once (after a recent step-up, which the API
checks); above it they wait as a ``RefundRequest`` for a second member who may approve refunds (maker-checker).
Granting paid licence time (goodwill, App Store records) is domain/staff/grants.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.payments.gateway import PaymentGateway
from domain.payments.payment import Payment
from domain.payments.purchase import refund_payment
from domain.payments.refund_requests import RefundRequest
from domain.staff.member import load_member
from domain.staff.permissions import Permission, check_reason
from domain.store import Storefront
from domain.subscriptions.commands import Witness, cancel_auto_renewal, resume_renewal
from domain.subscriptions.subscription import Subscription
from events.concurrency import retry_on_conflict


@dataclass(frozen=True)
class RefundOutcome:
    """A staff refund: made now (``refunded`` > 0), or waiting for approval (``request_id``)."""

    refunded: int
    request_id: UUID | None


def _licence(store: Storefront, user_licence_id: UUID) -> UserLicence:
    try:
        licence: object = store.repository.get(user_licence_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such licence") from None
    if not isinstance(licence, UserLicence):
        raise DomainError(ErrorCode.NOT_FOUND, "no such licence")
    return licence


def _payment(store: Storefront, merchant_uid: str) -> Payment:
    try:
        payment: object = store.repository.get(Payment.id_for(merchant_uid))
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid}") from None
    if not isinstance(payment, Payment):
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid}")
    return payment


def free_device(
    store: Storefront, clock: Clock, actor_id: UUID, *, user_licence_id: UUID, device_id: str, reason: str
) -> None:
    """Free a device's slot on a customer's licence."""

    def attempt() -> None:
        actor, licence = load_member(store, actor_id), _licence(store, user_licence_id)
        now = clock.now()
        licence.remove_device(device_id, now)
        actor.act(
            Permission.HELP_CUSTOMERS,
            "free-device",
            str(licence.id),
            reason,
            now,
            {"device_id": device_id, "account_id": str(licence.account_id)},
        )
        store.save(licence, actor)

    retry_on_conflict(attempt)


def _witness(store: Storefront, clock: Clock, actor_id: UUID, reason: str, extra: Sequence[Aggregate] = ()) -> Any:
    def recorded_with(payment: Payment, refunded: int) -> list[Aggregate]:
        actor = load_member(store, actor_id)
        details: dict[str, str | int | None] = {
            "amount": refunded,
            "currency": payment.currency.value,
            "account_id": str(payment.account_id) if payment.account_id else None,
        }
        actor.act(Permission.REFUND, "refund", payment.merchant_uid, reason, clock.now(), details)
        return [actor, *extra]

    return recorded_with


def refund(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    actor_id: UUID,
    *,
    merchant_uid: str,
    amount: int | None,
    reason: str,
    approval_limits: Mapping[str, int],
) -> RefundOutcome:
    """Give back all (None) or part of a customer's payment: at once up to the currency's approval limit,
    otherwise as a request a second member approves."""
    actor = load_member(store, actor_id)
    actor.check_may(Permission.REFUND)
    why = check_reason(Permission.REFUND, reason)
    payment = _payment(store, merchant_uid)
    wanted = payment.refundable if amount is None else amount
    if not 0 < wanted <= payment.refundable:
        raise DomainError(ErrorCode.INVALID_VALUE, f"refund must be within 1..{payment.refundable}")
    limit = approval_limits.get(payment.currency.value)
    if limit is not None and wanted <= limit:
        refunded = refund_payment(
            store,
            clock,
            gateway,
            merchant_uid=merchant_uid,
            amount=wanted,
            reason=why,
            recorded_with=_witness(store, clock, actor_id, why),
        )
        return RefundOutcome(refunded, None)

    def ask() -> UUID:
        member = load_member(store, actor_id)
        now = clock.now()
        request = RefundRequest.ask(
            merchant_uid=merchant_uid,
            account_id=payment.account_id,
            amount=wanted,
            currency=payment.currency.value,
            reason=why,
            requested_by=member.id,
            at=now,
        )
        member.act(
            Permission.REFUND,
            "request-refund",
            merchant_uid,
            why,
            now,
            {
                "amount": wanted,
                "currency": payment.currency.value,
                "request_id": str(request.id),
                "account_id": str(payment.account_id) if payment.account_id else None,
            },
        )
        store.save(request, member)
        return request.id

    return RefundOutcome(0, retry_on_conflict(ask))


def _request(store: Storefront, request_id: UUID) -> RefundRequest:
    try:
        request: object = store.repository.get(request_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such refund request") from None
    if not isinstance(request, RefundRequest):
        raise DomainError(ErrorCode.NOT_FOUND, "no such refund request")
    return request


def approve_refund(
    store: Storefront, clock: Clock, gateway: PaymentGateway, approver_id: UUID, *, request_id: UUID, reason: str
) -> int:
    """A second member makes a waiting refund (never the one who asked for it); returns the amount refunded.
    (The API asks for a recent step-up first.)"""
    approver = load_member(store, approver_id)
    request = _request(store, request_id)
    # A staff member's request needs a second member who may approve refunds (maker-checker); a customer's
    # money-back request in the support queue, anyone who may refund.
    needed = Permission.APPROVE_REFUNDS if request.requested_by is not None else Permission.REFUND
    approver.check_may(needed)
    why = check_reason(needed, reason)
    request.check_waiting()
    request.check_approver(approver_id)

    def recorded_with(payment: Payment, refunded: int) -> list[Aggregate]:
        current = _request(store, request_id)
        current.approve(approver_id, why, refunded, clock.now())
        return [*_witness(store, clock, approver_id, why)(payment, refunded), current]

    return refund_payment(
        store,
        clock,
        gateway,
        merchant_uid=request.merchant_uid,
        amount=request.amount,
        reason=why,
        recorded_with=recorded_with,
    )


def decline_refund(store: Storefront, clock: Clock, actor_id: UUID, *, request_id: UUID, reason: str) -> None:
    """A member who may approve refunds declines a waiting one; a money-back request, anyone who may refund
    (a reason is required)."""

    def attempt() -> None:
        actor, request = load_member(store, actor_id), _request(store, request_id)
        now = clock.now()
        needed = Permission.APPROVE_REFUNDS if request.requested_by is not None else Permission.REFUND
        actor.act(
            needed,
            "decline-refund",
            request.merchant_uid,
            reason,
            now,
            {"request_id": str(request_id)},
        )
        request.refuse(actor_id, reason.strip(), now)
        store.save(request, actor)

    retry_on_conflict(attempt)


RESEND_RECEIPT = "resend-receipt"
RESEND_CONFIRMATION = "resend-confirmation"
RESEND_LICENCE_KEY = "resend-licence-key"


def resend_receipt(store: Storefront, clock: Clock, actor_id: UUID, *, merchant_uid: str, reason: str) -> None:
    """Send a paid payment's receipt (with its licence key) again: the reactor mails it on this staff action."""

    def attempt() -> None:
        actor, payment = load_member(store, actor_id), _payment(store, merchant_uid)
        if payment.paid_at is None:
            raise DomainError(ErrorCode.INVALID_VALUE, "only a paid payment has a receipt")
        details: dict[str, str | int | None] = {
            "payment_id": str(payment.id),
            "account_id": str(payment.account_id) if payment.account_id else None,
        }
        actor.act(Permission.HELP_CUSTOMERS, RESEND_RECEIPT, merchant_uid, reason, clock.now(), details)
        store.save(actor)

    retry_on_conflict(attempt)


def resend_confirmation(store: Storefront, clock: Clock, actor_id: UUID, *, account_id: UUID, reason: str) -> None:
    """Send the account's address confirmation mail again (the reactor mails it on this staff action)."""

    def attempt() -> None:
        actor = load_member(store, actor_id)
        try:
            store.repository.get(account_id)
        except AggregateNotFoundError:
            raise DomainError(ErrorCode.NOT_FOUND, "no such customer") from None
        actor.act(
            Permission.HELP_CUSTOMERS,
            RESEND_CONFIRMATION,
            str(account_id),
            reason,
            clock.now(),
            {"account_id": str(account_id)},
        )
        store.save(actor)

    retry_on_conflict(attempt)


def resend_licence_key(store: Storefront, clock: Clock, actor_id: UUID, *, user_licence_id: UUID, reason: str) -> None:
    """Mail the licence's key to its holder again (the reactor mails it on this staff action)."""

    def attempt() -> None:
        actor, licence = load_member(store, actor_id), _licence(store, user_licence_id)
        details: dict[str, str | int | None] = {
            "user_licence_id": str(licence.id),
            "account_id": str(licence.account_id),
        }
        actor.act(Permission.HELP_CUSTOMERS, RESEND_LICENCE_KEY, str(licence.id), reason, clock.now(), details)
        store.save(actor)

    retry_on_conflict(attempt)


def _subscription_witness(store: Storefront, actor_id: UUID, action: str, reason: str) -> Witness:
    def recorded_with(subscription: Subscription, now: datetime) -> list[Aggregate]:
        actor = load_member(store, actor_id)
        details: dict[str, str | int | None] = {
            "user_licence_id": str(subscription.user_licence_id),
            "account_id": str(subscription.account_id),
        }
        actor.act(Permission.CHANGE_LICENCES, action, str(subscription.id), reason, now, details)
        return [actor]

    return recorded_with


def cancel_subscription(store: Storefront, clock: Clock, actor_id: UUID, *, subscription_id: UUID, reason: str) -> int:
    """Turn a customer's auto-renewal off on their behalf (the customer's own use case, with the member's record
    in the same transaction); returns the log position."""
    load_member(store, actor_id).check_may(Permission.CHANGE_LICENCES)
    why = check_reason(Permission.CHANGE_LICENCES, reason)
    return cancel_auto_renewal(
        store,
        clock,
        account_id=None,
        subscription_id=subscription_id,
        recorded_with=_subscription_witness(store, actor_id, "cancel-subscription", why),
    )


def resume_subscription(store: Storefront, clock: Clock, actor_id: UUID, *, subscription_id: UUID, reason: str) -> int:
    """Turn a cancelled subscription's renewals back on for the customer within its paid period (nothing is
    charged; past due or ended is the customer's to pay); returns the log position."""
    load_member(store, actor_id).check_may(Permission.CHANGE_LICENCES)
    why = check_reason(Permission.CHANGE_LICENCES, reason)
    return resume_renewal(
        store,
        clock,
        subscription_id=subscription_id,
        recorded_with=_subscription_witness(store, actor_id, "resume-subscription", why),
    )

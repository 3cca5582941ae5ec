"""What support does for a customer, as staff actions: each checks the member's permission, needs a reason where
money or a licence changes, and is saved in one transaction with the ``StaffActed`` event that names the member.

Refunds up to the approval limit of their currency are made at once (after a recent step-up, which the API
checks); above it they wait as a ``RefundRequest`` for a second member who may approve refunds (maker-checker).
Granting paid licence time (goodwill, App Store records) is domain/staff/grants.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import UserLicence
from domain.payments import refunds
from domain.payments.gateway import PaymentGateway
from domain.payments.money_back import approve_queued
from domain.payments.payment import LicenceEffect, Payment, PendingRefund, RefundKind
from domain.payments.refund_requests import MONEY_BACK, RefundRequest
from domain.payments.refunds import RefundAsked, SubscriptionOf, Witnesses, check_refundable, refund_preview
from domain.staff.actions import StaffAction
from domain.staff.member import load_member
from domain.staff.permissions import Permission, check_reason
from domain.store import Storefront
from domain.subscriptions.commands import Witness, cancel_auto_renewal, resume_renewal
from domain.subscriptions.subscription import Subscription
from events.concurrency import retry_on_conflict


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
            StaffAction.FREE_DEVICE,
            str(licence.id),
            reason,
            now,
            {"device_id": device_id, "account_id": str(licence.account_id)},
        )
        store.save(licence, actor)

    retry_on_conflict(attempt)


@dataclass(frozen=True)
class StaffRefund:
    """A staff refund: made now (``refunded`` > 0), pending at the gateway (``pending``), or waiting for a second
    member's approval (``request_id``)."""

    refunded: int
    pending: bool
    request_id: UUID | None
    notification_id: int
    licence_effect: LicenceEffect | None = None


def _acted(
    store: Storefront, actor_id: UUID, action: str, reason: str, extra: dict[str, str | int | None]
) -> Witnesses:
    """The member's record of a refund they decided, saved with its reservation."""

    def witnesses(payment: Payment, pending: PendingRefund) -> list[Aggregate]:
        actor = load_member(store, actor_id)
        details: dict[str, str | int | None] = {
            "amount": pending.amount,
            "currency": payment.currency.value,
            "account_id": str(payment.account_id or payment.opened_account_id or "") or None,
            "licence_effect": pending.licence_effect.value,
            "reservation_id": pending.reservation_id,
            **extra,
        }
        actor.act(Permission.REFUND, action, payment.merchant_uid, reason, pending.reserved_at, details)
        return [actor]

    return witnesses


def refunded_in_total(payment: Payment, wanted: int) -> int:
    """What a payment will have been refunded in all once ``wanted`` more goes back (what approval limits weigh)."""
    return payment.cancel_amount + wanted


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
    licence_effect: LicenceEffect | None = None,
    subscription_of: SubscriptionOf | None = None,
) -> StaffRefund:
    """Give back all (None) or part of a customer's payment: at once while what the payment has been refunded in
    total stays within the currency's approval limit, otherwise as a request a second member approves. A partial
    refund of what pays for the licence now keeps it or shortens it, as ``licence_effect`` says (-1 when not said);
    a refund of all of it revokes it."""
    actor = load_member(store, actor_id)
    actor.check_may(Permission.REFUND)
    why = check_reason(Permission.REFUND, reason)
    _payment(store, merchant_uid)
    # What the gateway gave back outside the store is recorded first: the limit and the amount weigh what is left.
    refunds.record_refunds_made_elsewhere(store, clock, gateway, merchant_uid, subscription_of)
    payment = _payment(store, merchant_uid)
    wanted = check_refundable(payment, amount)
    preview = refund_preview(store, clock, gateway, merchant_uid, wanted)
    if not preview.revokes and preview.shortened_to is not None and licence_effect is None:
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "say whether the licence is kept or shortened")
    limit = approval_limits.get(payment.currency.value)
    if limit is not None and refunded_in_total(payment, wanted) <= limit:
        asked = RefundAsked(merchant_uid, wanted, why, RefundKind.STAFF, actor_id, None, licence_effect)
        made = refunds.refund(
            store,
            clock,
            gateway,
            asked,
            witnesses=_acted(store, actor_id, StaffAction.REFUND, why, {}),
            subscription_of=subscription_of,
        )
        return StaffRefund(made.refunded, made.pending, None, made.notification_id, made.licence_effect)

    def ask() -> tuple[UUID, int]:
        member = load_member(store, actor_id)
        now = clock.now()
        request = RefundRequest.ask(
            merchant_uid=merchant_uid,
            account_id=payment.account_id or payment.opened_account_id,
            amount=wanted,
            currency=payment.currency.value,
            reason=why,
            requested_by=member.id,
            at=now,
            licence_effect=licence_effect,
        )
        member.act(
            Permission.REFUND,
            StaffAction.REQUEST_REFUND,
            merchant_uid,
            why,
            now,
            {
                "amount": wanted,
                "currency": payment.currency.value,
                "request_id": str(request.id),
                "account_id": str(payment.account_id or payment.opened_account_id or "") or None,
            },
        )
        position = store.save(request, member)[-1].notification.id
        return request.id, position

    request_id, position = retry_on_conflict(ask)
    return StaffRefund(0, False, request_id, position)


def _request(store: Storefront, request_id: UUID) -> RefundRequest:
    try:
        request: object = store.repository.get(request_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, "no such refund request") from None
    if not isinstance(request, RefundRequest):
        raise DomainError(ErrorCode.NOT_FOUND, "no such refund request")
    return request


def approval_permission(request: RefundRequest) -> Permission:
    """Who decides a waiting refund: a member who may approve refunds (finance, owners), never the one who asked:
    a staff member's request above the approval limit (maker-checker), and a customer's money-back request above
    the auto-approve limit alike."""
    return Permission.APPROVE_REFUNDS


def approve_refund(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    approver_id: UUID,
    *,
    request_id: UUID,
    reason: str,
    subscription_of: SubscriptionOf | None = None,
) -> StaffRefund:
    """A second member makes a waiting refund (never the one who asked for it). The request is accepted with the
    refund's reservation, in one transaction, so two approvals cannot both refund. (The API asks for a recent
    step-up first.)"""
    approver = load_member(store, approver_id)
    request = _request(store, request_id)
    needed = approval_permission(request)
    approver.check_may(needed)
    why = check_reason(needed, reason)
    request.check_waiting()
    request.check_approver(approver_id)

    def witnesses(payment: Payment, pending: PendingRefund) -> list[Aggregate]:
        current = _request(store, request_id)
        current.accept(approver_id, why, pending.amount, pending.reserved_at)
        acted = _acted(store, approver_id, StaffAction.REFUND, why, {"request_id": str(request_id)})(payment, pending)
        return [current, *acted]

    if request.source == MONEY_BACK:
        # A customer's money-back request gives the licence back as bought: every payment it was bought with.
        def accepted(reserved: list[tuple[Payment, PendingRefund]]) -> list[Aggregate]:
            current = _request(store, request_id)
            current.accept(approver_id, why, sum(pending.amount for _, pending in reserved), clock.now())
            payment, pending = reserved[0]
            return [
                current,
                *_acted(store, approver_id, StaffAction.REFUND, why, {"request_id": str(request_id)})(payment, pending),
            ]

        outcomes = approve_queued(
            store, clock, gateway, request, actor_id=approver_id, reason=why, witnesses=accepted,
            subscription_of=subscription_of,
        )  # fmt: skip
        return StaffRefund(
            sum(each.refunded for each in outcomes),
            any(each.pending for each in outcomes),
            request_id,
            max(each.notification_id for each in outcomes),
            LicenceEffect.REVOKE,
        )
    effect = LicenceEffect(request.licence_effect) if request.licence_effect else None
    # A refund made at the gateway since the request was made leaves less to give back: the rest, at most.
    refunds.record_refunds_made_elsewhere(store, clock, gateway, request.merchant_uid, subscription_of)
    left = _payment(store, request.merchant_uid).refundable
    amount = min(request.amount, left) if left > 0 else request.amount
    asked = RefundAsked(request.merchant_uid, amount, why, RefundKind.APPROVAL, approver_id, request_id, effect)
    made = refunds.refund(store, clock, gateway, asked, witnesses=witnesses, subscription_of=subscription_of)
    return StaffRefund(made.refunded, made.pending, request_id, made.notification_id, made.licence_effect)


def record_gateway_refund(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    actor_id: UUID,
    *,
    merchant_uid: str,
    reason: str,
    subscription_of: SubscriptionOf | None = None,
) -> int:
    """Record a refund made at the gateway that the log does not hold yet (PortOne's console, say): the payment is
    read back and what it gave back is recorded as the gateway's, with the member's record; returns the amount."""
    load_member(store, actor_id).check_may(Permission.REFUND)
    why = check_reason(Permission.REFUND, reason)
    recorded = refunds.record_refunds_made_elsewhere(store, clock, gateway, merchant_uid, subscription_of)
    if recorded:

        def note() -> None:
            member = load_member(store, actor_id)
            payment = _payment(store, merchant_uid)
            details: dict[str, str | int | None] = {
                "amount": recorded,
                "currency": payment.currency.value,
                "account_id": str(payment.account_id or payment.opened_account_id or "") or None,
            }
            member.act(Permission.REFUND, StaffAction.RECORD_GATEWAY_REFUND, merchant_uid, why, clock.now(), details)
            store.save(member)

        retry_on_conflict(note)
    return recorded


def decline_refund(store: Storefront, clock: Clock, actor_id: UUID, *, request_id: UUID, reason: str) -> None:
    """A member who may approve refunds declines a waiting one; a money-back request, anyone who may refund
    (a reason is required)."""

    def attempt() -> None:
        actor, request = load_member(store, actor_id), _request(store, request_id)
        now = clock.now()
        needed = approval_permission(request)
        actor.act(
            needed,
            StaffAction.DECLINE_REFUND,
            request.merchant_uid,
            reason,
            now,
            {"request_id": str(request_id)},
        )
        request.refuse(actor_id, reason.strip(), now)
        store.save(request, actor)

    retry_on_conflict(attempt)


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
        actor.act(Permission.HELP_CUSTOMERS, StaffAction.RESEND_RECEIPT, merchant_uid, reason, clock.now(), details)
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
            StaffAction.RESEND_CONFIRMATION,
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
        actor.act(
            Permission.HELP_CUSTOMERS, StaffAction.RESEND_LICENCE_KEY, str(licence.id), reason, clock.now(), details
        )
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
        recorded_with=_subscription_witness(store, actor_id, StaffAction.CANCEL_SUBSCRIPTION, why),
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
        recorded_with=_subscription_witness(store, actor_id, StaffAction.RESUME_SUBSCRIPTION, why),
    )

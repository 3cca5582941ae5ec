"""Giving a paid payment's money back: reserve, call the gateway, record what it did (docs/payments.md).

Every refund, whoever decides it (the customer's money-back, a staff member, an approval, an operator, a renewal
charged while it stopped being wanted), takes the same three steps:

1. **Reserve.** The amount is set aside on the payment (``payment.RefundReserved``) under the version check that
   also guards spending the payment's value on an upgrade: whichever is saved second sees the first and gives way
   (an upgrade confirm finds the credit gone and gives its own charge back; a refund finds the credit spent and
   reserves only what is left). Before reserving, the payment is read back at the gateway, and a refund made there
   (PortOne's console, another system) is recorded first, as the gateway's (``source`` ``gateway``).
2. **Call.** The gateway is asked to cancel the reserved amount, with the balance we know as its checksum, so a
   repeated call can never give back twice.
3. **Record.** Whatever the gateway answered is recorded: the refund made (``payment.Refunded``), more than we asked
   (the rest is recorded as made outside the store), a refusal (``payment.RefundReleased``, answered -331), or no
   answer at all: the refund stays pending (-332) and the pass that settles pending payments
   (``settle_pending_refund``) reads the gateway again and records what it finds, or asks again.

What a refund does to the licence is decided with the reservation (``LicenceEffect``) and applied when the money
has gone back: a refund of everything that pays for the licence now revokes it (and ends its subscription); a
partial one keeps it or shortens it to what is left paid for, as the staff member chose.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.gateway import CancelRefusedError, GatewayPayment, PaymentGateway
from domain.payments.payment import LicenceEffect, Payment, PaymentState, PendingRefund, RefundKind
from domain.payments.records import recorded_payment
from domain.payments.refund_requests import RefundRequest, RefundState
from domain.store import Storefront
from domain.subscriptions.subscription import Subscription
from events.concurrency import ConflictPersistedError, retry_on_conflict

log = logging.getLogger(__name__)

# Why a refund found at the gateway is recorded (it was made there, not by this store).
MADE_AT_THE_GATEWAY = "refunded at the payment gateway"
# How long a pending refund is left to its own caller before the settling pass reads the gateway for it (longer than
# any gateway call may take: PORTONE_TIMEOUT_SECONDS).
SETTLE_AFTER = timedelta(minutes=1)

# The subscription a licence belongs to, if any (read from the subscriptions view by the application layer), so a
# refund that revokes a subscription licence ends its renewals in the same transaction.
SubscriptionOf = Callable[[UUID], Subscription | None]
# The aggregates saved with a reservation (the staff member's record of the decision, a money-back request).
Witnesses = Callable[[Payment, PendingRefund], Sequence[Aggregate]]


@dataclass(frozen=True)
class RefundAsked:
    """A refund someone decided: of ``merchant_uid``, ``amount`` (None: all that can go back)."""

    merchant_uid: str
    amount: int | None
    reason: str
    kind: RefundKind
    actor_id: UUID | None = None
    request_id: UUID | None = None
    licence_effect: LicenceEffect | None = None  # None: revoke when it takes back everything, else keep
    spent_credit_too: bool = False  # the licence goes back as bought: credit its upgrades spent comes back too


@dataclass(frozen=True)
class RefundOutcome:
    """What a refund did: ``refunded`` by this store now, ``outside`` found made at the gateway, ``pending`` when
    the gateway's answer is not known yet (the settling pass records it), ``licence_effect`` what it did to the
    licence, and the log position to wait for."""

    merchant_uid: str
    refunded: int
    outside: int
    pending: bool
    licence_effect: LicenceEffect | None
    notification_id: int


def load_payment(store: Storefront, merchant_uid: str) -> Payment:
    """The payment recorded under ``merchant_uid`` (404 when none)."""
    payment = recorded_payment(store, merchant_uid)
    if payment is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no payment {merchant_uid}")
    return payment


def check_refundable(payment: Payment, amount: int | None, *, spent_credit_too: bool = False) -> int:
    """The amount a refund of ``payment`` would give back (``amount``, or all when None; with ``spent_credit_too``
    the credit its upgrades spent counts too); -330 while another refund is in progress, -2 when it is not within
    what can go back."""
    if payment.state is not PaymentState.PAID or payment.imp_uid is None or payment.store:
        raise DomainError(ErrorCode.INVALID_VALUE, f"cannot refund a {payment.state.value} payment")
    if payment.pending_refund is not None:
        raise DomainError(ErrorCode.REFUND_IN_PROGRESS, "a refund of this payment is in progress")
    most = payment.returnable if spent_credit_too else payment.refundable
    wanted = most if amount is None else amount
    if not 0 < wanted <= most:
        raise DomainError(ErrorCode.INVALID_VALUE, f"refund must be within 1..{most}")
    return wanted


def refund(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    asked: RefundAsked,
    *,
    witnesses: Witnesses | None = None,
    subscription_of: SubscriptionOf | None = None,
) -> RefundOutcome:
    """Give back ``asked``: record refunds made at the gateway first, reserve, call, record (see the module).

    ``witnesses`` are saved with the reservation (who decided it); -331 when the gateway refuses (nothing is
    refunded; the reservation is released), a pending outcome when its answer is lost."""
    outside = record_refunds_made_elsewhere(store, clock, gateway, asked.merchant_uid, subscription_of)
    pending = reserve(store, clock, asked, witnesses)
    outcome = call_and_record(store, clock, gateway, asked.merchant_uid, pending, subscription_of)
    return RefundOutcome(
        outcome.merchant_uid,
        outcome.refunded,
        outcome.outside + outside,
        outcome.pending,
        outcome.licence_effect,
        outcome.notification_id,
    )


def reserve(store: Storefront, clock: Clock, asked: RefundAsked, witnesses: Witnesses | None = None) -> PendingRefund:
    """Set the refund's amount aside on the payment, with ``witnesses`` in the same transaction."""
    ((_, pending),) = reserve_together(
        store, clock, [asked], lambda reserved: witnesses(*reserved[0]) if witnesses else []
    )
    return pending


# The aggregates saved with refunds reserved together: given each payment and its reservation.
JointWitnesses = Callable[[list[tuple[Payment, PendingRefund]]], Sequence[Aggregate]]


def reserve_together(
    store: Storefront,
    clock: Clock,
    asked: Sequence[RefundAsked] | Callable[[], Sequence[RefundAsked]],
    witnesses: JointWitnesses | None = None,
) -> list[tuple[RefundAsked, PendingRefund]]:
    """Set aside several refunds (of different payments) in one transaction, with ``witnesses``: all of them, or
    none (a licence's payments given back together). ``asked`` may be a function, read again in each attempt: what
    a licence was bought with may change under a racing upgrade, whose save then conflicts with this one."""

    def attempt() -> list[tuple[RefundAsked, PendingRefund]]:
        reserved: list[tuple[Payment, PendingRefund]] = []
        now = clock.now()
        wanted_now = list(asked() if callable(asked) else asked)
        if not wanted_now:
            raise DomainError(ErrorCode.MONEY_BACK_NOTHING_LEFT, "nothing is left to refund")
        for each in wanted_now:
            payment = load_payment(store, each.merchant_uid)
            wanted = check_refundable(payment, each.amount, spent_credit_too=each.spent_credit_too)
            effect, shorten_to = _licence_effect(store, payment, wanted, each.licence_effect, now)
            pending = payment.reserve_refund(
                wanted,
                reason=each.reason,
                kind=each.kind,
                at=now,
                actor_id=each.actor_id,
                request_id=each.request_id,
                licence_effect=effect,
                shorten_to=shorten_to,
                spent_credit_too=each.spent_credit_too,
            )
            reserved.append((payment, pending))
        if callable(asked) and [each.merchant_uid for each in asked()] != [each.merchant_uid for each in wanted_now]:
            # What to give back changed while the payments were read (an upgrade settled): read everything again.
            raise IntegrityError("the refunds to reserve changed while they were read")
        extra = witnesses(reserved) if witnesses is not None else ()
        store.save(*(payment for payment, _ in reserved), *extra)
        return [(each, pending) for each, (_, pending) in zip(wanted_now, reserved, strict=True)]

    try:
        return retry_on_conflict(attempt)
    except ConflictPersistedError:
        # Others kept changing these payments (racing refunds, an upgrade spending the credit): nothing was reserved.
        raise DomainError(ErrorCode.REFUND_IN_PROGRESS, "the payment kept changing; nothing was refunded") from None


def _licence_effect(
    store: Storefront, payment: Payment, wanted: int, chosen: LicenceEffect | None, now: datetime
) -> tuple[LicenceEffect, datetime | None]:
    """What the refund will do to the licence: taking back everything that pays for the licence now revokes it
    (whatever was chosen); otherwise the choice (keep when none), shortening to what is left paid for."""
    if chosen is LicenceEffect.REVOKE:
        return LicenceEffect.REVOKE, None
    licence = _licence_of(store, payment)
    pays_for_it_now = licence is not None and licence.period_merchant_uid == payment.merchant_uid
    if pays_for_it_now and wanted == payment.refundable and payment.credit_spent == 0:
        return LicenceEffect.REVOKE, None
    if chosen is LicenceEffect.SHORTEN and licence is not None and pays_for_it_now:
        return LicenceEffect.SHORTEN, licence.shortened_expiry(payment.amount, payment.cancel_amount + wanted, now)
    if chosen is LicenceEffect.SHORTEN:
        raise DomainError(ErrorCode.INVALID_VALUE, "this payment does not pay for the licence's current period")
    return LicenceEffect.KEEP, None


def refund_preview(
    store: Storefront, clock: Clock, gateway: PaymentGateway, merchant_uid: str, amount: int | None
) -> RefundPreview:
    """What a refund of ``amount`` (None: all) would do, before it is made: the amount, whether it revokes the
    licence, and where a shortened licence would end (for staff to see before they confirm). The payment is read
    back at the gateway: a refund made there and not in the log yet (``unrecorded``) is counted as the refund will
    record it first. Nothing is saved."""
    payment = load_payment(store, merchant_uid)
    now = clock.now()
    unrecorded = 0
    if payment.state is PaymentState.PAID and payment.imp_uid and payment.pending_refund is None:
        reported = gateway.get_payment(payment.imp_uid)
        unrecorded = max(reported.cancel_amount - payment.cancel_amount, 0)
        if unrecorded:  # on the copy in hand only: the refund itself records it
            payment.record_gateway_refunds(reported.cancel_amount, MADE_AT_THE_GATEWAY, now)
    wanted = check_refundable(payment, amount)
    effect, _ = _licence_effect(store, payment, wanted, None, now)
    licence = _licence_of(store, payment)
    shortened = None
    if effect is LicenceEffect.KEEP and licence is not None and licence.period_merchant_uid == payment.merchant_uid:
        shortened = licence.shortened_expiry(payment.amount, payment.cancel_amount + wanted, now)
    return RefundPreview(
        merchant_uid,
        wanted,
        payment.refundable,
        payment.currency.value,
        revokes=effect is LicenceEffect.REVOKE,
        expires_at=licence.expires_at if licence is not None else None,
        shortened_to=shortened,
        unrecorded=unrecorded,
    )


@dataclass(frozen=True)
class RefundPreview:
    """A refund before it is made: ``amount`` of ``refundable``; ``revokes`` when it stops the licence;
    ``expires_at`` where the licence ends now and ``shortened_to`` where it would end if shortened (None: a
    shortening would not move it, or the payment does not pay for its current period)."""

    merchant_uid: str
    amount: int
    refundable: int
    currency: str
    revokes: bool
    expires_at: datetime | None
    shortened_to: datetime | None
    unrecorded: int = 0  # refunded at the gateway and not in the log yet (the refund records it first)


def _licence_of(store: Storefront, payment: Payment) -> UserLicence | None:
    try:
        licence: object = store.repository.get(payment.licence_id_paid_for)
    except AggregateNotFoundError:
        return None
    return licence if isinstance(licence, UserLicence) else None


def call_and_record(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    merchant_uid: str,
    pending: PendingRefund,
    subscription_of: SubscriptionOf | None = None,
) -> RefundOutcome:
    """Ask the gateway for a reserved refund and record its answer (see the module)."""
    payment = load_payment(store, merchant_uid)
    assert payment.imp_uid is not None
    try:
        reported = gateway.cancel(payment.imp_uid, pending.amount, payment.gateway_balance, pending.reason)
    except CancelRefusedError as refused:
        log.warning("the gateway refused refund %s of %s: %s", pending.reservation_id, merchant_uid, refused)
        read_back = gateway.get_payment(payment.imp_uid)
        outcome = settle(
            store, clock, merchant_uid, pending.reservation_id, read_back, subscription_of, release=str(refused)
        )
        if outcome.refunded:  # it had made the refund after all (an earlier call's, whose answer was lost)
            return outcome
        raise DomainError(ErrorCode.REFUND_REFUSED_BY_GATEWAY, str(refused)) from None
    except Exception:
        # No answer, or one we could not read: the gateway may have made the refund. It stays reserved until the
        # settling pass reads the payment back.
        log.exception("refund %s of %s: no answer from the gateway; left pending", pending.reservation_id, merchant_uid)
        return RefundOutcome(merchant_uid, 0, 0, True, None, store.max_notification_id())
    return settle(store, clock, merchant_uid, pending.reservation_id, reported, subscription_of)


def settle(
    store: Storefront,
    clock: Clock,
    merchant_uid: str,
    reservation_id: str,
    reported: GatewayPayment,
    subscription_of: SubscriptionOf | None = None,
    *,
    release: str | None = None,
) -> RefundOutcome:
    """Record what the gateway says it has given back of the payment, closing reservation ``reservation_id``: the
    refund made (with its effect on the licence and the request it settles), anything more as made outside the
    store; when it made none of the reservation, the reservation is released if ``release`` says why, else left
    pending. A reservation closed already (a racing caller, the settling pass) is answered as recorded."""

    def attempt() -> RefundOutcome:
        payment = load_payment(store, merchant_uid)
        pending = payment.pending_refund
        if pending is None or pending.reservation_id != reservation_id:
            return RefundOutcome(merchant_uid, 0, 0, False, None, store.max_notification_id())
        now = clock.now()
        recorded = payment.record_gateway_refunds(reported.cancel_amount, MADE_AT_THE_GATEWAY, now)
        changed: list[Aggregate] = [payment]
        if recorded.ours is None:
            if release is not None:
                payment.release_refund(release, now)
                _reopen_request(store, pending, release, now, changed)
            elif not recorded.outside:
                return RefundOutcome(merchant_uid, 0, 0, True, None, store.max_notification_id())
            changed += _outside_effect(store, payment, recorded.outside, now, subscription_of)
            position = store.save(*changed)[-1].notification.id
            still_pending = payment.pending_refund is not None
            return RefundOutcome(merchant_uid, 0, recorded.outside, still_pending, None, position)
        changed += _apply_effect(store, payment, pending, now, subscription_of)
        _approve_request(store, pending, recorded.ours, now, changed)
        position = store.save(*changed)[-1].notification.id
        return RefundOutcome(merchant_uid, recorded.ours, recorded.outside, False, pending.licence_effect, position)

    try:
        return retry_on_conflict(attempt)
    except ConflictPersistedError:
        log.warning(
            "refund %s of %s: recording kept conflicting; left to the settling pass", reservation_id, merchant_uid
        )
        return RefundOutcome(merchant_uid, 0, 0, True, None, store.max_notification_id())


def _apply_effect(
    store: Storefront,
    payment: Payment,
    pending: PendingRefund,
    now: datetime,
    subscription_of: SubscriptionOf | None,
) -> list[Aggregate]:
    """What a made refund does to the licence, as decided with its reservation."""
    licence = _licence_of(store, payment)
    if licence is None or licence.state is not LicenceState.ACTIVE:
        return []
    if pending.licence_effect is LicenceEffect.REVOKE:
        return _revoked(licence, pending.reason, now, subscription_of)
    if pending.licence_effect is LicenceEffect.SHORTEN and pending.shorten_to is not None:
        return [licence] if licence.shorten_to(pending.shorten_to, pending.reason, now) else []
    return []


def _outside_effect(
    store: Storefront, payment: Payment, outside: int, now: datetime, subscription_of: SubscriptionOf | None
) -> list[Aggregate]:
    """A refund made at the gateway that took back everything paying for the licence now revokes it; a part of it
    leaves the licence as it is (staff may shorten it)."""
    if outside <= 0 or not payment.fully_refunded or payment.credit_spent:
        return []
    licence = _licence_of(store, payment)
    if licence is None or licence.state is not LicenceState.ACTIVE:
        return []
    if licence.period_merchant_uid != payment.merchant_uid:
        return []
    return _revoked(licence, MADE_AT_THE_GATEWAY, now, subscription_of)


def _revoked(
    licence: UserLicence, reason: str, now: datetime, subscription_of: SubscriptionOf | None
) -> list[Aggregate]:
    """The licence revoked, with its subscription ended in the same transaction (no renewal, no next payment)."""
    licence.revoke(reason, now)
    subscription = subscription_of(licence.id) if subscription_of is not None else None
    if subscription is not None and subscription.end_with_licence(now):
        return [licence, subscription]
    return [licence]


def _request(store: Storefront, pending: PendingRefund) -> RefundRequest | None:
    if pending.request_id is None:
        return None
    try:
        request: object = store.repository.get(pending.request_id)
    except AggregateNotFoundError:
        return None
    return request if isinstance(request, RefundRequest) else None


def _approve_request(
    store: Storefront, pending: PendingRefund, refunded: int, now: datetime, changed: list[Aggregate]
) -> None:
    request = _request(store, pending)
    if request is not None and request.state in (RefundState.ACCEPTED, RefundState.REFUNDED):
        request.settle(refunded, now)
        changed.append(request)


def _reopen_request(
    store: Storefront, pending: PendingRefund, why: str, now: datetime, changed: list[Aggregate]
) -> None:
    request = _request(store, pending)
    if request is not None and request.state is RefundState.ACCEPTED:
        request.reopen(f"the gateway refused the refund: {why}", now)
        changed.append(request)


def record_refunds_made_elsewhere(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    merchant_uid: str,
    subscription_of: SubscriptionOf | None = None,
) -> int:
    """Read a paid payment back at the gateway and record what it gave back that the log does not hold yet (a
    refund made in PortOne's console, say); returns the amount recorded. -330 while a refund of ours is pending
    (the settling pass records it)."""
    payment = load_payment(store, merchant_uid)
    if payment.state is not PaymentState.PAID or payment.imp_uid is None or payment.store:
        raise DomainError(ErrorCode.INVALID_VALUE, f"cannot refund a {payment.state.value} payment")
    if payment.pending_refund is not None:
        raise DomainError(ErrorCode.REFUND_IN_PROGRESS, "a refund of this payment is in progress")
    reported = gateway.get_payment(payment.imp_uid)
    if reported.cancel_amount <= payment.cancel_amount:
        return 0

    def attempt() -> int:
        current = load_payment(store, merchant_uid)
        if current.pending_refund is not None:
            raise DomainError(ErrorCode.REFUND_IN_PROGRESS, "a refund of this payment is in progress")
        now = clock.now()
        recorded = current.record_gateway_refunds(reported.cancel_amount, MADE_AT_THE_GATEWAY, now)
        if not recorded.outside:
            return 0
        store.save(current, *_outside_effect(store, current, recorded.outside, now, subscription_of))
        return recorded.outside

    return retry_on_conflict(attempt)


def settle_pending_refund(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    merchant_uid: str,
    subscription_of: SubscriptionOf | None = None,
) -> RefundOutcome | None:
    """The settling pass for one payment whose refund is pending (its caller got no answer, or died): read the
    payment back at the gateway; what it gave back is recorded; when it gave back nothing, the refund is asked for
    again (the checksum makes a second refund of the same money impossible). None when nothing was pending, or it
    is too fresh to settle (its own caller may still be waiting for the gateway)."""
    payment = load_payment(store, merchant_uid)
    pending = payment.pending_refund
    if pending is None or payment.imp_uid is None or clock.now() - pending.reserved_at < SETTLE_AFTER:
        return None
    reported = gateway.get_payment(payment.imp_uid)
    if reported.cancel_amount > payment.cancel_amount:
        return settle(store, clock, merchant_uid, pending.reservation_id, reported, subscription_of)
    log.info("refund %s of %s was not made at the gateway; asking again", pending.reservation_id, merchant_uid)
    return call_and_record(store, clock, gateway, merchant_uid, pending, subscription_of)

"""Use cases of buying a licence: order, confirm (also from webhooks), lapse unpaid virtual accounts (refunds:
``domain/payments/refunds.py``).

The gateway is the only source of truth about money: confirm always re-reads the
payment by imp_uid and compares it with the order. Each command is idempotent by
merchantUid; racing confirms (the browser and the webhook, or a double click)
conflict on the payment's version and the losers see the winner's outcome.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.accounts.account import Account, normalise_email
from domain.accounts.guests import guest_buyer
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.coupons import redemption as coupons
from domain.errors import DomainError, ErrorCode
from domain.licences.granting import new_licence
from domain.licences.licence import LicenceTerms, UserLicence
from domain.papers.cash_receipts import check_cash_receipt_choice, papers_with_cash_receipt
from domain.papers.numbers import CashReceiptChoice
from domain.payments.gateway import (
    GatewayPayment,
    GatewayStatus,
    PaymentGateway,
    PaymentNotFoundAtGatewayError,
)
from domain.payments.give_back import call_off, give_back_called_off, give_back_unrecorded
from domain.payments.methods import NO_GATEWAY, NONE, gateway_choice
from domain.payments.payment import Payment, PaymentState
from domain.payments.records import recorded_payment
from domain.payments.upgrade import apply_upgrade, stale_upgrade, upgrade_parts
from domain.pricing.quotes import quote_licence
from domain.store import Storefront
from domain.subscriptions.charging import record_first_charge
from events.concurrency import retry_on_conflict
from events.values import Language

TAMPERED = "the paid amount or currency differs from the order"


@dataclass(frozen=True)
class Order:
    """What the browser needs to open the payment window (request_pay)."""

    merchant_uid: str
    amount: int
    currency: str
    name: str
    pg: str
    pay_method: str
    buyer_email: str
    notification_id: int
    imp_uid: str | None = None  # an order with nothing to pay: the id to confirm it with, no window opened


@dataclass(frozen=True)
class Confirmation:
    """The outcome of a confirmed payment."""

    merchant_uid: str
    state: PaymentState
    user_licence_id: UUID
    licence_key: str
    account_id: UUID
    account_created: bool
    notification_id: int
    key_by_mail_only: bool = False

    @property
    def shown_key(self) -> str | None:
        """The key the buyer's browser may show: none for a guest who used a once-per-customer coupon, whose key
        goes only to the mailbox (anyone can type an address; only its owner reads the mail)."""
        return None if self.key_by_mail_only else self.licence_key


def new_merchant_uid(now: datetime) -> str:
    """A unique, readable order id such as ``unc-20261122-3f9a0c1b2d4e``."""
    return f"unc-{now:%Y%m%d}-{uuid.uuid4().hex[:12]}"


def place_order(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    catalogue: Catalogue,
    *,
    licence_id: int,
    country_code: str,
    language: Language,
    payment_method: str,
    account_id: UUID | None,
    email: str | None,
    coupon_code: str | None = None,
    cash_receipt: CashReceiptChoice | None = None,
) -> Order:
    """Fix the amount of a new licence purchase under a fresh merchantUid and tell the gateway.

    With a ``coupon_code`` every coupon rule is checked for this buyer and licence, and the price is
    fixed with the coupon's factor; the rules are checked again when the payment settles. A ``cash_receipt``
    choice (bank transfer and virtual account in won only, -2 otherwise) is saved with the order and issued once
    the money arrives (``domain/papers/cash_receipts.py``)."""
    licence = catalogue.get(licence_id)
    if licence is None:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not on sale")
    buyer_email = _buyer_email(store, account_id, email)
    now = clock.now()
    merchant_uid = new_merchant_uid(now)
    quote = quote_licence(licence, country_code)
    code = None
    if coupon_code is not None and coupon_code.strip():
        coupon, quote = coupons.price_order(
            store,
            now,
            coupon_code,
            licence,
            country_code,
            buyer_email=buyer_email,
            user_licence_id=UserLicence.id_for_payment(merchant_uid),
        )
        code = coupon.code
    free = quote.amount == 0
    choice = NO_GATEWAY if free else gateway_choice(payment_method, quote.currency.value)
    name = licence.localization_for(language).name
    payment = Payment.order(
        merchant_uid=merchant_uid,
        at=now,
        quote=quote,
        terms=LicenceTerms.of(licence, name),
        catalogue_version=catalogue.version,
        account_id=account_id,
        buyer_email=buyer_email,
        purchase_type="new",
        coupon_code=code,
        buyer_country=country_code,
        language=language,
    )
    papers = []
    if cash_receipt is not None:
        if free:
            raise DomainError(ErrorCode.INVALID_VALUE, "nothing to pay: no cash receipt")
        check_cash_receipt_choice(payment_method, quote.currency.value)
        papers.append(papers_with_cash_receipt(merchant_uid, cash_receipt, now))
    recordings = store.save(payment, *papers)
    if not free:
        gateway.prepare(merchant_uid, quote.amount)
    return Order(
        merchant_uid,
        quote.amount,
        quote.currency.value,
        name,
        choice.pg,
        choice.pay_method,
        buyer_email,
        recordings[-1].notification.id,
        no_gateway_imp_uid(merchant_uid) if free else None,
    )


def no_gateway_imp_uid(merchant_uid: str) -> str:
    """The payment id of an order with nothing to pay, which never reaches the gateway."""
    return f"{NONE}-{merchant_uid}"


def _no_gateway_report(store: Storefront, clock: Clock, imp_uid: str, merchant_uid: str) -> GatewayPayment:
    """What an order with nothing to pay reports in place of the gateway: paid, 0, method ``none``. Only an
    order fixed at 0 settles this way; any other answers -301 (its money must come through the gateway)."""
    payment = _load_payment(store, merchant_uid)
    if payment.amount != 0 or imp_uid != no_gateway_imp_uid(merchant_uid):
        raise DomainError(ErrorCode.PAYMENT_DIFFERS_FROM_INIT, "this order is paid through the gateway")
    return GatewayPayment(
        imp_uid=imp_uid,
        merchant_uid=merchant_uid,
        status=GatewayStatus.PAID,
        amount=0,
        currency=payment.currency.value,
        pay_method=NONE,
        pg_provider=NONE,
        paid_at=clock.now(),
    )


def _buyer_email(store: Storefront, account_id: UUID | None, email: str | None) -> str:
    if account_id is not None:
        account: Account = store.repository.get(account_id)
        return str(account.email)
    if not email or not email.strip():
        raise DomainError(ErrorCode.EMPTY_PARAMETER, "a guest purchase needs an email")
    return normalise_email(email)


def confirm_payment(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    imp_uid: str,
    merchant_uid: str,
    caller_account_id: UUID | None,
    language: Language = Language.KO,
) -> Confirmation:
    """The buyer's browser reports a payment: only the account that ordered it may confirm it (403)."""
    _load_payment(store, merchant_uid).check_confirmable_by(caller_account_id)
    return settle_payment(store, clock, gateway, imp_uid=imp_uid, merchant_uid=merchant_uid, language=language)


def settle_payment(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    *,
    imp_uid: str,
    merchant_uid: str,
    language: Language = Language.KO,
) -> Confirmation:
    """Settle an order from what the gateway says about ``imp_uid``; safe to repeat and to race.

    The gateway's webhook and the deadline sweep call this directly; a browser goes through
    ``confirm_payment``. A repeated or losing call answers what the first one recorded.
    """
    if imp_uid.startswith(f"{NONE}-"):
        reported = _no_gateway_report(store, clock, imp_uid, merchant_uid)
    else:
        try:
            reported = gateway.get_payment(imp_uid)
        except PaymentNotFoundAtGatewayError:
            raise DomainError(ErrorCode.RESERVED_PAYMENT_MISSING, f"no payment {imp_uid} at the gateway") from None
    if reported.merchant_uid != merchant_uid:
        raise DomainError(ErrorCode.PAYMENT_DIFFERS_FROM_INIT, "imp_uid belongs to another order")

    def attempt() -> Confirmation:
        payment = _load_payment(store, merchant_uid)
        if payment.first_charge is not None:
            raise DomainError(ErrorCode.NOT_FOUND, f"{merchant_uid} is a subscription's first charge")
        settled = payment.state in (PaymentState.PAID, PaymentState.RESERVED) and payment.imp_uid == imp_uid
        deposit_arrived = payment.state is PaymentState.RESERVED and reported.status is GatewayStatus.PAID
        if settled and not deposit_arrived:
            return _outcome(store, payment)
        if payment.state in (PaymentState.FAILED, PaymentState.CANCELLED):
            raise DomainError(_refusal_code(payment), f"payment is {payment.state.value}")
        now = clock.now()
        if not payment.matches(reported):
            # A late report of another attempt than the one the order settled with (a reserved virtual
            # account, say) gets its money back but leaves the order as it is.
            if payment.imp_uid in (None, imp_uid):
                call_off(payment, reported, TAMPERED, ErrorCode.PAYMENT_DIFFERS_FROM_INIT, now)
                store.save(payment)
                give_back_called_off(store, clock, gateway, merchant_uid, reported)
            else:
                give_back_unrecorded(gateway, reported, TAMPERED)
            raise DomainError(ErrorCode.PAYMENT_DIFFERS_FROM_INIT, TAMPERED)
        if payment.is_upgrade:
            return _settle_upgrade(store, clock, gateway, payment, reported, now)
        settles = reported.status is GatewayStatus.PAID or (
            reported.status is GatewayStatus.READY and reported.pay_method == "vbank"
        )
        redemption = _redeem_or_call_off(store, clock, gateway, payment, reported, now) if settles else []
        if reported.status is GatewayStatus.PAID:
            return _settle_paid(store, payment, reported, language, now, redemption)
        if reported.status is GatewayStatus.READY and reported.pay_method == "vbank":
            return _reserve(store, payment, reported, language, now, redemption)
        payment.fail(imp_uid, reported.fail_reason or f"gateway status {reported.status.value}", now)
        store.save(payment)
        raise DomainError(ErrorCode.PAYMENT_REFUSED, reported.fail_reason or "")

    return retry_on_conflict(attempt)


def settle_notice(store: Storefront, clock: Clock, gateway: PaymentGateway, *, imp_uid: str, merchant_uid: str) -> None:
    """Act on the gateway's webhook for ``merchant_uid``: ``settle_payment`` unless the log alone says the notice
    can change nothing, in which case the gateway is not asked again.

    Two notices change nothing whatever the gateway would say: one for an order the log does not hold (a forged
    notice, or one racing the renewal that has just charged and is still recording: ``settle_payment`` answers
    both "no order" after its read) and one for an order the log holds as paid by this very imp_uid (a repeated
    notice, a renewal's own; a paid order stays paid however it is notified, refunds go through
    ``refund_payment``). Every other notice is re-read at the gateway and checked against the order as before.
    """
    if not imp_uid.startswith(f"{NONE}-"):
        recorded = recorded_payment(store, merchant_uid)
        if recorded is None:
            raise DomainError(ErrorCode.NOT_FOUND, f"no order {merchant_uid}")
        if recorded.state is PaymentState.PAID and recorded.imp_uid == imp_uid:
            return
        if recorded.first_charge is not None:
            # A subscription's first charge, pending while its own call waits: it starts its subscription, never a
            # one-off licence (charging.record_first_charge, which answers a charge recorded already as it was).
            if recorded.state is PaymentState.ORDERED:
                record_first_charge(store, clock, gateway, merchant_uid, gateway.get_payment(imp_uid))
            return
    settle_payment(store, clock, gateway, imp_uid=imp_uid, merchant_uid=merchant_uid)


def _refusal_code(payment: Payment) -> ErrorCode:
    return payment.refusal


def _load_payment(store: Storefront, merchant_uid: str) -> Payment:
    payment = recorded_payment(store, merchant_uid)
    if payment is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"no order {merchant_uid}")
    return payment


def _redeem_or_call_off(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    payment: Payment,
    reported: GatewayPayment,
    now: datetime,
) -> list[Aggregate]:
    """Count a settling order's coupon use (the aggregates to save with it; none without a coupon). When the
    coupon's rules no longer hold (used up, a second use, expired...) nobody keeps a coupon price without a
    recorded redemption: the payment is called off, its money given back, and the refusal raised."""
    if payment.state is not PaymentState.ORDERED or not payment.coupon_code:
        return []
    try:
        return _redeem_coupon(store, payment, now)
    except DomainError as refused:
        call_off(payment, reported, f"coupon refused: {refused.detail}", refused.code, now)
        store.save(payment)
        give_back_called_off(store, clock, gateway, payment.merchant_uid, reported)
        raise


def _redeem_coupon(store: Storefront, payment: Payment, now: datetime) -> list[Aggregate]:
    """Count the payment's coupon use, every rule checked again (the aggregates to save with it)."""
    assert payment.coupon_code is not None
    return coupons.redeem(
        store,
        now,
        code=payment.coupon_code,
        merchant_uid=payment.merchant_uid,
        buyer_email=payment.buyer_email,
        user_licence_id=payment.licence_id_paid_for,
        life=payment.life,
        buyer_country=payment.buyer_country,
        price_country=payment.country_code,
        guest=payment.account_id is None,
    )


def _settle_paid(
    store: Storefront,
    payment: Payment,
    reported: GatewayPayment,
    language: Language,
    now: datetime,
    redemption: list[Aggregate],
) -> Confirmation:
    if payment.state is PaymentState.RESERVED:  # the deposit into a virtual account
        licence: UserLicence = store.repository.get(payment.licence_id_paid_for)
        payment.succeed(reported, now)
        licence.activate(now)
        recordings = store.save(payment, licence)
        return _confirmation(store, payment, licence, recordings[-1].notification.id)
    account_id, account_aggregates = _account_for(store, payment, language, now)
    licence, index = new_licence(
        account_id=account_id,
        terms=payment.terms,
        merchant_uid=payment.merchant_uid,
        source="purchase",
        at=now,
        user_licence_id=payment.licence_id_paid_for,
    )
    payment.succeed(reported, now)
    recordings = store.save(payment, licence, index, *account_aggregates, *redemption)
    return _confirmation(store, payment, licence, recordings[-1].notification.id)


def _settle_upgrade(
    store: Storefront,
    clock: Clock,
    gateway: PaymentGateway,
    payment: Payment,
    reported: GatewayPayment,
    now: datetime,
) -> Confirmation:
    """A paid upgrade order upgrades its licence; one that can no longer take effect (another tab's upgrade
    won, the credit was refunded) or that left a virtual account is cancelled and its money given back."""
    if reported.status not in (GatewayStatus.PAID, GatewayStatus.READY):
        payment.fail(reported.imp_uid, reported.fail_reason or f"gateway status {reported.status.value}", now)
        store.save(payment)
        raise DomainError(ErrorCode.PAYMENT_REFUSED, reported.fail_reason or "")
    parts = upgrade_parts(store, payment)
    why = stale_upgrade(payment, parts, now) if reported.status is GatewayStatus.PAID else "upgrades are paid at once"
    if why is not None:
        call_off(payment, reported, why, ErrorCode.INVALID_PRODUCT_AT_INIT, now)
        store.save(payment)
        give_back_called_off(store, clock, gateway, payment.merchant_uid, reported)
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, why)
    redemption = _redeem_or_call_off(store, clock, gateway, payment, reported, now)
    apply_upgrade(payment, parts, now)
    payment.succeed(reported, now)
    recordings = store.save(payment, parts.licence, parts.credited, *redemption)
    return _confirmation(store, payment, parts.licence, recordings[-1].notification.id)


def _reserve(
    store: Storefront,
    payment: Payment,
    reported: GatewayPayment,
    language: Language,
    now: datetime,
    redemption: list[Aggregate],
) -> Confirmation:
    account_id, account_aggregates = _account_for(store, payment, language, now)
    payment.reserve(reported, now)
    licence, index = new_licence(
        account_id=account_id,
        terms=payment.terms,
        merchant_uid=payment.merchant_uid,
        deposit_deadline=payment.vbank_date or now,
        at=now,
        user_licence_id=payment.licence_id_paid_for,
    )
    recordings = store.save(payment, licence, index, *account_aggregates, *redemption)
    return _confirmation(store, payment, licence, recordings[-1].notification.id)


def _account_for(
    store: Storefront, payment: Payment, language: Language, now: datetime
) -> tuple[UUID, list[Aggregate]]:
    """The buyer's account; a guest's address gets a new, unconfirmed account without a password
    (which the payment records, so a repeated confirm still says the purchase created it)."""
    if payment.account_id is not None:
        return payment.account_id, []
    # A guest's account speaks the language of the page the order was placed on, whoever settles it (the browser's
    # confirm, or the gateway's webhook, which has no page).
    buyer = guest_buyer(store, payment.buyer_email, payment.language or language, now)
    if buyer.new_aggregates:
        payment.open_buyer_account(buyer.account_id, now)
    return buyer.account_id, buyer.new_aggregates


def _outcome(store: Storefront, payment: Payment) -> Confirmation:
    licence: UserLicence = store.repository.get(payment.licence_id_paid_for)
    return _confirmation(store, payment, licence, store.max_notification_id())


def _confirmation(store: Storefront, payment: Payment, licence: UserLicence, notification_id: int) -> Confirmation:
    code = payment.coupon_code
    guest_with_mailbox_coupon = (
        payment.account_id is None and bool(code) and coupons.binds_to_mailbox(store, code or "")
    )
    return Confirmation(
        payment.merchant_uid,
        payment.state,
        licence.id,
        licence.licence_key,
        licence.account_id,
        payment.opened_buyer_account,
        notification_id,
        key_by_mail_only=guest_with_mailbox_coupon,
    )


def lapse_if_unpaid(store: Storefront, clock: Clock, gateway: PaymentGateway, *, merchant_uid: str) -> bool:
    """Past its deadline, cancel a reserved virtual-account payment; True when it lapsed now."""
    payment = _load_payment(store, merchant_uid)
    if payment.state is not PaymentState.RESERVED or payment.imp_uid is None:
        return False
    reported = gateway.get_payment(payment.imp_uid)
    if reported.status is GatewayStatus.PAID:  # the deposit's webhook never reached us
        settle_payment(store, clock, gateway, imp_uid=payment.imp_uid, merchant_uid=merchant_uid)
        return False
    now = clock.now()
    if payment.vbank_date is None or now < payment.vbank_date:
        return False
    if reported.status is GatewayStatus.READY:
        gateway.cancel(payment.imp_uid, None, None, "virtual account not paid by its deadline")

    def attempt() -> bool:
        current = _load_payment(store, merchant_uid)
        if current.state is not PaymentState.RESERVED:
            return False
        licence: UserLicence = store.repository.get(current.licence_id_paid_for)
        current.cancel(current.imp_uid, "virtual account not paid by its deadline", None, now)
        licence.lapse("virtual account not paid by its deadline", now)
        released: list[Aggregate] = []
        if current.coupon_code:
            released = coupons.release(
                store,
                now,
                code=current.coupon_code,
                merchant_uid=current.merchant_uid,
                buyer_email=current.buyer_email,
                user_licence_id=current.licence_id_paid_for,
            )
        store.save(current, licence, *released)
        return True

    return retry_on_conflict(attempt)

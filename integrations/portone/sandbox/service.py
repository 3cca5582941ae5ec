"""The sandbox's behaviour, behind the HTTP layer: tokens, payments, billing keys,
and the customer's actions in the PG window."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from integrations.portone.sandbox import cards
from integrations.portone.sandbox.channels import window_refusal
from integrations.portone.sandbox.errors import (
    BadRequestError,
    CardRejectedError,
    NotFoundError,
    RefusedError,
    SandboxError,
    UnauthorizedError,
)
from integrations.portone.sandbox.records import (
    CustomerRecord,
    PaymentRecord,
    PreparedRecord,
    TokenRecord,
)
from integrations.portone.sandbox.schemas import (
    AgainParams,
    BillingKeyParams,
    CancelParams,
    CheckoutParams,
    PrepareParams,
)
from integrations.portone.sandbox.settings import SandboxSettings
from integrations.portone.sandbox.store import SandboxStore
from integrations.portone.sandbox.vbank import VirtualAccount, issue_account, parse_vbank_due
from integrations.portone.sandbox.webhooks import Notifier, Webhook

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]

PAY_METHODS = frozenset({"card", "trans", "vbank", "point"})
TRANS_BANK_NAME = "KB국민은행"
TOKEN_EXTENSION_WINDOW = 60

# error_code values of the checkout callback
INVALID_REQUEST = "INVALID_REQUEST"
ALREADY_PAID = "ALREADY_PAID"
AMOUNT_MISMATCH = "AMOUNT_MISMATCH"
USER_CANCEL = "USER_CANCEL"
CARD_DECLINED = "CARD_DECLINED"

USER_CANCELLED_MESSAGE = "user cancelled the payment"
AMOUNT_MISMATCH_MESSAGE = "amount does not match the prepared amount"


def utc_now() -> datetime:
    """The real clock."""
    return datetime.now(UTC)


def split_pg(pg: str) -> tuple[str, str | None]:
    """``kcp.A52CY`` -> (``kcp``, ``A52CY``); ``nice`` -> (``nice``, None)."""
    provider, _, mid = (pg or "nice").partition(".")
    return provider or "nice", mid or None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """The answer of getToken."""

    access_token: str
    now: int
    expired_at: int


@dataclass(frozen=True, slots=True)
class _Failure:
    code: str
    message: str


class Sandbox:
    """Plays PortOne: the V1 API plus the routes standing in for the customer."""

    def __init__(
        self,
        settings: SandboxSettings,
        store: SandboxStore,
        *,
        notifier: Notifier,
        clock: Clock = utc_now,
    ) -> None:
        self.settings = settings
        self.store = store
        self.notifier = notifier
        self._clock = clock

    # -- time and ids -----------------------------------------------------------------

    def now(self) -> datetime:
        """The sandbox clock (aware UTC)."""
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the sandbox clock must return aware datetimes")
        return moment.astimezone(UTC)

    def _new_imp_uid(self) -> str:
        while True:
            imp_uid = "imp_" + "".join(secrets.choice("0123456789") for _ in range(12))
            if not self.store.has_imp_uid(imp_uid):
                return imp_uid

    def _receipt_url(self, imp_uid: str) -> str:
        return f"{self.settings.public_url.rstrip('/')}/sandbox/receipts/{imp_uid}"

    # -- tokens -----------------------------------------------------------------------

    def issue_token(self, imp_key: str, imp_secret: str) -> IssuedToken:
        """Same token until it expires; asked within its last minute, it gains 5 minutes."""
        key_ok = secrets.compare_digest(imp_key.encode(), self.settings.imp_key.encode())
        secret_ok = secrets.compare_digest(imp_secret.encode(), self.settings.imp_secret.get_secret_value().encode())
        if not (key_ok and secret_ok):
            raise UnauthorizedError("imp_key and imp_secret do not match")
        now = int(self.now().timestamp())
        with self.store.transaction():
            current = self.store.latest_token(imp_key)
            if current is not None and now < current.expired_at:
                if current.expired_at - now <= TOKEN_EXTENSION_WINDOW:
                    current = current.model_copy(
                        update={"expired_at": current.expired_at + self.settings.token_extension_seconds}
                    )
                    self.store.put_token(current)
                return IssuedToken(current.access_token, now, current.expired_at)
            self.store.delete_expired_tokens(now)
            token = TokenRecord(
                access_token=secrets.token_hex(20),
                imp_key=imp_key,
                expired_at=now + self.settings.token_ttl_seconds,
            )
            self.store.put_token(token)
        return IssuedToken(token.access_token, now, token.expired_at)

    def authenticate(self, candidates: Iterable[str]) -> None:
        """Accept the request if any presented token is live; else 401."""
        now = int(self.now().timestamp())
        for candidate in candidates:
            if not candidate:
                continue
            token = self.store.get_token(candidate)
            if token and token.imp_key == self.settings.imp_key and now < token.expired_at:
                return
        raise UnauthorizedError("UnauthorizedError: missing, invalid or expired access token")

    # -- payments ---------------------------------------------------------------------

    def payment(self, imp_uid: str) -> PaymentRecord:
        """The payment with this imp_uid, or 404."""
        record = self.store.get_payment(imp_uid)
        if record is None:
            raise NotFoundError("payment not found")
        return record

    def find_payment(self, merchant_uid: str, status: str | None = None) -> PaymentRecord:
        """The newest payment for merchant_uid, or 404."""
        record = self.store.newest_payment(merchant_uid, status)
        if record is None:
            raise NotFoundError("payment not found")
        return record

    def list_payments(self, status: str, start: int, end: int) -> list[PaymentRecord]:
        """Payments requested in ``[start, end)`` with a status (``all`` for any), newest first."""
        if end <= start:
            raise BadRequestError("to must be after from")
        return self.store.payments_started_between(start, end, None if status == "all" else status)

    def prepare(self, params: PrepareParams) -> PreparedRecord:
        """Pre-register an amount; repeating the same amount is fine, another is refused."""
        with self.store.transaction():
            existing = self.store.get_prepared(params.merchant_uid)
            if existing is not None:
                if existing.amount != params.amount:
                    raise RefusedError("merchant_uid is already prepared with another amount")
                return existing
            record = PreparedRecord(merchant_uid=params.merchant_uid, amount=params.amount)
            self.store.put_prepared(record)
        return record

    def prepared(self, merchant_uid: str) -> PreparedRecord:
        """The prepared amount, or 404."""
        record = self.store.get_prepared(merchant_uid)
        if record is None:
            raise NotFoundError("no amount prepared for this merchant_uid")
        return record

    def cancel(self, params: CancelParams) -> PaymentRecord:
        """Cancel fully or partly; refusals (nothing to cancel, checksum) are code 1."""
        if not params.imp_uid and not params.merchant_uid:
            raise RefusedError("imp_uid or merchant_uid is required")
        now = int(self.now().timestamp())
        with self.store.transaction():
            record = self._cancel_target(params)
            if record is None:
                raise RefusedError("no payment to cancel")
            updated = record.cancel(
                amount=params.amount,
                checksum=params.checksum,
                reason=params.reason,
                has_refund_account=params.has_refund_account,
                now=now,
            )
            self.store.put_payment(updated)
        self._notify(updated)
        return updated

    def _cancel_target(self, params: CancelParams) -> PaymentRecord | None:
        if params.imp_uid:
            record = self.store.get_payment(params.imp_uid)
            if record and params.merchant_uid and record.merchant_uid != params.merchant_uid:
                raise RefusedError("imp_uid and merchant_uid belong to different payments")
            return record
        assert params.merchant_uid is not None
        return (
            self.store.newest_payment(params.merchant_uid, "paid")
            or self.store.newest_payment(params.merchant_uid, "ready")
            or self.store.newest_payment(params.merchant_uid)
        )

    # -- billing keys and recurring charges -------------------------------------------

    def issue_billing_key(self, customer_uid: str, params: BillingKeyParams) -> CustomerRecord:
        """Check the card, keep only its masked number and issuer; card failure is code -1."""
        now_dt = self.now()
        card = cards.mask(params.card_number)
        cards.check_expiry(params.expiry, now_dt)
        cards.check_birth(params.birth)
        cards.check_pwd_2digit(params.pwd_2digit)
        failure = cards.approval_failure(card)
        if failure is not None:
            raise CardRejectedError(failure)
        provider, mid = split_pg(params.pg)
        with self.store.transaction():
            record = self._save_customer(
                customer_uid,
                card,
                provider=provider,
                mid=mid,
                now=int(now_dt.timestamp()),
                customer_name=params.customer_name,
                customer_email=params.customer_email,
            )
        return record

    def _save_customer(
        self,
        customer_uid: str,
        card: cards.MaskedCard,
        *,
        provider: str,
        mid: str | None,
        now: int,
        customer_name: str | None = None,
        customer_email: str | None = None,
    ) -> CustomerRecord:
        existing = self.store.get_customer(customer_uid)
        record = CustomerRecord(
            customer_uid=customer_uid,
            pg_provider=provider,
            pg_id=mid,
            card_name=card.card_name,
            card_code=card.card_code,
            card_number=card.card_number,
            customer_name=customer_name,
            customer_email=customer_email,
            inserted=existing.inserted if existing else now,
            updated=now,
        )
        self.store.put_customer(record)
        return record

    def billing_key(self, customer_uid: str) -> CustomerRecord:
        """The billing key, or code -1."""
        record = self.store.get_customer(customer_uid)
        if record is None:
            raise RefusedError("no billing key for this customer_uid", code=-1)
        return record

    def delete_billing_key(self, customer_uid: str) -> CustomerRecord:
        """Revoke a billing key and return what it was, or code -1."""
        with self.store.transaction():
            record = self.billing_key(customer_uid)
            self.store.delete_customer(customer_uid)
        return record

    def charge_again(self, params: AgainParams) -> PaymentRecord:
        """Charge a billing key once per merchant_uid: a repeat returns the first payment."""
        now = int(self.now().timestamp())
        with self.store.transaction():
            existing = self.store.newest_payment(params.merchant_uid)
            if existing is not None:
                return existing
            customer = self.store.get_customer(params.customer_uid)
            if customer is None:
                raise RefusedError("no billing key for this customer_uid", code=-1)
            prepared = self.store.get_prepared(params.merchant_uid)
            if prepared is not None and prepared.amount != params.amount:
                raise RefusedError(AMOUNT_MISMATCH_MESSAGE)
            failure = cards.recurring_failure(customer.card_number)
            imp_uid = self._new_imp_uid()
            record = PaymentRecord(
                imp_uid=imp_uid,
                merchant_uid=params.merchant_uid,
                pay_method="card",
                channel="api",
                pg_provider=customer.pg_provider,
                pg_tid=_new_pg_tid(),
                name=params.name,
                amount=params.amount,
                currency=params.currency,
                status="failed" if failure else "paid",
                started_at=now,
                paid_at=0 if failure else now,
                failed_at=now if failure else 0,
                fail_reason=failure,
                receipt_url=self._receipt_url(imp_uid),
                card_name=customer.card_name,
                card_code=customer.card_code,
                card_number=customer.card_number,
                card_quota=0,
                buyer_email=params.buyer_email or customer.customer_email,
                buyer_name=params.buyer_name or customer.customer_name,
                custom_data=params.custom_data,
                customer_uid=params.customer_uid,
                customer_uid_usage="payment",
                notice_url=params.notice_url,
            )
            self.store.put_payment(record)
        self._notify(record)
        return record

    # -- the customer's side ----------------------------------------------------------

    def checkout(self, params: CheckoutParams) -> dict[str, Any]:
        """Play the PG window for request_pay and return the SDK's callback object."""
        now_dt = self.now()
        now = int(now_dt.timestamp())
        try:
            self._check_checkout(params)
        except SandboxError as exc:
            return callback(None, params.merchant_uid, _Failure(INVALID_REQUEST, exc.message))
        provider, _ = split_pg(params.pg)
        with self.store.transaction():
            if self._already_paid(params.merchant_uid, now):
                refusal = _Failure(ALREADY_PAID, "a payment for this merchant_uid is already made")
                return callback(None, params.merchant_uid, refusal)
            imp_uid = self._new_imp_uid()
            record = PaymentRecord(
                imp_uid=imp_uid,
                merchant_uid=params.merchant_uid,
                pay_method=params.pay_method,
                channel=params.channel or ("mobile" if params.m_redirect_url else "pc"),
                pg_provider=provider,
                pg_tid=_new_pg_tid(),
                name=params.name,
                amount=params.amount,
                currency=params.currency,
                status="ready",
                started_at=now,
                receipt_url=self._receipt_url(imp_uid),
                buyer_email=params.buyer_email,
                buyer_name=params.buyer_name,
                custom_data=params.custom_data,
                customer_uid=params.customer_uid,
                notice_url=params.notice_url,
            )
            record, failure = self._approve(record, params, now_dt)
            self.store.put_payment(record)
        if failure is None and record.status in ("paid", "ready"):
            self._notify(record)
        return callback(record, params.merchant_uid, failure)

    def _check_checkout(self, params: CheckoutParams) -> None:
        if params.pay_method not in PAY_METHODS:
            raise RefusedError(f"unsupported pay_method: use one of {', '.join(sorted(PAY_METHODS))}")
        refusal = window_refusal(split_pg(params.pg)[0], params.pay_method, params.currency)
        if refusal is not None:
            raise RefusedError(refusal)
        if params.customer_uid and params.pay_method != "card":
            raise RefusedError("a billing key (customer_uid) needs pay_method card")
        if params.amount == 0 and not params.customer_uid:
            raise RefusedError("amount must be positive (0 only to issue a billing key)")
        if params.pay_method == "vbank":
            parse_vbank_due(params.vbank_due, now=self.now(), default_days=self.settings.vbank_valid_days)

    def _already_paid(self, merchant_uid: str, now: int) -> bool:
        """Paid, or holding a virtual account that can still be paid into."""
        if self.store.newest_payment(merchant_uid, "paid") is not None:
            return True
        ready = self.store.newest_payment(merchant_uid, "ready")
        return ready is not None and ready.is_unpaid_vbank and now <= ready.vbank_date

    def _approve(
        self, record: PaymentRecord, params: CheckoutParams, now_dt: datetime
    ) -> tuple[PaymentRecord, _Failure | None]:
        """Decide the window's outcome and fill in the payment accordingly."""
        now = int(now_dt.timestamp())
        prepared = self.store.get_prepared(params.merchant_uid)
        failure: _Failure | None = None
        card: cards.MaskedCard | None = None
        if prepared is not None and prepared.amount != params.amount:
            failure = _Failure(AMOUNT_MISMATCH, AMOUNT_MISMATCH_MESSAGE)
        elif params.action == "close":
            failure = _Failure(USER_CANCEL, USER_CANCELLED_MESSAGE)
        elif params.action == "decline":
            failure = _Failure(CARD_DECLINED, cards.CARD_DECLINED)
        elif params.pay_method == "card":
            try:
                card = cards.mask(params.card_number or cards.DEFAULT_TEST_CARD)
            except CardRejectedError as exc:
                failure = _Failure(CARD_DECLINED, exc.message)
            else:
                reason = cards.approval_failure(card)
                if reason is not None:
                    failure = _Failure(CARD_DECLINED, reason)
        if card is not None:
            record = record.model_copy(
                update={
                    "card_name": card.card_name,
                    "card_code": card.card_code,
                    "card_number": card.card_number,
                    "card_quota": 0,
                }
            )
        if failure is not None:
            failed = {"status": "failed", "failed_at": now, "fail_reason": failure.message}
            return record.model_copy(update=failed), failure
        if params.pay_method == "vbank":
            due = parse_vbank_due(params.vbank_due, now=now_dt, default_days=self.settings.vbank_valid_days)
            account = issue_account(holder=self.settings.vbank_holder, due=due, now=now_dt)
            return record.model_copy(update=_vbank_fields(account)), None
        update: dict[str, Any] = {"status": "paid", "paid_at": now}
        if params.pay_method == "trans":
            update["bank_name"] = TRANS_BANK_NAME
        if card is not None and params.customer_uid:
            provider, mid = split_pg(params.pg)
            self._save_customer(
                params.customer_uid,
                card,
                provider=provider,
                mid=mid,
                now=now,
                customer_name=params.buyer_name,
                customer_email=params.buyer_email,
            )
            update["customer_uid_usage"] = "issue"
        return record.model_copy(update=update), None

    def deposit(self, imp_uid: str) -> PaymentRecord:
        """The buyer pays into the virtual account: ready -> paid, then the webhook."""
        now = int(self.now().timestamp())
        with self.store.transaction():
            updated = self.payment(imp_uid).deposit(now=now)
            self.store.put_payment(updated)
        self._notify(updated)
        return updated

    def replay_webhook(self, imp_uid: str) -> Webhook | None:
        """Send the webhook for a payment's current status again (None: no notice URL)."""
        return self._notify(self.payment(imp_uid))

    def _notify(self, record: PaymentRecord) -> Webhook | None:
        url = record.notice_url or self.settings.notice_url
        if not url:
            return None
        webhook = Webhook(url=url, imp_uid=record.imp_uid, merchant_uid=record.merchant_uid, status=record.status)
        try:
            self.notifier.notify(webhook)
        except Exception:  # a webhook must never break the call that caused it
            logger.exception("portone sandbox: could not queue webhook for %s", record.imp_uid)
        return webhook


def _new_pg_tid() -> str:
    return "sandbox_" + secrets.token_hex(10)


def _vbank_fields(account: VirtualAccount) -> dict[str, Any]:
    return {
        "status": "ready",
        "vbank_code": account.vbank_code,
        "vbank_name": account.vbank_name,
        "vbank_num": account.vbank_num,
        "vbank_holder": account.vbank_holder,
        "vbank_date": account.vbank_date,
        "vbank_issued_at": account.vbank_issued_at,
    }


def callback(record: PaymentRecord | None, merchant_uid: str, failure: _Failure | None) -> dict[str, Any]:
    """The object IMP.request_pay hands to its callback."""
    success = failure is None
    result: dict[str, Any] = {
        "success": success,
        "imp_success": success,
        "imp_uid": record.imp_uid if record else None,
        "merchant_uid": merchant_uid,
        "error_code": None if failure is None else failure.code,
        "error_msg": None if failure is None else failure.message,
    }
    if record is not None:
        result.update(
            pay_method=record.pay_method,
            pg_provider=record.pg_provider,
            pg_tid=record.pg_tid,
            status=record.status,
            name=record.name,
            paid_amount=record.amount,
            currency=record.currency,
            paid_at=record.paid_at,
            receipt_url=record.receipt_url,
            buyer_email=record.buyer_email,
            buyer_name=record.buyer_name,
            custom_data=record.custom_data,
            card_name=record.card_name,
            card_number=record.card_number,
            card_quota=record.card_quota,
            vbank_code=record.vbank_code,
            vbank_name=record.vbank_name,
            vbank_num=record.vbank_num,
            vbank_holder=record.vbank_holder,
            vbank_date=record.vbank_date,
            customer_uid=record.customer_uid,
        )
    return result

"""httpx client for PortOne's (iamport) V1 REST API.

The client speaks only the public contract: pointed at the real service or at the
local sandbox, it behaves the same. Card fields are sent once to obtain a billing
key and are never logged.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

import httpx
from pydantic import BaseModel, ValidationError

from integrations.portone.errors import (
    AuthError,
    BillingKeyNotFoundError,
    GatewayUnavailableError,
    PaymentNotFoundError,
    PortOneError,
)
from integrations.portone.models import (
    AccessToken,
    CardDetails,
    Customer,
    Payment,
    PaymentStatus,
    Prepared,
    Receipt,
    RefundAccount,
)

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]
ResultT = TypeVar("ResultT", bound=BaseModel)

DEFAULT_TOKEN_LIFETIME = timedelta(minutes=30)


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _segment(value: str) -> str:
    """Quote one path segment (ids may hold characters that are special in URLs)."""
    if not value:
        raise ValueError("an id in a PortOne path must not be empty")
    return quote(value, safe="")


class _Body:
    """A request body whose repr hides its content (it may carry card fields)."""

    __slots__ = ("data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = {key: value for key, value in data.items() if value is not None}

    def __repr__(self) -> str:
        return f"<body fields={sorted(self.data)}>"


class PortOneClient:
    """Synchronous, thread-safe client for the PortOne V1 API.

    ``http_client`` (or ``transport``) can be injected; ``clock`` decides when the
    cached access token is refreshed (``refresh_margin`` before it expires).
    """

    def __init__(
        self,
        base_url: str,
        imp_key: str,
        imp_secret: str,
        *,
        timeout: float = 15.0,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = _utc_now,
        refresh_margin: timedelta = timedelta(seconds=60),
    ) -> None:
        if http_client is not None and transport is not None:
            raise ValueError("pass either http_client or transport, not both")
        self._base_url = base_url.rstrip("/")
        self._imp_key = imp_key
        self._imp_secret = imp_secret
        self._timeout = timeout
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout, transport=transport)
        self._clock = clock
        self._refresh_margin = refresh_margin
        self._token_lock = threading.Lock()
        self._token: str | None = None
        self._token_deadline: datetime | None = None

    def __repr__(self) -> str:
        return f"PortOneClient(base_url={self._base_url!r})"

    def close(self) -> None:
        """Close the underlying HTTP client if this client created it."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> PortOneClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- auth -------------------------------------------------------------------------

    def get_token(self, *, refresh: bool = False) -> str:
        """Return a valid access token, asking for one only when the cached one is near expiry."""
        with self._token_lock:
            now = self._clock()
            if (
                not refresh
                and self._token is not None
                and self._token_deadline is not None
                and now < self._token_deadline - self._refresh_margin
            ):
                return self._token
            token = self._parse(
                AccessToken,
                self._send(
                    "POST",
                    "/users/getToken",
                    _Body({"imp_key": self._imp_key, "imp_secret": self._imp_secret}),
                    token=None,
                ),
            )
            lifetime = DEFAULT_TOKEN_LIFETIME
            if token.now is not None and token.expired_at is not None:
                lifetime = token.expired_at - token.now
            self._token = token.access_token
            self._token_deadline = now + lifetime
            return token.access_token

    # -- payments ---------------------------------------------------------------------

    def get_payment(self, imp_uid: str) -> Payment:
        """Read a payment by PortOne's imp_uid. Raises PaymentNotFoundError."""
        return self._parse(Payment, self._call("GET", f"/payments/{_segment(imp_uid)}"))

    def find_payment(self, merchant_uid: str, status: PaymentStatus | None = None) -> Payment:
        """Read the newest payment for our merchant_uid (optionally with that status)."""
        path = f"/payments/find/{_segment(merchant_uid)}"
        if status is not None:
            path += f"/{_segment(PaymentStatus(status).value)}"
        return self._parse(Payment, self._call("GET", path))

    def list_payments(self, since: datetime, until: datetime, status: str = "all") -> list[Payment]:
        """Every payment requested in ``[since, until)`` with a status (``all`` for any), newest first.

        PortOne's ``GET /payments/status/{status}?from&to&page&limit`` is read a page (100) at a time.
        """
        found: list[Payment] = []
        page = 1
        while page:
            query = urlencode(
                {"from": int(since.timestamp()), "to": int(until.timestamp()), "page": page, "limit": 100}
            )
            data = self._call("GET", f"/payments/status/{_segment(status)}?{query}")
            found.extend(self._parse(Payment, item) for item in data.get("list") or [])
            page = int(data.get("next") or 0)
        return found

    def prepare(self, merchant_uid: str, amount: int) -> Prepared:
        """Pre-register the amount a payment for merchant_uid must have."""
        _check_amount(amount)
        body = _Body({"merchant_uid": merchant_uid, "amount": amount})
        return self._parse(Prepared, self._call("POST", "/payments/prepare", body))

    def get_prepared(self, merchant_uid: str) -> Prepared:
        """Read a pre-registered amount back. Raises PaymentNotFoundError if there is none."""
        path = f"/payments/prepare/{_segment(merchant_uid)}"
        return self._parse(Prepared, self._call("GET", path))

    def cancel(
        self,
        *,
        imp_uid: str | None = None,
        merchant_uid: str | None = None,
        amount: int | None = None,
        checksum: int | None = None,
        reason: str | None = None,
        refund: RefundAccount | None = None,
    ) -> Payment:
        """Cancel a payment fully (amount None) or partly; returns the updated payment.

        ``checksum`` is the refundable balance we expect; PortOne refuses when it differs.
        ``refund`` is required for a paid virtual account.
        """
        if imp_uid is None and merchant_uid is None:
            raise ValueError("cancel needs imp_uid or merchant_uid")
        if amount is not None:
            _check_amount(amount)
        fields: dict[str, Any] = {
            "imp_uid": imp_uid,
            "merchant_uid": merchant_uid,
            "amount": amount,
            "checksum": checksum,
            "reason": reason,
        }
        if refund is not None:
            fields.update(
                refund_holder=refund.holder,
                refund_bank=refund.bank,
                refund_account=refund.account,
                refund_tel=refund.tel,
            )
        return self._parse(Payment, self._call("POST", "/payments/cancel", _Body(fields)))

    # -- cash receipts (현금영수증) -------------------------------------------------------

    def issue_receipt(
        self,
        imp_uid: str,
        *,
        identifier: str,
        identifier_type: str,
        type: str,
        buyer_email: str | None = None,
    ) -> Receipt:
        """Issue the cash receipt of a paid payment (``identifier_type`` phone or business; ``type`` person or
        company). The identifier is sent once and never logged."""
        body = _Body(
            {
                "identifier": identifier,
                "identifier_type": identifier_type,
                "type": type,
                "buyer_email": buyer_email,
            }
        )
        return self._parse(Receipt, self._call("POST", f"/receipts/{_segment(imp_uid)}", body))

    def get_receipt(self, imp_uid: str) -> Receipt:
        """The cash receipt of a payment. Raises PaymentNotFoundError when none was issued."""
        return self._parse(Receipt, self._call("GET", f"/receipts/{_segment(imp_uid)}"))

    def cancel_receipt(self, imp_uid: str) -> Receipt:
        """Cancel the cash receipt of a payment; returns it with ``cancelled_at``."""
        return self._parse(Receipt, self._call("DELETE", f"/receipts/{_segment(imp_uid)}"))

    # -- billing keys -----------------------------------------------------------------

    def issue_billing_key(
        self,
        customer_uid: str,
        card: CardDetails,
        *,
        pg: str,
        customer_name: str | None = None,
        customer_email: str | None = None,
    ) -> Customer:
        """Register a card under customer_uid and return the billing key (masked card only)."""
        body = _Body(
            {
                "pg": pg,
                "card_number": card.number,
                "expiry": card.expiry,
                "birth": card.birth,
                "pwd_2digit": card.pwd_2digit,
                "customer_name": customer_name,
                "customer_email": customer_email,
            }
        )
        path = f"/subscribe/customers/{_segment(customer_uid)}"
        return self._parse(Customer, self._call("POST", path, body))

    def get_billing_key(self, customer_uid: str) -> Customer:
        """Read a billing key. Raises BillingKeyNotFoundError."""
        path = f"/subscribe/customers/{_segment(customer_uid)}"
        return self._parse(Customer, self._billing_key_call("GET", path))

    def delete_billing_key(self, customer_uid: str) -> Customer:
        """Revoke a billing key. Raises BillingKeyNotFoundError."""
        path = f"/subscribe/customers/{_segment(customer_uid)}"
        return self._parse(Customer, self._billing_key_call("DELETE", path))

    def charge_again(
        self,
        *,
        customer_uid: str,
        merchant_uid: str,
        amount: int,
        name: str,
        currency: str | None = None,
        buyer_email: str | None = None,
        buyer_name: str | None = None,
        custom_data: str | None = None,
        notice_url: str | None = None,
    ) -> Payment:
        """Charge a billing key. Check the returned status: paid, or failed with fail_reason.

        Idempotent by merchant_uid: repeating it returns the first payment.
        """
        _check_amount(amount)
        body = _Body(
            {
                "customer_uid": customer_uid,
                "merchant_uid": merchant_uid,
                "amount": amount,
                "name": name,
                "currency": currency,
                "buyer_email": buyer_email,
                "buyer_name": buyer_name,
                "custom_data": custom_data,
                "notice_url": notice_url,
            }
        )
        return self._parse(Payment, self._call("POST", "/subscribe/payments/again", body))

    # -- plumbing ---------------------------------------------------------------------

    def _billing_key_call(self, method: str, path: str) -> Any:
        try:
            return self._call(method, path)
        except PaymentNotFoundError as exc:
            raise BillingKeyNotFoundError(exc.message, code=exc.code, status_code=404) from None
        except PortOneError as exc:
            if exc.code == -1 and exc.status_code == 200:
                raise BillingKeyNotFoundError(exc.message, code=-1, status_code=200) from None
            raise

    def _call(self, method: str, path: str, body: _Body | None = None) -> Any:
        """Send an authenticated request; on 401 refresh the token once and retry."""
        token = self.get_token()
        try:
            return self._send(method, path, body, token=token)
        except AuthError:
            logger.info("portone: token refused on %s %s, refreshing once", method, path)
        return self._send(method, path, body, token=self.get_token(refresh=True))

    def _send(self, method: str, path: str, body: _Body | None, *, token: str | None) -> Any:
        headers = {"Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            response = self._http.request(
                method,
                self._base_url + path,
                json=body.data if body is not None else None,
                headers=headers,
                timeout=self._timeout,
            )
        except httpx.HTTPError as exc:
            # No chaining: the transport's frames hold the raw body.
            raise GatewayUnavailableError(f"{method} {path} failed: {type(exc).__name__}") from None
        logger.debug("portone: %s %s -> HTTP %s", method, path, response.status_code)
        return _unwrap(method, path, response)

    @staticmethod
    def _parse(model: type[ResultT], data: Any) -> ResultT:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            where = ", ".join(".".join(str(p) for p in err["loc"]) for err in exc.errors())
            raise PortOneError(f"unexpected {model.__name__} in response ({where})") from None


def _check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise ValueError("amounts are non-negative integers in the currency's unit")


def _unwrap(method: str, path: str, response: httpx.Response) -> Any:
    """Return the envelope's ``response`` or raise the matching PortOneError."""
    status = response.status_code
    try:
        envelope = response.json()
    except ValueError:
        envelope = None
    if not isinstance(envelope, dict) or "code" not in envelope:
        if status == 401:
            raise AuthError(f"{method} {path}: unauthorized", status_code=status)
        raise GatewayUnavailableError(f"{method} {path}: no PortOne envelope", status_code=status)
    code = envelope.get("code")
    code = code if isinstance(code, int) and not isinstance(code, bool) else -1
    message = str(envelope.get("message") or "")
    if status == 401:
        raise AuthError(message or "unauthorized", code=code, status_code=status)
    if status == 404:
        raise PaymentNotFoundError(message or "not found", code=code, status_code=status)
    if status >= 500:
        raise GatewayUnavailableError(message or "server error", code=code, status_code=status)
    if status >= 400 or code != 0:
        raise PortOneError(message or f"{method} {path} refused", code=code, status_code=status)
    return envelope.get("response")

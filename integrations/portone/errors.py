"""Exceptions raised by the PortOne V1 client."""

from __future__ import annotations


class PortOneError(Exception):
    """PortOne answered with a non-zero code, an HTTP error, or could not be reached.

    ``code`` is the envelope's code (None when there was no envelope),
    ``status_code`` the HTTP status (None when no response arrived).
    """

    def __init__(
        self,
        message: str,
        *,
        code: int | None = None,
        status_code: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status_code = status_code

    def __str__(self) -> str:
        parts = [self.message]
        if self.code is not None:
            parts.append(f"code={self.code}")
        if self.status_code is not None:
            parts.append(f"http={self.status_code}")
        return " ".join(parts)


class AuthError(PortOneError):
    """The keys were refused or the access token was rejected (HTTP 401)."""


class PaymentNotFoundError(PortOneError):
    """The payment (or prepared amount) does not exist (HTTP 404)."""


class BillingKeyNotFoundError(PortOneError):
    """No billing key is registered under the customer_uid (code -1)."""


class GatewayUnavailableError(PortOneError):
    """No usable answer: connection failure, timeout or a non-JSON reply.

    For money-moving calls the outcome is unknown: repeat with the same
    merchant_uid (charges are idempotent by it) or re-read the payment.
    """


# The names the integration brief used; the *Error names are canonical.
PaymentNotFound = PaymentNotFoundError

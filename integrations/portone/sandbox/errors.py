"""Errors the sandbox answers with, each mapped to the V1 envelope and HTTP status."""

from __future__ import annotations


class SandboxError(Exception):
    """A refusal answered as ``{"code": code, "message": message, "response": null}``."""

    default_code = 1
    default_http_status = 200

    def __init__(self, message: str, *, code: int | None = None, http_status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = self.default_code if code is None else code
        self.http_status = self.default_http_status if http_status is None else http_status


class RefusedError(SandboxError):
    """A business refusal: HTTP 200 with a non-zero code."""


class CardRejectedError(RefusedError):
    """The card was refused while issuing a billing key (code -1)."""

    default_code = -1


class NotFoundError(SandboxError):
    """Unknown payment or prepared amount: HTTP 404, code -1."""

    default_code = -1
    default_http_status = 404


class UnauthorizedError(SandboxError):
    """Missing, unknown or expired token, or wrong keys: HTTP 401."""

    default_code = -1
    default_http_status = 401


class BadRequestError(SandboxError):
    """Malformed or missing parameters: HTTP 400, code -1."""

    default_code = -1
    default_http_status = 400

"""Rate limits on login, on requests that send mail, and on reports (-4 with HTTP 429).

Counters live in the storage the bootstrap chose: Redis when REDIS_URL is set (shared
by every API process), memory otherwise. Each action is limited per address and per client.
"""

from __future__ import annotations

from fastapi import Request
from limits import RateLimitItem, parse
from limits.storage import Storage
from limits.strategies import MovingWindowRateLimiter

from api.clients import client_key
from domain.accounts.account import normalise_email
from domain.errors import DomainError, ErrorCode

LOGIN_PER_ADDRESS = parse("10 per 10 minutes")
LOGIN_PER_CLIENT = parse("30 per 10 minutes")
MAIL_PER_ADDRESS = parse("5 per hour")
MAIL_PER_CLIENT = parse("20 per hour")
# A report is a person's; a client (one address behind the proxy) may be an office or a school.
REPORT_PER_ADDRESS = parse("5 per hour")
REPORT_PER_CLIENT = parse("20 per hour")
# The form checks each image as it is added: five a report, with room for replaced ones.
IMAGE_CHECK_PER_CLIENT = parse("100 per hour")


class RateLimiter:
    """Moving-window counters keyed by action and identity."""

    def __init__(self, storage: Storage) -> None:
        self._limiter = MovingWindowRateLimiter(storage)

    def hit(self, rule: RateLimitItem, action: str, identity: str) -> bool:
        """Count one attempt; False when the limit is already reached."""
        return self._limiter.hit(rule, "storefront", action, identity)

    def check_address_and_client(
        self,
        request: Request,
        action: str,
        address: str,
        per_address: RateLimitItem,
        per_client: RateLimitItem,
    ) -> None:
        """Count an attempt for the address and the client; -4 when either is over its limit."""
        address_ok = self.hit(per_address, f"{action}:address", normalise_email(address))
        client_ok = self.hit(per_client, f"{action}:client", client_key(request))
        if not (address_ok and client_ok):
            raise DomainError(ErrorCode.TOO_MANY_REQUESTS, action)

    def login(self, request: Request, email: str) -> None:
        """Limit login attempts."""
        self.check_address_and_client(request, "login", email, LOGIN_PER_ADDRESS, LOGIN_PER_CLIENT)

    def mail(self, request: Request, email: str) -> None:
        """Limit requests that send a mail to an address."""
        self.check_address_and_client(request, "mail", email, MAIL_PER_ADDRESS, MAIL_PER_CLIENT)

    def password_check(self, request: Request, account: str) -> None:
        """Limit password checks of a logged-in account (same budget as logins)."""
        self.check_address_and_client(request, "check-password", account, LOGIN_PER_ADDRESS, LOGIN_PER_CLIENT)

    def report(self, request: Request, reporter: str | None) -> None:
        """Limit reports per client, and per sender (their email, else their account) when one is known."""
        if reporter is None:
            if not self.hit(REPORT_PER_CLIENT, "report:client", client_key(request)):
                raise DomainError(ErrorCode.TOO_MANY_REQUESTS, "report")
            return
        self.check_address_and_client(request, "report", reporter, REPORT_PER_ADDRESS, REPORT_PER_CLIENT)

    def image_check(self, request: Request) -> None:
        """Limit the report form's image checks per client (each one decodes an image)."""
        if not self.hit(IMAGE_CHECK_PER_CLIENT, "image-check:client", client_key(request)):
            raise DomainError(ErrorCode.TOO_MANY_REQUESTS, "image check")

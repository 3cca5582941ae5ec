"""Rate limits on login, mail, reports, licence-key lookups and device activations (-4 with HTTP 429).

Counters live in the storage the bootstrap chose: Redis when REDIS_URL is set (shared by every API process),
memory otherwise. A client is an IPv4 address or an IPv6 /64 (``api.clients``).

The apps' validations and heartbeats, the most frequent call by far, are counted without a Redis round trip each:
each process decides at once from its own windows (``integrations.rate_windows``), and with Redis every process adds
its counts there once a second and refuses what the shared count says is over the budget
(``integrations.redis_windows``), so behind N processes a client gets its budget and about a second's more, not N
budgets. Their numbers, 600 per client and 120 per key per 10 minutes, are in docs/app-licensing.md; ``make bench
apps`` measures what counting them costs a validation, with Redis and without.

Login and mail to an address are counted so that nobody can lock a chosen customer out: an attempt counts for
its client (any address), for the address from that client, and only when both allow it, for the address
from every unknown client together, a ceiling well above one client's share. A browser known to the address
(``api.known_devices``: it logged in or reset the password before) is counted on its own for that address and
never against the ceiling. So failures from other clients, however many, never block the owner's known
browser, and from one client never block anyone else; the ceiling still bounds guesses at one account (and
mails to one mailbox) from a crowd of clients. An owner on a new browser behind such a crowd waits for the
window, or resets the password: the crowd's own requests mailed the owner the reset link.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

from fastapi import Request
from limits import RateLimitItem, parse
from limits.storage import Storage
from limits.strategies import MovingWindowRateLimiter

from api.clients import client_key
from api.known_devices import known_device
from domain.accounts.account import normalise_email
from domain.errors import DomainError, ErrorCode
from domain.licences.keys import is_well_formed, normalise_licence_key
from integrations.rate_windows import InProcessWindows
from integrations.redis_windows import SharedWindows


@dataclass(frozen=True)
class AddressBudget:
    """How often an address may be tried: from one client (any address), from one client or known browser
    (this address), and from every unknown client together (this address)."""

    per_client: RateLimitItem
    per_address_and_client: RateLimitItem
    per_address: RateLimitItem


LOGIN = AddressBudget(parse("30 per 10 minutes"), parse("10 per 10 minutes"), parse("50 per 10 minutes"))
# Staff one-time codes: six digits are guessable, so few tries, per client, per address from a client, and per
# address (the member) from everywhere; a step-up's code counts against its member's address too. Passkeys are
# counted apart (per client), so nobody's wrong codes ever lock a member out of signing in with a passkey.
STAFF_CODE = AddressBudget(parse("20 per 10 minutes"), parse("5 per 10 minutes"), parse("10 per 10 minutes"))
STAFF_PASSKEY_PER_CLIENT = parse("60 per 10 minutes")
MAIL = AddressBudget(parse("20 per hour"), parse("5 per hour"), parse("20 per hour"))
# Licence keys: looking one up (a licence link) or taking one into an account, and activating a device with one
# (apps behind one office's address may activate many); per client, and per key from everywhere.
KEY_LOOKUP_PER_CLIENT = parse("30 per 10 minutes")
KEY_LOOKUP_PER_KEY = parse("10 per 10 minutes")
ACTIVATION_PER_CLIENT = parse("60 per 10 minutes")
ACTIVATION_PER_KEY = parse("20 per 10 minutes")
# The apps validate on start and about daily; a shared NAT holds many devices, one key at most a few of them.
VALIDATION_PER_CLIENT = parse("600 per 10 minutes")
VALIDATION_PER_KEY = parse("120 per 10 minutes")
# A logged-in account checking its own password: only its holder can ask, so per account and per client.
PASSWORD_CHECK_PER_ACCOUNT = parse("10 per 10 minutes")
PASSWORD_CHECK_PER_CLIENT = parse("30 per 10 minutes")
# A report is a person's; a client (one address behind the proxy) may be an office or a school.
REPORT_PER_ADDRESS = parse("5 per hour")
REPORT_PER_CLIENT = parse("20 per hour")
# The form checks each image as it is added: five a report, with room for replaced ones.
IMAGE_CHECK_PER_CLIENT = parse("100 per hour")


class RateLimiter:
    """Moving-window counters keyed by action and identity."""

    def __init__(self, storage: Storage, secret: str, shared_windows: SharedWindows | None = None) -> None:
        self._limiter = MovingWindowRateLimiter(storage)
        self._secret = secret
        # validations: in this process's memory, and shared through Redis when it is configured (module docstring)
        self._shared = shared_windows
        self._per_process = MovingWindowRateLimiter(InProcessWindows())

    def hit(self, rule: RateLimitItem, action: str, identity: str) -> bool:
        """Count one attempt; False when the limit is already reached."""
        return self._limiter.hit(rule, "storefront", action, identity)

    def wait(self, rule: RateLimitItem, action: str, identity: str) -> int:
        """Seconds until a counter that is full lets one more attempt through; 0 when it is not full."""
        return _wait(self._limiter, rule, action, identity)

    def refuse(self, detail: str, *counters: tuple[RateLimitItem, str, str]) -> DomainError:
        """-4 for an attempt over a limit, telling how long until the fullest of its counters lets one through."""
        return _refusal(self._limiter, detail, counters)

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
            raise self.refuse(
                action,
                (per_address, f"{action}:address", normalise_email(address)),
                (per_client, f"{action}:client", client_key(request)),
            )

    def check_address(self, request: Request, action: str, address: str, budget: AddressBudget) -> None:
        """Count an attempt at an address without letting one client, or a crowd, lock out its known
        browsers (see the module docstring); -4 when over."""
        key = normalise_email(address)
        device = known_device(request, address, self._secret)
        if device is not None:
            counter = (budget.per_address_and_client, f"{action}:address-device", f"{key} {device}")
            if not self.hit(*counter):
                raise self.refuse(f"{action} from a known browser", counter)
            return
        client = client_key(request)
        client_ok = self.hit(budget.per_client, f"{action}:client", client)
        pair_ok = self.hit(budget.per_address_and_client, f"{action}:address-client", f"{key} {client}")
        # Only what the client's own budgets let through counts against the address's ceiling.
        if not (client_ok and pair_ok and self.hit(budget.per_address, f"{action}:address", key)):
            raise self.refuse(
                action,
                (budget.per_client, f"{action}:client", client),
                (budget.per_address_and_client, f"{action}:address-client", f"{key} {client}"),
                (budget.per_address, f"{action}:address", key),
            )

    def login(self, request: Request, email: str) -> None:
        """Limit login attempts."""
        self.check_address(request, "login", email, LOGIN)

    def staff_code(self, request: Request, email: str) -> None:
        """Limit staff sign-ins with a one-time code (the same for any address, staff's or not)."""
        self.check_address(request, "staff-code", email, STAFF_CODE)

    def staff_step_up_code(self, email: str) -> None:
        """Limit one-time codes at a step-up, against the member's address (shared with their code sign-ins)."""
        counter = (STAFF_CODE.per_address, "staff-code:address", normalise_email(email))
        if not self.hit(*counter):
            raise self.refuse("staff code", counter)

    def staff_passkey(self, request: Request) -> None:
        """Limit staff passkey ceremonies per client (never per address: codes cannot lock passkeys out)."""
        counter = (STAFF_PASSKEY_PER_CLIENT, "staff-passkey:client", client_key(request))
        if not self.hit(*counter):
            raise self.refuse("staff passkey", counter)

    def mail(self, request: Request, email: str) -> None:
        """Limit requests that send a mail to an address."""
        self.check_address(request, "mail", email, MAIL)

    def password_check(self, request: Request, account: str) -> None:
        """Limit password checks of a logged-in account."""
        self.check_address_and_client(
            request, "check-password", account, PASSWORD_CHECK_PER_ACCOUNT, PASSWORD_CHECK_PER_CLIENT
        )

    def key_lookup(self, request: Request, key: str) -> None:
        """Limit looking up a licence key or taking it into an account, per client and per key."""
        self._client_and_key(request, "key-lookup", key, KEY_LOOKUP_PER_CLIENT, KEY_LOOKUP_PER_KEY)

    def activation(self, request: Request, key: str) -> None:
        """Limit device activations, per client and per licence key."""
        self._client_and_key(request, "activation", key, ACTIVATION_PER_CLIENT, ACTIVATION_PER_KEY)

    def validation(self, request: Request, key: str) -> None:
        """Limit app validations and heartbeats, per client and per licence key: in this process's memory at once
        (microseconds, on the event loop) and, with Redis, across every process within a second."""
        self._client_and_key(
            request,
            "validation",
            key,
            VALIDATION_PER_CLIENT,
            VALIDATION_PER_KEY,
            limiter=self._per_process,
            shared=self._shared,
        )

    def close(self) -> None:
        """Stop sharing the validations' counts (the API process stops)."""
        if self._shared is not None:
            self._shared.close()

    def _client_and_key(
        self,
        request: Request,
        action: str,
        key: str,
        per_client: RateLimitItem,
        per_key: RateLimitItem,
        limiter: MovingWindowRateLimiter | None = None,
        shared: SharedWindows | None = None,
    ) -> None:
        counting = limiter or self._limiter
        client = (per_client, f"{action}:client", client_key(request))
        _hit(counting, shared, action, client, ())
        # A refused client's attempts do not count against the key: flooding it cannot lock its owner out.
        if not is_well_formed(key):
            return  # no licence has such a key: nothing of anyone's to protect, and no counter to keep for it
        per_key_counter = (per_key, f"{action}:key", normalise_licence_key(key)[:64])
        _hit(counting, shared, action, per_key_counter, (client,))

    def report(self, request: Request, reporter: str | None) -> None:
        """Limit reports per client, and per sender (their email, else their account) when one is known."""
        if reporter is None:
            counter = (REPORT_PER_CLIENT, "report:client", client_key(request))
            if not self.hit(*counter):
                raise self.refuse("report", counter)
            return
        self.check_address_and_client(request, "report", reporter, REPORT_PER_ADDRESS, REPORT_PER_CLIENT)

    def image_check(self, request: Request) -> None:
        """Limit the report form's image checks per client (each one decodes an image)."""
        counter = (IMAGE_CHECK_PER_CLIENT, "image-check:client", client_key(request))
        if not self.hit(*counter):
            raise self.refuse("image check", counter)


def _hit(
    limiter: MovingWindowRateLimiter,
    shared: SharedWindows | None,
    action: str,
    counter: tuple[RateLimitItem, str, str],
    others: tuple[tuple[RateLimitItem, str, str], ...],
) -> None:
    """Count one attempt in the counter: -4 when the shared count (when there is one) or this process's is full."""
    rule, name, identity = counter
    shared_name = f"{name}/{identity}/{rule.amount}/{rule.get_expiry()}"
    wait = shared.wait(shared_name) if shared is not None else 0
    if wait:
        raise DomainError(ErrorCode.TOO_MANY_REQUESTS, action, retry_after=wait)
    if not limiter.hit(rule, "storefront", name, identity):
        raise _refusal(limiter, action, (*others, counter))
    if shared is not None:
        shared.count(shared_name, rule.amount, rule.get_expiry())


def _wait(limiter: MovingWindowRateLimiter, rule: RateLimitItem, action: str, identity: str) -> int:
    stats = limiter.get_window_stats(rule, "storefront", action, identity)
    if stats.remaining > 0:
        return 0
    return max(1, math.ceil(stats.reset_time - time.time()))


def _refusal(
    limiter: MovingWindowRateLimiter, detail: str, counters: Iterable[tuple[RateLimitItem, str, str]]
) -> DomainError:
    wait = max((_wait(limiter, *counter) for counter in counters), default=0)
    return DomainError(ErrorCode.TOO_MANY_REQUESTS, detail, retry_after=wait or None)

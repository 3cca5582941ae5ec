"""Who may call what: every API operation's access level, in one table, enforced before the operation runs.

An operation missing from the table cannot be mounted (``check_every_route_is_declared`` fails the app at start),
so a new route is refused until someone decides who may call it. Ownership of a named resource (a licence, a
payment, a billing key, a device) is decided by the use case the route calls; ``OWNER`` records that it must, and
the IDOR sweep (tests/faults/test_idor_sweep.py) holds every such operation to it. ``python -m api.access`` writes
the table as docs/access.md.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated
from uuid import UUID

import anyio
from fastapi import APIRouter, Depends, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.revocations import Revocations, RevocationsUnavailableError
from api.services import ServicesDep
from api.staff_session import check_staff
from domain.accounts.tokens import AccessClaims, InvalidTokenError, read_access_token
from domain.errors import DomainError, ErrorCode
from domain.staff.permissions import Permission


class Access(Enum):
    """What an operation needs from its caller."""

    def __new__(cls, name: str, meaning: str) -> Access:
        member = object.__new__(cls)
        member._value_ = name
        member.meaning = meaning
        return member

    meaning: str

    ANYONE = ("anyone", "no token is read; the operation proves what it needs otherwise (a signed link, a key)")
    ANYONE_ENDING_A_SESSION = (
        "anyone, ending a session",
        "no token is needed and none is refused; a valid bearer token sent is ended with its session (a logout)",
    )
    ANYONE_OR_SESSION = ("anyone or a session", "a token is optional; when sent it must be valid (scope 0 too)")
    ANYONE_OR_CONFIRMED = (
        "a guest or a confirmed account",
        "a token is optional; when sent it must be valid and its address confirmed (-401 otherwise)",
    )
    SESSION = ("a session", "a valid token of any scope: an unconfirmed account may use it")
    CONFIRMED = ("a confirmed account", "a valid token whose address is confirmed (scope 1; -401 otherwise)")
    OWNER = (
        "the owner",
        "a confirmed account, and the use case refuses a resource that is not the caller's (404/403)",
    )
    TEST_HARNESS = ("the test harness", "the build environment's TEST_ADMIN_TOKEN; never mounted in production")
    STAFF_SIGN_IN = (
        "staff signing in",
        "no token is read; the operation proves the member by their enrolment link, passkey or one-time code",
    )
    STAFF = (
        "a staff session",
        "the staff session cookie (idle timeout; ended by sign-out or suspension) and, for a change, its CSRF header",
    )
    STAFF_READ_CUSTOMERS = ("staff: read-customers", "a staff session whose roles allow reading customers")
    STAFF_HELP_CUSTOMERS = ("staff: help-customers", "a staff session whose roles allow helping customers")
    STAFF_CHANGE_LICENCES = ("staff: change-licences", "a staff session whose roles allow changing licences")
    STAFF_GRANT_LICENCES = (
        "staff: grant-licences",
        "a staff session whose roles allow granting paid licence time, stepped up recently",
    )
    STAFF_APPROVE_GRANTS = (
        "staff: approve-grants",
        "a staff session whose roles allow approving another member's grant, stepped up recently",
    )
    STAFF_REFUND = ("staff: refund", "a staff session whose roles allow refunds, stepped up recently")
    STAFF_APPROVE_REFUNDS = (
        "staff: approve-refunds",
        "a staff session whose roles allow approving refunds that wait (finance, owners), stepped up recently",
    )
    STAFF_MANAGE_STAFF = ("staff: manage-staff", "a staff session whose roles allow managing staff (owners)")
    STAFF_READ_LEDGER = ("staff: read-ledger", "a staff session whose roles allow reading the ledger (finance, owners)")
    STAFF_MARKETING = ("staff: marketing", "a staff session whose roles allow coupons and banners")
    STAFF_CHANGE_PRICES = ("staff: change-prices", "a staff session whose roles allow changing the catalogue")

    @property
    def needs_staff(self) -> bool:
        """The caller is a staff member with an open session (customers' tokens are never read)."""
        return self.name.startswith("STAFF") and self is not Access.STAFF_SIGN_IN

    @property
    def staff_permission(self) -> Permission | None:
        """The permission the member's roles must give (None: any member)."""
        return _STAFF_PERMISSIONS.get(self)

    @property
    def needs_session(self) -> bool:
        """A call without a valid token is refused (401)."""
        return self in (Access.SESSION, Access.CONFIRMED, Access.OWNER)

    @property
    def needs_confirmed(self) -> bool:
        """A token of an unconfirmed account is refused (-401)."""
        return self in (Access.ANYONE_OR_CONFIRMED, Access.CONFIRMED, Access.OWNER)

    @property
    def reads_token(self) -> bool:
        """The bearer token, when sent, is checked and names the caller."""
        excluded = (Access.ANYONE, Access.ANYONE_ENDING_A_SESSION, Access.TEST_HARNESS, Access.STAFF_SIGN_IN)
        return self not in excluded and not self.needs_staff


_STAFF_PERMISSIONS: dict[Access, Permission] = {
    Access.STAFF_READ_CUSTOMERS: Permission.READ_CUSTOMERS,
    Access.STAFF_HELP_CUSTOMERS: Permission.HELP_CUSTOMERS,
    Access.STAFF_CHANGE_LICENCES: Permission.CHANGE_LICENCES,
    Access.STAFF_GRANT_LICENCES: Permission.GRANT_LICENCES,
    Access.STAFF_APPROVE_GRANTS: Permission.APPROVE_GRANTS,
    Access.STAFF_REFUND: Permission.REFUND,
    Access.STAFF_APPROVE_REFUNDS: Permission.APPROVE_REFUNDS,
    Access.STAFF_MANAGE_STAFF: Permission.MANAGE_STAFF,
    Access.STAFF_READ_LEDGER: Permission.READ_LEDGER,
    Access.STAFF_MARKETING: Permission.MARKETING,
    Access.STAFF_CHANGE_PRICES: Permission.CHANGE_PRICES,
}


# Paths as the routers name them (below the API's base path).
POLICY: Mapping[str, Access] = {
    # Health and the public catalogue.
    "GET /health": Access.ANYONE,
    "GET /purchasable-licenses/new": Access.ANYONE,
    "GET /payments/settings": Access.ANYONE,
    "GET /event-banners": Access.ANYONE,
    "GET /event-banners/images/{name}": Access.ANYONE,
    "GET /reports/filter-groups": Access.ANYONE,
    "GET /integrations/settings": Access.ANYONE,
    # Registration, login and the mailed links (each link proves the mailbox by its signed token).
    "POST /accounts": Access.ANYONE,
    "GET /accounts/check": Access.ANYONE,
    "GET /accounts/confirm": Access.ANYONE,
    "GET /accounts/check/email": Access.ANYONE,
    "POST /accounts/password-change-email": Access.ANYONE,
    "GET /accounts/password-change-check": Access.ANYONE,
    "PUT /accounts/password-change": Access.ANYONE,
    "PUT /accounts/email-change": Access.ANYONE,
    "POST /auth/login": Access.ANYONE,
    "GET /auth/refresh": Access.ANYONE,
    "POST /auth/logout": Access.ANYONE_ENDING_A_SESSION,
    "GET /auth/claim": Access.ANYONE,
    "POST /auth/claim": Access.ANYONE,
    "POST /accounts/{account_id}/please-one-more-confirm-email": Access.ANYONE_OR_SESSION,
    # What an unconfirmed account may still do: read itself, check its password, delete itself.
    "GET /accounts": Access.SESSION,
    "POST /accounts/check-password": Access.SESSION,
    "PUT /accounts/delete": Access.SESSION,
    # The account, once its address is confirmed.
    "PATCH /accounts": Access.CONFIRMED,
    "POST /accounts/email-change-email": Access.CONFIRMED,
    "GET /auth/zendesk": Access.CONFIRMED,
    "GET /integrations/chat-member": Access.CONFIRMED,
    # Licences and devices.
    "GET /licenses/mine": Access.CONFIRMED,
    "GET /licenses/mine/{user_license_id}": Access.OWNER,
    "PATCH /licenses/{user_license_id}/devices/{device_id}": Access.OWNER,
    "DELETE /licenses/{user_license_id}/devices/{device_id}": Access.OWNER,
    "POST /licenses/{license_key}/giveme": Access.CONFIRMED,
    "POST /licenses/open-beta": Access.CONFIRMED,
    "POST /licenses/activate": Access.ANYONE,
    # The app API: the licence key is the credential (api/routers/apps.py).
    "POST /apps/v1/licence/validate": Access.ANYONE,
    "POST /apps/v1/licence/activate": Access.ANYONE,
    "POST /apps/v1/licence/deactivate": Access.ANYONE,
    "POST /apps/v1/licence/heartbeat": Access.ANYONE,
    "GET /apps/v1/.well-known/jwks.json": Access.ANYONE,
    # Buying: a guest (no token) or a confirmed account.
    "POST /payments/licenses/new": Access.ANYONE_OR_CONFIRMED,
    "POST /payments/licenses/new/confirm": Access.ANYONE_OR_CONFIRMED,
    "GET /payments/coupons": Access.ANYONE_OR_CONFIRMED,
    "POST /payments/coupons/check": Access.ANYONE_OR_CONFIRMED,
    "GET /billingkeys/customerUid": Access.ANYONE_OR_CONFIRMED,
    "POST /payments/licenses/subscribe/new/new-billingkey/redirect": Access.ANYONE_OR_CONFIRMED,
    "POST /payments/licenses/upgrade/confirm": Access.ANYONE_OR_CONFIRMED,
    "POST /payments/webhook": Access.ANYONE,
    # The apps' stores (docs/app-stores.md): a customer links a purchase; the stores' notifications prove themselves
    # (Apple's signature to its root, Google's push token), so they need no token of ours.
    "POST /app-stores/app-store/purchases": Access.CONFIRMED,
    "POST /app-stores/google-play/purchases": Access.CONFIRMED,
    "POST /app-stores/app-store/notifications": Access.ANYONE,
    "POST /app-stores/google-play/notifications": Access.ANYONE,
    # Purchase history and billing keys.
    "GET /payments/licenses": Access.CONFIRMED,
    "GET /payments/licenses/{merchant_uid}": Access.OWNER,
    "GET /payments/licenses/{merchant_uid}/coupon": Access.OWNER,
    "GET /billingkeys": Access.CONFIRMED,
    "PUT /billingkeys": Access.CONFIRMED,
    "GET /billingkeys/customerUid/{billingkey_id}": Access.OWNER,
    "PUT /billingkeys/{billingkey_id}": Access.OWNER,
    # Subscriptions and upgrades.
    "POST /payments/licenses/subscribe/new": Access.CONFIRMED,
    "POST /payments/licenses/subscribe/new/new-billingkey": Access.CONFIRMED,
    "GET /payments/licenses/subscribe/{user_license_id}": Access.OWNER,
    "DELETE /payments/licenses/subscribe/{user_license_id}": Access.OWNER,
    "POST /payments/licenses/re-subscribe/{user_license_id}": Access.OWNER,
    "POST /payments/licenses/re-subscribe/{user_license_id}/new-billingkey": Access.OWNER,
    "POST /payments/licenses/re-subscribe/new-billingkey/redirect": Access.CONFIRMED,
    "POST /payments/licenses/subscribe/{user_license_id}/pay": Access.OWNER,
    "PUT /payments/licenses/subscribe/{user_license_id}/billingkey": Access.OWNER,
    "GET /payments/licenses/subscribe/{user_license_id}/exit": Access.OWNER,
    "POST /payments/licenses/subscribe/{user_license_id}/exit": Access.OWNER,
    "POST /payments/licenses/subscribe/{user_license_id}/exit/offer": Access.OWNER,
    "POST /payments/licenses/subscribe/{user_license_id}/price-rise/agree": Access.OWNER,
    "POST /payments/licenses/subscribe/{user_license_id}/price-rise/decline": Access.OWNER,
    "GET /purchasable-licenses/upgrade/licenses/{user_license_id}": Access.OWNER,
    "POST /payments/licenses/{user_license_id}/upgrade": Access.OWNER,
    "POST /payments/licenses/{user_license_id}/subscribe/upgrade": Access.OWNER,
    "POST /payments/licenses/{user_license_id}/subscribe/upgrade/new-billingkey": Access.OWNER,
    "POST /payments/licenses/subscribe/upgrade/new-billingkey/redirect": Access.CONFIRMED,
    # Reports: anyone may send one; a token, when sent, names the sender.
    "POST /reports/validate": Access.ANYONE,
    "POST /reports": Access.ANYONE_OR_SESSION,
    "GET /reports/images/{key:path}": Access.ANYONE,
    # The test harness (mounted only with TEST_ADMIN_TOKEN, which production refuses).
    "GET /test-harness/clock": Access.TEST_HARNESS,
    "POST /test-harness/clock/advance": Access.TEST_HARNESS,
    "POST /test-harness/app-stores/reconcile": Access.TEST_HARNESS,
    "POST /test-harness/renewals/run": Access.TEST_HARNESS,
    "POST /test-harness/reminders/run": Access.TEST_HARNESS,
    "POST /test-harness/payments/settle": Access.TEST_HARNESS,
    "POST /test-harness/staff/members": Access.TEST_HARNESS,
    "POST /test-harness/admin/auth/login": Access.TEST_HARNESS,
    "POST /test-harness/admin/coupons/group": Access.TEST_HARNESS,
    "PATCH /test-harness/admin/coupons/group": Access.TEST_HARNESS,
    "GET /test-harness/admin/coupons/coupon": Access.TEST_HARNESS,
    "POST /test-harness/admin/event-banners": Access.TEST_HARNESS,
    "PATCH /test-harness/admin/event-banners": Access.TEST_HARNESS,
    "GET /operator/history/{kind}/{key}": Access.TEST_HARNESS,
    "GET /operator/health": Access.TEST_HARNESS,
    # The back office (api/routers/staff.py): staff sign in by enrolment link, passkey or one-time code, and act
    # on a session cookie of their own; each operation names the permission it needs (domain/staff/permissions.py).
    "POST /staff/enrolment": Access.STAFF_SIGN_IN,
    "POST /staff/enrolment/passkey/options": Access.STAFF_SIGN_IN,
    "POST /staff/enrolment/passkey": Access.STAFF_SIGN_IN,
    "POST /staff/enrolment/totp/secret": Access.STAFF_SIGN_IN,
    "POST /staff/enrolment/totp": Access.STAFF_SIGN_IN,
    "POST /staff/sign-in/passkey/options": Access.STAFF_SIGN_IN,
    "POST /staff/sign-in/passkey": Access.STAFF_SIGN_IN,
    "POST /staff/sign-in/totp": Access.STAFF_SIGN_IN,
    "GET /staff/me": Access.STAFF,
    "POST /staff/sign-out": Access.STAFF,
    "POST /staff/step-up/passkey/options": Access.STAFF,
    "POST /staff/step-up/passkey": Access.STAFF,
    "POST /staff/step-up/totp": Access.STAFF,
    "POST /staff/passkeys/options": Access.STAFF,
    "POST /staff/passkeys": Access.STAFF,
    "GET /staff/members": Access.STAFF_MANAGE_STAFF,
    "POST /staff/members": Access.STAFF_MANAGE_STAFF,
    "POST /staff/members/{member_id}/suspend": Access.STAFF_MANAGE_STAFF,
    "POST /staff/members/{member_id}/reinstate": Access.STAFF_MANAGE_STAFF,
    "PUT /staff/members/{member_id}/roles": Access.STAFF_MANAGE_STAFF,
    # Support (api/routers/support.py); a refund, a grant of paid licence time or their approval also needs a recent
    # step-up.
    "GET /staff/customers": Access.STAFF_READ_CUSTOMERS,
    "GET /staff/customers/{account_id}": Access.STAFF_READ_CUSTOMERS,
    "GET /staff/customers/{account_id}/store-purchases": Access.STAFF_READ_CUSTOMERS,
    "GET /staff/refund-requests": Access.STAFF_READ_CUSTOMERS,
    "POST /staff/licences/{user_licence_id}/devices/{device_id}/free": Access.STAFF_HELP_CUSTOMERS,
    "POST /staff/payments/{merchant_uid}/resend-receipt": Access.STAFF_HELP_CUSTOMERS,
    "POST /staff/customers/{account_id}/resend-confirmation": Access.STAFF_HELP_CUSTOMERS,
    "POST /staff/customers/{account_id}/app-store-purchases": Access.STAFF_GRANT_LICENCES,
    "POST /staff/licences/{user_licence_id}/extend": Access.STAFF_GRANT_LICENCES,
    "GET /staff/grant-requests": Access.STAFF_READ_CUSTOMERS,
    "POST /staff/grant-requests/{request_id}/approve": Access.STAFF_APPROVE_GRANTS,
    "POST /staff/grant-requests/{request_id}/decline": Access.STAFF_APPROVE_GRANTS,
    "POST /staff/subscriptions/{subscription_id}/cancel": Access.STAFF_CHANGE_LICENCES,
    "POST /staff/subscriptions/{subscription_id}/resume": Access.STAFF_CHANGE_LICENCES,
    "GET /staff/payments/{merchant_uid}/refund-preview": Access.STAFF_READ_CUSTOMERS,
    "POST /staff/payments/{merchant_uid}/refund": Access.STAFF_REFUND,
    "POST /staff/payments/{merchant_uid}/gateway-refund": Access.STAFF_REFUND,
    "POST /staff/refund-requests/{request_id}/approve": Access.STAFF_APPROVE_REFUNDS,
    "POST /staff/refund-requests/{request_id}/decline": Access.STAFF_APPROVE_REFUNDS,
    "GET /staff/cancellation-reasons": Access.STAFF_READ_LEDGER,
    # Consent before a price rise (docs/catalogue.md): who agreed, declined or has not answered, per rise; support
    # and marketing read customers, and so see it.
    "GET /staff/price-rises": Access.STAFF_READ_CUSTOMERS,
    "GET /staff/price-rises/{catalogue_version}": Access.STAFF_READ_CUSTOMERS,
    # Finance (api/routers/finance.py, docs/finance.md): the ledger, reconciliation, integrity, exports, as it was.
    "GET /staff/finance/ledger": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/store-ledger": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/ledger/entries": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/payments/{merchant_uid}": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/proofs/payments/{merchant_uid}": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/proofs/events/{notification_id}": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/reconciliation": Access.STAFF_READ_LEDGER,
    "POST /staff/finance/reconciliation/{day}/run": Access.STAFF_READ_LEDGER,
    "POST /staff/finance/reconciliation/{day}/explain": Access.STAFF_READ_LEDGER,
    "POST /staff/finance/reconciliation/{day}/refund-request": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/integrity": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/alarm": Access.STAFF_READ_LEDGER,
    "POST /staff/finance/integrity/verify": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/integrity/consistency": Access.STAFF_READ_LEDGER,
    "POST /staff/finance/exports": Access.STAFF_READ_LEDGER,
    "POST /staff/finance/close-packs": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/jobs": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/jobs/{job_id}": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/jobs/{job_id}/files/{name}": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/as-of/{kind}/{key}": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/staff-actions": Access.STAFF_READ_LEDGER,
    # Marketing (api/routers/marketing.py): coupon groups, their codes and redemptions, banners and notices.
    "GET /staff/coupon-groups": Access.STAFF_MARKETING,
    "POST /staff/coupon-groups": Access.STAFF_MARKETING,
    "GET /staff/coupon-groups/{group_id}": Access.STAFF_MARKETING,
    "PATCH /staff/coupon-groups/{group_id}": Access.STAFF_MARKETING,
    "POST /staff/coupon-groups/{group_id}/disable": Access.STAFF_MARKETING,
    "POST /staff/coupon-groups/{group_id}/codes": Access.STAFF_MARKETING,
    "GET /staff/coupon-groups/{group_id}/codes.csv": Access.STAFF_MARKETING,
    "GET /staff/banners": Access.STAFF_MARKETING,
    "POST /staff/banners": Access.STAFF_MARKETING,
    "PATCH /staff/banners/{banner_id}": Access.STAFF_MARKETING,
    "POST /staff/banners/{banner_id}/end": Access.STAFF_MARKETING,
    # The catalogue's versions (api/routers/catalogue_admin.py, docs/catalogue.md).
    "GET /staff/catalogue": Access.STAFF_CHANGE_PRICES,
    "POST /staff/catalogue/versions": Access.STAFF_CHANGE_PRICES,
    # The customer's 30-day money-back guarantee (docs/money-back.md).
    "POST /payments/licenses/{merchant_uid}/money-back": Access.OWNER,
    # A payment's papers (docs/papers.md): the owner's documents and tax-invoice request; finance's queue.
    "GET /payments/licenses/{merchant_uid}/papers": Access.OWNER,
    "GET /payments/licenses/{merchant_uid}/receipt": Access.OWNER,
    "GET /payments/licenses/{merchant_uid}/refund-notes/{number}": Access.OWNER,
    "POST /payments/licenses/{merchant_uid}/tax-invoice": Access.OWNER,
    "GET /staff/finance/tax-invoices": Access.STAFF_READ_LEDGER,
    "GET /staff/finance/tax-invoices.csv": Access.STAFF_READ_LEDGER,
    # Support's reports, proofs and mails (api/routers/staff_reports.py, staff_proofs.py, support.py).
    "GET /staff/reports": Access.STAFF_READ_CUSTOMERS,
    "POST /staff/reports/{report_id}/close": Access.STAFF_HELP_CUSTOMERS,
    "GET /staff/proofs/{notification_id}": Access.STAFF_READ_CUSTOMERS,
    "POST /staff/licences/{user_licence_id}/resend-licence-key": Access.STAFF_HELP_CUSTOMERS,
    "GET /payments/money-back": Access.CONFIRMED,
}


# Operations whose answers are the same for everyone (the catalogue, banners, settings, health): a cache may keep
# them. Every other answer names a caller or carries account data (a token, an address, a licence, a payment) and
# goes out with ``Cache-Control: no-store`` (api/security_headers.py), so that no browser or proxy keeps it.
SHARED_ANSWERS = frozenset(
    {
        "GET /health",
        "GET /purchasable-licenses/new",
        "GET /payments/settings",
        "GET /event-banners",
        "GET /event-banners/images/{name}",
        "GET /reports/filter-groups",
        "GET /integrations/settings",
    }
)


def is_personal(method: str, path: str) -> bool:
    """Is this an API operation whose answer is kept from caches (any but the shared answers; the web app's own
    files, which are no API operation, keep their caching)?"""
    key = operation(method, path)
    return key in POLICY and key not in SHARED_ANSWERS


@dataclass(frozen=True)
class Caller:
    """The account an access token speaks for."""

    account_id: UUID
    scope: int


def operation(method: str, path: str) -> str:
    """The table's key for a route."""
    return f"{method.upper()} {path}"


def access_of(method: str, path: str) -> Access:
    """What the operation needs (KeyError for an operation nobody declared)."""
    return POLICY[operation(method, path)]


def check_every_route_is_declared(routers: Iterable[APIRouter]) -> None:
    """Refuse to build an app whose routers hold an operation the table does not declare, or a route that asks
    for a caller its level does not give (a bearer-only route declared for anyone, say)."""
    problems: list[str] = [
        f"{key}: a shared answer must be {Access.ANYONE.value!r}"
        for key in sorted(SHARED_ANSWERS)
        if POLICY.get(key) is not Access.ANYONE
    ]
    for router in routers:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            for method in sorted(route.methods or ()):
                key = operation(method, route.path)
                need = POLICY.get(key)
                if need is None:
                    problems.append(f"{key}: no access level")
                    continue
                asks = _asks_for_caller(route.dependant)
                if current_caller in asks and not need.needs_session:
                    problems.append(f"{key}: needs a caller but is declared {need.value!r}")
                if optional_caller in asks and not need.reads_token:
                    problems.append(f"{key}: reads an optional caller but is declared {need.value!r}")
    if problems:
        raise RuntimeError("api/access.py and the routes disagree: " + "; ".join(problems))


def _asks_for_caller(dependant: Dependant) -> set[object]:
    found: set[object] = set()
    for sub in dependant.dependencies:
        if sub.call in (current_caller, optional_caller):
            found.add(sub.call)
        found |= _asks_for_caller(sub)
    return found


def _bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise DomainError(ErrorCode.UNAUTHORIZED, "not a bearer token")
    return token.strip()


async def enforce_access(request: Request, response: Response, services: ServicesDep) -> None:
    """Hold the call to its operation's access level; the caller it names is kept for the route."""
    route = request.scope.get("route")
    need = access_of(request.method, route.path) if isinstance(route, APIRoute) else Access.ANYONE
    caller: Caller | None = None
    if need.reads_token:
        token = _bearer_token(request)
        if token is not None:
            try:
                claims = read_access_token(services.settings.auth_secret, token, services.clock.now())
            except InvalidTokenError:
                raise DomainError(ErrorCode.UNAUTHORIZED, "bad bearer token") from None
            await _check_not_revoked(services.revocations, claims)
            caller = Caller(claims.account_id, claims.scope)
    if caller is None and need.needs_session:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no bearer token")
    if caller is not None and caller.scope < 1 and need.needs_confirmed:
        raise DomainError(ErrorCode.ACCOUNT_NOT_APPROVED, "the address is not confirmed yet")
    request.state.caller = caller
    if need.needs_staff:
        permission = need.staff_permission
        request.state.staff = await anyio.to_thread.run_sync(check_staff, request, response, services, permission)


async def _check_not_revoked(revocations: Revocations, claims: AccessClaims) -> None:
    """401 for a token whose session ended or whose account's credentials changed since it was issued; 503 for
    any token while the revocation list is not current and does not become so soon (it fails closed; see
    api/revocations.py)."""
    if not revocations.is_current() and not await revocations.until_current():
        raise RevocationsUnavailableError("the revocation list is not current")
    if revocations.ends(claims):
        raise DomainError(ErrorCode.UNAUTHORIZED, "the token's session has ended")


AccessChecked = [Depends(enforce_access)]

_bearer = HTTPBearer(auto_error=False, description="Access token from /auth/login or /auth/refresh")


def caller_of(request: Request) -> Caller | None:
    """The caller ``enforce_access`` found (None for an anonymous call)."""
    caller: Caller | None = getattr(request.state, "caller", None)
    return caller


async def current_caller(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Caller:
    """The caller of a bearer call, as ``enforce_access`` checked it against the operation's level.
    (``credentials`` documents the bearer scheme in OpenAPI; the token was read once, by the access check.)"""
    caller = caller_of(request)
    if caller is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no bearer token")
    return caller


async def optional_caller(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Caller | None:
    """The caller when a valid bearer token was sent (the access check refused an invalid one)."""
    return caller_of(request)


CallerDep = Annotated[Caller, Depends(current_caller)]
OptionalCallerDep = Annotated[Caller | None, Depends(optional_caller)]


def render_table() -> str:
    """The table as Markdown (docs/access.md)."""
    lines = [
        "# Who may call what",
        "",
        "Generated by `python -m api.access` from `api/access.py` (the one place each operation declares what it",
        "needs); `tests/security/test_access_policy.py` walks the OpenAPI document and holds every operation to it.",
        "Paths are below the base path `/web/unicornpro/v1`.",
        "",
        "| level | what it means |",
        "|---|---|",
        *(f"| {level.value} | {level.meaning} |" for level in Access),
        "",
        "Every answer is sent with `Cache-Control: no-store` except those the table marks shared (the same for",
        "everyone, so a cache may keep them).",
        "",
        "| operation | needs | answer |",
        "|---|---|---|",
        *(
            f"| `{key}` | {level.value} | {'shared' if key in SHARED_ANSWERS else 'no-store'} |"
            for key, level in POLICY.items()
        ),
        "",
    ]
    return "\n".join(lines)


DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "access.md"


if __name__ == "__main__":
    DOC_PATH.parent.mkdir(exist_ok=True)
    DOC_PATH.write_text(render_table(), encoding="utf-8")
    sys.stdout.write(f"wrote {DOC_PATH}\n")

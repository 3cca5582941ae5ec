"""Granting paid licence time from the back office: goodwill extensions and App Store records. Each needs the
grant-licences permission, a reason and a recent step-up (the API checks it, as for refunds); past a limit it waits
as a ``GrantRequest`` for a second member who may approve grants, never the one who asked (maker-checker).

- Goodwill: a member alone gives a licence up to ``GOODWILL_DAYS_ALONE`` days in any ``GOODWILL_WINDOW``, counting
  what staff gave it before (so extensions cannot be stacked past it); beyond, the extension waits.
- An App Store record: nothing here can verify a transaction with Apple, so every member's record waits, unverified,
  for a second member who checked it in App Store Connect; their approval records the purchase and grants the
  licence. (The operator's ``python -m workers.operator record-app-store-purchase`` stays the command line's.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.accounts.account import Account
from domain.catalogue.licences import Catalogue
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.licences.licence import LicenceState, UserLicence
from domain.payments.app_store import AppStorePurchase, record_app_store_purchase, recorded_purchase, transaction_id
from domain.staff.actions import StaffAction
from domain.staff.member import StaffMember, load_member
from domain.staff.permissions import Permission, check_reason
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.staff import GrantApproved, GrantDeclined, GrantRequested
from events.values import Language

GOODWILL = "goodwill"
APP_STORE_PURCHASE = "app-store-purchase"
MAX_GOODWILL_DAYS = 366  # one extension
GOODWILL_DAYS_ALONE = 31  # what one member gives a licence alone, in all, within the window
GOODWILL_WINDOW = timedelta(days=365)


class GrantState(Enum):
    """Where a request stands."""

    WAITING = "waiting"
    GRANTED = "granted"
    DECLINED = "declined"


@dataclass(frozen=True)
class Grant:
    """A grant made now (its licence's new end, or the App Store purchase recorded) or waiting (``request_id``)."""

    request_id: UUID | None = None
    expires_at: datetime | None = None
    purchase: AppStorePurchase | None = None

    @property
    def waiting(self) -> bool:
        """Does it wait for a second member?"""
        return self.request_id is not None


class GrantRequest(Aggregate):
    """A grant beyond what one member may grant alone, waiting for (or given) a second member's decision."""

    @staticmethod
    def app_store_id(transaction: str) -> UUID:
        """One request per App Store transaction (recording it again finds it)."""
        return uuid5(NAMESPACE_URL, f"/grants/app-store/{transaction}")

    @classmethod
    def ask(
        cls,
        *,
        kind: str,
        account_id: UUID,
        subject: str,
        details: Mapping[str, str | int | None],
        reason: str,
        requested_by: UUID,
        at: datetime,
        request_id: UUID | None = None,
    ) -> GrantRequest:
        """Record the request."""
        return cls._create(
            GrantRequested,
            id=request_id or uuid4(),
            timestamp=at,
            kind=kind,
            account_id=account_id,
            subject=subject,
            details=dict(details),
            reason=reason,
            requested_by=requested_by,
        )

    def check_waiting(self) -> None:
        """-2 for a request decided already."""
        if self.state is not GrantState.WAITING:
            raise DomainError(ErrorCode.INVALID_VALUE, f"the request is {self.state.value} already")

    def check_approver(self, approver_id: UUID) -> None:
        """Nobody approves their own request (403)."""
        if self.requested_by == approver_id:
            raise DomainError(ErrorCode.FORBIDDEN, "nobody approves their own grant")

    def approve(self, actor_id: UUID, reason: str, at: datetime) -> None:
        """A second member verified it: the grant is made with this event."""
        self.check_waiting()
        self.check_approver(actor_id)
        self.trigger_event(GrantApproved, timestamp=at, actor_id=actor_id, reason=reason)

    def decline(self, actor_id: UUID, reason: str, at: datetime) -> None:
        """Nothing will be granted."""
        self.check_waiting()
        self.trigger_event(GrantDeclined, timestamp=at, actor_id=actor_id, reason=reason)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _requested(self, event: GrantRequested) -> None:
        self.kind = event.kind
        self.account_id = event.account_id
        self.subject = event.subject
        self.details = dict(event.details)
        self.reason = event.reason
        self.requested_by = event.requested_by
        self.state = GrantState.WAITING

    @when.register
    def _approved(self, event: GrantApproved) -> None:
        self.state = GrantState.GRANTED

    @when.register
    def _declined(self, event: GrantDeclined) -> None:
        self.state = GrantState.DECLINED


def _get(store: Storefront, aggregate_id: UUID, kind: type[Any], what: str) -> Any:
    try:
        found: object = store.repository.get(aggregate_id)
    except AggregateNotFoundError:
        raise DomainError(ErrorCode.NOT_FOUND, f"no such {what}") from None
    if not isinstance(found, kind):
        raise DomainError(ErrorCode.NOT_FOUND, f"no such {what}")
    return found


def _granter(store: Storefront, actor_id: UUID, reason: str) -> tuple[StaffMember, str]:
    actor = load_member(store, actor_id)
    actor.check_may(Permission.GRANT_LICENCES)
    return actor, check_reason(Permission.GRANT_LICENCES, reason)


def give_goodwill(
    store: Storefront, clock: Clock, actor_id: UUID, *, user_licence_id: UUID, days: int, reason: str
) -> Grant:
    """Give a customer's active licence ``days`` more as goodwill: at once while the licence's goodwill of the window
    stays within ``GOODWILL_DAYS_ALONE``, otherwise as a request a second member approves."""
    if not 0 < days <= MAX_GOODWILL_DAYS:
        raise DomainError(ErrorCode.INVALID_VALUE, f"goodwill is 1..{MAX_GOODWILL_DAYS} days")

    def attempt() -> Grant:
        actor, why = _granter(store, actor_id, reason)
        licence: UserLicence = _get(store, user_licence_id, UserLicence, "licence")
        now = clock.now()
        details: dict[str, str | int | None] = {"days": days, "account_id": str(licence.account_id)}
        if licence.goodwill_since(now - GOODWILL_WINDOW) + days <= GOODWILL_DAYS_ALONE:
            until = licence.give_goodwill(days, now)
            details["expires_at"] = until.isoformat()
            actor.act(Permission.GRANT_LICENCES, StaffAction.EXTEND_LICENCE, str(licence.id), why, now, details)
            store.save(licence, actor)
            return Grant(expires_at=until)
        if licence.expires_at is None or licence.state is not LicenceState.ACTIVE:
            raise DomainError(ErrorCode.LICENSE_KEY_UNUSABLE, "only an active licence with an end is extended")
        request = GrantRequest.ask(
            kind=GOODWILL,
            account_id=licence.account_id,
            subject=str(licence.id),
            details={"days": days},
            reason=why,
            requested_by=actor.id,
            at=now,
        )
        details |= {"kind": GOODWILL, "request_id": str(request.id)}
        actor.act(Permission.GRANT_LICENCES, StaffAction.REQUEST_GRANT, str(licence.id), why, now, details)
        store.save(request, actor)
        return Grant(request_id=request.id)

    return retry_on_conflict(attempt)


def ask_app_store_purchase(
    store: Storefront,
    catalogue: Catalogue,
    clock: Clock,
    actor_id: UUID,
    *,
    account_id: UUID,
    licence_id: int,
    apple_transaction_id: str,
    country_code: str,
    language: Language,
    reason: str,
) -> Grant:
    """Record a purchase the customer says they made in the App Store: unverified, it waits for a second member.
    The same transaction again answers its request (or, once granted, its licence)."""
    transaction = transaction_id(apple_transaction_id)
    earlier = recorded_purchase(store, transaction)
    if earlier is not None:
        return Grant(purchase=earlier)
    if catalogue.get(licence_id) is None:
        raise DomainError(ErrorCode.INVALID_PRODUCT_AT_INIT, f"licence {licence_id} is not in the catalogue")
    _get(store, account_id, Account, "customer")
    request_id = GrantRequest.app_store_id(transaction)

    def attempt() -> Grant:
        actor, why = _granter(store, actor_id, reason)
        try:
            asked: GrantRequest = store.repository.get(request_id)
        except AggregateNotFoundError:
            pass
        else:
            asked.check_waiting()
            return Grant(request_id=asked.id)
        now = clock.now()
        details: dict[str, str | int | None] = {
            "licence_id": licence_id,
            "apple_transaction_id": transaction,
            "country_code": country_code,
            "language": language.value,
        }
        request = GrantRequest.ask(
            kind=APP_STORE_PURCHASE,
            account_id=account_id,
            subject=transaction,
            details=details,
            reason=why,
            requested_by=actor.id,
            at=now,
            request_id=request_id,
        )
        shown = {**details, "kind": APP_STORE_PURCHASE, "request_id": str(request.id), "account_id": str(account_id)}
        actor.act(Permission.GRANT_LICENCES, StaffAction.REQUEST_GRANT, transaction, why, now, shown)
        store.save(request, actor)
        return Grant(request_id=request.id)

    return retry_on_conflict(attempt)


def approve_grant(
    store: Storefront, clock: Clock, catalogue: Catalogue, approver_id: UUID, *, request_id: UUID, reason: str
) -> Grant:
    """A second member who may approve grants makes a waiting one (never the member who asked)."""
    approver = load_member(store, approver_id)
    approver.check_may(Permission.APPROVE_GRANTS)
    why = check_reason(Permission.APPROVE_GRANTS, reason)

    def attempt() -> Grant:
        request: GrantRequest = _get(store, request_id, GrantRequest, "grant request")
        request.check_waiting()
        request.check_approver(approver_id)
        if request.kind == GOODWILL:
            return _approve_goodwill(store, clock, approver_id, request, why)
        return _approve_app_store_purchase(store, clock, catalogue, approver_id, request, why)

    return retry_on_conflict(attempt)


def _approve_goodwill(store: Storefront, clock: Clock, approver_id: UUID, request: GrantRequest, why: str) -> Grant:
    approver = load_member(store, approver_id)
    licence: UserLicence = _get(store, UUID(request.subject), UserLicence, "licence")
    now = clock.now()
    days = int(request.details["days"] or 0)
    request.approve(approver_id, why, now)
    until = licence.give_goodwill(days, now)
    details: dict[str, str | int | None] = {
        "days": days,
        "expires_at": until.isoformat(),
        "account_id": str(licence.account_id),
        "request_id": str(request.id),
    }
    approver.act(Permission.APPROVE_GRANTS, StaffAction.EXTEND_LICENCE, str(licence.id), why, now, details)
    store.save(licence, request, approver)
    return Grant(expires_at=until)


def _approve_app_store_purchase(
    store: Storefront, clock: Clock, catalogue: Catalogue, approver_id: UUID, request: GrantRequest, why: str
) -> Grant:
    details = request.details

    def recorded_with(purchase: AppStorePurchase, now: datetime) -> list[Aggregate]:
        approver = load_member(store, approver_id)
        request.approve(approver_id, why, now)
        shown: dict[str, str | int | None] = {
            "licence_id": details["licence_id"],
            "apple_transaction_id": request.subject,
            "user_licence_id": str(purchase.user_licence_id),
            "account_id": str(request.account_id),
            "request_id": str(request.id),
        }
        approver.act(
            Permission.APPROVE_GRANTS, StaffAction.RECORD_APP_STORE_PURCHASE, purchase.merchant_uid, why, now, shown
        )
        return [approver, request]

    purchase = record_app_store_purchase(
        store,
        clock,
        catalogue,
        account_id=request.account_id,
        licence_id=int(details["licence_id"] or 0),
        apple_transaction_id=request.subject,
        country_code=str(details["country_code"]),
        language=Language(str(details["language"])),
        recorded_with=recorded_with,
    )
    return Grant(purchase=purchase)


def decline_grant(store: Storefront, clock: Clock, actor_id: UUID, *, request_id: UUID, reason: str) -> None:
    """A member who may approve grants declines a waiting one, with the reason: nothing is granted."""

    def attempt() -> None:
        actor = load_member(store, actor_id)
        request: GrantRequest = _get(store, request_id, GrantRequest, "grant request")
        now = clock.now()
        details: dict[str, str | int | None] = {"request_id": str(request_id), "account_id": str(request.account_id)}
        actor.act(Permission.APPROVE_GRANTS, StaffAction.DECLINE_GRANT, request.subject, reason, now, details)
        request.decline(actor.id, reason.strip(), now)
        store.save(request, actor)

    retry_on_conflict(attempt)

"""Support's part of the back office: find a customer, read their page and timeline, and act for them. Every
action is a staff use case (domain/staff/support.py) that records the member and their reason."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Path, Query
from pydantic import Field

from api.error_docs import errors
from api.schemas import CamelModel
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffCaller, StaffDep
from application.refunds import approve_refund, preview_refund, record_gateway_refund, refund_by_staff
from domain.errors import DomainError, ErrorCode
from domain.payments.payment import LicenceEffect, Payment
from domain.staff.disclosure import Disclosure
from domain.staff.grants import Grant, approve_grant, ask_app_store_purchase, decline_grant, give_goodwill
from domain.staff.support import (
    StaffRefund,
    cancel_subscription,
    decline_refund,
    free_device,
    resend_confirmation,
    resend_licence_key,
    resend_receipt,
    resume_subscription,
)
from domain.staff.timeline import timeline
from events.licences import LicenceFlagged
from events.values import Language
from projections.accounts import find_account
from projections.grants import grant_requests
from projections.licences import licence_statements, with_devices
from projections.payments import decoded, payment_statement
from projections.subscriptions import subscription_statement
from projections.support import customer_aggregates, find_customers, refund_requests

router = APIRouter(prefix="/staff", tags=["staff"], responses=STAFF_ERRORS)

FLAGGED = LicenceFlagged.TOPIC
AccountId = Annotated[UUID, Path(description="the customer's account id")]
LicenceId = Annotated[UUID, Path(description="the customer's licence id")]


class CustomerFound(CamelModel):
    """A customer a search found, and which identifier matched."""

    account_id: UUID
    email: str
    name: str | None
    email_confirmed: bool
    registered_at: str
    matched: str


class TimelineEntry(CamelModel):
    """One event of the customer's log: when, its stored topic, the aggregate and version it is in the log as, and
    its position in the log (``GET /staff/proofs/{notificationId}`` proves it; none for an event holding a secret)."""

    at: str
    topic: str
    aggregate_id: UUID
    version: int
    fields: dict[str, Any]
    notification_id: int | None = None


class LicenceFlag(CamelModel):
    """A licence key seen on unusually many distinct devices lately (``licence.Flagged``): support should look."""

    user_licence_id: UUID
    licence_key: str | None
    at: str
    reason: str
    distinct_devices: int
    window_days: int


class CustomerPage(CamelModel):
    """Everything support sees of one customer."""

    account: dict[str, Any]
    licences: list[dict[str, Any]]
    payments: list[dict[str, Any]]
    subscriptions: list[dict[str, Any]]
    refund_requests: list[dict[str, Any]]
    timeline: list[TimelineEntry]
    flags: list[LicenceFlag] = Field(default_factory=list, description="the customer's flagged licences, newest first")


class ReasonIn(CamelModel):
    reason: str = Field(min_length=1, max_length=500)


class ExtendIn(CamelModel):
    days: int = Field(ge=1, le=366)
    reason: str = Field(min_length=1, max_length=500)


class RefundIn(CamelModel):
    """``amount`` in minor units of the payment's currency (the whole refundable balance when left out);
    ``licenceEffect`` what a partial refund of the payment that pays for the licence now does to it: ``keep`` it as it
    is, or ``shorten`` it to what is left paid for (required then: -1 without it; a full refund revokes it)."""

    amount: int | None = Field(default=None, ge=1)
    reason: str = Field(min_length=1, max_length=500)
    licence_effect: Literal["keep", "shorten"] | None = None


class RefundOut(CamelModel):
    """Refunded now (``refunded`` > 0, state ``refunded``), waiting at the gateway (state ``pending``: its answer was
    lost; the settling pass records it within minutes), or waiting for a second member's approval (``requestId``,
    state ``waiting``); ``licenceEffect`` what it did to the licence (``revoke``, ``shorten``, ``keep``)."""

    refunded: int
    request_id: UUID | None
    state: Literal["refunded", "pending", "waiting"]
    licence_effect: Literal["revoke", "shorten", "keep"] | None = None

    @classmethod
    def of(cls, outcome: StaffRefund, *, approved: bool = False) -> RefundOut:
        """The answer for a staff refund or approval."""
        if outcome.pending:
            state: Literal["refunded", "pending", "waiting"] = "pending"
        elif outcome.request_id is not None and not approved:
            state = "waiting"
        else:
            state = "refunded"
        effect = outcome.licence_effect.value if outcome.licence_effect is not None else None
        return cls(refunded=outcome.refunded, request_id=outcome.request_id, state=state, licence_effect=effect)


class RefundPreviewOut(CamelModel):
    """What a refund of ``amount`` would do before it is made: ``revokes`` the licence (it takes back all that pays
    for it now), or leaves it ending at ``expiresAt``, or (``shortenedTo``) where it would end if shortened to what
    is left paid for (None: shortening would not move it); ``unrecorded`` what the gateway refunded that the log does
    not hold yet (the refund records it first, and it is not refundable again)."""

    amount: int
    refundable: int
    currency: str
    revokes: bool
    expires_at: datetime | None
    shortened_to: datetime | None
    unrecorded: int = 0


class GatewayRefundOut(CamelModel):
    """What recording the gateway's own refunds found: ``recorded`` minor units the log did not hold (0: none)."""

    recorded: int


class RefundRequestOut(CamelModel):
    request_id: UUID
    merchant_uid: str
    account_id: UUID | None
    amount: int
    currency: str
    reason: str
    requested_by: UUID | None
    source: str
    state: str
    requested_at: str
    decided_by: UUID | None
    decision_reason: str | None
    refunded: int


@router.get("/customers")
def search_customers(
    caller: StaffDep, services: ServicesDep, q: Annotated[str, Query(min_length=1, max_length=254)]
) -> list[CustomerFound]:
    """Find customers by address or name (any part), or by licence key, merchantUid, imp_uid or device id."""
    return [CustomerFound.model_validate(row) for row in find_customers(services.views, q)]


@router.get("/customers/{account_id}")
def customer(account_id: AccountId, caller: StaffDep, services: ServicesDep) -> CustomerPage:
    """One customer: account, licences with devices, payments, subscriptions, refund requests, and the timeline."""
    account = find_account(services.views, account_id)
    if account is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such customer")
    licences_read, devices_read = licence_statements(account_id)
    with services.views.read() as cursor:
        cursor.execute(*licences_read)
        licences = cursor.fetchall()
        cursor.execute(*devices_read)
        devices = cursor.fetchall()
        cursor.execute(*payment_statement(account_id))
        payments = decoded(cursor.fetchall())
        cursor.execute(*subscription_statement(account_id))
        subscriptions = cursor.fetchall()
    owned = customer_aggregates(services.views, account_id)
    ids = [
        account_id,
        *(UUID(value) for key in ("licences", "subscriptions", "refund_requests", "reports") for value in owned[key]),
    ]
    ids += [Payment.id_for(merchant_uid) for merchant_uid in owned["payments"]]
    ids += [UUID(row["request_id"]) for row in grant_requests(services.views, account_id=account_id)]
    disclosure = Disclosure.to(caller.member.permissions)
    entries = timeline(services.store, ids, account_id, disclosure)
    requests = [row for row in refund_requests(services.views) if row["account_id"] == str(account_id)]
    licences = disclosure.rows(licences)
    keys = {str(row["user_licence_id"]): row.get("licence_key") for row in licences}
    flags = [
        LicenceFlag(
            user_licence_id=entry.aggregate_id,
            licence_key=keys.get(str(entry.aggregate_id)),
            at=entry.at.isoformat(),
            reason=str(entry.fields.get("reason", "")),
            distinct_devices=int(entry.fields.get("distinct_devices", 0)),
            window_days=int(entry.fields.get("window_days", 0)),
        )
        for entry in reversed(entries)
        if entry.topic == FLAGGED
    ]
    return CustomerPage(
        account=disclosure.fields(
            {key: str(value) if isinstance(value, UUID) else value for key, value in vars(account).items()}
        ),
        licences=with_devices(licences, devices),
        payments=disclosure.rows(payments),
        subscriptions=subscriptions,
        refund_requests=requests,
        timeline=[
            TimelineEntry(
                at=entry.at.isoformat(),
                topic=entry.topic,
                aggregate_id=entry.aggregate_id,
                version=entry.version,
                fields=entry.fields,
                notification_id=entry.notification_id,
            )
            for entry in entries
        ],
        flags=flags,
    )


@router.post("/licences/{user_licence_id}/devices/{device_id}/free", status_code=204)
def free_a_device(
    user_licence_id: LicenceId,
    device_id: Annotated[str, Path(max_length=200)],
    body: ReasonIn,
    caller: StaffDep,
    services: ServicesDep,
) -> None:
    """Free a device's slot on the customer's licence."""
    free_device(
        services.store,
        services.clock,
        caller.member.id,
        user_licence_id=user_licence_id,
        device_id=device_id,
        reason=body.reason,
    )
    # Each desk action answers once the views have it: the desk's customer page reads them again at once.
    services.see_latest_write("licences")


# A refund, its request and its approval change what the refund requests list, the customer's payments and
# their licences show.
REFUND_VIEWS = ("refund_requests", "payments", "licences")


class GrantOut(CamelModel):
    """A grant of paid licence time: made now (``state`` granted: a goodwill extension's new ``expiresAt``, or the
    App Store purchase's licence), or waiting for a second member (``state`` waiting, ``requestId``)."""

    state: str
    request_id: UUID | None = None
    expires_at: str | None = None
    merchant_uid: str | None = None
    user_licence_id: UUID | None = None
    licence_key: str | None = None

    @classmethod
    def of(cls, grant: Grant, caller: StaffCaller) -> GrantOut:
        purchase = grant.purchase
        return cls(
            state="waiting" if grant.waiting else "granted",
            request_id=grant.request_id,
            expires_at=grant.expires_at.isoformat() if grant.expires_at else None,
            merchant_uid=purchase.merchant_uid if purchase else None,
            user_licence_id=purchase.user_licence_id if purchase else None,
            licence_key=Disclosure.to(caller.member.permissions).value("licence_key", purchase.licence_key)
            if purchase
            else None,
        )


# A grant changes what the licences, payments and grant requests show.
GRANT_VIEWS = ("licences", "payments", "grant_requests")


@router.post("/licences/{user_licence_id}/extend")
def extend(user_licence_id: LicenceId, body: ExtendIn, caller: StaffDep, services: ServicesDep) -> GrantOut:
    """Give the customer's licence more days as goodwill (a reason is required): at once up to what one member
    gives alone, otherwise waiting for a second member."""
    grant = give_goodwill(
        services.store,
        services.clock,
        caller.member.id,
        user_licence_id=user_licence_id,
        days=body.days,
        reason=body.reason,
    )
    services.see_latest_write(*GRANT_VIEWS)
    return GrantOut.of(grant, caller)


SubscriptionId = Annotated[UUID, Path(description="the customer's subscription id")]


@router.post("/subscriptions/{subscription_id}/cancel", status_code=204)
def cancel_a_subscription(
    subscription_id: SubscriptionId, body: ReasonIn, caller: StaffDep, services: ServicesDep
) -> None:
    """Turn the customer's auto-renewal off for them: the licence runs to the end of the paid period."""
    cancel_subscription(
        services.store, services.clock, caller.member.id, subscription_id=subscription_id, reason=body.reason
    )
    services.see_latest_write("subscriptions")


@router.post("/subscriptions/{subscription_id}/resume", status_code=204)
def resume_a_subscription(
    subscription_id: SubscriptionId, body: ReasonIn, caller: StaffDep, services: ServicesDep
) -> None:
    """Turn a cancelled subscription's renewals back on within its paid period (nothing is charged)."""
    resume_subscription(
        services.store, services.clock, caller.member.id, subscription_id=subscription_id, reason=body.reason
    )
    services.see_latest_write("subscriptions")


MerchantUid = Annotated[str, Path(max_length=100)]


@router.get("/payments/{merchant_uid}/refund-preview")
def preview_a_refund(
    merchant_uid: MerchantUid,
    caller: StaffDep,
    services: ServicesDep,
    amount: Annotated[int | None, Query(ge=1)] = None,
) -> RefundPreviewOut:
    """What a refund of ``amount`` (all when left out) would do to the licence, before it is made."""
    preview = preview_refund(services.store, services.clock, services.payments, merchant_uid, amount)
    return RefundPreviewOut(
        amount=preview.amount,
        refundable=preview.refundable,
        currency=preview.currency,
        revokes=preview.revokes,
        expires_at=preview.expires_at,
        shortened_to=preview.shortened_to,
        unrecorded=preview.unrecorded,
    )


@router.post(
    "/payments/{merchant_uid}/refund",
    responses=errors(
        ErrorCode.EMPTY_PARAMETER,
        ErrorCode.INVALID_VALUE,
        ErrorCode.REFUND_IN_PROGRESS,
        ErrorCode.REFUND_REFUSED_BY_GATEWAY,
    ),
)
def refund_payment(merchant_uid: MerchantUid, body: RefundIn, caller: StaffDep, services: ServicesDep) -> RefundOut:
    """Refund all or part of a payment: at once while what it has been refunded in total stays within the approval
    limit, otherwise waiting for a second member; a refund made at the gateway meanwhile is recorded first."""
    outcome = refund_by_staff(
        services.store,
        services.views,
        services.clock,
        services.payments,
        caller.member.id,
        merchant_uid=merchant_uid,
        amount=body.amount,
        reason=body.reason,
        approval_limits=services.settings.refund_approval_limits,
        licence_effect=LicenceEffect(body.licence_effect) if body.licence_effect else None,
    )
    services.see_latest_write(*REFUND_VIEWS)
    return RefundOut.of(outcome)


@router.post(
    "/payments/{merchant_uid}/gateway-refund",
    responses=errors(ErrorCode.INVALID_VALUE, ErrorCode.REFUND_IN_PROGRESS),
)
def record_a_gateway_refund(
    merchant_uid: MerchantUid, body: ReasonIn, caller: StaffDep, services: ServicesDep
) -> GatewayRefundOut:
    """Record a refund made at the gateway (in PortOne's console, say) that the log does not hold yet."""
    recorded = record_gateway_refund(
        services.store,
        services.views,
        services.clock,
        services.payments,
        caller.member.id,
        merchant_uid=merchant_uid,
        reason=body.reason,
    )
    services.see_latest_write(*REFUND_VIEWS)
    return GatewayRefundOut(recorded=recorded)


@router.get("/refund-requests")
def list_refund_requests(
    caller: StaffDep,
    services: ServicesDep,
    state: Annotated[str | None, Query(pattern="^(waiting|accepted|refunded|refused)$")] = None,
) -> list[RefundRequestOut]:
    """Refund requests (staff requests above the limit, customers' money-back requests), oldest first."""
    return [RefundRequestOut.model_validate(row) for row in refund_requests(services.views, state)]


RequestId = Annotated[UUID, Path(description="the refund request's id")]


@router.post(
    "/refund-requests/{request_id}/approve",
    responses=errors(ErrorCode.INVALID_VALUE, ErrorCode.REFUND_IN_PROGRESS, ErrorCode.REFUND_REFUSED_BY_GATEWAY),
)
def approve(request_id: RequestId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> RefundOut:
    """Make a waiting refund (a member who may approve refunds, never the one who asked)."""
    outcome = approve_refund(
        services.store,
        services.views,
        services.clock,
        services.payments,
        caller.member.id,
        request_id=request_id,
        reason=body.reason,
    )
    services.see_latest_write(*REFUND_VIEWS)
    return RefundOut.of(outcome, approved=True)


@router.post("/refund-requests/{request_id}/decline", status_code=204)
def decline(request_id: RequestId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> None:
    """Decline a waiting refund, with the reason."""
    decline_refund(services.store, services.clock, caller.member.id, request_id=request_id, reason=body.reason)
    services.see_latest_write(*REFUND_VIEWS)


class OptionalReasonIn(CamelModel):
    reason: str = Field(default="", max_length=500)


@router.post("/payments/{merchant_uid}/resend-receipt", status_code=204)
def resend_a_receipt(
    merchant_uid: Annotated[str, Path(max_length=100)], body: OptionalReasonIn, caller: StaffDep, services: ServicesDep
) -> None:
    """Mail the payment's receipt (with its licence key) to the buyer again."""
    resend_receipt(services.store, services.clock, caller.member.id, merchant_uid=merchant_uid, reason=body.reason)


@router.post("/customers/{account_id}/resend-confirmation", status_code=204)
def resend_a_confirmation(
    account_id: AccountId, body: OptionalReasonIn, caller: StaffDep, services: ServicesDep
) -> None:
    """Mail the customer's address confirmation again."""
    resend_confirmation(services.store, services.clock, caller.member.id, account_id=account_id, reason=body.reason)


@router.post("/licences/{user_licence_id}/resend-licence-key", status_code=204)
def resend_a_licence_key(
    user_licence_id: LicenceId, body: OptionalReasonIn, caller: StaffDep, services: ServicesDep
) -> None:
    """Mail the licence's key to its holder again."""
    resend_licence_key(
        services.store, services.clock, caller.member.id, user_licence_id=user_licence_id, reason=body.reason
    )


class AppStorePurchaseIn(CamelModel):
    """A purchase the customer made in Apple's App Store: the catalogue licence and Apple's transaction id."""

    licence_id: int = Field(ge=1)
    apple_transaction_id: str = Field(min_length=1, max_length=64)
    country_code: str = Field(default="KR", min_length=2, max_length=2)
    language: Language = Language.KO
    reason: str = Field(min_length=1, max_length=500)


@router.post("/customers/{account_id}/app-store-purchases")
def record_an_app_store_purchase(
    account_id: AccountId, body: AppStorePurchaseIn, caller: StaffDep, services: ServicesDep
) -> GrantOut:
    """Record a purchase the customer made in the App Store: unverified, it waits for a second member who checks the
    transaction (the same transaction again: its request, or once granted, its licence)."""
    grant = ask_app_store_purchase(
        services.store,
        services.catalogue,
        services.clock,
        caller.member.id,
        account_id=account_id,
        licence_id=body.licence_id,
        apple_transaction_id=body.apple_transaction_id,
        country_code=body.country_code.upper(),
        language=body.language,
        reason=body.reason,
    )
    services.see_latest_write(*GRANT_VIEWS)
    return GrantOut.of(grant, caller)


class GrantRequestOut(CamelModel):
    """A grant waiting for (or given) a second member's decision: ``kind`` goodwill (``details.days``) or
    app-store-purchase (``details``: the catalogue licence, the transaction id, country and language)."""

    request_id: UUID
    kind: str
    account_id: UUID
    subject: str
    details: dict[str, Any]
    reason: str
    requested_by: UUID
    state: str
    requested_at: str
    decided_by: UUID | None
    decision_reason: str | None


@router.get("/grant-requests")
def list_grant_requests(
    caller: StaffDep,
    services: ServicesDep,
    state: Annotated[str | None, Query(pattern="^(waiting|granted|declined)$")] = None,
) -> list[GrantRequestOut]:
    """Grants of paid licence time beyond what one member grants alone, oldest first."""
    return [GrantRequestOut.model_validate(row) for row in grant_requests(services.views, state)]


GrantRequestId = Annotated[UUID, Path(description="the grant request's id")]


@router.post("/grant-requests/{request_id}/approve")
def approve_a_grant(request_id: GrantRequestId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> GrantOut:
    """Make a waiting grant, having checked it (another member than the one who asked)."""
    grant = approve_grant(
        services.store, services.clock, services.catalogue, caller.member.id, request_id=request_id, reason=body.reason
    )
    services.see_latest_write(*GRANT_VIEWS)
    return GrantOut.of(grant, caller)


@router.post("/grant-requests/{request_id}/decline", status_code=204)
def decline_a_grant(request_id: GrantRequestId, body: ReasonIn, caller: StaffDep, services: ServicesDep) -> None:
    """Decline a waiting grant, with the reason: nothing is granted."""
    decline_grant(services.store, services.clock, caller.member.id, request_id=request_id, reason=body.reason)
    services.see_latest_write(*GRANT_VIEWS)

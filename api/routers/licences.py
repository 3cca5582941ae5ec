"""The caller's licences: the list, one licence with its payments, and adding one by its key."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Self
from uuid import UUID

from fastapi import APIRouter, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from api.access import CallerDep
from api.error_docs import errors
from api.schemas import CamelModel, DiscountFactorOut
from api.schemas.licences import Written
from api.schemas.payments import PaymentRecord
from api.services import ServicesDep
from application.refunds import money_back_offer
from domain.catalogue.licences import Catalogue
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action, LicenceFacts
from domain.licences.allowed import SubscriptionFacts, allowed_actions
from domain.licences.licence import LicenceState
from domain.licences.management import (
    register_by_key,
)
from domain.payments.app_store import bought_in_app_store, store_transaction
from domain.subscriptions.subscription import SubscriptionStatus
from projections.licences import licence_statements, with_devices
from projections.payments import decoded, payment_statement
from projections.subscriptions import by_licence, subscription_statement

router = APIRouter(prefix="/licenses", tags=["licences"])


class DeviceOut(CamelModel):
    """A device a licence is activated on."""

    id: str
    registration_data: dict[str, str]
    platform: str
    registered_at: datetime
    last_seen_at: datetime = Field(description="When the app last validated or checked in (recorded once a day)")


class ScheduledPayment(CamelModel):
    """The next charge of a licence's subscription (spec: scheduledPayment)."""

    next_payment_at: datetime | None
    price: int
    currency: str
    license_name: str
    card_name: str | None
    card_number: str | None
    status: SubscriptionStatus


class UserLicenceOut(CamelModel):
    """A licence the caller holds, and what the caller may do with it now."""

    id: UUID
    new_license_id: int
    name: str
    product_code: str
    life: int
    max_devices_count: int
    state: LicenceState
    starts_at: datetime | None
    expires_at: datetime | None
    deposit_deadline: datetime | None
    license_key: str
    devices: list[DeviceOut]
    discount_factors: list[DiscountFactorOut]
    is_scheduled: bool
    scheduled_payment: ScheduledPayment | None
    allowed_actions: list[Action] = Field(description="what the licence page offers now, in its order")

    @classmethod
    def of(
        cls,
        row: dict[str, Any],
        subscription: dict[str, Any] | None,
        catalogue: Catalogue,
        now: datetime,
        *,
        bought_in_app_store: bool = False,
        **more: Any,
    ) -> Self:
        """From a licences-view row (and its subscription's row, when it has one); ``more`` holds a subclass's
        own fields, ``bought_in_app_store`` the detail's App Store rule."""
        if row["source"] != "subscription":
            subscription = None  # upgraded to a lifetime plan: the ended subscription no longer speaks for it
        status = SubscriptionStatus(subscription["status"]) if subscription is not None else None
        # A refunded (revoked) licence renews no more, even before its subscription's end is in the views.
        scheduled = status is not None and status.is_scheduled and row["state"] == LicenceState.ACTIVE.value
        facts = SubscriptionFacts.of_row(subscription) if subscription is not None else None
        allowed = allowed_actions(
            LicenceFacts.of_row(row), facts, catalogue, now, bought_in_app_store=bought_in_app_store
        )
        return cls(
            id=row["user_licence_id"],
            new_license_id=row["licence_id"],
            name=row["name"],
            product_code=row["product_code"],
            life=row["life"],
            max_devices_count=row["max_devices_count"],
            state=row["state"],
            starts_at=row["starts_at"],
            expires_at=row["expires_at"],
            deposit_deadline=row["deposit_deadline"],
            license_key=row["licence_key"],
            devices=[
                DeviceOut(
                    id=device["device_id"],
                    registration_data={"deviceName": device["device_name"]},
                    platform=device["platform"],
                    registered_at=device["registered_at"],
                    last_seen_at=device["last_seen_at"],
                )
                for device in row["devices"]
            ],
            discount_factors=[],
            is_scheduled=scheduled,
            scheduled_payment=(
                ScheduledPayment(
                    next_payment_at=subscription["next_charge_at"],
                    price=subscription["amount"],
                    currency=subscription["currency"],
                    license_name=subscription["name"],
                    card_name=subscription["card_name"],
                    card_number=subscription["card_number"],
                    status=subscription["status"],
                )
                if subscription is not None and scheduled
                else None
            ),
            allowed_actions=allowed,
            **more,
        )


class MoneyBackOfferOut(CamelModel):
    """The 30-day money-back guarantee the licence page offers (docs/money-back.md): ``amount`` comes back, to the
    first payment's card (``cardName``, ``cardNumber``) or account, if asked by ``deadline``; ``atOnce`` when it is
    refunded at once (otherwise support decides). Asking stops the licence on every device."""

    merchant_uid: str
    amount: int
    currency: str
    deadline: datetime
    pay_method: str | None
    card_name: str | None
    card_number: str | None
    at_once: bool


class UserLicenceDetailOut(UserLicenceOut):
    """A licence with its payments."""

    payments: list[PaymentRecord]
    is_disable_upgrade: bool
    money_back: MoneyBackOfferOut | None = Field(
        default=None, description="the money-back guarantee offered now; none where it can only be refused"
    )


@router.get("/mine", response_model=list[UserLicenceOut])
async def my_licences(services: ServicesDep, caller: CallerDep) -> list[UserLicenceOut]:
    """The caller's licences, newest first."""
    # async, and the views read on the loop: no thread hop, no blocking driver (bench/RESULTS.md);
    # one snapshot, and on PostgreSQL one round trip
    licences, devices, subscriptions = await services.views.read_many_async(
        *licence_statements(caller.account_id), subscription_statement(caller.account_id)
    )
    keeping = by_licence(subscriptions)
    now = services.clock.now()
    return [
        UserLicenceOut.of(row, keeping.get(row["user_licence_id"]), services.catalogue, now)
        for row in with_devices(licences, devices)
    ]


@router.get("/mine/{user_license_id}", response_model=UserLicenceDetailOut, responses=errors(ErrorCode.NOT_FOUND))
async def my_licence(user_license_id: UUID, services: ServicesDep, caller: CallerDep) -> UserLicenceDetailOut:
    """One of the caller's licences with its payments (404 when not theirs)."""
    # One snapshot and one round trip: the payments and the subscription are read even when the licence is not
    # found (then they are none, being read for this account only).
    account = caller.account_id
    licences, devices, records, subscriptions = await services.views.read_many_async(
        *licence_statements(account, user_license_id),
        payment_statement(account, user_license_id),
        subscription_statement(account, user_license_id),
    )
    if not licences:
        raise DomainError(ErrorCode.NOT_FOUND)
    payments = [PaymentRecord.of(record) for record in decoded(records)]
    apple = bought_in_app_store(store_transaction(r.apple_transaction_id, r.pay_method) for r in payments)
    offered = await run_in_threadpool(
        money_back_offer, services.store, services.clock, user_license_id, services.settings.money_back_limits
    )
    return UserLicenceDetailOut.of(
        with_devices(licences, devices)[0],
        subscriptions[0] if subscriptions else None,
        services.catalogue,
        services.clock.now(),
        bought_in_app_store=apple,
        payments=payments,
        is_disable_upgrade=apple,
        money_back=MoneyBackOfferOut.model_validate(offered, from_attributes=True) if offered is not None else None,
    )


@router.post(
    "/{license_key}/giveme",
    response_model=Written,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.LICENSE_KEY_IN_USE,
        ErrorCode.LICENSE_KEY_ALREADY_REGISTERED,
        ErrorCode.TOO_MANY_REQUESTS,
    ),
)
def register_licence_by_key(license_key: str, services: ServicesDep, caller: CallerDep, request: Request) -> Written:
    """Add a licence to the caller's account by its key (404, -100, -105, -106)."""
    services.limiter.key_lookup(request, license_key)
    written = register_by_key(services.store, services.clock, account_id=caller.account_id, licence_key=license_key)
    services.see_own_write(written.notification_id, "licences", "payments")
    return Written(user_license_id=written.user_licence_id)

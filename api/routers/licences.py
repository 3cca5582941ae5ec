"""Purchasable licences (spec section 7: GET /purchasable-licenses/new)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Self
from uuid import UUID

from fastapi import APIRouter, Query, Request
from pydantic import Field

from api.access import CallerDep
from api.country import visitor_country
from api.error_docs import errors
from api.routers.payments import PaymentRecord
from api.schemas import CamelModel, DiscountFactorOut
from api.services import ServicesDep
from domain.catalogue.licences import Catalogue, Price, PurchasableLicence
from domain.coupons.redemption import Coupon, find_coupon
from domain.errors import DomainError, ErrorCode
from domain.licences.actions import Action, LicenceFacts, in_display_order, licence_actions
from domain.licences.licence import LicenceState
from domain.licences.management import (
    activate_device,
    join_open_beta,
    register_by_key,
    remove_device,
    rename_device,
)
from domain.pricing.quotes import Quote, quote_price
from domain.subscriptions.subscription import SubscriptionStatus, subscription_actions, with_subscription
from projections.licences import licence_statements, with_devices
from projections.payments import decoded, payment_statement
from projections.subscriptions import by_licence, subscription_statement

router = APIRouter(prefix="/purchasable-licenses", tags=["licences"])


class PriceOut(CamelModel):
    """A price in one country: list price and the amount charged after discounts."""

    country_code: str
    currency: str
    price: int
    request_price: int


class LocalizationOut(CamelModel):
    """A licence's name in one language."""

    lang_code: str
    name: str
    description: str


class PurchasableLicenceOut(CamelModel):
    """A licence on sale."""

    id: int
    product_code: str
    life: int
    max_devices_count: int
    prices: list[PriceOut]
    localizations: list[LocalizationOut]
    discount_factors: list[DiscountFactorOut]

    @classmethod
    def of(
        cls, licence: PurchasableLicence, coupon: Coupon | None = None, visitor: str | None = None
    ) -> PurchasableLicenceOut:
        """The wire form of a catalogue licence, each price quoted as a buyer in its country pays it (with the
        coupon, in the countries it discounts). The price the visitor's country falls back to (when it has
        none of its own) is quoted as the visitor pays it: with the coupon only when the group admits that
        country or ``applyDefaultCountry``."""
        visitor_price = licence.price_for(visitor).country_code if visitor else None

        def quoted(price: Price) -> Quote:
            if coupon is None:
                return quote_price(licence, price)
            buyer = visitor if visitor and price.country_code == visitor_price else price.country_code
            return coupon.quote(licence, buyer)

        quotes = [quoted(price) for price in licence.prices]
        return cls(
            id=licence.id,
            product_code=licence.product_code,
            life=licence.life,
            max_devices_count=licence.max_devices_count,
            prices=[
                PriceOut(
                    country_code=quote.country_code,
                    currency=quote.currency.value,
                    price=quote.list_price,
                    request_price=quote.amount,
                )
                for quote in quotes
            ],
            localizations=[
                LocalizationOut(lang_code=item.lang_code.value, name=item.name, description=item.description)
                for item in licence.localizations
            ],
            discount_factors=[DiscountFactorOut.of(factor) for factor in quotes[0].factors],
        )


def _parse_ids(raw: str) -> list[int]:
    try:
        return [int(part) for part in raw.split(",") if part.strip()]
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, "licenseIds must be comma-separated integers") from None


@router.get(
    "/new",
    response_model=list[PurchasableLicenceOut],
    responses=errors(
        ErrorCode.LICENSE_NOT_FOUND,
        ErrorCode.NOTHING_PURCHASABLE,
        ErrorCode.COUPON_USAGE_EXCEEDED,
        ErrorCode.COUPON_UNUSABLE,
        ErrorCode.CODE_CANNOT_BE_USED,
        ErrorCode.CODE_EXPIRED,
    ),
)
def purchasable_licences(
    request: Request,
    services: ServicesDep,
    code: Annotated[str | None, Query(description="coupon or promotion code")] = None,
    op: Annotated[str | None, Query(description="comparison; only 'eq'")] = None,
    prop: Annotated[str | None, Query(description="life, maxDevicesCount or id")] = None,
    value: Annotated[int | None, Query()] = None,
    license_ids: Annotated[str | None, Query(alias="licenseIds", description="e.g. 121,122")] = None,
) -> list[PurchasableLicenceOut]:
    """Licences on sale, optionally filtered; -109 when nothing matches. With a ``code`` each price is quoted
    with the coupon where it applies (its ``coupon`` factor in discountFactors); an unknown code answers -108
    (spec: invalid coupon code), a code that cannot be used now its reason (-602 to -605)."""
    coupon = None
    if code is not None and code.strip():
        try:
            coupon = find_coupon(services.store, code)
        except DomainError as unknown:
            raise DomainError(ErrorCode.LICENSE_NOT_FOUND, "unknown coupon code") from unknown
        coupon.check_open(services.clock.now())
    condition = None
    if op is not None or prop is not None or value is not None:
        if op is None or prop is None or value is None:
            raise DomainError(ErrorCode.EMPTY_PARAMETER, "op, prop and value go together")
        if op != "eq":
            raise DomainError(ErrorCode.INVALID_VALUE, "only op=eq is supported")
        condition = (prop, value)
    ids = _parse_ids(license_ids) if license_ids is not None else None
    try:
        chosen = services.catalogue.select(licence_ids=ids, equal_to=condition)
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"cannot filter on {prop}") from None
    if not chosen:
        raise DomainError(ErrorCode.NOTHING_PURCHASABLE)
    visitor = visitor_country(request, services.settings)
    return [PurchasableLicenceOut.of(licence, coupon, visitor) for licence in chosen]


mine = APIRouter(prefix="/licenses", tags=["licences"])


class DeviceOut(CamelModel):
    """A device a licence is activated on."""

    id: str
    registration_data: dict[str, str]
    platform: str
    registered_at: datetime


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
        **more: Any,
    ) -> Self:
        """From a licences-view row (and its subscription's row, when it has one); ``more`` holds a subclass's
        own fields. A licence upgraded from a subscription to a lifetime plan was bought for good: its ended
        subscription no longer speaks for it."""
        if row["source"] != "subscription":
            subscription = None
        status = SubscriptionStatus(subscription["status"]) if subscription is not None else None
        scheduled = status is not None and status.is_scheduled
        allowed = licence_actions(_facts(row), catalogue, now)
        if subscription is not None and status is not None:
            paid_until = datetime.fromisoformat(subscription["paid_until"])
            allowed = with_subscription(allowed, status) | subscription_actions(status, paid_until, now, row["state"])
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
            allowed_actions=in_display_order(allowed),
            **more,
        )


def _facts(row: dict[str, Any]) -> LicenceFacts:
    """What the licence rules look at, from a licences-view row."""
    return LicenceFacts(
        state=row["state"],
        expires_at=datetime.fromisoformat(row["expires_at"]) if row["expires_at"] else None,
        devices_count=len(row["devices"]),
        max_devices_count=row["max_devices_count"],
        source=row["source"],
        product_code=row["product_code"],
        life=row["life"],
    )


class UserLicenceDetailOut(UserLicenceOut):
    """A licence with its payments."""

    payments: list[PaymentRecord]
    is_disable_upgrade: bool


@mine.get("/mine", response_model=list[UserLicenceOut])
async def my_licences(services: ServicesDep, caller: CallerDep) -> list[UserLicenceOut]:
    """The caller's licences, newest first."""
    # async, and the views read on the loop: no thread hop, no blocking driver (README, "Performance");
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


@mine.get("/mine/{user_license_id}", response_model=UserLicenceDetailOut, responses=errors(ErrorCode.NOT_FOUND))
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
    # Licences bought in Apple's store are not upgraded here (spec: any payment with an Apple transaction id).
    apple = any(record.apple_transaction_id for record in payments)
    return UserLicenceDetailOut.of(
        with_devices(licences, devices)[0],
        subscriptions[0] if subscriptions else None,
        services.catalogue,
        services.clock.now(),
        payments=payments,
        is_disable_upgrade=apple,
    )


class DeviceRename(CamelModel):
    """A device's new name."""

    device_name: str = Field(min_length=1, max_length=200)


class Written(CamelModel):
    """The licence a command changed."""

    user_license_id: UUID


@mine.patch(
    "/{user_license_id}/devices/{device_id}",
    response_model=Written,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.DEVICE_NOT_FOUND),
)
def rename_my_device(
    user_license_id: UUID, device_id: str, body: DeviceRename, services: ServicesDep, caller: CallerDep
) -> Written:
    """Rename a device (-2 when the name is not allowed, -1404 when the device is gone)."""
    written = rename_device(
        services.store,
        services.clock,
        account_id=caller.account_id,
        user_licence_id=user_license_id,
        device_id=device_id,
        device_name=body.device_name,
    )
    services.see_own_write(written.notification_id, "licences")
    return Written(user_license_id=written.user_licence_id)


@mine.delete(
    "/{user_license_id}/devices/{device_id}",
    response_model=Written,
    responses=errors(ErrorCode.NOT_FOUND, ErrorCode.DEVICE_NOT_FOUND),
)
def remove_my_device(user_license_id: UUID, device_id: str, services: ServicesDep, caller: CallerDep) -> Written:
    """Remove a device from a licence (-1404 when it is not there)."""
    written = remove_device(
        services.store,
        services.clock,
        account_id=caller.account_id,
        user_licence_id=user_license_id,
        device_id=device_id,
    )
    services.see_own_write(written.notification_id, "licences")
    return Written(user_license_id=written.user_licence_id)


@mine.post(
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


@mine.post(
    "/open-beta",
    response_model=Written,
    responses=errors(ErrorCode.ALREADY_IN_OPEN_BETA, (ErrorCode.SERVER_ERROR_CONTACT_ADMIN, 410)),
)
def open_beta(services: ServicesDep, caller: CallerDep) -> Written:
    """Join the open beta: once per account (-114), not after it ended (-1002)."""
    written = join_open_beta(
        services.store, services.clock, account_id=caller.account_id, ends_at=services.settings.open_beta_ends_at
    )
    services.see_own_write(written.notification_id, "licences")
    return Written(user_license_id=written.user_licence_id)


class DeviceActivationIn(CamelModel):
    """An app asks to run on a device under a licence key."""

    license_key: str = Field(min_length=1, max_length=40)
    device_id: str = Field(min_length=1, max_length=128)
    device_name: str = Field(min_length=1, max_length=200)
    platform: str = Field(min_length=1, max_length=20)


class DeviceActivationOut(CamelModel):
    """The licence the device now runs under."""

    user_license_id: UUID
    expires_at: datetime | None
    devices_count: int
    max_devices_count: int


@mine.post(
    "/activate",
    response_model=DeviceActivationOut,
    responses=errors(
        ErrorCode.NOT_FOUND,
        ErrorCode.LICENSE_KEY_UNUSABLE,
        ErrorCode.DEVICE_LIMIT_REACHED,
        ErrorCode.TOO_MANY_REQUESTS,
    ),
)
def activate_app_device(body: DeviceActivationIn, services: ServicesDep, request: Request) -> DeviceActivationOut:
    """For the apps: activate a device (404 unknown key, -100 expired or other platform, -107 every device slot
    taken)."""
    services.limiter.activation(request, body.license_key)
    activation = activate_device(
        services.store,
        services.clock,
        licence_key=body.license_key,
        device_id=body.device_id,
        device_name=body.device_name,
        platform=body.platform,
    )
    return DeviceActivationOut(
        user_license_id=activation.user_licence_id,
        expires_at=activation.expires_at,
        devices_count=activation.devices_count,
        max_devices_count=activation.max_devices_count,
    )

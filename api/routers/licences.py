"""Purchasable licences (spec section 7: GET /purchasable-licenses/new)."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from domain.catalogue.licences import Catalogue, PurchasableLicence, load_catalogue
from domain.errors import DomainError, ErrorCode

router = APIRouter(prefix="/purchasable-licenses", tags=["licences"])


@lru_cache(maxsize=1)
def current_catalogue() -> Catalogue:
    """The catalogue file, read once per process (an operator's change takes effect on restart)."""
    return load_catalogue()


class _Schema(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True)


class PriceOut(_Schema):
    """A price in one country: list price and the amount charged after discounts."""

    country_code: str
    currency: str
    price: int
    request_price: int


class LocalizationOut(_Schema):
    """A licence's name in one language."""

    lang_code: str
    name: str
    description: str


class DiscountFactorOut(_Schema):
    """A discount applied to the list price (``factor`` is a fraction, e.g. "0.3")."""

    type: str
    factor: Decimal


class PurchasableLicenceOut(_Schema):
    """A licence on sale."""

    id: int
    product_code: str
    life: int
    max_devices_count: int
    prices: list[PriceOut]
    localizations: list[LocalizationOut]
    discount_factors: list[DiscountFactorOut]

    @classmethod
    def of(cls, licence: PurchasableLicence) -> PurchasableLicenceOut:
        """The wire form of a catalogue licence."""
        return cls(
            id=licence.id,
            product_code=licence.product_code,
            life=licence.life,
            max_devices_count=licence.max_devices_count,
            prices=[
                PriceOut(
                    country_code=price.country_code,
                    currency=price.currency.value,
                    price=price.price,
                    request_price=licence.charged_amount(price),
                )
                for price in licence.prices
            ],
            localizations=[
                LocalizationOut(lang_code=item.lang_code.value, name=item.name, description=item.description)
                for item in licence.localizations
            ],
            discount_factors=(
                [DiscountFactorOut(type="base", factor=licence.base_discount)]
                if licence.base_discount
                else []
            ),
        )


def _parse_ids(raw: str) -> list[int]:
    try:
        return [int(part) for part in raw.split(",") if part.strip()]
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, "licenseIds must be comma-separated integers") from None


@router.get("/new", response_model=list[PurchasableLicenceOut])
def purchasable_licences(
    code: Annotated[str | None, Query(description="coupon or promotion code")] = None,
    op: Annotated[str | None, Query(description="comparison; only 'eq'")] = None,
    prop: Annotated[str | None, Query(description="life, maxDevicesCount or id")] = None,
    value: Annotated[int | None, Query()] = None,
    license_ids: Annotated[str | None, Query(alias="licenseIds", description="e.g. 121,122")] = None,
) -> list[PurchasableLicenceOut]:
    """Licences on sale, optionally filtered; -109 when nothing matches."""
    if code is not None and code.strip():
        # No coupon or promotion exists until the coupons capability lands: every code is unknown.
        raise DomainError(ErrorCode.LICENSE_NOT_FOUND, "unknown coupon code")
    condition = None
    if op is not None or prop is not None or value is not None:
        if op is None or prop is None or value is None:
            raise DomainError(ErrorCode.EMPTY_PARAMETER, "op, prop and value go together")
        if op != "eq":
            raise DomainError(ErrorCode.INVALID_VALUE, "only op=eq is supported")
        condition = (prop, value)
    ids = _parse_ids(license_ids) if license_ids is not None else None
    try:
        chosen = current_catalogue().select(licence_ids=ids, equal_to=condition)
    except ValueError:
        raise DomainError(ErrorCode.INVALID_VALUE, f"cannot filter on {prop}") from None
    if not chosen:
        raise DomainError(ErrorCode.NOTHING_PURCHASABLE)
    return [PurchasableLicenceOut.of(licence) for licence in chosen]

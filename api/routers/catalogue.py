"""The catalogue on sale (spec section 7: GET /purchasable-licenses/new), quoted for the visitor and a coupon."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from api.country import visitor_country
from api.error_docs import errors
from api.schemas import CamelModel, DiscountFactorOut
from api.services import ServicesDep
from domain.catalogue.licences import Price, PurchasableLicence
from domain.coupons.redemption import Coupon, find_coupon
from domain.errors import DomainError, ErrorCode
from domain.pricing.quotes import Quote, quote_price

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

"""The base of request and response schemas: camelCase on the wire, as the spec names fields."""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from domain.pricing.quotes import DiscountFactor


class CamelModel(BaseModel):
    """Accepts and emits camelCase field names."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True)


class DiscountFactorOut(CamelModel):
    """A discount a price was charged with: ``type`` base, remaining or coupon; ``factor`` a fraction ("0.3")."""

    type: str
    factor: Decimal

    @classmethod
    def of(cls, factor: DiscountFactor) -> DiscountFactorOut:
        """The wire form of a quote's discount."""
        return cls(type=factor.kind.value, factor=factor.factor)

"""Purchasable licences, read from a versioned data file an operator can change without code.

Prices are integers in the currency's minor unit. A licence may carry a base
discount (a Decimal fraction); what a buyer pays is quoted by ``domain.pricing``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from domain.catalogue.products import PRODUCTS
from events.values import Currency, Language

# A plan's life in days: a month, a year, or lifetime (never renews). The web app gets these, and the fallbacks
# below, from the server (api/web_rules.py writes web/src/api/rules.ts).
MONTH_DAYS = 30
YEAR_DAYS = 365
LIFETIME_DAYS = 36500
SUBSCRIPTION_LIVES = (MONTH_DAYS, YEAR_DAYS)
DEFAULT_LIFE = YEAR_DAYS
# Spec section 9: a buyer's country, else US, else KR; a reader's language, else English, else Korean.
COUNTRY_FALLBACK = ("US", "KR")
LANGUAGE_FALLBACK = (Language.EN, Language.KO)
CATALOGUE_FILE = Path(__file__).with_name("licences.json")


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True, extra="forbid")


class Price(_Model):
    """The list price of a licence in one country."""

    country_code: str = Field(min_length=2, max_length=2)
    currency: Currency
    price: int = Field(gt=0)


class Localization(_Model):
    """A licence's name and description in one language."""

    lang_code: Language
    name: str = Field(min_length=1)
    description: str = ""


class PurchasableLicence(_Model):
    """A licence on sale: product, period (life in days), devices, prices and names."""

    id: int = Field(gt=0)
    product_code: str
    life: int = Field(gt=0)
    max_devices_count: int = Field(gt=0)
    # A device of this plan unseen (no validate or heartbeat) this many days gives its seat up (docs/app-licensing.md).
    idle_release_days: int = Field(default=30, ge=1, le=365)
    base_discount: Decimal = Field(default=Decimal(0), ge=0, lt=1)
    prices: tuple[Price, ...] = Field(min_length=1)
    localizations: tuple[Localization, ...] = Field(min_length=1)

    @field_validator("product_code")
    @classmethod
    def _known_product(cls, code: str) -> str:
        if code not in PRODUCTS:
            raise ValueError(f"unknown product code {code!r}")
        return code

    @property
    def is_lifetime(self) -> bool:
        """Lifetime licences last 36500 days and never renew."""
        return self.life == LIFETIME_DAYS

    @property
    def is_subscription(self) -> bool:
        """Monthly and annual licences renew by themselves."""
        return not self.is_lifetime

    def price_for(self, country_code: str) -> Price:
        """The price for a country: that country, else US, else KR, else the first listed."""
        by_country = {price.country_code: price for price in self.prices}
        for candidate in (country_code.upper(), *COUNTRY_FALLBACK):
            if candidate in by_country:
                return by_country[candidate]
        return self.prices[0]

    def localization_for(self, language: Language) -> Localization:
        """The name in a language: that language, else English, else Korean, else the first."""
        by_language = {item.lang_code: item for item in self.localizations}
        for candidate in (language, *LANGUAGE_FALLBACK):
            if candidate in by_language:
                return by_language[candidate]
        return self.localizations[0]


class Catalogue(_Model):
    """Every purchasable licence of one catalogue version."""

    version: int = Field(gt=0)
    licences: tuple[PurchasableLicence, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> Catalogue:
        ids = [licence.id for licence in self.licences]
        if len(ids) != len(set(ids)):
            raise ValueError("licence ids must be unique")
        return self

    def get(self, licence_id: int) -> PurchasableLicence | None:
        """The licence with this id, if on sale."""
        return next((licence for licence in self.licences if licence.id == licence_id), None)

    def currency_for(self, country_code: str) -> str:
        """The currency a buyer from ``country_code`` pays in: that of the price the country fallback picks
        (the first licence's; every licence prices the same countries in the same currencies)."""
        return self.licences[0].price_for(country_code).currency.value

    def select(
        self,
        *,
        licence_ids: Iterable[int] | None = None,
        equal_to: tuple[str, int] | None = None,
    ) -> Sequence[PurchasableLicence]:
        """Licences filtered by id list and/or one ``prop == value`` condition."""
        chosen: Sequence[PurchasableLicence] = self.licences
        if licence_ids is not None:
            wanted = set(licence_ids)
            chosen = [licence for licence in chosen if licence.id in wanted]
        if equal_to is not None:
            prop, value = equal_to
            if prop not in FILTERABLE:
                raise ValueError(f"cannot filter on {prop!r}")
            chosen = [licence for licence in chosen if getattr(licence, FILTERABLE[prop]) == value]
        return chosen

    def upgrade_targets(self, product_code: str, life: int, max_devices_count: int) -> list[PurchasableLicence]:
        """Licences a holder of (product, life, devices) may upgrade to: the same product with more devices,
        a longer life (monthly, annual, lifetime), or both; never fewer devices nor a shorter life."""
        return [
            licence
            for licence in self.licences
            if licence.product_code == product_code
            and licence.life >= life
            and licence.max_devices_count >= max_devices_count
            and (licence.life, licence.max_devices_count) != (life, max_devices_count)
        ]


FILTERABLE = {"id": "id", "life": "life", "maxDevicesCount": "max_devices_count"}


def load_catalogue(path: Path = CATALOGUE_FILE) -> Catalogue:
    """Read and validate a catalogue file (raises on any inconsistency)."""
    return Catalogue.model_validate(json.loads(path.read_text(encoding="utf-8")))

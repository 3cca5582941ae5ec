"""Filter catalogues: the filters a report can name, one versioned catalogue per app (``filters.json``).

There are three catalogues, of the basic apps uncea (Android), uncei (iOS) and uncem (Mac), each with filter ids
of its own. The Pro apps run the same filters as the basic app of their platform, so each is served its
platform's catalogue; Windows has no basic app, and its Pro app blocks in desktop browsers as the Mac app
does, so it is served the Mac catalogue (with the Privacy and cryptocurrency-miner filters).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from domain.errors import DomainError, ErrorCode
from events.values import Language

CATALOGUE_FILE = Path(__file__).with_name("filters.json")
# Which catalogue each product is served (see the module docstring).
CATALOGUE_OF_PRODUCT = {
    "uncea": "uncea",
    "uncei": "uncei",
    "uncem": "uncem",
    "uncpa": "uncea",
    "uncpi": "uncei",
    "uncpm": "uncem",
    "uncpw": "uncem",
}
LANGUAGES = {language.value for language in Language}


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True, extra="forbid")


def _check_languages(localizations: tuple[_Localized, ...], what: str) -> None:
    if {item.language_code for item in localizations} != LANGUAGES:
        raise ValueError(f"{what} needs one localization in each of ko, en and ja")


class _Localized(_Model):
    language_code: str
    name: str = Field(min_length=1)


class GroupLocalization(_Localized):
    """A group's name in one language."""


class FilterLocalization(_Localized):
    """A filter's name and description in one language."""

    description: str = Field(min_length=1)


class Filter(_Model):
    """One filter list an app can subscribe to."""

    filter_id: int = Field(gt=0)
    name: str = Field(min_length=1)
    localizations: tuple[FilterLocalization, ...]

    @model_validator(mode="after")
    def _in_every_language(self) -> Filter:
        _check_languages(self.localizations, f"filter {self.filter_id}")
        return self


class FilterGroup(_Model):
    """Filters shown together (the main group, then the second)."""

    group_id: int = Field(gt=0)
    name: str = Field(min_length=1)
    localizations: tuple[GroupLocalization, ...]
    filters: tuple[Filter, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _in_every_language(self) -> FilterGroup:
        _check_languages(self.localizations, f"group {self.group_id}")
        return self


class FilterCatalogue(_Model):
    """One app's filters, in groups; ``version`` rises with every change of the file's entry."""

    product: str
    version: int = Field(gt=0)
    groups: tuple[FilterGroup, ...] = Field(min_length=1)

    @property
    def filter_ids(self) -> frozenset[int]:
        """Every filter id of the catalogue."""
        return frozenset(item.filter_id for group in self.groups for item in group.filters)


class FilterCatalogues(_Model):
    """The three catalogues; a filter id belongs to one catalogue only."""

    catalogues: tuple[FilterCatalogue, ...]

    @model_validator(mode="after")
    def _one_per_basic_app_with_ids_of_its_own(self) -> FilterCatalogues:
        products = [catalogue.product for catalogue in self.catalogues]
        if sorted(products) != sorted(set(CATALOGUE_OF_PRODUCT.values())):
            raise ValueError(f"one catalogue for each of uncea, uncei and uncem, not {products}")
        ids = [item.filter_id for catalogue in self.catalogues for g in catalogue.groups for item in g.filters]
        if len(ids) != len(set(ids)):
            raise ValueError("a filter id appears twice")
        return self

    def for_product(self, product: str) -> FilterCatalogue:
        """The catalogue a product is served; -2 for an unknown product."""
        name = CATALOGUE_OF_PRODUCT.get(product)
        if name is None:
            raise DomainError(ErrorCode.INVALID_VALUE, f"no filters for product {product!r}")
        return next(catalogue for catalogue in self.catalogues if catalogue.product == name)

    def check_filters(self, product: str, filter_ids: tuple[int, ...]) -> None:
        """-2 unless every id is a filter of the product's catalogue."""
        unknown = set(filter_ids) - self.for_product(product).filter_ids
        if unknown:
            raise DomainError(ErrorCode.INVALID_VALUE, f"filters {sorted(unknown)} are not filters of {product}")


@cache
def load_filter_catalogues(path: Path = CATALOGUE_FILE) -> FilterCatalogues:
    """The catalogues of the data file (read once per process)."""
    return FilterCatalogues.model_validate(json.loads(path.read_text(encoding="utf-8")))

"""A report of an ad that got through, a page blocked by mistake, or a bug: what it must hold, and keeping it.

A report names the product and the kind of problem; an ad or a misblock also names the page's address. The
sender agrees (``checked``) that what they typed, their device details and their images are kept to handle
it. Every other field is optional, and empty ones are not kept. Images are cleaned (``domain.images``) and
put in the object store before the report is recorded, so a recorded report's images always exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate
from pydantic import BaseModel, ConfigDict, EmailStr, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from domain.catalogue.products import PRODUCTS
from domain.clock import Clock
from domain.errors import DomainError, ErrorCode
from domain.images import check_image_count, clean_image
from domain.ports import ObjectStore, StoredObject
from domain.reports.filters import FilterCatalogues
from domain.store import Storefront
from events.reports import ReportHandled, ReportSubmitted

MAX_CUSTOM_FILTERS = 100


class Problem(Enum):
    """What went wrong."""

    AD = "ad"  # an ad was not blocked
    MISBLOCK = "misblock"  # something that is not an ad was blocked, or a page broke
    BUG = "bug"  # the app itself misbehaves

    @property
    def names_a_page(self) -> bool:
        """Ads and misblocks happen on a page, whose address the report must give."""
        return self is not Problem.BUG


class ReportForm(BaseModel):
    """The fields of a report as the spec names them (section 3); empty text is the same as none."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, frozen=True, extra="forbid", str_strip_whitespace=True
    )

    product: str
    problem: Problem
    url: str | None = Field(default=None, max_length=2048)
    comment: str | None = Field(default=None, max_length=5000)
    email: EmailStr | None = Field(default=None, max_length=254)
    adult: bool = False
    application: str | None = Field(default=None, max_length=100)
    application_etc: str | None = Field(default=None, max_length=200)
    filters: tuple[int, ...] = ()
    custom_filters: tuple[str, ...] = Field(default=(), max_length=MAX_CUSTOM_FILTERS)
    version: str | None = Field(default=None, max_length=100)
    device_model: str | None = Field(default=None, max_length=100)
    filter_versions: str | None = Field(default=None, max_length=1000)
    os: str | None = Field(default=None, max_length=50)
    os_version: str | None = Field(default=None, max_length=100)
    checked: bool = False

    @model_validator(mode="before")
    @classmethod
    def _empty_is_left_out(cls, values: Any) -> Any:
        if isinstance(values, dict):
            return {name: value for name, value in values.items() if not (isinstance(value, str) and not value.strip())}
        return values

    @field_validator("*")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        # PostgreSQL's text columns cannot hold a NUL (domain.text), and no report needs one.
        if any(isinstance(text, str) and "\x00" in text for text in (value if isinstance(value, tuple) else (value,))):
            raise ValueError("text with a NUL character")
        return value

    @field_validator("product")
    @classmethod
    def _known_product(cls, product: str) -> str:
        if product not in PRODUCTS:
            raise ValueError(f"unknown product {product!r}")
        return product

    @field_validator("url")
    @classmethod
    def _web_address(cls, url: str | None) -> str | None:
        if url is not None:
            parts = urlsplit(url)
            if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
                raise ValueError("an http or https address")
        return url

    @field_validator("filters", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("custom_filters", mode="before")
    @classmethod
    def _one_rule_a_line(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(line.strip() for line in value.splitlines() if line.strip())
        return value

    @field_validator("custom_filters")
    @classmethod
    def _short_rules(cls, rules: tuple[str, ...]) -> tuple[str, ...]:
        if any(len(rule) > 1000 for rule in rules):
            raise ValueError("a custom filter of at most 1000 characters")
        return rules

    def check_complete(self) -> None:
        """-1 without the agreement, or without the page's address for an ad or a misblock."""
        if not self.checked:
            raise DomainError(ErrorCode.EMPTY_PARAMETER, "the sender must agree (checked)")
        if self.problem.names_a_page and self.url is None:
            raise DomainError(ErrorCode.EMPTY_PARAMETER, f"a {self.problem.value} report names the page (url)")


class Report(Aggregate):
    """A submitted report; support reads it from the reports view."""

    @classmethod
    def submit(
        cls,
        report_id: UUID,
        form: ReportForm,
        images: Sequence[dict[str, str | int]],
        account_id: UUID | None,
        at: datetime,
    ) -> Report:
        """Record a complete report whose images are already stored."""
        form.check_complete()
        fields = form.model_dump(mode="json")
        return cls._create(
            ReportSubmitted,
            id=report_id,
            timestamp=at,
            account_id=account_id,
            images=[dict(image) for image in images],
            **{**fields, "filters": list(form.filters), "custom_filters": list(form.custom_filters)},
        )

    @property
    def handled(self) -> bool:
        """Did a staff member close it?"""
        return self.handled_at is not None

    def handle(self, actor_id: UUID, reason: str, at: datetime) -> None:
        """A staff member closes the report as handled, saying what was done (-1 without a reason, -2 when it was
        closed already)."""
        why = reason.strip()
        if not why:
            raise DomainError(ErrorCode.EMPTY_PARAMETER, "say how the report was handled")
        if self.handled:
            raise DomainError(ErrorCode.INVALID_VALUE, "the report was closed already")
        self.trigger_event(ReportHandled, timestamp=at, actor_id=actor_id, reason=why)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _submitted(self, event: ReportSubmitted) -> None:
        self.product = event.product
        self.problem = Problem(event.problem)
        self.account_id = event.account_id
        self.images = list(event.images)
        self.handled_at: datetime | None = None
        self.handled_by: UUID | None = None

    @when.register
    def _handled(self, event: ReportHandled) -> None:
        self.handled_at = event.timestamp
        self.handled_by = event.actor_id


def submit_report(
    store: Storefront,
    objects: ObjectStore,
    clock: Clock,
    catalogues: FilterCatalogues,
    form: ReportForm,
    uploads: Sequence[bytes],
    account_id: UUID | None = None,
) -> Report:
    """Check the report and its images, store the cleaned images, and record it."""
    form.check_complete()
    catalogues.check_filters(form.product, form.filters)
    check_image_count(len(uploads))
    cleaned = [clean_image(data) for data in uploads]
    report_id = uuid4()
    images: list[dict[str, str | int]] = []
    for number, image in enumerate(cleaned, start=1):
        key = f"reports/{report_id}/{number}.{image.kind.extension}"
        objects.put(key, StoredObject(image.data, image.kind.content_type))
        images.append(
            {
                "key": key,
                "content_type": image.kind.content_type,
                "bytes": len(image.data),
                "width": image.width,
                "height": image.height,
                "frames": image.frames,
            }
        )
    report = Report.submit(report_id, form, images, account_id, clock.now())
    store.save(report)
    return report

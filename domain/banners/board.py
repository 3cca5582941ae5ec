"""The banner board: every event banner and notice, and which one a visitor sees now.

Banners are few and read on every page, so one aggregate holds them all (its id is fixed). An event
banner may advertise a coupon group; a visitor who arrives with that group's code sees it. A notice's
window is whole days in +09:00: it starts at 00:00:00 of its start date and ends at 23:59:59 of its end
date (spec section 9).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from enum import Enum
from functools import singledispatchmethod
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.banners.fields import check_localizations
from domain.business_time import BUSINESS_TIME
from domain.errors import DomainError, ErrorCode
from domain.store import Storefront
from events.concurrency import retry_on_conflict
from events.coupons import BannerBoardOpened, BannerChanged, BannerPosted

BOARD_ID = uuid5(NAMESPACE_URL, "/event-banners")
LOCALIZATION_FIELDS = (
    "text",
    "sub_text",
    "text_color",
    "sub_text_color",
    "background_color",
    "background_image_url",
    "pc_image_url",
    "mobile_image_url",
    "close_button_color",
    "url",
)


class BannerType(Enum):
    """An event banner (may advertise a coupon group) or a closable notice."""

    NOTICE = "notice"
    EVENT = "event"


@dataclass(frozen=True)
class Banner:
    """One banner or notice (spec: eventBanner / notice)."""

    id: int
    type: BannerType
    active: bool
    start_at: datetime | None
    end_at: datetime | None
    apply_country: tuple[str, ...] = ()
    coupon_group_id: UUID | None = None
    localizations: tuple[Mapping[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.start_at and self.end_at and self.end_at <= self.start_at:
            raise DomainError(ErrorCode.INVALID_VALUE, "endAt must come after startAt")
        for item in self.localizations:
            if item.get("lang_code") not in ("ko", "en", "ja"):
                raise DomainError(ErrorCode.INVALID_VALUE, "a localization's langCode is ko, en or ja")

    @property
    def window(self) -> tuple[datetime | None, datetime | None]:
        """When it shows: a notice's dates widened to whole days in +09:00."""
        if self.type is not BannerType.NOTICE:
            return self.start_at, self.end_at
        start = (
            datetime.combine(self.start_at.astimezone(BUSINESS_TIME).date(), time(0, 0, 0), BUSINESS_TIME)
            if self.start_at
            else None
        )
        end = (
            datetime.combine(self.end_at.astimezone(BUSINESS_TIME).date(), time(23, 59, 59), BUSINESS_TIME)
            if self.end_at
            else None
        )
        return start, end

    def shows_at(self, now: datetime, country_code: str | None) -> bool:
        """Active, inside its window (spec: with a start, from start to end, open-ended without an end; without
        a start, while its end is ahead, so a banner with neither never shows), and for the visitor's country
        (no countries: everywhere)."""
        if not self.active:
            return False
        start, end = self.window
        in_window = (start <= now and (end is None or now <= end)) if start else (end is not None and now < end)
        return in_window and (not self.apply_country or (country_code or "").upper() in self.apply_country)

    def as_record(self) -> dict[str, Any]:
        """The plain form events carry."""
        return {
            "type": self.type.value,
            "active": self.active,
            "start_at": self.start_at,
            "end_at": self.end_at,
            "apply_country": list(self.apply_country),
            "coupon_group_id": self.coupon_group_id,
            "localizations": [dict(item) for item in self.localizations],
        }

    @classmethod
    def from_record(cls, banner_id: int, record: Mapping[str, Any]) -> Banner:
        """Read the plain form back."""
        group = record.get("coupon_group_id")
        return cls(
            id=banner_id,
            type=BannerType(record["type"]),
            active=bool(record["active"]),
            start_at=_kst(record.get("start_at")),
            end_at=_kst(record.get("end_at")),
            apply_country=tuple(country.upper() for country in record.get("apply_country") or ()),
            coupon_group_id=UUID(str(group)) if group else None,
            localizations=tuple(_localization(item) for item in record.get("localizations") or ()),
        )


def _kst(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=BUSINESS_TIME) if moment.tzinfo is None else moment.astimezone(BUSINESS_TIME)


def _localization(item: Mapping[str, Any]) -> dict[str, Any]:
    return {"lang_code": item.get("lang_code"), **{name: item.get(name) for name in LOCALIZATION_FIELDS}}


class BannerBoard(Aggregate):
    """Every banner and notice, numbered in the order they were posted."""

    @classmethod
    def open(cls, at: datetime) -> BannerBoard:
        """The storefront's one board."""
        return cls._create(BannerBoardOpened, id=BOARD_ID, timestamp=at)

    def post(self, record: Mapping[str, Any], at: datetime) -> Banner:
        """Add a banner; answers it with its new id (-2 for a link, colour or image it may not carry)."""
        check_localizations(record.get("localizations") or ())
        banner = Banner.from_record(len(self.banners) + 1, record)
        self.trigger_event(BannerPosted, timestamp=at, banner_id=banner.id, **banner.as_record())
        return banner

    def change(self, banner_id: int, changes: Mapping[str, Any], at: datetime) -> Banner:
        """Change some fields of a banner (404 for an unknown id; -2 for new localizations with a link, colour or
        image a banner may not carry; a banner kept from before may still be ended)."""
        current = self.banners.get(banner_id)
        if current is None:
            raise DomainError(ErrorCode.NOT_FOUND, f"no banner {banner_id}")
        check_localizations(changes.get("localizations") or ())
        banner = Banner.from_record(banner_id, {**current.as_record(), **changes})
        self.trigger_event(BannerChanged, timestamp=at, banner_id=banner_id, **banner.as_record())
        return banner

    def showing(self, now: datetime, country_code: str | None, kind: BannerType) -> list[Banner]:
        """The banners of a kind a visitor from a country sees now, newest first."""
        shown = [item for item in self.banners.values() if item.type is kind and item.shows_at(now, country_code)]
        return sorted(shown, key=lambda item: item.id, reverse=True)

    @singledispatchmethod
    def when(self, event: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot apply {type(event).__name__}")

    @when.register
    def _opened(self, event: BannerBoardOpened) -> None:
        self.banners: dict[int, Banner] = {}

    @when.register
    def _posted(self, event: BannerPosted) -> None:
        self.banners = {**self.banners, event.banner_id: _banner_of(event)}

    @when.register
    def _changed(self, event: BannerChanged) -> None:
        # A change carries the banner's whole new record.
        self.banners = {**self.banners, event.banner_id: _banner_of(event)}


def _banner_of(event: BannerPosted | BannerChanged) -> Banner:
    fields = (name for name in Banner.__dataclass_fields__ if name != "id")
    return Banner.from_record(event.banner_id, {name: getattr(event, name) for name in fields})


def load_board(store: Storefront) -> BannerBoard | None:
    """The board, or None before the first banner."""
    try:
        board: BannerBoard = store.repository.get(BOARD_ID)
    except AggregateNotFoundError:
        return None
    return board


@dataclass(frozen=True)
class Showing:
    """What a visitor sees above the header now."""

    event_banner: Banner | None
    notice: Banner | None


def showing(store: Storefront, now: datetime, country_code: str | None, group_id: UUID | None) -> Showing:
    """The event banner (the newest of the code's group, else the newest of no group) and the newest notice."""
    board = load_board(store)
    if board is None:
        return Showing(None, None)
    every: Sequence[Banner] = board.showing(now, country_code, BannerType.EVENT)
    # A banner advertising a coupon group shows to visitors who came with that group's code (its link
    # carries the code); a banner of no group shows to everyone, and when the code's group has none.
    events = [item for item in every if group_id is not None and item.coupon_group_id == group_id]
    events = events or [item for item in every if item.coupon_group_id is None]
    notices = board.showing(now, country_code, BannerType.NOTICE)
    return Showing(events[0] if events else None, notices[0] if notices else None)


# Aggregates to save with a banner's change (a staff member's record of it), given the banner as it now is.
BannerWitness = Callable[[Banner], Sequence[Aggregate]]


def post_banner(
    store: Storefront, now: datetime, record: Mapping[str, Any], *, recorded_with: BannerWitness | None = None
) -> Banner:
    """Post a banner (opening the board on the first one)."""

    def attempt() -> Banner:
        board = load_board(store) or BannerBoard.open(now)
        banner = board.post(record, now)
        store.save(board, *(recorded_with(banner) if recorded_with else ()))
        return banner

    return retry_on_conflict(attempt)


def change_banner(
    store: Storefront,
    now: datetime,
    banner_id: int,
    changes: Mapping[str, Any],
    *,
    recorded_with: BannerWitness | None = None,
) -> Banner:
    """Change a banner's fields."""

    def attempt() -> Banner:
        board = load_board(store)
        if board is None:
            raise DomainError(ErrorCode.NOT_FOUND, f"no banner {banner_id}")
        banner = board.change(banner_id, changes, now)
        store.save(board, *(recorded_with(banner) if recorded_with else ()))
        return banner

    return retry_on_conflict(attempt)

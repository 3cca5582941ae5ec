"""Support's reports in the back office: the list with its filters (open or handled, kind of problem, product,
dates) and each report's images through time-limited signed links, and closing a report as handled (a staff
action: domain/staff/reports.py)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit
from uuid import UUID

from fastapi import APIRouter, Path, Query
from pydantic import Field

from api.schemas import CamelModel
from api.services import ServicesDep
from api.staff_session import STAFF_ERRORS, StaffDep
from domain.reports.links import image_link
from domain.staff.reports import close_report
from projections.reports import ReportSelection, count_reports, report_page

router = APIRouter(prefix="/staff", tags=["staff"], responses=STAFF_ERRORS)

# How long an image link in the back office works: long enough to read the page, short enough not to travel.
IMAGE_LINK_LIFETIME = timedelta(hours=1)
PAGE_SIZE = 50


class ReportImage(CamelModel):
    """One of the report's images: where to open it (a signed link that expires) and what it is."""

    link: str
    content_type: str
    width: int
    height: int


class StaffReport(CamelModel):
    """A report as support reads it, with whether and how it was handled."""

    report_id: UUID
    submitted_at: str
    account_id: UUID | None
    product: str
    problem: str
    url: str | None
    comment: str | None
    email: str | None
    application: str | None
    version: str | None
    device_model: str | None
    os: str | None
    os_version: str | None
    filters: list[int]
    custom_filters: list[str]
    images: list[ReportImage]
    handled_at: str | None
    handled_by: UUID | None
    handled_reason: str | None


class ReportsPage(CamelModel):
    """One page of the selected reports (newest first) and how many the selection holds."""

    total: int
    reports: list[StaffReport]


class CloseIn(CamelModel):
    reason: str = Field(min_length=1, max_length=500, description="what was done: a filter fixed, a reply sent, ...")


def _link(services: ServicesDep, key: str, now: datetime) -> str:
    made = image_link(
        services.objects,
        key,
        links=services.links,
        secret=services.settings.auth_secret,
        now=now,
        lifetime=IMAGE_LINK_LIFETIME,
    )
    # The API's own links are given without the host, so the back office opens them wherever it is served.
    parts = urlsplit(made)
    if made.startswith(services.settings.base_url):
        return f"{parts.path}?{parts.query}"
    return made


def _report(services: ServicesDep, row: dict[str, Any], now: datetime) -> StaffReport:
    images = [
        ReportImage(
            link=_link(services, str(image["key"]), now),
            content_type=str(image["content_type"]),
            width=int(image["width"]),
            height=int(image["height"]),
        )
        for image in row["images"]
    ]
    return StaffReport.model_validate({**row, "images": images})


@router.get("/reports")
def list_reports(
    caller: StaffDep,
    services: ServicesDep,
    state: Annotated[Literal["open", "handled"] | None, Query(description="open or handled; both if left out")] = None,
    problem: Annotated[Literal["ad", "misblock", "bug"] | None, Query()] = None,
    product: Annotated[str | None, Query(max_length=20)] = None,
    since: Annotated[datetime | None, Query(description="submitted at or after")] = None,
    until: Annotated[datetime | None, Query(description="submitted before")] = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = PAGE_SIZE,
) -> ReportsPage:
    """Reports, newest first, with their images' links (valid for an hour)."""
    selection = ReportSelection(
        since=since,
        until=until,
        product=product or None,
        problem=problem,
        handled=None if state is None else state == "handled",
    )
    now = services.clock.now()
    rows = report_page(services.views, selection, offset=offset, limit=limit)
    return ReportsPage(
        total=count_reports(services.views, selection), reports=[_report(services, row, now) for row in rows]
    )


ReportId = Annotated[UUID, Path(description="the report's id")]


@router.post("/reports/{report_id}/close", status_code=204)
def close(report_id: ReportId, body: CloseIn, caller: StaffDep, services: ServicesDep) -> None:
    """Close the report as handled, saying what was done (-2 when it was closed already)."""
    position = close_report(services.store, services.clock, caller.member.id, report_id=report_id, reason=body.reason)
    services.see_own_write(position, "reports")

"""Reports as support reads them: one row per report from the reports view, each image as a link that works for
a few days (a presigned S3 GET, or a signed link to the API for the embedded file store)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

from bootstrap import Services
from domain.business_time import BUSINESS_TIME
from domain.reports.links import image_link
from projections.reports import ReportSelection, selected_reports

COLUMNS = (
    "report_id",
    "submitted_at",
    "product",
    "problem",
    "url",
    "comment",
    "email",
    "account_id",
    "adult",
    "application",
    "application_etc",
    "filters",
    "custom_filters",
    "version",
    "device_model",
    "filter_versions",
    "os",
    "os_version",
    "checked",
    "images",
)
LIST_COLUMNS = ("submitted_at", "report_id", "product", "problem", "images", "email", "url")


def report_rows(
    services: Services,
    selection: ReportSelection,
    link_lifetime: timedelta,
    advance: Callable[[int], object] = lambda _: None,
) -> Iterator[dict[str, Any]]:
    """The selected reports, oldest first, times in +09:00, each image ``{link, content_type, bytes, width,
    height, frames}``; ``advance(1)`` is called for each (a progress bar)."""
    now = services.clock.now()
    for report in selected_reports(services.views, selection):
        advance(1)
        row = {column: report[column] for column in COLUMNS}
        row["submitted_at"] = datetime.fromisoformat(report["submitted_at"]).astimezone(BUSINESS_TIME).isoformat()
        row["images"] = [
            {
                "link": image_link(
                    services.objects,
                    str(image["key"]),
                    links=services.links,
                    secret=services.settings.auth_secret,
                    now=now,
                    lifetime=link_lifetime,
                ),
                **{name: value for name, value in image.items() if name != "key"},
            }
            for image in report["images"]
        ]
        yield row


def flat(row: dict[str, Any]) -> dict[str, Any]:
    """A row for CSV: filter ids comma-separated, custom filters one a line, image links space-separated."""
    return {
        **row,
        "filters": ",".join(str(filter_id) for filter_id in row["filters"]),
        "custom_filters": "\n".join(row["custom_filters"]),
        "images": " ".join(image["link"] for image in row["images"]),
    }

"""The reports view: one row per submitted report, for support to list and export (oldest first), and whether
and how a staff member closed it as handled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import singledispatchmethod
from typing import Any

from eventlog.database import ViewCursor, ViewDatabase
from events.reports import ReportHandled, ReportSubmitted
from projections.view import View

TEXT_COLUMNS = (
    "product",
    "problem",
    "url",
    "comment",
    "email",
    "application",
    "application_etc",
    "version",
    "device_model",
    "filter_versions",
    "os",
    "os_version",
)
JSON_COLUMNS = ("filters", "custom_filters", "images")
PAGE = 500


def utc_text(moment: datetime) -> str:
    """A moment as the view stores it: UTC ISO 8601 to the microsecond, so text order is time order."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


class ReportsView(View):
    """Every report with its fields, its images' keys and who sent it."""

    name = "reports"
    tables = ("reports_view",)
    version = 2  # 2: closed as handled (when, by whom, how)

    def schema(self) -> list[str]:
        texts = ", ".join(f"{column} TEXT" for column in TEXT_COLUMNS)
        return [
            "CREATE TABLE IF NOT EXISTS reports_view ("
            "report_id TEXT PRIMARY KEY, submitted_at TEXT NOT NULL, account_id TEXT, "
            f"{texts}, adult BOOLEAN NOT NULL, checked BOOLEAN NOT NULL, "
            "filters TEXT NOT NULL, custom_filters TEXT NOT NULL, images TEXT NOT NULL, "
            "handled_at TEXT, handled_by TEXT, handled_reason TEXT)",
            "CREATE INDEX IF NOT EXISTS reports_view_submitted ON reports_view (submitted_at, report_id)",
        ]

    @singledispatchmethod
    def apply(self, event: Any, cursor: ViewCursor) -> None:
        return None

    @apply.register
    def _submitted(self, event: ReportSubmitted, cursor: ViewCursor) -> None:
        row: dict[str, Any] = {column: getattr(event, column) for column in TEXT_COLUMNS}
        row |= {column: json.dumps(getattr(event, column), ensure_ascii=False) for column in JSON_COLUMNS}
        row |= {
            "report_id": str(event.originator_id),
            "submitted_at": utc_text(event.timestamp),
            "account_id": str(event.account_id) if event.account_id else None,
            "adult": event.adult,
            "checked": event.checked,
        }
        columns = ", ".join(row)
        values = ", ".join(f"%({column})s" for column in row)
        cursor.execute(f"INSERT INTO reports_view ({columns}) VALUES ({values})", row)

    @apply.register
    def _handled(self, event: ReportHandled, cursor: ViewCursor) -> None:
        cursor.execute(
            "UPDATE reports_view SET handled_at = %(at)s, handled_by = %(by)s, handled_reason = %(reason)s "
            "WHERE report_id = %(id)s",
            {
                "id": str(event.originator_id),
                "at": utc_text(event.timestamp),
                "by": str(event.actor_id),
                "reason": event.reason,
            },
        )


@dataclass(frozen=True)
class ReportSelection:
    """Which reports: submitted in ``[since, until)``, of a product, of a kind of problem, open or handled (None:
    either)."""

    since: datetime | None = None
    until: datetime | None = None
    product: str | None = None
    problem: str | None = None
    handled: bool | None = None

    def where(self) -> tuple[str, dict[str, Any]]:
        """The SQL condition and its parameters."""
        conditions, params = ["1 = 1"], {}
        if self.since is not None:
            conditions.append("submitted_at >= %(since)s")
            params["since"] = utc_text(self.since)
        if self.until is not None:
            conditions.append("submitted_at < %(until)s")
            params["until"] = utc_text(self.until)
        for column in ("product", "problem"):
            value = getattr(self, column)
            if value is not None:
                conditions.append(f"{column} = %({column})s")
                params[column] = value
        if self.handled is not None:
            conditions.append("handled_at IS NOT NULL" if self.handled else "handled_at IS NULL")
        return " AND ".join(conditions), params


def count_reports(db: ViewDatabase, selection: ReportSelection) -> int:
    """How many reports the selection holds."""
    where, params = selection.where()
    with db.read() as cursor:
        cursor.execute(f"SELECT COUNT(*) AS n FROM reports_view WHERE {where}", params)
        row = cursor.fetchone()
    return int(row["n"]) if row else 0


def selected_reports(db: ViewDatabase, selection: ReportSelection) -> Iterator[dict[str, Any]]:
    """The selected reports, oldest first, read a page at a time (an export of any size stays small in memory)."""
    where, params = selection.where()
    after: tuple[str, str] = ("", "")
    while True:
        with db.read() as cursor:
            cursor.execute(
                f"SELECT * FROM reports_view WHERE {where} AND (submitted_at > %(at)s "
                "OR (submitted_at = %(at)s AND report_id > %(id)s)) "
                f"ORDER BY submitted_at, report_id LIMIT {PAGE}",
                {**params, "at": after[0], "id": after[1]},
            )
            rows = cursor.fetchall()
        for row in rows:
            yield _decoded(row)
        if len(rows) < PAGE:
            return
        after = (rows[-1]["submitted_at"], rows[-1]["report_id"])


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    decoded = dict(row)
    for column in JSON_COLUMNS:
        decoded[column] = json.loads(row[column])
    decoded["adult"], decoded["checked"] = bool(row["adult"]), bool(row["checked"])
    return decoded


def report_page(db: ViewDatabase, selection: ReportSelection, *, offset: int, limit: int) -> list[dict[str, Any]]:
    """One page of the selected reports for the back office, newest first."""
    where, params = selection.where()
    with db.read() as cursor:
        cursor.execute(
            f"SELECT * FROM reports_view WHERE {where} ORDER BY submitted_at DESC, report_id DESC "
            "LIMIT %(limit)s OFFSET %(offset)s",
            {**params, "limit": limit, "offset": offset},
        )
        return [_decoded(row) for row in cursor.fetchall()]

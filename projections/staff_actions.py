"""The staff-actions audit finance reads: every staff event (``staff.*`` but the address directory's) and finance's
own (``finance.*``, a job's request but not its progress), each with its position in the log for its proof."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.staff.actions import StaffAction
from eventlog.database import ViewCursor, ViewDatabase
from events.finance import JobClaimed, JobFileKept, JobFinished, JobProgressed, JobRequested
from projections.reports import utc_text
from projections.view import View

# A job's own news is the job's, shown on its page; its request is the member's action.
_NOT_ACTIONS = {JobClaimed, JobProgressed, JobFileKept, JobFinished}


def _audited(event_type: type) -> bool:
    topic = str(getattr(event_type, "TOPIC", ""))
    if event_type in _NOT_ACTIONS or topic.startswith("staff.Directory"):
        return False
    return topic.startswith(("staff.", "finance."))


class StaffActionsView(View):
    """One row a staff or finance event: who, what, to what, why, the details, when, and where in the log."""

    name = "staff_actions"
    tables = ("staff_actions_view",)

    def schema(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS staff_actions_view ("
            "notification_id BIGINT PRIMARY KEY, topic TEXT NOT NULL, action TEXT NOT NULL, member_id TEXT NOT NULL, "
            "subject TEXT NOT NULL, reason TEXT NOT NULL, details TEXT NOT NULL, at TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS staff_actions_view_member ON staff_actions_view (member_id, notification_id)",
            "CREATE INDEX IF NOT EXISTS staff_actions_view_action ON staff_actions_view (action, notification_id)",
        ]

    def uses(self, event_type: type) -> bool:
        return _audited(event_type)

    def apply(self, event: Any, cursor: ViewCursor) -> None:
        raise NotImplementedError("the staff-actions audit needs each event's position: apply_at")

    def apply_at(self, event: Any, notification_id: int, cursor: ViewCursor) -> None:
        if not _audited(type(event)):
            return
        topic = type(event).TOPIC
        row = {
            "id": notification_id,
            "topic": topic,
            "action": getattr(event, "action", None) or topic.split(".", 1)[1],
            "member": str(event.originator_id) if topic.startswith("staff.") else _actor(event),
            "subject": getattr(event, "subject", "") or "",
            "reason": getattr(event, "reason", "") or getattr(event, "note", "") or "",
            "details": dict(getattr(event, "details", None) or {}),
            "at": utc_text(event.timestamp),
        }
        if isinstance(event, JobRequested):
            shown = {key: ",".join(value) if isinstance(value, list) else value for key, value in event.params.items()}
            row |= {"action": StaffAction.FINANCE_JOB.value, "subject": str(event.originator_id)}
            row |= {"details": {"kind": event.kind, **shown}}
        cursor.execute(
            "INSERT INTO staff_actions_view (notification_id, topic, action, member_id, subject, reason, details, at) "
            "VALUES (%(id)s, %(topic)s, %(action)s, %(member)s, %(subject)s, %(reason)s, %(details)s, %(at)s)",
            {**row, "details": json.dumps(row["details"], sort_keys=True, default=str)},
        )


def _actor(event: Any) -> str:
    actor = getattr(event, "actor_id", None)
    return str(actor) if actor else ""


def staff_actions(
    db: ViewDatabase,
    member_id: UUID | None,
    action: str | None,
    since: datetime | None,
    until: datetime | None,
    limit: int = 500,
) -> list[dict[str, Any]]:
    """Staff events, newest first, by member, action and time ``[since, until)``."""
    conditions = [
        condition
        for condition, wanted in (
            ("member_id = %(member)s", member_id),
            ("action = %(action)s", action),
            ("at >= %(since)s", since),
            ("at < %(until)s", until),
        )
        if wanted is not None
    ]
    with db.read() as cursor:
        cursor.execute(
            f"SELECT * FROM staff_actions_view {'WHERE ' + ' AND '.join(conditions) if conditions else ''} "
            "ORDER BY notification_id DESC LIMIT %(limit)s",
            {
                "member": str(member_id) if member_id else None,
                "action": action,
                "since": utc_text(since) if since else None,
                "until": utc_text(until) if until else None,
                "limit": limit,
            },
        )
        rows = cursor.fetchall()
    return [
        {**row, "notification_id": int(row["notification_id"]), "details": json.loads(row["details"])} for row in rows
    ]

"""Mails whose task never ran are started again: the reactor's sweep of the log behind it.

The reactor sends each mail task once per event (at least once). One message can still be lost: the Redis
transport pops a message for a worker before recording it as unacknowledged, so a worker SIGKILLed in
between loses it. The sweep closes that gap: every ``MAIL_RESEND_SECONDS`` it walks the events the reactor
had passed by the previous sweep, from its own position on, and starts again (same task id, so a late first
run and the repeat still send once) every mail task with no ``sent_mail`` row. A task that sends nothing on
purpose (the account was deleted meanwhile) is started at most ``MAX_ATTEMPTS`` times, then left.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from celery import Celery

from eventlog.application import EventLog
from eventlog.database import ViewDatabase
from eventlog.tracking import advance, ensure_tracking_row
from workers.reactions import REACTIONS, TaskCall, task_id
from workers.tasks.mail import SENT_MAIL_DDL

log = logging.getLogger(__name__)
MAIL_TASKS = frozenset(
    {
        "accounts.send_confirmation_mail",
        "accounts.send_password_reset_mail",
        "accounts.send_email_change_mail",
        "accounts.send_account_notice",
        "payments.send_purchase_mail",
        "subscriptions.send_mail",
        "subscriptions.send_price_rise_mail",
        "licences.send_licence_key_mail",
        "payments.send_refund_mail",
    }
)
MAX_ATTEMPTS = 3
BATCH = 500
RESENDS_DDL = "CREATE TABLE IF NOT EXISTS mail_resends (task_id TEXT PRIMARY KEY, attempts INTEGER NOT NULL)"


class MailResender:
    """Starts again the mail tasks of passed events that sent nothing; its position is in ``view_tracking``."""

    name = "mail-resends"

    def __init__(self, celery: Celery, db: ViewDatabase, log_app: EventLog) -> None:
        self._celery = celery
        self._db = db
        self._log = log_app
        with db.transaction() as cursor:
            cursor.execute(SENT_MAIL_DDL)
            cursor.execute(RESENDS_DDL)
            ensure_tracking_row(cursor, self.name, log_app.name)

    def position(self) -> int:
        """Every mail of the events up to here was sent (or given up on)."""
        with self._db.read() as cursor:
            cursor.execute(
                "SELECT notification_id FROM view_tracking WHERE view_name = %(view)s AND application_name = %(app)s",
                {"view": self.name, "app": self._log.name},
            )
            row = cursor.fetchone()
            return int(row["notification_id"]) if row else 0

    def sweep(self, upto: int) -> int:
        """Look at the events after the position up to ``upto``; start again what was never sent. The number
        of tasks started again."""
        start = self.position()
        settled, started = start, 0
        blocked = False
        while settled < upto and not blocked:
            batch = self._log.recorder.select_notifications(start=settled + 1, limit=BATCH, stop=upto)
            if not batch:
                break
            for notification in batch:
                event = self._log.mapper.to_domain_event(notification)
                reaction = REACTIONS.get(type(event))
                calls = list(enumerate(reaction(event))) if reaction else []
                unsent = [(index, call) for index, call in calls if call.name in MAIL_TASKS]
                unsent = [item for item in unsent if not self._sent(task_id(self._log.name, notification.id, item[0]))]
                pending = [item for item in unsent if self._resend(notification.id, *item)]
                started += len(pending)
                if pending:
                    blocked = True  # the position waits here until these are sent or given up on
                    break
                settled = notification.id
        if settled > start:
            with self._db.transaction() as cursor:
                advance(cursor, self.name, self._log.name, start, settled)
        return started

    def _sent(self, task: str) -> bool:
        with self._db.read() as cursor:
            cursor.execute("SELECT 1 AS sent FROM sent_mail WHERE task_id = %(task)s", {"task": task})
            return cursor.fetchone() is not None

    def _resend(self, notification_id: int, index: int, call: TaskCall) -> bool:
        """Start the task again unless it was tried ``MAX_ATTEMPTS`` times; True when started now."""
        task = task_id(self._log.name, notification_id, index)
        with self._db.transaction() as cursor:
            cursor.execute("SELECT attempts FROM mail_resends WHERE task_id = %(task)s", {"task": task})
            row = cursor.fetchone()
            attempts = int(row["attempts"]) if row else 0
            if attempts >= MAX_ATTEMPTS:
                return False
            cursor.execute(
                "INSERT INTO mail_resends (task_id, attempts) VALUES (%(task)s, 1) "
                "ON CONFLICT (task_id) DO UPDATE SET attempts = mail_resends.attempts + 1",
                {"task": task},
            )
        log.warning("mail task %s (%s) never ran: starting it again", task, call.name)
        self._celery.send_task(call.name, kwargs=call.kwargs, countdown=call.countdown, task_id=task)
        return True


def keep_sweeping(
    resender: MailResender, reactor_position: Callable[[], int], stop: threading.Event, interval: float
) -> None:
    """Sweep every ``interval`` seconds up to where the reactor was one sweep ago, until stopped."""
    behind = reactor_position()
    while not stop.wait(interval):
        try:
            resender.sweep(behind)
        except Exception:  # the broker or the database is away: the next sweep tries again
            log.exception("the mail sweep failed; trying again in %s s", interval)
        behind = reactor_position()

"""Account mails, started by the reactor from the log (the log is the outbox).

A task may run more than once for the same event (delivery is at least once);
the ``sent_mail`` table in the view database, keyed by the deterministic task id,
makes the second run a no-op. The row and the send share one transaction: a
failed send leaves no row, so a retry sends again.
"""

from __future__ import annotations

import logging
import uuid
import weakref
from dataclasses import replace
from uuid import UUID

from config.settings import Settings
from domain.accounts.notices import NoticeKind
from domain.accounts.outgoing import (
    Outgoing,
    confirmation_mail,
    email_change_mail,
    notice_mail,
    password_reset_mail,
)
from domain.clock import Clock
from domain.links import SiteLinks
from domain.ports import Mailer, MailMessage
from domain.store import Storefront
from eventlog.database import ViewDatabase
from events.values import Language
from workers.celery_app import ServicesTask
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)

SENT_MAIL_DDL = (
    "CREATE TABLE IF NOT EXISTS sent_mail ("
    "task_id TEXT PRIMARY KEY, "
    "kind TEXT NOT NULL, "
    "recipient TEXT NOT NULL, "
    "sent_at TEXT NOT NULL)"
)


def send_once(db: ViewDatabase, mailer: Mailer, clock: Clock, task_id: str, kind: str, message: MailMessage) -> bool:
    """Send unless this task id already sent its mail; True when sent now."""
    _ensure_sent_mail_table(db)
    sent_at = clock.now().isoformat()  # before the transaction: the shared test clock reads the same database
    with db.transaction() as cursor:
        cursor.execute(
            "INSERT INTO sent_mail (task_id, kind, recipient, sent_at) "
            "VALUES (%(task)s, %(kind)s, %(to)s, %(at)s) ON CONFLICT (task_id) DO NOTHING",
            {"task": task_id, "kind": kind, "to": message.to, "at": sent_at},
        )
        if cursor.rowcount != 1:
            log.info("%s mail of task %s was already sent", kind, task_id)
            return False
        # The send commits with its row; a crash between the two sends again, under the same Message-ID.
        mailer.send(replace(message, key=task_id))
    return True


_ENSURED: weakref.WeakSet[ViewDatabase] = weakref.WeakSet()  # the databases this process made sure of


def _ensure_sent_mail_table(db: ViewDatabase) -> None:
    # Once per process and database: a CREATE TABLE IF NOT EXISTS before every mail was a transaction and a
    # catalogue lock each (a tenth of a busy worker's time). Two first-ever tasks racing on PostgreSQL can both
    # try to create the table; the loser's catalogue conflict is harmless, so try once more (it exists by then).
    if db in _ENSURED:
        return
    for attempt in range(2):
        try:
            with db.transaction() as cursor:
                cursor.execute(SENT_MAIL_DDL)
            _ENSURED.add(db)
            return
        except Exception:
            if attempt:
                raise


def _deliver(db: ViewDatabase, mailer: Mailer, clock: Clock, task_id: str, outgoing: Outgoing | None) -> bool:
    """Send what the domain decided (nothing when it said None), once per task id."""
    return outgoing is not None and send_once(db, mailer, clock, task_id, outgoing.kind, outgoing.message)


def deliver_confirmation_mail(
    settings: Settings,
    store: Storefront,
    db: ViewDatabase,
    mailer: Mailer,
    clock: Clock,
    *,
    task_id: str,
    account_id: UUID,
    claim_id: str | None = None,
) -> bool:
    """Deliver ``confirmation_mail`` (the address's confirmation, or a guest's claim) once per task id."""
    links = SiteLinks(settings.base_url)
    outgoing = confirmation_mail(
        store, settings.auth_secret, links, clock.now(), account_id=account_id, claim_id=claim_id
    )
    return _deliver(db, mailer, clock, task_id, outgoing)


def deliver_password_reset_mail(
    settings: Settings,
    store: Storefront,
    db: ViewDatabase,
    mailer: Mailer,
    clock: Clock,
    *,
    task_id: str,
    account_id: UUID,
    reset_id: str,
    language: Language,
) -> bool:
    """Deliver ``password_reset_mail`` once per task id."""
    links = SiteLinks(settings.base_url)
    outgoing = password_reset_mail(
        store, settings.auth_secret, links, clock.now(), account_id=account_id, reset_id=reset_id, language=language
    )
    return _deliver(db, mailer, clock, task_id, outgoing)


def deliver_email_change_mail(
    settings: Settings,
    store: Storefront,
    db: ViewDatabase,
    mailer: Mailer,
    clock: Clock,
    *,
    task_id: str,
    account_id: UUID,
    change_id: str,
) -> bool:
    """Deliver ``email_change_mail`` once per task id."""
    links = SiteLinks(settings.base_url)
    outgoing = email_change_mail(
        store, settings.auth_secret, links, clock.now(), account_id=account_id, change_id=change_id
    )
    return _deliver(db, mailer, clock, task_id, outgoing)


def deliver_account_notice(
    settings: Settings,
    store: Storefront,
    db: ViewDatabase,
    mailer: Mailer,
    clock: Clock,
    *,
    task_id: str,
    account_id: UUID,
    kind: NoticeKind,
    version: int,
) -> bool:
    """Deliver ``notice_mail`` once per task id."""
    outgoing = notice_mail(
        store,
        SiteLinks(settings.base_url),
        support=settings.zendesk_url,
        account_id=account_id,
        kind=kind,
        version=version,
    )
    return _deliver(db, mailer, clock, task_id, outgoing)


def _wired(task: ServicesTask) -> tuple[Settings, Storefront, ViewDatabase, Mailer, Clock]:
    """The process's settings, store, views, mailer and (possibly shared test) clock."""
    services = task.services
    return services.settings, services.store, services.views, services.mailer, services.clock


def _task_id(task: ServicesTask) -> str:
    return str(task.request.id or f"adhoc-{uuid.uuid4()}")


@retried_task("accounts.send_confirmation_mail")
def send_confirmation_mail(self: ServicesTask, account_id: str, claim_id: str | None = None) -> bool:
    """Celery entry point of the confirmation mail (a claim's, when ``claim_id`` is given)."""
    return deliver_confirmation_mail(
        *_wired(self), task_id=_task_id(self), account_id=UUID(account_id), claim_id=claim_id
    )


@retried_task("accounts.send_password_reset_mail")
def send_password_reset_mail(self: ServicesTask, account_id: str, reset_id: str, language: str) -> bool:
    """Celery entry point of the password-reset mail."""
    return deliver_password_reset_mail(
        *_wired(self),
        task_id=_task_id(self),
        account_id=UUID(account_id),
        reset_id=reset_id,
        language=Language(language),
    )


@retried_task("accounts.send_email_change_mail")
def send_email_change_mail(self: ServicesTask, account_id: str, change_id: str) -> bool:
    """Celery entry point of the email-change mail."""
    return deliver_email_change_mail(
        *_wired(self), task_id=_task_id(self), account_id=UUID(account_id), change_id=change_id
    )


@retried_task("accounts.send_account_notice")
def send_account_notice(self: ServicesTask, account_id: str, kind: str, version: int) -> bool:
    """Celery entry point of the notices of an email change and a password change or reset."""
    return deliver_account_notice(
        *_wired(self), task_id=_task_id(self), account_id=UUID(account_id), kind=NoticeKind(kind), version=version
    )

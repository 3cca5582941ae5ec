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

from celery import shared_task
from eventsourcing.application import AggregateNotFoundError

from config.settings import Settings
from domain.accounts.account import Account
from domain.accounts.claims import claim_link_token
from domain.accounts.mails import (
    render_claim_mail,
    render_confirmation_mail,
    render_email_change_mail,
    render_password_reset_mail,
)
from domain.accounts.recovery import email_change_link_token, reset_link_token
from domain.accounts.tokens import CONFIRM_EMAIL, CONFIRMATION_LINK_LIFETIME, sign_link
from domain.clock import Clock
from domain.ports import Mailer, MailMessage
from domain.store import Storefront
from events.values import Language
from projections.database import ViewDatabase
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)

SENT_MAIL_DDL = (
    "CREATE TABLE IF NOT EXISTS sent_mail ("
    "task_id TEXT PRIMARY KEY, "
    "kind TEXT NOT NULL, "
    "recipient TEXT NOT NULL, "
    "sent_at TEXT NOT NULL)"
)

CONFIRMATION_PATH = "/web/unicornpro/v1/accounts/confirm"
EMAIL_CHANGE_PATH = "/account/email-change/confirm"


def claim_path(language: Language) -> str:
    """The web page where a claim's link is opened with the password chosen when registering."""
    return f"/{language.value}/register/claim"


def password_reset_path(language: Language) -> str:
    """The web page where a new password is entered (it calls /accounts/password-change-check)."""
    return f"/{language.value}/password/reset"


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


def confirmation_link(settings: Settings, account: Account, clock: Clock) -> str:
    """The signed link that confirms the account's current address."""
    token = sign_link(
        settings.auth_secret,
        CONFIRM_EMAIL,
        account.id,
        clock.now(),
        CONFIRMATION_LINK_LIFETIME,
        email=account.email,
    )
    return f"{settings.base_url.rstrip('/')}{CONFIRMATION_PATH}?t={token}"


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
    """Mail the confirmation link to the account's address, in its language (once per task id). A guest's account
    gets a claim's link instead (``claim_id``'s, else the latest claim's), in the claimant's language.

    Nothing is sent for an account that is gone, deleted or already confirmed, or for a claim no longer pending.
    """
    account = _account(store, account_id)
    if account is None or account.email_confirmed:
        return False
    if account.is_guest:
        pending = account.pending_claims
        claim_id = claim_id or next(reversed(pending), None)
        claim = pending.get(claim_id) if claim_id else None
        if claim_id is None or claim is None:
            return False
        token = claim_link_token(settings.auth_secret, account.id, account.email, claim_id, clock.now())
        link = f"{_base(settings)}{claim_path(claim.language)}?t={token}"
        claim_mail = render_claim_mail(to=account.email, language=claim.language, link=link)
        return send_once(db, mailer, clock, task_id, "claim", claim_mail)
    message = render_confirmation_mail(
        to=account.email, language=account.language, link=confirmation_link(settings, account, clock)
    )
    return send_once(db, mailer, clock, task_id, "confirmation", message)


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
    """Mail the reset link, unless the request was replaced or used meanwhile (once per task id)."""
    account = _account(store, account_id)
    if account is None or account.pending_reset_id != reset_id:
        return False
    token = reset_link_token(settings.auth_secret, account.id, reset_id, clock.now())
    link = f"{_base(settings)}{password_reset_path(language)}?t={token}"
    message = render_password_reset_mail(to=account.email, language=language, link=link)
    return send_once(db, mailer, clock, task_id, "password-reset", message)


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
    """Mail the change link to the new address, unless the request was replaced or used meanwhile."""
    account = _account(store, account_id)
    if account is None or account.pending_change_id != change_id or not account.pending_email:
        return False
    token = email_change_link_token(settings.auth_secret, account.id, change_id, account.pending_email, clock.now())
    link = f"{_base(settings)}{EMAIL_CHANGE_PATH}?t={token}"
    message = render_email_change_mail(to=account.pending_email, language=account.language, link=link)
    return send_once(db, mailer, clock, task_id, "email-change", message)


def _account(store: Storefront, account_id: UUID) -> Account | None:
    try:
        account: Account = store.repository.get(account_id)
    except AggregateNotFoundError:
        log.warning("mail for unknown account %s", account_id)
        return None
    return None if account.deleted else account


def _base(settings: Settings) -> str:
    return settings.base_url.rstrip("/")


def _wired(task: ServicesTask) -> tuple[Settings, Storefront, ViewDatabase, Mailer, Clock]:
    """The process's settings, store, views, mailer and (possibly shared test) clock."""
    services = task.services
    return services.settings, services.store, services.views, services.mailer, services.clock


def _task_id(task: ServicesTask) -> str:
    return str(task.request.id or f"adhoc-{uuid.uuid4()}")


@shared_task(
    name="accounts.send_confirmation_mail",
    base=ServicesTask,
    bind=True,
    autoretry_for=(OSError,),
    retry_backoff=True,
    max_retries=8,
)
def send_confirmation_mail(self: ServicesTask, account_id: str, claim_id: str | None = None) -> bool:
    """Celery entry point of the confirmation mail (a claim's, when ``claim_id`` is given)."""
    return deliver_confirmation_mail(
        *_wired(self), task_id=_task_id(self), account_id=UUID(account_id), claim_id=claim_id
    )


@shared_task(
    name="accounts.send_password_reset_mail",
    base=ServicesTask,
    bind=True,
    autoretry_for=(OSError,),
    retry_backoff=True,
    max_retries=8,
)
def send_password_reset_mail(self: ServicesTask, account_id: str, reset_id: str, language: str) -> bool:
    """Celery entry point of the password-reset mail."""
    return deliver_password_reset_mail(
        *_wired(self),
        task_id=_task_id(self),
        account_id=UUID(account_id),
        reset_id=reset_id,
        language=Language(language),
    )


@shared_task(
    name="accounts.send_email_change_mail",
    base=ServicesTask,
    bind=True,
    autoretry_for=(OSError,),
    retry_backoff=True,
    max_retries=8,
)
def send_email_change_mail(self: ServicesTask, account_id: str, change_id: str) -> bool:
    """Celery entry point of the email-change mail."""
    return deliver_email_change_mail(
        *_wired(self), task_id=_task_id(self), account_id=UUID(account_id), change_id=change_id
    )

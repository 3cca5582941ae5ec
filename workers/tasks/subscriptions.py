"""Beat: renew what is due, retry what failed (dunning), end what ran out — one task per batch of subscriptions."""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from celery import shared_task

from application.reminders import record_due_reminders as due_reminders
from bootstrap import Services
from domain.accounts.account import Account
from domain.links import SiteLinks
from domain.payments.gateway import GatewayUnreachableError
from domain.subscriptions.mails import card_text, render_subscription_mail
from domain.subscriptions.renewal import renew_batch as renew_subscriptions
from domain.subscriptions.renewal import renew_if_due
from domain.subscriptions.subscription import Subscription
from projections.subscriptions import due_subscription_pages
from workers.celery_app import ServicesTask
from workers.tasks.mail import send_once
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)


@shared_task(name="subscriptions.renew_due", base=ServicesTask, bind=True)
def renew_due(self: ServicesTask) -> int:
    """Beat, every minute: start one renewal task per RENEWAL_BATCH_SIZE due subscriptions (read from the view a
    page at a time); returns how many subscriptions."""
    services = self.services
    size = services.settings.renewal_batch_size
    started = 0
    for page in due_subscription_pages(services.views, services.clock.now()):
        for first in range(0, len(page), size):
            renew_batch.delay([str(subscription_id) for subscription_id in page[first : first + size]])
        started += len(page)
    return started


@shared_task(name="subscriptions.renew_batch", base=ServicesTask, bind=True)
def renew_batch(self: ServicesTask, subscription_ids: list[str]) -> list[str | None]:
    """Charge a batch of subscriptions that are due (``domain.subscriptions.renewal.renew_batch``: one read, the
    charges side by side on this process's charging threads, one save); the merchantUid of each attempt made.

    Acked late, like ``renew_one``: a worker killed mid-batch leaves it to be delivered again, and each
    deterministic merchantUid makes that second run charge nothing new. A subscription whose charge could not be
    made (the gateway unreachable) is handed to ``renew_one``, which retries it with back-off."""
    services = self.services
    outcomes = renew_subscriptions(
        services.store, services.clock, services.payments, [UUID(key) for key in subscription_ids],
        each=self.celery_app.charging.map,
    )  # fmt: skip
    merchant_uids: list[str | None] = []
    for subscription_id, outcome in zip(subscription_ids, outcomes, strict=True):
        if isinstance(outcome, OSError | GatewayUnreachableError):
            log.warning("renewal of %s not charged (%s); retrying it alone", subscription_id, outcome)
            renew_one.apply_async((subscription_id,), countdown=1)
            merchant_uids.append(None)
        elif isinstance(outcome, Exception):
            log.error("renewal of %s failed", subscription_id, exc_info=outcome)
            merchant_uids.append(None)
        else:
            merchant_uids.append(outcome.merchant_uid)
    return merchant_uids


# A gateway that did not answer made no charge (the adapter reads a lost answer back), so trying
# again with the same merchantUid is safe; beat's next pass would pick it up anyway.
@retried_task("subscriptions.renew_one", retry_on=(OSError, GatewayUnreachableError), max_retries=5)
def renew_one(self: ServicesTask, subscription_id: str) -> str | None:
    """Charge one subscription if it is due; the merchantUid of the attempt made, if any.

    Acked late: a worker killed mid-task leaves the message to be delivered again,
    and the deterministic merchantUid makes that second run charge nothing new.
    """
    services = self.services
    outcome = renew_if_due(services.store, services.clock, services.payments, UUID(subscription_id))
    return outcome.merchant_uid


def deliver_subscription_mail(
    services: Services,
    *,
    task_id: str,
    subscription_id: UUID,
    kind: str,
    reason: str = "",
    when: datetime | None = None,
    amount: int | None = None,
) -> bool:
    """Mail the subscriber (once per task id); ``amount``: what the event said is charged (else the renewal price)."""
    subscription: Subscription = services.store.repository.get(subscription_id)
    account: Account = services.store.repository.get(subscription.account_id)
    if account.deleted:
        return False
    links = SiteLinks(services.settings.base_url)
    language, licence = account.language, subscription.user_licence_id
    link = {
        "renewal-failed": links.pay_past_due(language, licence),
        "renewal-upcoming": links.stop_auto_renewal(language, licence),
        "auto-renewal-cancelled": links.resume_auto_renewal(language, licence),
    }.get(kind, "")
    message = render_subscription_mail(
        kind,
        to=account.email,
        language=language,
        name=subscription.name,
        amount=subscription.amount if amount is None else amount,
        currency=subscription.currency,
        reason=reason,
        when=when,
        card=card_text(subscription.card_name, subscription.card_number, language),
        link=link,
    )
    return send_once(services.views, services.mailer, services.clock, task_id, kind, message)


def record_due_reminders(services: Services) -> int:
    """Record the reminder of every renewal whose reminder falls due now (application/reminders.py); how many."""
    return due_reminders(services.store, services.views, services.clock)


@retried_task("subscriptions.send_mail")
def send_subscription_mail(
    self: ServicesTask,
    subscription_id: str,
    kind: str,
    reason: str = "",
    when: str | None = None,
    amount: int | None = None,
) -> bool:
    """Celery entry point of the subscription mails (reminders, dunning, cancellation), started from the log."""
    task_id = str(self.request.id or f"adhoc-{subscription_id}-{kind}")
    moment = datetime.fromisoformat(when) if when else None
    return deliver_subscription_mail(
        self.services,
        task_id=task_id,
        subscription_id=UUID(subscription_id),
        kind=kind,
        reason=reason,
        when=moment,
        amount=amount,
    )


@shared_task(name="subscriptions.remind_upcoming", base=ServicesTask, bind=True)
def remind_upcoming(self: ServicesTask) -> int:
    """Beat, hourly: record the reminders that fell due (the mails follow from the log)."""
    return record_due_reminders(self.services)

"""Price-rise notices (docs/catalogue.md): a new catalogue version, and beat every hour, record a notice on each
renewing subscription owed one; each notice's event sends its mail (workers/reactions.py)."""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from celery import shared_task

from bootstrap import Services
from domain.accounts.account import Account
from domain.subscriptions.price_mails import render_price_rise_mail
from domain.subscriptions.price_notices import notice_price_rises
from domain.subscriptions.subscription import Subscription
from projections.subscriptions import renewing_subscription_pages
from workers.celery_app import ServicesTask
from workers.tasks.mail import send_once
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)


def notice_every_price_rise(services: Services) -> int:
    """Record the notice every renewing subscriber is owed now; how many were noticed."""
    noticed = 0
    for page in renewing_subscription_pages(services.views):
        noticed += len(notice_price_rises(services.store, services.clock, page))
    return noticed


@shared_task(name="catalogue.notice_price_rises", base=ServicesTask, bind=True)
def notice_price_rises_task(self: ServicesTask) -> int:
    """A catalogue version was scheduled (and beat, hourly, for subscriptions started or resumed since): notice
    every rise owed."""
    return notice_every_price_rise(self.services)


def deliver_price_rise_mail(
    services: Services,
    *,
    task_id: str,
    subscription_id: UUID,
    previous_amount: int,
    amount: int,
    applies_from: datetime,
) -> bool:
    """Mail the subscriber their price-rise notice (once per task id)."""
    subscription: Subscription = services.store.repository.get(subscription_id)
    account: Account = services.store.repository.get(subscription.account_id)
    if account.deleted:
        return False
    message = render_price_rise_mail(
        to=account.email,
        language=account.language,
        name=subscription.name,
        previous_amount=previous_amount,
        amount=amount,
        currency=subscription.currency,
        applies_from=applies_from,
    )
    return send_once(services.views, services.mailer, services.clock, task_id, "price-rise", message)


@retried_task("subscriptions.send_price_rise_notice")
def send_price_rise_notice(
    self: ServicesTask, subscription_id: str, previous_amount: int, amount: int, applies_from: str
) -> bool:
    """Celery entry point of the price-rise notice mail."""
    task_id = str(self.request.id or f"adhoc-{subscription_id}-price-rise")
    return deliver_price_rise_mail(
        self.services,
        task_id=task_id,
        subscription_id=UUID(subscription_id),
        previous_amount=previous_amount,
        amount=amount,
        applies_from=datetime.fromisoformat(applies_from),
    )

"""Consent before a price rise (docs/catalogue.md): a new catalogue version, and beat every hour, ask each renewing
subscriber owed a request and record the one reminder of those whose change is near (application/price_rises.py);
each request, reminder and lapse sends its mail from the log (workers/reactions.py)."""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from celery import shared_task

from application.price_rises import ask_every_price_rise, remind_price_rises
from bootstrap import Services
from domain.accounts.account import Account
from domain.links import SiteLinks
from domain.subscriptions.mails import card_text
from domain.subscriptions.price_mails import render_price_rise_mail
from domain.subscriptions.subscription import Subscription
from workers.celery_app import ServicesTask
from workers.tasks.mail import send_once
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)


def ask_and_remind(services: Services) -> int:
    """Record every request and reminder owed now; how many were recorded."""
    asked = ask_every_price_rise(services.store, services.views, services.clock)
    return asked + remind_price_rises(services.store, services.views, services.clock)


@shared_task(name="catalogue.notice_price_rises", base=ServicesTask, bind=True)
def notice_price_rises_task(self: ServicesTask) -> int:
    """A catalogue version was scheduled (and beat, hourly): ask every rise owed, remind those whose change is
    near."""
    return ask_and_remind(self.services)


def deliver_price_rise_mail(
    services: Services,
    *,
    task_id: str,
    subscription_id: UUID,
    kind: str,
    previous_amount: int,
    amount: int,
    changes_at: datetime,
) -> bool:
    """Mail the subscriber a request, the reminder or the lapse of a price rise (once per task id)."""
    subscription: Subscription = services.store.repository.get(subscription_id)
    account: Account = services.store.repository.get(subscription.account_id)
    if account.deleted:
        return False
    language = account.language
    message = render_price_rise_mail(
        kind,
        to=account.email,
        language=language,
        name=subscription.name,
        previous_amount=previous_amount,
        amount=amount,
        currency=subscription.currency,
        changes_at=changes_at,
        card=card_text(subscription.card_name, subscription.card_number, language),
        link=SiteLinks(services.settings.base_url).price_rise(language, subscription.user_licence_id),
    )
    return send_once(services.views, services.mailer, services.clock, task_id, f"price-rise-{kind}", message)


@retried_task("subscriptions.send_price_rise_mail")
def send_price_rise_mail(
    self: ServicesTask, subscription_id: str, kind: str, previous_amount: int, amount: int, changes_at: str
) -> bool:
    """Celery entry point of the price-rise mails."""
    task_id = str(self.request.id or f"adhoc-{subscription_id}-price-rise-{kind}")
    return deliver_price_rise_mail(
        self.services,
        task_id=task_id,
        subscription_id=UUID(subscription_id),
        kind=kind,
        previous_amount=previous_amount,
        amount=amount,
        changes_at=datetime.fromisoformat(changes_at),
    )

"""Purchase mails and the virtual-account deadline sweep."""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from celery import shared_task

from domain.payments.mails import purchase_facts, render_lapsed, render_receipt, render_virtual_account
from domain.payments.purchase import lapse_if_unpaid
from projections.payments import overdue_virtual_accounts
from workers.tasks.mail import send_once
from workers.wiring import WorkerServices, worker_services

log = logging.getLogger(__name__)

RENDERERS = {"receipt": render_receipt, "virtual-account": render_virtual_account, "lapsed": render_lapsed}


def deliver_purchase_mail(services: WorkerServices, *, task_id: str, payment_id: UUID, kind: str) -> bool:
    """Mail the buyer about their order (once per task id); False when there is nothing to say."""
    facts = purchase_facts(services.store, payment_id, services.settings.base_url)
    if facts is None:
        return False
    message = RENDERERS[kind](facts)
    return send_once(services.views, services.mailer, services.clock, task_id, f"purchase-{kind}", message)


def sweep_overdue_virtual_accounts(services: WorkerServices) -> list[str]:
    """Cancel every reserved virtual account past its deadline; returns the lapsed merchantUids."""
    lapsed = []
    for merchant_uid in overdue_virtual_accounts(services.views, services.clock.now()):
        try:
            if lapse_if_unpaid(services.store, services.clock, services.gateway, merchant_uid=merchant_uid):
                lapsed.append(merchant_uid)
        except Exception:  # one stuck order must not stop the sweep; the next run tries again
            log.exception("could not lapse %s", merchant_uid)
    return lapsed


@shared_task(name="payments.send_purchase_mail", bind=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=8)
def send_purchase_mail(self: Any, payment_id: str, kind: str) -> bool:
    """Celery entry point of the purchase mails."""
    task_id = str(self.request.id or f"adhoc-{payment_id}-{kind}")
    return deliver_purchase_mail(worker_services(), task_id=task_id, payment_id=UUID(payment_id), kind=kind)


@shared_task(name="payments.lapse_overdue_virtual_accounts")
def lapse_overdue_virtual_accounts() -> list[str]:
    """Beat: every minute, cancel unpaid virtual accounts whose deadline has passed."""
    return sweep_overdue_virtual_accounts(worker_services())

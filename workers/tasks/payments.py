"""Purchase mails, the virtual-account deadline sweep, and the pass that settles money pending at the gateway."""

from __future__ import annotations

import logging
from uuid import UUID

from celery import shared_task

from application.pending_money import settle_pending_money
from bootstrap import Services
from domain.payments.mails import purchase_facts_of, render_lapsed, render_receipt, render_virtual_account
from domain.payments.purchase import lapse_if_unpaid
from projections.payments import overdue_virtual_accounts
from workers.celery_app import ServicesTask
from workers.tasks.mail import send_once
from workers.tasks.retried import retried_task

log = logging.getLogger(__name__)

RENDERERS = {"receipt": render_receipt, "virtual-account": render_virtual_account, "lapsed": render_lapsed}


def deliver_purchase_mail(services: Services, *, task_id: str, payment_id: UUID, kind: str) -> bool:
    """Mail the buyer about their order (once per task id); False when there is nothing to say or it was sent."""
    return deliver_purchase_mails(services, [{"task_id": task_id, "payment_id": str(payment_id), "kind": kind}]) == 1


def deliver_purchase_mails(services: Services, mails: list[dict[str, str]]) -> int:
    """``deliver_purchase_mail`` for each of ``mails`` (``task_id``, ``payment_id``, ``kind``), their orders read
    together; how many were sent now."""
    facts = purchase_facts_of(
        services.store,
        [UUID(mail["payment_id"]) for mail in mails],
        services.links,
        link_secret=services.settings.auth_secret,
        now=services.clock.now(),
    )
    sent = 0
    for mail in mails:
        found = facts.get(UUID(mail["payment_id"]))
        if found is None:
            continue
        kind = mail["kind"]
        message = RENDERERS[kind](found)
        sent += send_once(services.views, services.mailer, services.clock, mail["task_id"], f"purchase-{kind}", message)
    return sent


def sweep_overdue_virtual_accounts(services: Services) -> list[str]:
    """Cancel every reserved virtual account past its deadline; returns the lapsed merchantUids."""
    lapsed = []
    for merchant_uid in overdue_virtual_accounts(services.views, services.clock.now()):
        try:
            if lapse_if_unpaid(services.store, services.clock, services.payments, merchant_uid=merchant_uid):
                lapsed.append(merchant_uid)
        except Exception:  # one stuck order must not stop the sweep; the next run tries again
            log.exception("could not lapse %s", merchant_uid)
    return lapsed


@retried_task("payments.send_purchase_mail")
def send_purchase_mail(self: ServicesTask, payment_id: str, kind: str) -> bool:
    """Celery entry point of the purchase mails."""
    task_id = str(self.request.id or f"adhoc-{payment_id}-{kind}")
    return deliver_purchase_mail(self.services, task_id=task_id, payment_id=UUID(payment_id), kind=kind)


@retried_task("payments.send_purchase_mails")
def send_purchase_mails(self: ServicesTask, mails: list[dict[str, str]]) -> int:
    """Celery entry point of several purchase mails the reactor found together (a renewal pass's receipts): each
    is sent once under its own task id, as ``send_purchase_mail`` would send it, so a retry or a resend of one of
    them sends nothing twice."""
    return deliver_purchase_mails(self.services, mails)


@shared_task(name="payments.lapse_overdue_virtual_accounts", base=ServicesTask, bind=True)
def lapse_overdue_virtual_accounts(self: ServicesTask) -> list[str]:
    """Beat: every minute, cancel unpaid virtual accounts whose deadline has passed."""
    return sweep_overdue_virtual_accounts(self.services)


@shared_task(name="payments.settle_pending", base=ServicesTask, bind=True)
def settle_pending(self: ServicesTask) -> list[str]:
    """Beat: every minute, record what the gateway did with money whose outcome was never recorded (a first charge,
    a refund, a give-back); returns each payment's merchantUid with what was found."""
    services = self.services
    settled = settle_pending_money(services.store, services.views, services.clock, services.payments)
    for each in settled:
        log.info("settled %s (%s): %s", each.merchant_uid, each.pending, each.outcome)
    return [f"{each.merchant_uid}: {each.outcome}" for each in settled]

"""Mails that support's actions and refunds send, started by the reactor from the log: the licence key again (a
``staff.Acted`` resend-licence-key), and the refund notice (every ``payment.Refunded``). Each is sent once per task
id (``send_once``), so a repeated task sends nothing twice."""

from __future__ import annotations

from uuid import UUID

from bootstrap import Services
from domain.licences.mails import licence_key_facts, render_licence_key
from domain.payments.refund_mail import refund_facts, render_refund
from workers.celery_app import ServicesTask
from workers.tasks.mail import send_once
from workers.tasks.retried import retried_task

LICENCE_KEY_MAIL = "licences.send_licence_key_mail"
REFUND_MAIL = "payments.send_refund_mail"


def deliver_licence_key_mail(services: Services, *, task_id: str, user_licence_id: UUID) -> bool:
    """Mail the licence's key to its holder; False when there is nobody to mail or it was sent."""
    facts = licence_key_facts(services.store, user_licence_id)
    if facts is None:
        return False
    message = render_licence_key(facts)
    return send_once(services.views, services.mailer, services.clock, task_id, "licence-key", message)


def deliver_refund_mail(
    services: Services,
    *,
    task_id: str,
    payment_id: UUID,
    amount: int,
    cancel_amount: int,
    reservation_id: str | None = None,
) -> bool:
    """Tell the buyer ``amount`` of their payment came back (``cancel_amount`` in all) and what it did to the licence
    (the refund ``reservation_id``'s decision); False when there is nobody to tell or it was sent."""
    facts = refund_facts(
        services.store, payment_id, refunded=amount, refunded_in_all=cancel_amount, reservation_id=reservation_id
    )
    if facts is None:
        return False
    return send_once(services.views, services.mailer, services.clock, task_id, "refund", render_refund(facts))


@retried_task(LICENCE_KEY_MAIL)
def send_licence_key_mail(self: ServicesTask, user_licence_id: str) -> bool:
    """Celery entry point of the licence-key mail."""
    task_id = str(self.request.id or f"adhoc-licence-key-{user_licence_id}")
    return deliver_licence_key_mail(self.services, task_id=task_id, user_licence_id=UUID(user_licence_id))


@retried_task(REFUND_MAIL)
def send_refund_mail(
    self: ServicesTask, payment_id: str, amount: int, cancel_amount: int, reservation_id: str | None = None
) -> bool:
    """Celery entry point of the refund mail (a task queued before refunds were reserved has no reservation)."""
    task_id = str(self.request.id or f"adhoc-refund-{payment_id}-{cancel_amount}")
    return deliver_refund_mail(
        self.services,
        task_id=task_id,
        payment_id=UUID(payment_id),
        amount=amount,
        cancel_amount=cancel_amount,
        reservation_id=reservation_id,
    )

"""The transparency log on the beat schedule: append new events, sign a checkpoint, and mail it to finance."""

from __future__ import annotations

import logging

from celery import shared_task

from bootstrap.services import open_audit
from domain.ports import MailMessage
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)


@shared_task(name="audit.sign_checkpoint", base=ServicesTask, bind=True)
def sign_checkpoint(self: ServicesTask) -> dict[str, object]:
    """Append what the tree lacks and sign, keep and write out a checkpoint of it (one per tree size); a new
    checkpoint is mailed to every address of AUDIT_CHECKPOINT_MAIL_TO."""
    services = self.services
    audit = open_audit(services.settings, services.store)
    try:
        before = audit.checkpoints.latest()
        signed = audit.sign_checkpoint(services.clock.now())
    finally:
        audit.close()
    log.info("signed checkpoint of %d events", signed.checkpoint.size)
    if before is None or before.checkpoint.size != signed.checkpoint.size:
        for address in filter(None, (a.strip() for a in services.settings.audit_checkpoint_mail_to.split(","))):
            services.mailer.send(
                MailMessage(
                    to=address,
                    subject=f"Log checkpoint: {signed.checkpoint.size} events ({signed.checkpoint.origin})",
                    text=signed.note,
                )
            )
    return {"tree_size": signed.checkpoint.size, "root_hash": signed.checkpoint.root.hex()}

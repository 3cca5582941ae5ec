"""The transparency log on the beat schedule: append new events and sign a checkpoint."""

from __future__ import annotations

import logging

from celery import shared_task

from bootstrap.audit import open_audit
from workers.celery_app import ServicesTask

log = logging.getLogger(__name__)


@shared_task(name="audit.sign_checkpoint", base=ServicesTask, bind=True)
def sign_checkpoint(self: ServicesTask) -> dict[str, object]:
    """Append what the tree lacks and sign, keep and write out a checkpoint of it (one per tree size)."""
    services = self.services
    audit = open_audit(services.settings, services.store)
    try:
        signed = audit.sign_checkpoint(services.clock.now())
    finally:
        audit.close()
    log.info("signed checkpoint of %d events", signed.checkpoint.size)
    return {"tree_size": signed.checkpoint.size, "root_hash": signed.checkpoint.root.hex()}

"""The one way a task is declared to be tried again: bound to the process's services, retried with growing
pauses while what it calls does not answer. A mail task retries on the mail server's socket errors (8 times)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from workers.celery_app import ServicesTask

MAIL_RETRIES = 8


def retried_task(
    name: str, *, retry_on: tuple[type[Exception], ...] = (OSError,), max_retries: int = MAIL_RETRIES
) -> Any:
    """A task named ``name`` tried again (with back-off, up to ``max_retries`` times) when it raises ``retry_on``."""
    return shared_task(
        name=name,
        base=ServicesTask,
        bind=True,
        autoretry_for=retry_on,
        retry_backoff=True,
        max_retries=max_retries,
    )

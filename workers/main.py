"""The worker and beat processes' Celery app (``celery -A workers.main worker``)."""

from __future__ import annotations

from config.settings import load_settings
from integrations.observability import init_sentry
from workers.celery_app import create_celery

settings = load_settings()
init_sentry(settings)
app = create_celery(settings)

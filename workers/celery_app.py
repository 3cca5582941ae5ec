"""Building the Celery application from settings."""

from __future__ import annotations

from datetime import timedelta

from celery import Celery

from config.settings import Settings
from integrations.broker import broker_transport_options

TASK_MODULES = [
    "workers.tasks.maintenance",
    "workers.tasks.mail",
    "workers.tasks.payments",
    "workers.tasks.subscriptions",
]


def create_celery(settings: Settings) -> Celery:
    """A Celery app on Redis or the file-system broker; tasks are retried, acked late, results unused."""
    app = Celery("storefront", broker=settings.broker_url, include=TASK_MODULES)
    app.conf.update(
        broker_transport_options=broker_transport_options(settings),
        broker_connection_retry_on_startup=True,
        task_default_queue="storefront",
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        timezone="UTC",
        enable_utc=True,
        beat_schedule={
            "renew-due-subscriptions": {
                "task": "subscriptions.renew_due",
                "schedule": timedelta(minutes=1),
            },
            "remind-upcoming-annual-renewals": {
                "task": "subscriptions.remind_upcoming",
                "schedule": timedelta(hours=1),
            },
            "lapse-overdue-virtual-accounts": {
                "task": "payments.lapse_overdue_virtual_accounts",
                "schedule": timedelta(minutes=1),
            },
            "report-view-lag": {
                "task": "maintenance.report_view_lag",
                "schedule": timedelta(minutes=1),
            },
        },
    )
    return app

"""The Celery application, and how its tasks reach this process's services."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from celery import Celery, Task
from kombu.entity import Queue

from bootstrap import Services
from config.settings import Settings
from integrations.broker import broker_transport_options

RENEWALS_QUEUE = "renewals"
TASK_MODULES = [
    "workers.tasks.app_stores",
    "workers.tasks.audit",
    "workers.tasks.finance",
    "workers.tasks.licences",
    "workers.tasks.maintenance",
    "workers.tasks.mail",
    "workers.tasks.payments",
    "workers.tasks.papers",
    "workers.tasks.price_rises",
    "workers.tasks.subscriptions",
    "workers.tasks.support_mails",
]


class StorefrontCelery(Celery):  # type: ignore[misc]  # celery ships no type information
    """A Celery app that builds this process's services on first use and keeps them."""

    def __init__(self, settings: Settings) -> None:
        super().__init__("storefront", broker=settings.broker_url, include=TASK_MODULES)
        self.settings = settings
        self._services: Services | None = None
        self._services_lock = threading.Lock()
        self._charging: ThreadPoolExecutor | None = None

    @property
    def services(self) -> Services:
        """Built from the composition root by the first task that asks (in a pool process, after the fork)."""
        with self._services_lock:
            if self._services is None:
                self._services = Services.build(self.settings)
            return self._services

    @property
    def charging(self) -> ThreadPoolExecutor:
        """The threads that make this process's renewal charges side by side (made by the first batch that
        charges, after a pool process's fork): a charge mostly waits for the gateway."""
        with self._services_lock:
            if self._charging is None:
                self._charging = ThreadPoolExecutor(self.settings.renewal_charges_at_once, "renewal-charge")
            return self._charging


class ServicesTask(Task):  # type: ignore[misc]  # celery ships no type information
    """Base of tasks that use the services (declare them with ``bind=True``)."""

    @property
    def services(self) -> Services:
        """The services of the app running this task."""
        return self.celery_app.services

    @property
    def celery_app(self) -> StorefrontCelery:
        """The Celery app running this task (it carries the process's services and charging threads)."""
        app = self.app
        if not isinstance(app, StorefrontCelery):
            raise TypeError(f"{self.name} runs on a {type(app).__name__}, which carries no services")
        return app


def create_celery(settings: Settings) -> StorefrontCelery:
    """A Celery app on Redis or the embedded broker; tasks are retried, acked late, results unused."""
    app = StorefrontCelery(settings)
    app.conf.update(
        broker_transport_options=broker_transport_options(settings),
        broker_connection_retry_on_startup=True,
        task_default_queue="storefront",
        # Renewals have a queue of their own, which every worker also consumes (taking from each queue in turn):
        # a renewal pass is not queued behind a backlog of mails, and dedicated renewal workers can take only it
        # (`python -m workers worker -Q renewals --pool threads --concurrency 64`).
        task_queues=(Queue("storefront"), Queue(RENEWALS_QUEUE)),  # type: ignore[no-untyped-call]
        task_routes={
            "subscriptions.renew_due": {"queue": RENEWALS_QUEUE},
            "subscriptions.renew_one": {"queue": RENEWALS_QUEUE},
            "subscriptions.renew_batch": {"queue": RENEWALS_QUEUE},
        },
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
            "remind-upcoming-renewals": {
                "task": "subscriptions.remind_upcoming",
                "schedule": timedelta(hours=1),
            },
            "lapse-overdue-virtual-accounts": {
                "task": "payments.lapse_overdue_virtual_accounts",
                "schedule": timedelta(minutes=1),
            },
            # Money in flight at the gateway whose outcome was never recorded (a lost answer, a dead process): read
            # back and recorded, or asked for again (application/pending_money.py).
            "settle-pending-payments": {
                "task": "payments.settle_pending",
                "schedule": timedelta(minutes=1),
            },
            "sign-log-checkpoint": {
                "task": "audit.sign_checkpoint",
                "schedule": timedelta(minutes=settings.audit_checkpoint_minutes),
            },
            "notice-price-rises": {
                "task": "catalogue.notice_price_rises",
                "schedule": timedelta(hours=1),
            },
            "release-idle-devices": {
                "task": "licences.release_idle_devices",
                "schedule": timedelta(hours=1),
            },
            # Yesterday's reconciliation with PortOne each morning: the task itself waits for 09:00 in Korea by the
            # injected clock (so the test clock moves it too) and runs each day once.
            "reconcile-yesterday": {
                "task": "finance.reconcile_yesterday",
                "schedule": timedelta(minutes=1),
            },
            # The apps' stores: subscriptions whose paid time ended with no notification since (a lost one) are
            # asked for (application/app_stores.py).
            "reconcile-app-stores": {
                "task": "app_stores.reconcile",
                "schedule": timedelta(hours=1),
            },
            "report-view-lag": {
                "task": "maintenance.report_view_lag",
                "schedule": timedelta(minutes=1),
            },
        },
    )
    return app

"""The worker process's long-lived dependencies, built once per process on first use."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

from config.settings import Settings, load_settings
from domain.clock import Clock, SystemClock
from domain.payments.gateway import PaymentGateway
from domain.ports import Mailer
from domain.store import Storefront
from integrations.mail import mailer_from_settings
from integrations.portone.client import PortOneClient
from integrations.portone.gateway import PortOneGateway
from projections.database import ViewDatabase, open_view_database
from projections.test_clock import clock_for


@dataclass
class WorkerServices:
    """What tasks use: the log, the views, the mailer, the clock and the payment gateway."""

    settings: Settings
    clock: Clock

    @cached_property
    def store(self) -> Storefront:
        """The event log."""
        return Storefront(self.settings.event_store_env)

    @cached_property
    def views(self) -> ViewDatabase:
        """The read models."""
        return open_view_database(self.settings.view_store_env)

    @cached_property
    def mailer(self) -> Mailer:
        """SMTP or the outbox folder."""
        return mailer_from_settings(self.settings)

    @cached_property
    def gateway(self) -> PaymentGateway:
        """PortOne (or its sandbox)."""
        client = PortOneClient(
            self.settings.portone_base_url, self.settings.portone_imp_key, self.settings.portone_imp_secret
        )
        return PortOneGateway(client)


_lock = threading.Lock()
_services: WorkerServices | None = None


def worker_services() -> WorkerServices:
    """This process's services (created on the first task, reused by the next ones)."""
    global _services
    with _lock:
        if _services is None:
            settings = load_settings()
            _services = WorkerServices(settings, SystemClock())
            if settings.test_clock:
                _services.clock = clock_for(settings, _services.views)
        return _services


def reset_worker_services() -> None:
    """Forget this process's services (tests that change settings between runs of the same process)."""
    global _services
    with _lock:
        _services = None

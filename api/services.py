"""The one place that wires the API's dependencies from settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from api.ratelimit import RateLimiter
from config.settings import Settings
from domain.catalogue.licences import Catalogue, load_catalogue
from domain.clock import Clock, SystemClock
from domain.payments.gateway import PaymentGateway
from domain.ports import PasswordHasher
from domain.store import Storefront
from integrations.passwords import Argon2Hasher
from integrations.portone.client import PortOneClient
from integrations.portone.gateway import PortOneGateway
from projections.catalogue import all_views
from projections.database import ViewDatabase, open_view_database
from projections.follower import ViewProcessor
from projections.test_clock import clock_for
from projections.tracking import wait_for_views


@dataclass
class Services:
    """Long-lived objects shared by every request."""

    settings: Settings
    store: Storefront
    views: ViewDatabase
    clock: Clock = field(default_factory=SystemClock)
    hasher: PasswordHasher = field(default_factory=Argon2Hasher)
    limiter: RateLimiter = field(default_factory=RateLimiter)
    gateway: PaymentGateway | None = None
    catalogue: Catalogue = field(default_factory=load_catalogue)

    @property
    def payments(self) -> PaymentGateway:
        """The payment gateway (PortOne, or its sandbox), connected on first use."""
        if self.gateway is None:
            self.gateway = PortOneGateway(
                PortOneClient(
                    self.settings.portone_base_url,
                    self.settings.portone_imp_key,
                    self.settings.portone_imp_secret,
                    timeout=10.0,
                )
            )
        return self.gateway

    @property
    def secure_cookies(self) -> bool:
        """Cookies get the Secure flag when the site is served over HTTPS."""
        return self.settings.base_url.startswith("https://")

    def see_own_write(self, notification_id: int, *view_names: str) -> bool:
        """Wait (bounded) until the named views include the given log position."""
        return wait_for_views(self.views, self.store.name, view_names, notification_id, self.settings.view_wait_seconds)

    def close(self) -> None:
        """Release connections."""
        self.views.close()
        self.store.close()


def build_services(settings: Settings, clock: Clock | None = None) -> Services:
    """Open the event log and the view database described by the settings."""
    store = Storefront(settings.event_store_env)
    views = open_view_database(settings.view_store_env)
    for view in all_views():
        ViewProcessor(view, views, store.name).setup()
    return Services(
        settings=settings,
        store=store,
        views=views,
        clock=clock or clock_for(settings, views),
        limiter=RateLimiter.from_settings(settings),
    )


def get_services(request: Request) -> Services:
    """FastAPI dependency: the app's services."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]

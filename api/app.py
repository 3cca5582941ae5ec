"""The FastAPI application factory."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from api.access import AccessChecked, check_every_route_is_declared
from api.clients import install_proxy_trust
from api.compression import CompressedAnswers
from api.error_docs import install_error_docs
from api.errors import install_error_handlers
from api.middleware import API_PREFIX, install_middleware
from api.request_bodies import BodyLimits
from api.routers import (
    accounts,
    app_activation,
    app_stores,
    app_stores_staff,
    apps,
    auth,
    billing_keys,
    catalogue,
    catalogue_admin,
    coupons,
    devices,
    finance,
    health,
    integrations,
    licence_links,
    licences,
    marketing,
    money_back,
    open_beta,
    papers,
    payments,
    price_rises_staff,
    reports,
    staff,
    staff_proofs,
    staff_reports,
    subscription_exit,
    subscriptions,
    support,
    upgrades,
)
from api.security_headers import SecurityHeaders
from api.services import Services
from api.spa import install_spa
from config.settings import Settings, load_settings
from domain.catalogue.versions import seed_catalogue
from integrations.observability import init_sentry

log = logging.getLogger(__name__)


def test_harness_routers() -> list[APIRouter]:
    """The test harness's routes (TEST_ADMIN_TOKEN, never in production), imported only when mounted: they use the
    harness package, which production does not install."""
    from api.routers import admin, operator, test_harness, test_harness_staff

    return [test_harness.router, admin.router, operator.router, test_harness_staff.router]


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    """Build the API and web server; services come from the composition root unless given (the caller closes those)."""
    settings = settings or (services.settings if services else load_settings())
    init_sentry(settings)
    wired = services or Services.build(settings)
    if services is None:  # a process of its own starting: a fresh install's first catalogue version is the shipped one
        seed_catalogue(wired.store, wired.clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await wired.views.open_async()  # the read routes' pool, on the server's loop
        # Tokens are served once this process knows what ended them (api/revocations.py); if the list cannot
        # catch up in time, the API starts anyway and refuses tokens until it has.
        if not await wired.revocations.until_caught_up_once():
            log.warning("revocations have not caught up with the log; tokens are refused until they have")
        try:
            yield
        finally:
            await wired.views.close_async()
        if services is None:
            wired.close()

    production = settings.app_env == "production"
    app = FastAPI(
        title="Unicorn Pro storefront API",
        version="1",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None if production else f"{API_PREFIX}/docs",  # Swagger UI is a developer's page
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.services = wired
    install_error_handlers(app)
    install_error_docs(app)
    # Middleware, innermost first: request bodies, budget and crash boundary, security headers, compression, then
    # the proxy trust that names the client and the scheme for all of them.
    app.add_middleware(BodyLimits, prefix=API_PREFIX)
    install_middleware(app, settings.request_budget_seconds)
    app.add_middleware(SecurityHeaders, settings=settings)
    app.add_middleware(CompressedAnswers)  # API answers over 1 kB gzipped (api/compression.py)
    install_proxy_trust(app, settings)

    # Each router is included in the app itself: FastAPI matches a request through every level of inclusion
    # (twice per router it passes), and one level less was measured as more requests per second. The apps'
    # check-ins come first: they are the most frequent calls by far, and matching walks the routers in order.
    routers = [
        apps.router,
        health.router,
        accounts.router,
        auth.router,
        catalogue.router,
        licences.router,
        devices.router,
        open_beta.router,
        app_activation.router,
        payments.router,
        licence_links.router,
        billing_keys.router,
        subscriptions.router,
        subscription_exit.router,
        coupons.router,
        coupons.banners,
        upgrades.options,
        upgrades.router,
        reports.router,
        integrations.router,
        staff.router,
        support.router,
        papers.router,
        papers.finance,
        subscription_exit.reasons,
        staff_reports.router,
        staff_proofs.router,
        money_back.router,
        finance.router,
        marketing.router,
        catalogue_admin.router,
        price_rises_staff.router,
        app_stores.router,
        app_stores_staff.support,
        app_stores_staff.finance,
    ]
    if settings.test_admin_token and not production:  # the settings refuse the token in production too
        routers += test_harness_routers()
        routers += [app_stores_staff.harness]
    check_every_route_is_declared(routers)
    for router in routers:
        app.include_router(router, prefix=API_PREFIX, dependencies=AccessChecked)
    install_spa(app, settings.web_dist_dir)
    return app

"""The FastAPI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from api.error_docs import install_error_docs
from api.errors import install_error_handlers
from api.middleware import API_PREFIX, install_middleware
from api.routers import (
    accounts,
    admin,
    auth,
    billing_keys,
    coupons,
    health,
    integrations,
    licence_links,
    licences,
    operator,
    payments,
    reports,
    subscriptions,
    test_harness,
    upgrades,
)
from api.security_headers import SecurityHeaders
from api.services import Services
from api.spa import install_spa
from config.settings import Settings, load_settings
from integrations.observability import init_sentry


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    """Build the API and web server; services come from the composition root unless given (the caller closes those)."""
    settings = settings or (services.settings if services else load_settings())
    init_sentry(settings)
    wired = services or Services.build(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await wired.views.open_async()  # the read routes' pool, on the server's loop
        try:
            yield
        finally:
            await wired.views.close_async()
        if services is None:
            wired.close()

    app = FastAPI(
        title="Unicorn Pro storefront API",
        version="1",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.services = wired
    install_error_handlers(app)
    install_error_docs(app)
    install_middleware(app, settings.request_budget_seconds)
    app.add_middleware(SecurityHeaders, settings=settings)

    api = APIRouter(prefix=API_PREFIX)
    api.include_router(health.router)
    api.include_router(accounts.router)
    api.include_router(auth.router)
    api.include_router(licences.router)
    api.include_router(licences.mine)
    api.include_router(payments.router)
    api.include_router(licence_links.router)
    api.include_router(billing_keys.router)
    api.include_router(subscriptions.router)
    api.include_router(coupons.router)
    api.include_router(coupons.banners)
    api.include_router(upgrades.options)
    api.include_router(upgrades.router)
    api.include_router(reports.router)
    api.include_router(integrations.router)
    if settings.test_admin_token:
        api.include_router(test_harness.router)
        api.include_router(admin.router)
        api.include_router(operator.router)
    app.include_router(api)
    install_spa(app, settings.web_dist_dir)
    return app

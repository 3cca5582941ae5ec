"""The local stand-ins for the apps' stores, in one process (never in production): the App Store's under
``/app-store``, Google Play's under ``/google-play`` (``python -m integrations.stores``)."""

from __future__ import annotations

from fastapi import FastAPI

from integrations.app_store.keys import StandInKeys as AppleKeys
from integrations.app_store.standin import AppStoreStandIn, create_app_store_standin
from integrations.google_play.keys import StandInKeys as GoogleKeys
from integrations.google_play.standin import GooglePlayStandIn, create_google_play_standin


def create_stores_app(apple: AppStoreStandIn, google: GooglePlayStandIn) -> FastAPI:
    """Both stand-ins behind one address."""
    app = FastAPI(title="App store stand-ins", docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/app-store", create_app_store_standin(apple))
    app.mount("/google-play", create_google_play_standin(google))
    return app


__all__ = ["AppStoreStandIn", "AppleKeys", "GoogleKeys", "GooglePlayStandIn", "create_stores_app"]

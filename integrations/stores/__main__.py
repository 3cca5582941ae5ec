"""Run the stores' stand-ins: ``python -m integrations.stores --port 8002`` (keys under APP_VAR_DIR/stand-ins/,
notifications delivered to the API at ``--api``; on the shared test clock when TEST_CLOCK is on)."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

import uvicorn

from config.settings import Settings
from eventlog.database import open_view_database
from integrations.app_store.keys import StandInKeys as AppleKeys
from integrations.app_store.standin import AppStoreStandIn
from integrations.google_play.keys import StandInKeys as GoogleKeys
from integrations.google_play.standin import GooglePlayStandIn
from integrations.stores import create_stores_app

API_PREFIX = "/web/unicornpro/v1"


def main(argv: Sequence[str] | None = None) -> None:
    """Start both stand-ins with uvicorn."""
    parser = argparse.ArgumentParser(prog="python -m integrations.stores", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002)
    parser.add_argument("--api", default="", help="the API's address to deliver notifications to (none: keep them)")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    settings = Settings()
    if settings.app_env == "production":
        raise SystemExit("the stores' stand-ins never run in production")
    clock = None
    if settings.test_clock:
        from harness.clock import SharedTestClock  # the harness is not installed in production: imported only when on

        clock = SharedTestClock(open_view_database(settings.view_store_env)).now
    api = args.api.rstrip("/")
    apple = AppStoreStandIn(
        AppleKeys.load_or_create(settings.store_standins_dir / "app-store"),
        bundle_id=settings.app_store_bundle_id,
        environment=settings.app_store_environment,
        clock=clock,
        notification_url=f"{api}{API_PREFIX}/app-stores/app-store/notifications" if api else None,
    )
    google = GooglePlayStandIn(
        GoogleKeys.load_or_create(settings.store_standins_dir / "google-play"),
        package_name=settings.google_play_package_name,
        push_audience=settings.google_play_push_audience
        or f"{settings.base_url.rstrip('/')}{API_PREFIX}/app-stores/google-play/notifications",
        clock=clock,
        push_url=f"{api}{API_PREFIX}/app-stores/google-play/notifications" if api else None,
    )
    app = create_stores_app(apple, google)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, timeout_graceful_shutdown=5)


if __name__ == "__main__":
    main()

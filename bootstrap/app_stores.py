"""The apps' stores from settings (docs/app-stores.md): Apple's and Google's own services in production, the local
stand-ins (`python -m integrations.stores`) and their generated test keys everywhere else."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from config.settings import Settings
from domain.app_stores.facts import Store
from domain.app_stores.ports import StoreGateways
from domain.app_stores.products import (
    DEFAULT_APP_STORE_PRODUCTS,
    DEFAULT_GOOGLE_PLAY_PRODUCTS,
    StoreRules,
    parse_products,
)
from integrations.app_store import keys as apple_keys
from integrations.app_store.adapter import (
    AppleAppStore,
    PointedAppStoreServerAPIClient,
    environment_named,
    root_certificates,
)
from integrations.google_play import keys as google_keys
from integrations.google_play.adapter import PlayStore

APPLE_API = {
    "Production": "https://api.storekit.itunes.apple.com",
    "Sandbox": "https://api.storekit-sandbox.itunes.apple.com",
}
GOOGLE_API = "https://androidpublisher.googleapis.com"
GOOGLE_CERTS = "https://www.googleapis.com/oauth2/v3/certs"
API_PREFIX = "/web/unicornpro/v1"


def store_rules(settings: Settings) -> StoreRules:
    """The products each store sells and what each keeps."""
    return StoreRules(
        products={
            Store.APP_STORE: parse_products(settings.app_store_products or DEFAULT_APP_STORE_PRODUCTS),
            Store.GOOGLE_PLAY: parse_products(settings.google_play_products or DEFAULT_GOOGLE_PLAY_PRODUCTS),
        },
        commission={Store.APP_STORE: settings.app_store_commission, Store.GOOGLE_PLAY: settings.google_play_commission},
    )


def app_store(settings: Settings) -> AppleAppStore:
    """Apple's library, trusting Apple's root (APP_STORE_ROOT_CERTIFICATES) or, outside production, the stand-in's."""
    production = settings.app_env == "production"
    environment = environment_named(settings.app_store_environment)
    stand_in = None if production else apple_keys.StandInKeys.load_or_create(settings.store_standins_dir / "app-store")
    paths = [path.strip() for path in settings.app_store_root_certificates.split(",") if path.strip()]
    roots = root_certificates(paths) if paths else ([stand_in.root_der] if stand_in else [])
    verifier = SignedDataVerifier(
        roots,
        settings.app_store_online_checks,
        environment,
        settings.app_store_bundle_id,
        settings.app_store_app_apple_id or None,
    )
    key = settings.app_store_api_private_key.encode() or (stand_in.api_key_pem if stand_in else b"")
    api = None
    if key:
        api = PointedAppStoreServerAPIClient(
            key,
            settings.app_store_api_key_id or apple_keys.API_KEY_ID,
            settings.app_store_api_issuer_id or apple_keys.API_ISSUER_ID,
            settings.app_store_bundle_id,
            environment,
            settings.app_store_api_url
            or (APPLE_API[settings.app_store_environment] if production else f"{settings.store_standin_url}/app-store"),
        )
    return AppleAppStore(verifier, api)


def _service_account(settings: Settings) -> dict[str, Any] | None:
    value = settings.google_play_service_account.strip()
    if not value:
        return None
    found: dict[str, Any] = json.loads(value if value.startswith("{") else Path(value).read_text())
    return found


def google_play(settings: Settings) -> PlayStore:
    """The Developer API with the service account (GOOGLE_PLAY_SERVICE_ACCOUNT) or, outside production, the
    stand-in's."""
    production = settings.app_env == "production"
    stand_in_url = f"{settings.store_standin_url}/google-play"
    account = _service_account(settings)
    if account is None:
        if production:
            raise ValueError("GOOGLE_PLAY_SERVICE_ACCOUNT is needed to ask Google Play")
        stand_in = google_keys.StandInKeys.load_or_create(settings.store_standins_dir / "google-play")
        account = stand_in.service_account_info(f"{stand_in_url}/token")
    return PlayStore(
        package_name=settings.google_play_package_name,
        api_url=settings.google_play_api_url or (GOOGLE_API if production else stand_in_url),
        service_account_info=account,
        push_audience=settings.google_play_push_audience or push_audience(settings),
        push_service_account=settings.google_play_push_service_account
        or ("" if production else google_keys.PUSH_ACCOUNT),
        certs_url=settings.google_play_certs_url or (GOOGLE_CERTS if production else f"{stand_in_url}/oauth2/v3/certs"),
    )


def push_audience(settings: Settings) -> str:
    """The audience the push subscription's tokens name: our notification endpoint's public address."""
    return f"{settings.base_url.rstrip('/')}{API_PREFIX}/app-stores/google-play/notifications"


def store_gateways(settings: Settings) -> StoreGateways:
    """Both stores and their rules."""
    return StoreGateways(
        app_store=app_store(settings),
        google_play=google_play(settings),
        rules=store_rules(settings),
        notification_window=timedelta(hours=settings.app_store_notification_max_age_hours),
        reconcile_after=timedelta(minutes=settings.store_reconcile_after_minutes),
    )

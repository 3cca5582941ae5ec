"""Every long-lived service a process uses, built once from settings (or given by a test)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Self

from limits.storage import RedisStorage, Storage

from config.settings import Settings, load_settings
from domain.app_stores.ports import StoreGateways
from domain.catalogue.licences import Catalogue
from domain.catalogue.versions import FollowedCatalogue
from domain.clock import Clock, SystemClock
from domain.links import SiteLinks
from domain.payments.gateway import PaymentGateway
from domain.ports import Mailer, ObjectStore, PasswordHasher
from domain.reports.filters import FilterCatalogues, load_filter_catalogues
from domain.store import Storefront
from eventlog.application import EventLog
from eventlog.audit import Audit
from eventlog.checkpoints import load_signing_key
from eventlog.database import ViewDatabase, open_view_database
from integrations.checkpoint_copies import BucketCopies
from integrations.mail import mailer_from_settings
from integrations.object_store import FileObjectStore
from integrations.passwords import Argon2Hasher
from integrations.portone.client import PortOneClient
from integrations.portone.gateway import PortOneGateway
from integrations.rate_windows import InProcessWindows
from integrations.s3_object_store import S3ObjectStore
from projections.catalogue import all_views
from projections.follower import ViewProcessor

log = logging.getLogger(__name__)

VIEW_SETUP_ATTEMPTS = 3


@dataclass(eq=False)
class Services:
    """The event log, the read models, the clock and the outside adapters of one process."""

    settings: Settings
    store: Storefront
    views: ViewDatabase
    clock: Clock
    payments: PaymentGateway
    mailer: Mailer
    hasher: PasswordHasher
    catalogues: FollowedCatalogue
    filters: FilterCatalogues
    rate_limits: Storage
    objects: ObjectStore
    given_stores: StoreGateways | None = None  # a test's fakes or stand-ins; else built from settings on first use

    @property
    def stores(self) -> StoreGateways:
        """The apps' stores (docs/app-stores.md), built on first use: most processes never ask them."""
        if self.given_stores is None:
            from bootstrap.app_stores import store_gateways

            self.given_stores = store_gateways(self.settings)
        return self.given_stores

    @property
    def catalogue(self) -> Catalogue:
        """The catalogue version in force at the clock's time (following the log: a change shows within seconds)."""
        return self.catalogues.in_force(self.clock.now())

    @property
    def links(self) -> SiteLinks:
        """The links this site mails and hands out, under its public address (APP_BASE_URL)."""
        return SiteLinks(self.settings.base_url)

    @property
    def base_url(self) -> str:
        """The site's public address (APP_BASE_URL)."""
        return self.settings.base_url

    @property
    def previous_verifier_keys(self) -> tuple[str, ...]:
        """Verifier keys of earlier checkpoint-signing keys (AUDIT_PREVIOUS_VERIFIER_KEYS)."""
        return self.settings.previous_verifier_keys

    def open_audit(self) -> Audit:
        """The transparency log's tree, checkpoints and signer over this process's log (the caller closes it)."""
        return open_audit(self.settings, self.store)

    @classmethod
    def build(
        cls,
        settings: Settings | None = None,
        *,
        clock: Clock | None = None,
        payments: PaymentGateway | None = None,
        mailer: Mailer | None = None,
        hasher: PasswordHasher | None = None,
        stores: StoreGateways | None = None,
    ) -> Self:
        """Open the log and the views the settings describe (creating missing view tables) and wire the rest.

        Settings default to the environment's. A test replaces the clock, the payment gateway,
        the mailer or the password hasher by passing its own.
        """
        settings = settings or load_settings()
        store = Storefront(settings.event_store_env)
        views = open_view_database(settings.view_store_env)
        set_up_views(views, store.name)
        return cls(
            settings=settings,
            store=store,
            views=views,
            clock=clock or (shared_test_clock(views) if settings.test_clock else SystemClock()),
            payments=payments or portone_gateway(settings),
            mailer=mailer or mailer_from_settings(settings),
            hasher=hasher or Argon2Hasher(),
            catalogues=FollowedCatalogue(store),
            filters=load_filter_catalogues(),
            rate_limits=rate_limit_storage(settings),
            objects=object_store(settings),
            given_stores=stores,
        )

    def close(self) -> None:
        """Release connections: the gateway's HTTP pool, the view database, the log."""
        if isinstance(self.payments, PortOneGateway):
            self.payments.close()
        self.views.close()
        self.store.close()


def shared_test_clock(views: ViewDatabase) -> Clock:
    """The clock a test harness moves (TEST_CLOCK, never in production: the harness is not installed there)."""
    from harness.clock import SharedTestClock

    return SharedTestClock(views)


def portone_gateway(settings: Settings) -> PortOneGateway:
    """PortOne V1 (or the local sandbox) with the configured keys and timeout."""
    client = PortOneClient(
        settings.portone_base_url,
        settings.portone_imp_key,
        settings.portone_imp_secret,
        timeout=settings.portone_timeout_seconds,
    )
    return PortOneGateway(client)


def object_store(settings: Settings) -> ObjectStore:
    """Where uploaded images are kept: the S3 bucket when one is configured, else files under ``var/objects/``."""
    if settings.s3_bucket:
        return S3ObjectStore(
            settings.s3_bucket,
            endpoint_url=settings.s3_endpoint_url,
            region=settings.s3_region,
            access_key_id=settings.s3_access_key_id,
            secret_access_key=settings.s3_secret_access_key,
        )
    return FileObjectStore(settings.objects_dir)


def rate_limit_storage(settings: Settings) -> Storage:
    """Where rate-limit counters live: Redis when configured (shared by every API process), else memory."""
    return RedisStorage(settings.redis_url) if settings.redis_url else InProcessWindows()


def set_up_views(views: ViewDatabase, application_name: str) -> None:
    """Create every view's tables and tracking row if they are missing (idempotent)."""
    for view in all_views():
        processor = ViewProcessor(view, views, application_name)
        # Processes starting together on PostgreSQL can race on CREATE TABLE IF NOT EXISTS;
        # the loser's error is harmless, and by its next attempt the tables exist.
        for attempt in range(1, VIEW_SETUP_ATTEMPTS + 1):
            try:
                processor.setup()
                break
            except Exception:
                if attempt == VIEW_SETUP_ATTEMPTS:
                    raise
                log.warning("setting up view %s raced another process; trying again", view.name)
                time.sleep(0.1 * attempt)


def open_audit(settings: Settings, log: EventLog | None = None) -> Audit:
    """The tree, checkpoints and signer of the log the settings describe (the process's own log when given);
    checkpoint copies go to AUDIT_CHECKPOINT_DIR, or to the bucket when S3_BUCKET is set."""
    key = load_signing_key(settings.audit_signing_key, settings.audit_key_file)
    copies = BucketCopies(object_store(settings)) if settings.s3_bucket else None
    return Audit.open(
        settings.event_store_env, key, settings.audit_log_origin, settings.checkpoint_dir, log=log, copies=copies
    )

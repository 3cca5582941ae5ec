"""Settings for every process, read from environment variables (prefix-free, 12-factor style)."""

from __future__ import annotations

import ipaddress
import os
import secrets
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from functools import cached_property
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlencode, urlsplit, urlunsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SANDBOX_ACKNOWLEDGED = "deployment-test"
# PostgreSQL connections per process unless DATABASE_URL's ?pool_size=&max_overflow= say otherwise: eventsourcing
# opens pool_size at start and keeps them, so an idle process holds few and a busy one grows to the sum.
POOL_SIZE = 2
MAX_OVERFLOW = 13
# The footer's company block (COMPANY_*), what Korea's E-Commerce Act has the store show: required in production.
COMPANY_SETTINGS = (
    "company_name",
    "company_representative",
    "company_address",
    "company_phone",
    "company_email",
    "company_business_number",
    "company_mail_order_number",
    "company_hosting_provider",
)
# The seller as Japan's Act on Specified Commercial Transactions has the 特定商取引法に基づく表記 page show it
# (JP_SELLER_*; the e-mail is COMPANY_EMAIL): required in production.
JP_SELLER_SETTINGS = (
    "jp_seller_name",
    "jp_seller_address",
    "jp_seller_phone",
    "jp_seller_responsible",
)

# Where each platform's app is downloaded (APP_DOWNLOAD_*_URL).
APP_DOWNLOAD_SETTINGS = (
    "app_download_android_url",
    "app_download_ios_url",
    "app_download_mac_url",
    "app_download_windows_url",
)


def parse_limits(value: str) -> dict[str, int]:
    """``KRW=100000,USD=10000`` as amounts in minor units by currency (ValueError for anything else)."""
    limits: dict[str, int] = {}
    for item in value.split(","):
        if not item.strip():
            continue
        currency, _, amount = item.partition("=")
        if len(currency.strip()) != 3 or not amount.strip().isdigit():
            raise ValueError(f"not CURRENCY=minor units: {item!r}")
        limits[currency.strip().upper()] = int(amount)
    return limits


class Settings(BaseSettings):
    """Everything a process needs to know about where it runs.

    Left empty, ``database_url`` and ``redis_url`` select the embedded default:
    SQLite files and an embedded Celery broker (one more SQLite file) under ``var_dir``.
    """

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", frozen=True)

    app_env: str = Field(default="development", alias="APP_ENV")
    var_dir: Path = Field(default=PROJECT_ROOT / "var", alias="APP_VAR_DIR")
    database_url: str = Field(default="", alias="DATABASE_URL")
    redis_url: str = Field(default="", alias="REDIS_URL")
    base_url: str = Field(default="http://127.0.0.1:8000", alias="APP_BASE_URL")
    web_dist_dir: Path = Field(default=PROJECT_ROOT / "web" / "dist", alias="WEB_DIST_DIR")
    sentry_dsn: str = Field(default="", alias="SENTRY_DSN")
    sentry_environment: str = Field(default="", alias="SENTRY_ENVIRONMENT")
    smtp_url: str = Field(default="", alias="SMTP_URL")
    mail_from: str = Field(default="Unicorn <no-reply@unicornpro.local>", alias="MAIL_FROM")
    request_budget_seconds: float = Field(default=15.0, alias="REQUEST_BUDGET_SECONDS")
    view_wait_seconds: float = Field(default=2.0, alias="VIEW_WAIT_SECONDS")
    projector_poll_seconds: float = Field(default=0.1, alias="PROJECTOR_POLL_SECONDS")
    # Signing secrets: set them in production (32 characters or more). Left empty elsewhere, each process reads the
    # one generated for this var/ on first use (var/secrets/, readable by its owner only), so no secret that works
    # anywhere is ever published in the source.
    auth_secret_setting: str = Field(default="", alias="AUTH_SECRET", repr=False)
    zendesk_secret_setting: str = Field(default="", alias="ZENDESK_SECRET", repr=False)
    # Support desk, chat widget and the browser's error reporting (docs/support.md).
    zendesk_url: str = Field(default="https://support.unicornpro.example", alias="ZENDESK_URL")
    chat_script_url: str = Field(default="", alias="CHAT_SCRIPT_URL")
    chat_plugin_key: str = Field(default="", alias="CHAT_PLUGIN_KEY")
    chat_member_secret_setting: str = Field(default="", alias="CHAT_MEMBER_SECRET", repr=False)
    # The apps' offline licences (docs/app-licensing.md): the Ed25519 key is derived from this secret (SHA-256);
    # keys rotated out stay published (base64url raw public keys, comma-separated) so their tokens still verify.
    licence_signing_secret_setting: str = Field(default="", alias="LICENCE_SIGNING_SECRET", repr=False)
    licence_previous_public_keys: str = Field(default="", alias="LICENCE_PREVIOUS_PUBLIC_KEYS")
    licence_offline_grace_days: int = Field(default=14, ge=1, le=90, alias="LICENCE_OFFLINE_GRACE_DAYS")
    web_sentry_dsn: str = Field(default="", alias="WEB_SENTRY_DSN")
    broker_visibility_timeout: int = Field(default=3600, alias="BROKER_VISIBILITY_TIMEOUT")
    # How often the reactor looks for mail tasks that never ran (workers.resends).
    mail_resend_seconds: float = Field(default=30.0, gt=0, alias="MAIL_RESEND_SECONDS")
    # A renewal task takes this many due subscriptions (one read, one save), and a worker process makes up to
    # RENEWAL_CHARGES_AT_ONCE charges side by side, whatever its pool (docs/adr/0005-renewals-in-batches.md).
    renewal_batch_size: int = Field(default=25, ge=1, le=500, alias="RENEWAL_BATCH_SIZE")
    renewal_charges_at_once: int = Field(default=64, ge=1, le=512, alias="RENEWAL_CHARGES_AT_ONCE")
    # The one retention offer a subscriber stopping auto-renewal may be shown: this fraction off the next period's
    # charge, as a code of the year's private retention coupon group (docs/subscriptions.md); 0 shows no offer.
    retention_coupon_factor: Decimal = Field(
        default=Decimal("0.3"), ge=0, le=Decimal("0.9"), alias="RETENTION_COUPON_FACTOR"
    )
    test_clock: bool = Field(default=False, alias="TEST_CLOCK")
    test_admin_token: str = Field(default="", alias="TEST_ADMIN_TOKEN", repr=False)
    test_admin_email: str = Field(default="admin@unicornpro.test", alias="TEST_ADMIN_EMAIL")
    portone_base_url: str = Field(default="http://127.0.0.1:8001", alias="PORTONE_BASE_URL")
    portone_imp_key: str = Field(default="sandbox-imp-key", alias="PORTONE_IMP_KEY")
    portone_imp_secret: str = Field(default="sandbox-imp-secret", alias="PORTONE_IMP_SECRET", repr=False)
    portone_imp_code: str = Field(default="imp_sandbox", alias="PORTONE_IMP_CODE")
    portone_script_url: str = Field(default="", alias="PORTONE_SCRIPT_URL")
    # Lets a production configuration talk to the local PortOne sandbox: only the deployment test sets it, to this
    # exact phrase, and tests/deployment checks that no deployment file (compose, Kubernetes) does.
    portone_sandbox_in_production: str = Field(default="", alias="PORTONE_SANDBOX_IN_PRODUCTION")
    # The buyer's country: DEFAULT_COUNTRY, or what a trusted proxy puts in the header COUNTRY_HEADER names
    # (for example CF-IPCountry); never the page's language (api/country.py).
    default_country: str = Field(default="KR", pattern="^[A-Z]{2}$", alias="DEFAULT_COUNTRY")
    country_header: str = Field(default="", alias="COUNTRY_HEADER")
    # The proxies in front of the API (networks, comma-separated): only they may name the client in
    # X-Forwarded-For and the scheme in X-Forwarded-Proto, for rate limits and HSTS (api/clients.py).
    trusted_proxies: str = Field(default="127.0.0.1,::1", alias="TRUSTED_PROXIES")
    portone_timeout_seconds: float = Field(default=10.0, gt=0, alias="PORTONE_TIMEOUT_SECONDS")
    audit_signing_key: str = Field(default="", alias="AUDIT_SIGNING_KEY", repr=False)
    audit_log_origin: str = Field(default="unicornpro.local/storefront/log", alias="AUDIT_LOG_ORIGIN")
    audit_checkpoint_dir: Path | None = Field(default=None, alias="AUDIT_CHECKPOINT_DIR")
    audit_checkpoint_mail_to: str = Field(default="", alias="AUDIT_CHECKPOINT_MAIL_TO")
    audit_checkpoint_minutes: float = Field(default=60.0, gt=0, alias="AUDIT_CHECKPOINT_MINUTES")
    # Verifier keys of signing keys rotated out (comma-separated `<name>+<id>+<key>`, as `python -m eventlog.audit key`
    # printed them): `verify` trusts checkpoints signed by any of them besides the current key (docs/runbook.md).
    audit_previous_verifier_keys: str = Field(default="", alias="AUDIT_PREVIOUS_VERIFIER_KEYS")
    # Report and banner images: an S3 bucket when S3_BUCKET is set (S3_ENDPOINT_URL for an S3-compatible
    # server; credentials from S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, else boto3's own chain), else var/objects/.
    s3_bucket: str = Field(default="", alias="S3_BUCKET")
    s3_endpoint_url: str = Field(default="", alias="S3_ENDPOINT_URL")
    s3_region: str = Field(default="", alias="S3_REGION")
    s3_access_key_id: str = Field(default="", alias="S3_ACCESS_KEY_ID", repr=False)
    s3_secret_access_key: str = Field(default="", alias="S3_SECRET_ACCESS_KEY", repr=False)
    # The seller as Korean law has an online store show it (the footer's company block): required in production;
    # the defaults are sample values for development and tests.
    company_name: str = Field(default="유니콘 주식회사", alias="COMPANY_NAME")
    company_representative: str = Field(default="김유니 (샘플)", alias="COMPANY_REPRESENTATIVE")
    company_address: str = Field(default="서울특별시 강남구 테헤란로 000, 0층 (샘플)", alias="COMPANY_ADDRESS")
    company_business_number: str = Field(default="000-00-00000", alias="COMPANY_BUSINESS_NUMBER")
    company_mail_order_number: str = Field(default="제0000-서울강남-00000호", alias="COMPANY_MAIL_ORDER_NUMBER")
    company_phone: str = Field(default="02-0000-0000 (샘플)", alias="COMPANY_PHONE")
    company_email: str = Field(default="help@unicornpro.example", alias="COMPANY_EMAIL")
    company_hosting_provider: str = Field(default="샘플 클라우드 주식회사", alias="COMPANY_HOSTING_PROVIDER")
    # The same seller as the Japanese disclosure page names it (web: /ja/legal/tokushoho): required in production.
    jp_seller_name: str = Field(default="ユニコーン株式会社(サンプル)", alias="JP_SELLER_NAME")
    jp_seller_address: str = Field(
        default="大韓民国ソウル特別市江南区テヘラン路000 0階(サンプル)", alias="JP_SELLER_ADDRESS"
    )
    jp_seller_phone: str = Field(default="+82-2-0000-0000(サンプル)", alias="JP_SELLER_PHONE")
    jp_seller_responsible: str = Field(default="キム・ユニ(サンプル)", alias="JP_SELLER_RESPONSIBLE")
    # The fonts receipts and refund notes (PDF) are set in, embedded as subsets: Korean and Latin, and Japanese. The
    # defaults are Debian's fonts-nanum and fonts-ipaexfont-gothic, which `make install` installs (docs/papers.md).
    receipt_font_ko: Path = Field(
        default=Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"), alias="RECEIPT_FONT_KO"
    )
    receipt_font_ja: Path = Field(
        default=Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"), alias="RECEIPT_FONT_JA"
    )
    # Where each app is downloaded (its store page or installer): the licence page, the purchase-complete page and
    # the account menu's products link there. The defaults search the stores for the app; set each app's own page.
    app_download_android_url: str = Field(
        default="https://play.google.com/store/search?q=Unicorn%20adblock&c=apps", alias="APP_DOWNLOAD_ANDROID_URL"
    )
    app_download_ios_url: str = Field(
        default="https://apps.apple.com/search?term=Unicorn%20adblock", alias="APP_DOWNLOAD_IOS_URL"
    )
    app_download_mac_url: str = Field(
        default="https://apps.apple.com/search?term=Unicorn%20adblock%20mac", alias="APP_DOWNLOAD_MAC_URL"
    )
    app_download_windows_url: str = Field(
        default="https://apps.microsoft.com/search?query=Unicorn%20adblock", alias="APP_DOWNLOAD_WINDOWS_URL"
    )
    open_beta_ends_at: datetime = Field(
        default=datetime(2027, 3, 31, 23, 59, 59, tzinfo=timezone(timedelta(hours=9))), alias="OPEN_BETA_ENDS_AT"
    )
    # The back office (README: "The back office"): staff sessions and the refund limits, amounts in minor units.
    staff_idle_minutes: float = Field(default=15.0, gt=0, le=120, alias="STAFF_IDLE_MINUTES")
    staff_session_hours: float = Field(default=10.0, gt=0, le=24, alias="STAFF_SESSION_HOURS")
    staff_step_up_minutes: float = Field(default=5.0, gt=0, le=60, alias="STAFF_STEP_UP_MINUTES")
    # Below the dearest plan in each currency (89,000 won, 9,800 yen, $74.99), so refunding a whole licence of it
    # always needs a second member; weighed against what a payment was refunded in all, not per request.
    staff_refund_approval_limits: str = Field(
        default="KRW=50000,JPY=5000,USD=5000", alias="STAFF_REFUND_APPROVAL_LIMITS"
    )
    money_back_auto_limits: str = Field(default="KRW=100000,JPY=10000,USD=10000", alias="MONEY_BACK_AUTO_LIMITS")
    # The apps' stores (docs/app-stores.md). Outside production the local stand-ins (`python -m integrations.stores`,
    # STORE_STANDIN_PORT) sign with test keys generated under APP_VAR_DIR/stand-ins/; production never trusts those.
    store_standin_port: int = Field(default=8002, alias="STORE_STANDIN_PORT")
    app_store_bundle_id: str = Field(default="com.unicornpro.adblock", alias="APP_STORE_BUNDLE_ID")
    app_store_app_apple_id: int = Field(default=0, ge=0, alias="APP_STORE_APP_APPLE_ID")
    app_store_environment: str = Field(
        default="Sandbox", pattern="^(Sandbox|Production)$", alias="APP_STORE_ENVIRONMENT"
    )
    app_store_root_certificates: str = Field(default="", alias="APP_STORE_ROOT_CERTIFICATES")
    app_store_online_checks: bool = Field(default=False, alias="APP_STORE_ONLINE_CHECKS")
    app_store_api_url: str = Field(default="", alias="APP_STORE_API_URL")
    app_store_api_key_id: str = Field(default="", alias="APP_STORE_API_KEY_ID")
    app_store_api_issuer_id: str = Field(default="", alias="APP_STORE_API_ISSUER_ID")
    app_store_api_private_key: str = Field(default="", alias="APP_STORE_API_PRIVATE_KEY", repr=False)
    app_store_notification_max_age_hours: float = Field(
        default=96.0, gt=0, le=24 * 30, alias="APP_STORE_NOTIFICATION_MAX_AGE_HOURS"
    )
    app_store_products: str = Field(default="", alias="APP_STORE_PRODUCTS")
    app_store_commission: Decimal = Field(default=Decimal("0.30"), ge=0, lt=1, alias="APP_STORE_COMMISSION")
    google_play_package_name: str = Field(default="com.unicornpro.adblock", alias="GOOGLE_PLAY_PACKAGE_NAME")
    google_play_api_url: str = Field(default="", alias="GOOGLE_PLAY_API_URL")
    google_play_service_account: str = Field(default="", alias="GOOGLE_PLAY_SERVICE_ACCOUNT", repr=False)
    google_play_push_audience: str = Field(default="", alias="GOOGLE_PLAY_PUSH_AUDIENCE")
    google_play_push_service_account: str = Field(default="", alias="GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT")
    google_play_certs_url: str = Field(default="", alias="GOOGLE_PLAY_CERTS_URL")
    google_play_products: str = Field(default="", alias="GOOGLE_PLAY_PRODUCTS")
    google_play_commission: Decimal = Field(default=Decimal("0.15"), ge=0, lt=1, alias="GOOGLE_PLAY_COMMISSION")
    store_reconcile_after_minutes: float = Field(default=60.0, gt=0, alias="STORE_RECONCILE_AFTER_MINUTES")

    @field_validator("staff_refund_approval_limits", "money_back_auto_limits")
    @classmethod
    def _limits_by_currency(cls, value: str) -> str:
        parse_limits(value)
        return value

    @property
    def refund_approval_limits(self) -> dict[str, int]:
        """A staff refund above its currency's limit waits for a second member's approval."""
        return parse_limits(self.staff_refund_approval_limits)

    @property
    def money_back_limits(self) -> dict[str, int]:
        """A money-back request within policy and up to its currency's limit is refunded at once."""
        return parse_limits(self.money_back_auto_limits)

    @field_validator(*APP_DOWNLOAD_SETTINGS)
    @classmethod
    def _downloads_are_web_addresses(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError(f"an app's download address is an http(s) address (its store page), not {value!r}")
        return value

    @property
    def app_downloads(self) -> dict[str, str]:
        """Each platform's download address (android, ios, mac, windows)."""
        return {
            name.removeprefix("app_download_").removesuffix("_url"): getattr(self, name)
            for name in APP_DOWNLOAD_SETTINGS
        }

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_networks(cls, value: str) -> str:
        for item in value.split(","):
            if item.strip():
                try:
                    ipaddress.ip_network(item.strip())
                except ValueError:
                    raise ValueError(
                        f"TRUSTED_PROXIES holds addresses or networks (10.0.0.0/8, 2001:db8::/32), not {item.strip()!r}"
                    ) from None
        return value

    @model_validator(mode="after")
    def _no_development_secrets_in_production(self) -> Settings:
        for name in ("AUTH_SECRET", "ZENDESK_SECRET", "CHAT_MEMBER_SECRET", "LICENCE_SIGNING_SECRET"):
            if getattr(self, f"{name.lower()}_setting") in PUBLISHED_SECRETS:
                raise ValueError(f"{name} is a secret once published in the source: set a secret of your own")
        if self.app_store_environment == "Production" and not self.app_store_app_apple_id:
            raise ValueError("APP_STORE_APP_APPLE_ID is required with APP_STORE_ENVIRONMENT=Production")
        if self.app_env == "production":
            for name in ("AUTH_SECRET", "ZENDESK_SECRET", "LICENCE_SIGNING_SECRET"):
                _check_production_secret(name, getattr(self, f"{name.lower()}_setting"))
            if self.chat_script_url:
                _check_production_secret("CHAT_MEMBER_SECRET", self.chat_member_secret_setting, "when the chat is on")
            if self.test_clock or self.test_admin_token:
                raise ValueError("the test clock and the test-harness admin API never run in production")
            if not self.audit_signing_key:
                raise ValueError(
                    "AUDIT_SIGNING_KEY must be set in production (the log's checkpoints are signed with it)"
                )
            if not _public_https(self.portone_base_url) and self.portone_sandbox_in_production != SANDBOX_ACKNOWLEDGED:
                raise ValueError("PORTONE_BASE_URL must point at PortOne in production (https), not the sandbox")
            if not _public_https(self.base_url):
                raise ValueError("APP_BASE_URL must be the site's public https address in production (mailed links)")
            for name in ("app_store_api_url", "google_play_api_url", "google_play_certs_url"):
                if getattr(self, name) and not _public_https(getattr(self, name)):
                    raise ValueError(f"{name.upper()} must be the store's https address in production, not a stand-in")
            self._check_disclosures()
            if not self.s3_bucket and not self._var_dir_is_a_volume():
                raise ValueError(
                    "production keeps uploaded objects and checkpoint copies on a volume (APP_VAR_DIR, an absolute "
                    "path outside the code, where one is mounted) or in an S3 bucket (S3_BUCKET)"
                )
        return self

    def _check_disclosures(self) -> None:
        """The seller's details Korean and Japanese law have the store show: each set (the development samples never
        reach production), and a business registration number of ten digits (the footer links the Fair Trade
        Commission's page of it)."""
        unset = [
            name
            for name in (*COMPANY_SETTINGS, *JP_SELLER_SETTINGS)
            if name not in self.model_fields_set or not getattr(self, name).strip()
        ]
        if unset:
            names = ", ".join(str(type(self).model_fields[name].alias) for name in unset)
            raise ValueError(f"the seller's details the store must show are required in production: set {names}")
        if len(self.business_number_digits) != 10:
            raise ValueError("COMPANY_BUSINESS_NUMBER must be the ten digits of the business registration number")

    @property
    def business_number_digits(self) -> str:
        """COMPANY_BUSINESS_NUMBER's digits alone (what the Fair Trade Commission's page is looked up by)."""
        return "".join(character for character in self.company_business_number if character.isdigit())

    def _var_dir_is_a_volume(self) -> bool:
        """APP_VAR_DIR given explicitly, absolute and outside the code tree (where a volume can be mounted)."""
        return (
            "var_dir" in self.model_fields_set
            and self.var_dir.is_absolute()
            and not self.var_dir.resolve().is_relative_to(PROJECT_ROOT)
        )

    @property
    def store_standins_dir(self) -> Path:
        """Where the stores' stand-ins keep their generated test keys (never trusted in production)."""
        return self.var_dir / "stand-ins"

    @property
    def store_standin_url(self) -> str:
        """The local stand-ins' address (outside production)."""
        return f"http://127.0.0.1:{self.store_standin_port}"

    @cached_property
    def auth_secret(self) -> str:
        """Signs access tokens and mailed links: AUTH_SECRET, else this var/'s generated secret."""
        return self.auth_secret_setting or _generated_secret(self.var_dir, "auth")

    @cached_property
    def licence_signing_secret(self) -> str:
        """Signs the apps' offline licences: LICENCE_SIGNING_SECRET, else this var/'s generated secret."""
        return self.licence_signing_secret_setting or _generated_secret(self.var_dir, "licence-signing")

    @cached_property
    def zendesk_secret(self) -> str:
        """Signs the support desk's sign-on tokens: ZENDESK_SECRET, else this var/'s generated secret."""
        return self.zendesk_secret_setting or _generated_secret(self.var_dir, "zendesk")

    @cached_property
    def chat_member_secret(self) -> str:
        """Hashes the chat widget's member ids: CHAT_MEMBER_SECRET, else this var/'s generated secret."""
        return self.chat_member_secret_setting or _generated_secret(self.var_dir, "chat-member")

    @property
    def trusted_proxy_networks(self) -> tuple[str, ...]:
        """TRUSTED_PROXIES as a list (an empty one trusts no peer)."""
        return tuple(item.strip() for item in self.trusted_proxies.split(",") if item.strip())

    @property
    def payment_script_url(self) -> str:
        """Where the browser loads PortOne's script: the sandbox's stand-in unless configured."""
        return self.portone_script_url or f"{self.portone_base_url.rstrip('/')}/sandbox/iamport.js"

    @property
    def uses_postgres(self) -> bool:
        """True when the event log and views live in PostgreSQL."""
        return self.database_url.startswith(("postgres://", "postgresql://"))

    @property
    def uses_redis(self) -> bool:
        """True when Celery talks to Redis rather than the embedded broker."""
        return bool(self.redis_url)

    @property
    def store_kind(self) -> str:
        """'postgres' or 'sqlite'."""
        return "postgres" if self.uses_postgres else "sqlite"

    def with_connections_for(self, threads: int) -> Settings:
        """These settings with PostgreSQL connections enough for ``threads`` at once (``pool_size`` plus
        ``max_overflow``): the projector's followers each hold one while they apply a batch, and a pool smaller than
        the views queues them into timeouts under load. The operator's larger figures stand."""
        if not self.uses_postgres:
            return self
        parts = urlsplit(self.database_url)
        query = parse_qs(parts.query)
        size = int(query.get("pool_size", [str(POOL_SIZE)])[0])
        overflow = int(query.get("max_overflow", [str(MAX_OVERFLOW)])[0])
        if size + overflow >= threads:
            return self
        query["max_overflow"] = [str(threads - size)]
        url = urlunsplit(parts._replace(query=urlencode(query, doseq=True)))
        widened = self.model_copy(update={"database_url": url})
        for derived in ("event_store_env", "view_store_env"):  # cached from the narrower URL: made again on use
            widened.__dict__.pop(derived, None)
        return widened

    @cached_property
    def event_store_env(self) -> dict[str, str]:
        """Environment for eventsourcing's infrastructure factory (event log)."""
        if self.uses_postgres:
            return {"PERSISTENCE_MODULE": "eventsourcing.postgres", **_postgres_env(self.database_url)}
        self.var_dir.mkdir(parents=True, exist_ok=True)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(self.var_dir / "events.sqlite3"),
            "SQLITE_LOCK_TIMEOUT": "10",
        }

    @cached_property
    def view_store_env(self) -> dict[str, str]:
        """Environment for the read models: same PostgreSQL database, or their own SQLite file."""
        if self.uses_postgres:
            return dict(self.event_store_env)
        self.var_dir.mkdir(parents=True, exist_ok=True)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(self.var_dir / "views.sqlite3"),
            "SQLITE_LOCK_TIMEOUT": "10",
        }

    @property
    def broker_url(self) -> str:
        """Celery broker URL: Redis when configured, else the embedded SQLite broker (integrations/sqlite_broker.py)."""
        return self.redis_url or "sqlite-queue://"

    @property
    def broker_folder(self) -> Path:
        """Where the embedded broker keeps its messages (``messages.sqlite3``)."""
        return self.var_dir / "broker"

    @property
    def audit_key_file(self) -> Path:
        """Where the embedded default keeps its generated development key for signing checkpoints."""
        return self.var_dir / "audit" / "log-signing.key"

    @property
    def previous_verifier_keys(self) -> tuple[str, ...]:
        """AUDIT_PREVIOUS_VERIFIER_KEYS as a list, oldest rotation wherever the operator put it."""
        return tuple(key.strip() for key in self.audit_previous_verifier_keys.split(",") if key.strip())

    @property
    def checkpoint_dir(self) -> Path:
        """Where every signed checkpoint is also written as a file (``latest.txt`` the newest)."""
        return self.audit_checkpoint_dir or self.var_dir / "checkpoints"

    @property
    def objects_dir(self) -> Path:
        """Where the embedded default keeps uploaded files (when no S3 bucket is configured)."""
        return self.var_dir / "objects"

    @property
    def outbox_dir(self) -> Path:
        """Where mail goes as .eml files when no SMTP server is configured."""
        return self.var_dir / "outbox"


def _public_https(url: str) -> bool:
    """An https URL whose host is not this machine (mailed links and the gateway must be reachable from outside)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    local = host in ("", "localhost", "::1") or host.endswith(".localhost") or host.startswith(("127.", "0."))
    return parts.scheme == "https" and not local


MIN_SECRET_LENGTH = 32
# Secrets that were once defaults in this repository's source: published, so never accepted anywhere.
PUBLISHED_SECRETS = frozenset(
    {
        "dev-only-auth-secret-change-me-0123456789abcdef",
        "dev-only-zendesk-secret-change-me-0123456789ab",
        "dev-only-chat-member-secret-change-me-0123456789",
    }
)


def _check_production_secret(name: str, value: str, when: str = "") -> None:
    if len(value) < MIN_SECRET_LENGTH or value in PUBLISHED_SECRETS or value.startswith("dev-only-"):
        raise ValueError(f"{name} ({MIN_SECRET_LENGTH} characters or more) must be set in production {when}".strip())


def _generated_secret(var_dir: Path, name: str) -> str:
    """The secret generated for this var/ (created readable by its owner only the first time; a process that loses
    the race to create it reads the winner's)."""
    path = var_dir / "secrets" / f"{name}.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(48) + "\n")
        try:
            os.link(temporary, path)  # atomic: exactly one process's secret becomes the file
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
    value = path.read_text(encoding="utf-8").strip()
    if len(value) < MIN_SECRET_LENGTH or value in PUBLISHED_SECRETS:
        raise ValueError(f"{path} does not hold a usable secret; remove it to generate a new one")
    return value


def _postgres_env(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    env = {
        "POSTGRES_DBNAME": parts.path.lstrip("/") or "postgres",
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        # Connections each process keeps open and may add under load: DATABASE_URL's ?pool_size=&max_overflow=
        # (several API processes, workers and projectors must fit the server's max_connections together).
        "POSTGRES_POOL_SIZE": query.get("pool_size", [str(POOL_SIZE)])[0],
        "POSTGRES_MAX_OVERFLOW": query.get("max_overflow", [str(MAX_OVERFLOW)])[0],
        "POSTGRES_CONNECT_TIMEOUT": "5",
        "POSTGRES_PRE_PING": "y",
    }
    return env


def load_settings() -> Settings:
    """Read the settings from the environment."""
    return Settings()

"""Settings choose the embedded default or PostgreSQL/Redis."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from domain.catalogue.licences import load_catalogue
from domain.pricing.quotes import quote_price
from tests.conftest import make_settings


def test_without_urls_everything_is_embedded_under_var(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    assert settings.store_kind == "sqlite"
    assert settings.event_store_env["SQLITE_DBNAME"] == str(tmp_path / "events.sqlite3")
    assert settings.view_store_env["SQLITE_DBNAME"] == str(tmp_path / "views.sqlite3")
    assert settings.broker_url == "sqlite-queue://"
    assert settings.outbox_dir == tmp_path / "outbox"


def test_a_database_url_selects_postgres_for_log_and_views(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path,
        DATABASE_URL="postgresql://shop:s%40cret@db.internal:6543/storefront",
        REDIS_URL="redis://r:6379/0",
    )
    env = settings.event_store_env
    assert settings.store_kind == "postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db.internal",
        "6543",
        "storefront",
    )
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("shop", "s@cret")
    assert settings.view_store_env == env
    assert settings.broker_url == "redis://r:6379/0"


def test_production_refuses_to_start_with_development_secrets_or_the_sandbox(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="AUTH_SECRET"):
        make_settings(tmp_path, APP_ENV="production", PORTONE_BASE_URL="https://api.iamport.kr")
    real = make_settings(
        tmp_path,
        APP_ENV="production",
        AUTH_SECRET="s" * 40,
        ZENDESK_SECRET="z" * 40,
        LICENCE_SIGNING_SECRET="l" * 40,
        PORTONE_BASE_URL="https://api.iamport.kr",
        AUDIT_SIGNING_KEY="a2V5LXNlZWQtb2YtdGhpcnR5LXR3by1ieXRlcy0wMDA=",
        APP_BASE_URL="https://shop.unicornpro.example",
        COMPANY_NAME="Unicorn Inc.",
        COMPANY_REPRESENTATIVE="Kim Uni",
        COMPANY_ADDRESS="123 Teheran-ro, Seoul",
        COMPANY_BUSINESS_NUMBER="123-45-67890",
        COMPANY_MAIL_ORDER_NUMBER="2026-Seoul-01234",
        COMPANY_PHONE="02-1234-5678",
        COMPANY_EMAIL="help@unicornpro.example",
        COMPANY_HOSTING_PROVIDER="Example Cloud Inc.",
        JP_SELLER_NAME="ユニコーン株式会社",
        JP_SELLER_ADDRESS="大韓民国ソウル特別市江南区テヘラン路123",
        JP_SELLER_PHONE="+82-2-1234-5678",
        JP_SELLER_RESPONSIBLE="キム・ユニ",
    )
    assert real.app_env == "production"


def test_production_refuses_to_sign_the_log_with_a_generated_key(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="AUDIT_SIGNING_KEY"):
        make_settings(
            tmp_path,
            APP_ENV="production",
            AUTH_SECRET="s" * 40,
            ZENDESK_SECRET="z" * 40,
            LICENCE_SIGNING_SECRET="l" * 40,
            PORTONE_BASE_URL="https://api.iamport.kr",
        )


PRODUCTION = {
    "APP_ENV": "production",
    "AUTH_SECRET": "s" * 40,
    "ZENDESK_SECRET": "z" * 40,
    "LICENCE_SIGNING_SECRET": "l" * 40,
    "PORTONE_BASE_URL": "https://api.iamport.kr",
    "AUDIT_SIGNING_KEY": "a2V5LXNlZWQtb2YtdGhpcnR5LXR3by1ieXRlcy0wMDA=",
    "APP_BASE_URL": "https://shop.unicornpro.example",
    "COMPANY_NAME": "Unicorn Inc.",
    "COMPANY_REPRESENTATIVE": "Kim Uni",
    "COMPANY_ADDRESS": "123 Teheran-ro, Seoul",
    "COMPANY_BUSINESS_NUMBER": "123-45-67890",
    "COMPANY_MAIL_ORDER_NUMBER": "2026-Seoul-01234",
    "COMPANY_PHONE": "02-1234-5678",
    "COMPANY_EMAIL": "help@unicornpro.example",
    "COMPANY_HOSTING_PROVIDER": "Example Cloud Inc.",
    "JP_SELLER_NAME": "ユニコーン株式会社",
    "JP_SELLER_ADDRESS": "大韓民国ソウル特別市江南区テヘラン路123",
    "JP_SELLER_PHONE": "+82-2-1234-5678",
    "JP_SELLER_RESPONSIBLE": "キム・ユニ",
}


@pytest.mark.parametrize(
    "address",
    [
        "http://shop.unicornpro.example",
        "http://localhost:8000",
        "https://localhost",
        "https://127.0.0.1:8000",
        "https://[::1]:8000",
        "https://shop.localhost",
        "https://0.0.0.0",
        "shop.unicornpro.example",
    ],
)
def test_production_refuses_a_local_or_plain_http_base_url_for_mailed_links(tmp_path: Path, address: str) -> None:
    with pytest.raises(ValidationError, match="APP_BASE_URL"):
        make_settings(tmp_path, **{**PRODUCTION, "APP_BASE_URL": address})


def test_production_keeps_objects_and_checkpoints_on_a_volume_or_in_a_bucket(tmp_path: Path) -> None:
    from config.settings import PROJECT_ROOT, Settings

    on_a_volume = make_settings(tmp_path, **PRODUCTION)  # APP_VAR_DIR given: where the volume is mounted
    assert on_a_volume.objects_dir == tmp_path / "objects"
    with pytest.raises(ValidationError, match="APP_VAR_DIR"):
        Settings(**PRODUCTION)  # type: ignore[arg-type]  # the default var/ beside the code: no volume there
    with pytest.raises(ValidationError, match="APP_VAR_DIR"):
        make_settings(PROJECT_ROOT / "var", **PRODUCTION)
    in_a_bucket = Settings(**PRODUCTION, S3_BUCKET="storefront-objects")  # type: ignore[arg-type]
    assert in_a_bucket.s3_bucket == "storefront-objects"


def test_production_talks_to_the_sandbox_only_when_the_deployment_test_says_so_in_full(tmp_path: Path) -> None:
    sandbox = {**PRODUCTION, "PORTONE_BASE_URL": "http://127.0.0.1:8001"}
    for refused in ({}, {"PORTONE_SANDBOX_IN_PRODUCTION": "1"}, {"PORTONE_SANDBOX_IN_PRODUCTION": "true"}):
        with pytest.raises(ValidationError, match="PORTONE_BASE_URL"):
            make_settings(tmp_path, **sandbox, **refused)
    with pytest.raises(ValidationError, match="PORTONE_BASE_URL"):
        make_settings(tmp_path, **{**PRODUCTION, "PORTONE_BASE_URL": "http://api.iamport.kr"})
    tested = make_settings(tmp_path, **sandbox, PORTONE_SANDBOX_IN_PRODUCTION="deployment-test")
    assert tested.portone_base_url == "http://127.0.0.1:8001"


@pytest.mark.parametrize(
    "name",
    [
        "COMPANY_NAME",
        "COMPANY_REPRESENTATIVE",
        "COMPANY_ADDRESS",
        "COMPANY_PHONE",
        "COMPANY_EMAIL",
        "COMPANY_BUSINESS_NUMBER",
        "COMPANY_MAIL_ORDER_NUMBER",
        "COMPANY_HOSTING_PROVIDER",
        "JP_SELLER_NAME",
        "JP_SELLER_ADDRESS",
        "JP_SELLER_PHONE",
        "JP_SELLER_RESPONSIBLE",
    ],
)
def test_production_refuses_to_start_without_a_disclosure_the_law_asks_for(tmp_path: Path, name: str) -> None:
    """Korean online stores show the seller's details in the footer, Japanese ones on the 特定商取引法に基づく表記
    page (docs/legal.md): the sample values of development never reach production."""
    without = {key: value for key, value in PRODUCTION.items() if key != name}
    with pytest.raises(ValidationError, match=name):
        make_settings(tmp_path, **without)
    with pytest.raises(ValidationError, match=name):
        make_settings(tmp_path, **without, **{name: "  "})
    assert make_settings(tmp_path, **PRODUCTION).company_address == PRODUCTION["COMPANY_ADDRESS"]


def test_production_refuses_a_business_number_the_fair_trade_commission_cannot_look_up(tmp_path: Path) -> None:
    """The Korean footer links the FTC's page of the business by its registration number's ten digits."""
    with pytest.raises(ValidationError, match="COMPANY_BUSINESS_NUMBER"):
        make_settings(tmp_path, **{**PRODUCTION, "COMPANY_BUSINESS_NUMBER": "123-45"})
    assert make_settings(tmp_path, **PRODUCTION).business_number_digits == "1234567890"


def test_each_app_has_a_download_address_and_only_a_web_one(tmp_path: Path) -> None:
    """Issue 29, finding 11: the store links to the apps it sells; a deployment names each app's own page."""
    defaults = make_settings(tmp_path).app_downloads
    assert set(defaults) == {"android", "ios", "mac", "windows"}
    assert all(address.startswith("https://") for address in defaults.values())
    own = make_settings(tmp_path, APP_DOWNLOAD_MAC_URL="https://downloads.example.com/unicorn.dmg")
    assert own.app_downloads["mac"] == "https://downloads.example.com/unicorn.dmg"
    for bad in ("javascript:alert(1)", "unicorn.dmg", ""):
        with pytest.raises(ValidationError, match="APP_DOWNLOAD_IOS_URL"):
            make_settings(tmp_path, APP_DOWNLOAD_IOS_URL=bad)


def test_the_projector_gets_a_connection_for_each_view_follower_but_never_fewer_than_the_operator_gave(
    tmp_path: Path,
) -> None:
    small = make_settings(tmp_path, DATABASE_URL="postgresql://postgres@127.0.0.1/shop?pool_size=1&max_overflow=9")
    assert small.event_store_env["POSTGRES_MAX_OVERFLOW"] == "9"  # read before widening: not kept by the copy
    widened = small.with_connections_for(15)
    assert (widened.event_store_env["POSTGRES_POOL_SIZE"], widened.event_store_env["POSTGRES_MAX_OVERFLOW"]) == (
        "1",
        "14",
    )
    large = make_settings(tmp_path, DATABASE_URL="postgresql://postgres@127.0.0.1/shop?pool_size=20&max_overflow=10")
    assert large.with_connections_for(15) is large
    assert make_settings(tmp_path).with_connections_for(15).database_url == "", "SQLite has no pool to widen"


def test_refunding_a_whole_licence_of_the_dearest_plan_always_needs_a_second_member(tmp_path: Path) -> None:
    limits = make_settings(tmp_path).refund_approval_limits
    catalogue = load_catalogue()
    for currency, limit in limits.items():
        dearest = max(
            quote_price(licence, price).amount
            for licence in catalogue.licences
            for price in licence.prices
            if price.currency.value == currency
        )
        assert limit < dearest, f"{currency}: a limit of {limit} lets one member refund the {dearest} plan alone"

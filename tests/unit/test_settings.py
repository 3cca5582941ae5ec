"""Settings choose the embedded default or PostgreSQL/Redis."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

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
        PORTONE_BASE_URL="https://api.iamport.kr",
        AUDIT_SIGNING_KEY="a2V5LXNlZWQtb2YtdGhpcnR5LXR3by1ieXRlcy0wMDA=",
    )
    assert real.app_env == "production"


def test_production_refuses_to_sign_the_log_with_a_generated_key(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="AUDIT_SIGNING_KEY"):
        make_settings(
            tmp_path,
            APP_ENV="production",
            AUTH_SECRET="s" * 40,
            ZENDESK_SECRET="z" * 40,
            PORTONE_BASE_URL="https://api.iamport.kr",
        )

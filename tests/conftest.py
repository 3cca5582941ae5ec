"""Shared fixtures: settings for each store, throwaway PostgreSQL databases, Redis.

Integration tests run on SQLite and on PostgreSQL. When CI=true a missing
PostgreSQL or Redis fails the run instead of skipping.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from config.settings import Settings
from domain.store import Storefront

IN_CI = os.environ.get("CI", "").lower() == "true"
PG_ADMIN = os.environ.get("TEST_POSTGRES_ADMIN", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
PG_URL_BASE = os.environ.get("TEST_POSTGRES_URL_BASE", "postgresql://postgres@127.0.0.1:5432")
# Each pytest-xdist worker (gw0, gw1, ...) has a Redis database of its own: the fixture below empties it, and
# Celery's queues in it must not be shared with another worker's tests.
_XDIST_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
REDIS_URL = os.environ.get("TEST_REDIS_URL", f"redis://127.0.0.1:6379/{15 - _XDIST_WORKER}")

# Timing deadlines make property tests flaky on a busy 2-core machine; budgets are set per test instead.
hypothesis_settings.register_profile("storefront", deadline=None, print_blob=True)
hypothesis_settings.load_profile("storefront")

for _name in ("DATABASE_URL", "REDIS_URL", "SENTRY_DSN", "SMTP_URL", "APP_VAR_DIR"):
    os.environ.pop(_name, None)


def require(service: str, available: bool) -> None:
    """Skip locally, fail in CI, when a real service the test needs is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{service} is required when CI=true but is not reachable")
    pytest.skip(f"{service} not reachable")


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=2):
            return True
    except Exception:
        return False


def redis_available() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except Exception:
        return False


def create_postgres_database() -> str:
    """A new, empty database; returns its URL."""
    import psycopg

    name = f"sf_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{PG_URL_BASE}/{name}"


def drop_postgres_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_settings(var_dir: Path, **values: str) -> Settings:
    """Settings for a test, by environment-variable names."""
    return Settings(**{"APP_VAR_DIR": str(var_dir), "APP_ENV": "test", **values})  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """Run the test once per store."""
    if request.param == "postgres":
        require("PostgreSQL", postgres_available())
    return str(request.param)


@pytest.fixture
def settings(store_kind: str, tmp_path: Path) -> Iterator[Settings]:
    """Settings pointing at a fresh store of the current kind (embedded broker)."""
    if store_kind == "sqlite":
        yield make_settings(tmp_path)
        return
    url = create_postgres_database()
    try:
        yield make_settings(tmp_path, DATABASE_URL=url)
    finally:
        drop_postgres_database(url)


@pytest.fixture
def store(settings: Settings) -> Iterator[Storefront]:
    """The event log of the test's store."""
    log = Storefront(settings.event_store_env)
    yield log
    log.close()


@pytest.fixture
def redis_url() -> str:
    """A Redis database for the test, emptied before use."""
    require("Redis", redis_available())
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    return REDIS_URL

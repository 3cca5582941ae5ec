"""Projector replicas: each view runs in one of them, and a standing-by replica takes it when the first one goes."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from config.settings import Settings
from eventlog.database import PostgresViewDatabase, open_view_database
from projections.leases import PostgresLeases

pytestmark = pytest.mark.integration


@pytest.fixture
def conninfo(settings: Settings) -> Iterator[str]:
    if not settings.database_url:
        pytest.skip("advisory locks are PostgreSQL's; SQLite has one runner by construction")
    db = open_view_database(settings.view_store_env)
    assert isinstance(db, PostgresViewDatabase)
    try:
        yield db.conninfo
    finally:
        db.close()


def test_a_view_runs_in_one_replica_and_the_other_takes_over_when_it_goes(conninfo: str) -> None:
    stop = threading.Event()
    first = PostgresLeases(conninfo, "storefront", ["accounts", "licences"], check_seconds=0.05)
    tenure = first.tenure("accounts", stop)
    assert tenure is not None and not tenure.is_set()
    second = PostgresLeases(conninfo, "storefront", ["accounts", "licences"], check_seconds=0.05)
    try:
        waiting: list[threading.Event | None] = []
        standby = threading.Thread(target=lambda: waiting.append(second.tenure("accounts", stop)))
        standby.start()
        standby.join(timeout=0.5)
        assert standby.is_alive(), "the second replica stands by while the first runs the view"
        assert first.held() == ["accounts", "licences"] and second.held() == []

        first.close()  # as when its process dies: its session ends and PostgreSQL lets its locks go
        assert tenure.is_set(), "the first replica's view threads are told to stop"
        standby.join(timeout=5)
        assert waiting and waiting[0] is not None and not waiting[0].is_set()
        assert second.held() == ["accounts", "licences"]
    finally:
        stop.set()
        second.close()
        first.close()


def test_another_log_in_the_same_database_has_leases_of_its_own(conninfo: str) -> None:
    stop = threading.Event()
    shop = PostgresLeases(conninfo, "storefront", ["accounts"], check_seconds=0.05)
    other = PostgresLeases(conninfo, "another", ["accounts"], check_seconds=0.05)
    try:
        assert shop.tenure("accounts", stop) is not None
        assert other.tenure("accounts", stop) is not None
    finally:
        stop.set()
        shop.close()
        other.close()

"""The demonstration: an aggregate saved, its projection updated, the API reading it, on each store."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from tests.fakes import PlainHasher
from tests.support import register, running_projector

pytestmark = pytest.mark.integration


def test_a_registered_account_reaches_the_view_and_the_api_answers_from_it(settings: Settings) -> None:
    services = Services.build(settings.model_copy(update={"test_admin_token": "operator"}), hasher=PlainHasher())
    client = TestClient(create_app(services=services))
    check = "/web/unicornpro/v1/accounts/check"
    with running_projector(settings) as views:
        assert client.get(check, params={"email": "jiwoo@example.com"}).json() == {"isRegistered": False}

        registered = register(services.store, "jiwoo@example.com")
        assert services.see_own_write(registered.notification_id, "accounts")

        assert client.get(check, params={"email": "JIWOO@example.com"}).json() == {"isRegistered": True}
        with views.read() as cursor:
            cursor.execute("SELECT COUNT(*) AS n FROM accounts_view")
            assert cursor.fetchall() == [{"n": 1}]
        health = client.get("/web/unicornpro/v1/operator/health", headers={"X-Admin-Token": "operator"}).json()
        assert health["views"]["accounts"] == registered.notification_id == health["logHead"]
    services.close()


def test_without_a_projector_the_wait_is_bounded_and_reports_not_caught_up(settings: Settings) -> None:
    services = Services.build(settings.model_copy(update={"view_wait_seconds": 0.2}))
    registered = register(services.store, "later@example.com")
    assert services.see_own_write(registered.notification_id, "accounts") is False
    services.close()

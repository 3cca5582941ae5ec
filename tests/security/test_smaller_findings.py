"""Issue 40 finding 13, the smaller ones: ``%`` and ``_`` acted as wildcards in staff customer search; Swagger UI was
published in production; a reconciliation re-run accepted an empty reason. (The racing coupon settlements are
tests/security/test_racing_coupon_settlements.py.)

Now the search takes ``%`` and ``_`` as the characters they are; production mounts neither Swagger UI nor the test
harness's routes (whatever the settings say); and a re-run without a reason is refused (400, -1) and recorded nowhere.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from domain.finance.reconciliation_days import load_day
from tests.conftest import make_settings
from tests.fakes import PlainHasher
from tests.integration.purchases.desk import V1, Desk
from tests.security.back_office import first_owner
from tests.unit.test_settings import PRODUCTION

pytestmark = pytest.mark.integration

DAY = date(2026, 11, 1)


def test_percent_and_underscore_are_themselves_in_a_customer_search(desk: Desk) -> None:
    for address in ("axb@example.com", "a_b@example.com"):
        desk.register(address)
    support = first_owner(desk).invite("help@example.com", ["support"])
    desk.views_caught_up()

    def found(text: str) -> list[str]:
        answer = support.call("GET", "/customers", params={"q": text})
        assert answer.status_code == 200, answer.text
        return sorted(row["email"] for row in answer.json())

    assert found("%") == [], "no address holds a percent sign: not every customer"
    assert found("_") == ["a_b@example.com"]
    assert found("a_b") == ["a_b@example.com"], "not axb"
    assert found("example") == ["a_b@example.com", "axb@example.com", "sub@example.com"]


def test_production_publishes_no_swagger_ui_and_no_test_harness(tmp_path: Path, settings: Settings) -> None:
    production = make_settings(tmp_path / "production", **PRODUCTION)
    harnessed = production.model_copy(update={"test_admin_token": "slipped-through"})  # past the settings' own check
    services = Services.build(harnessed, hasher=PlainHasher())
    try:
        client = TestClient(create_app(services=services))
        assert client.get(f"{V1}/docs").status_code == 404
        assert client.get(f"{V1}/test-harness/clock", headers={"X-Admin-Token": "slipped-through"}).status_code == 404
        assert client.get(f"{V1}/openapi.json").status_code == 200, "the typed client's document stays"
    finally:
        services.close()
    services = Services.build(settings, hasher=PlainHasher())
    try:
        assert TestClient(create_app(services=services)).get(f"{V1}/docs").status_code == 200, "a developer has it"
    finally:
        services.close()


def test_a_reconciliation_re_run_needs_a_reason(desk: Desk) -> None:
    finance = first_owner(desk).invite("money@example.com", ["finance"])
    for reason in ("", "   "):
        answer = finance.call("POST", f"/finance/reconciliation/{DAY.isoformat()}/run", json={"reason": reason})
        assert (answer.status_code, answer.json()["errorCode"]) == (400, -1), answer.text
    assert load_day(desk.services.store, DAY) is None, "no run was recorded"
    ran = finance.call("POST", f"/finance/reconciliation/{DAY.isoformat()}/run", json={"reason": "PortOne was down"})
    assert ran.status_code == 200, ran.text
    assert ran.json()["runs"][0]["reason"] == "PortOne was down"

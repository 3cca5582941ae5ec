"""A NUL character in typed text: PostgreSQL's text columns cannot hold one, so it must never reach a view.

Before, a name with a NUL was recorded, then stopped the accounts view on PostgreSQL for good
(every later change stayed invisible), and a merchantUid with one in the path answered 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.services import Services
from eventlog.tracking import wait_for_views
from projections.catalogue import all_views
from tests.integration.portone.conftest import clock, sandbox, start_sandbox, webhook_receiver
from tests.integration.test_openapi_conformance import V1, a_customer, client

__all__ = ["client", "clock", "sandbox", "start_sandbox", "webhook_receiver"]

pytestmark = pytest.mark.integration


def test_names_and_device_ids_with_a_nul_are_refused_and_every_view_keeps_following(client: TestClient) -> None:
    customer = a_customer(client)
    licence, device = customer.own["user_license_id"], customer.own["device_id"]

    def error_code(method: str, path: str, **kwargs: Any) -> Any:
        return client.request(method, f"{V1}{path}", headers=customer.headers, **kwargs).json().get("errorCode")

    assert error_code("PATCH", "/accounts", json={"name": "Uni\x00corn"}) == -2
    assert error_code("PATCH", f"/licenses/{licence}/devices/{device}", json={"deviceName": "Pho\x00ne"}) == -2
    activation = {"licenseKey": customer.own["license_key"], "deviceName": "Tablet", "platform": "android"}
    assert error_code("POST", "/licenses/activate", json={**activation, "deviceId": "tab\x00let"}) == -2
    assert error_code("GET", "/payments/licenses/unc-20261102%00") == 404

    renamed = client.patch(f"{V1}/accounts", json={"name": "Unicorn"}, headers=customer.headers)
    assert renamed.json()["name"] == "Unicorn"
    services: Services = client.app.state.services  # type: ignore[attr-defined]
    views = [view.name for view in all_views()]
    assert wait_for_views(services.views, services.store.name, views, services.store.max_notification_id(), 10)

"""Finding 9 (caching): personal answers carried no Cache-Control.

As it ran: /accounts, /licenses/mine, /payments/licenses and /billingkeys answered without Cache-Control, so a
browser's cache, or a proxy's, could keep one customer's licence keys and cards for the next person at the same
computer. Now every answer of the API goes out with ``no-store`` except the few that are the same for everyone
(api/access.py names them), whatever produced it: the route, an error, the access check.
"""

from __future__ import annotations

import pytest

from api.access import POLICY, SHARED_ANSWERS, is_personal
from tests.integration.purchases.desk import PASSWORD, SUBSCRIBER, V1, Desk

pytestmark = pytest.mark.integration


def test_every_operation_that_reads_a_caller_is_personal() -> None:
    for key, level in POLICY.items():
        method, path = key.split(" ", 1)
        if level.reads_token:
            assert is_personal(method, path), key
    assert set(POLICY) >= SHARED_ANSWERS


def test_a_customers_answers_tell_every_cache_not_to_keep_them(desk: Desk) -> None:
    for path in ("/accounts", "/licenses/mine", "/payments/licenses", "/billingkeys"):
        answer = desk.call("GET", path)
        assert (answer.status_code, answer.headers.get("cache-control")) == (200, "no-store"), path
    login = desk.guest_call("POST", "/auth/login", json={"email": SUBSCRIBER, "pw": PASSWORD})
    assert login.headers["cache-control"] == "no-store"
    assert desk.client.get(f"{V1}/auth/refresh").headers["cache-control"] == "no-store"
    refused = desk.guest_call("GET", "/licenses/mine")
    assert (refused.status_code, refused.headers["cache-control"]) == (401, "no-store")
    check = desk.guest_call("GET", "/accounts/check", params={"email": SUBSCRIBER})
    assert check.headers["cache-control"] == "no-store", "whether an address is registered is account data"


def test_the_shared_answers_and_the_web_app_keep_their_own_caching(desk: Desk) -> None:
    catalogue = desk.guest_call("GET", "/purchasable-licenses/new")
    assert catalogue.status_code == 200 and "no-store" not in catalogue.headers.get("cache-control", "")
    settings = desk.guest_call("GET", "/integrations/settings")
    assert settings.headers["cache-control"] == "public, max-age=300"
    assert not is_personal("GET", "/{path:path}"), "the web app's files are no API operation"

"""GET /purchasable-licenses/new with its filters and error codes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from tests.conftest import make_settings

pytestmark = pytest.mark.integration
URL = "/web/unicornpro/v1/purchasable-licenses/new"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    services = Services.build(make_settings(tmp_path))
    yield TestClient(create_app(services=services))
    services.close()


def test_a_visitor_sees_every_licence_with_prices_and_names(client: TestClient) -> None:
    licences = client.get(URL).json()
    assert len(licences) == 24
    annual = next(item for item in licences if item["id"] == 121)
    assert annual["life"] == 365
    assert annual["maxDevicesCount"] == 1
    assert {"countryCode": "KR", "currency": "KRW", "price": 34800, "requestPrice": 24360} in annual["prices"]
    assert annual["discountFactors"] == [{"type": "base", "factor": "0.3"}]
    assert {item["langCode"] for item in annual["localizations"]} == {"ko", "en", "ja"}


def test_filtering_by_life_keeps_only_that_period(client: TestClient) -> None:
    lives = {item["life"] for item in client.get(URL, params={"op": "eq", "prop": "life", "value": 36500}).json()}
    assert lives == {36500}


def test_filtering_by_ids_returns_just_those(client: TestClient) -> None:
    assert sorted(item["id"] for item in client.get(URL, params={"licenseIds": "121,213"}).json()) == [
        121,
        213,
    ]


def test_bad_filters_answer_with_the_spec_codes(client: TestClient) -> None:
    assert client.get(URL, params={"op": "gt", "prop": "life", "value": 30}).json()["errorCode"] == -2
    assert client.get(URL, params={"op": "eq", "prop": "colour", "value": 1}).json()["errorCode"] == -2
    assert client.get(URL, params={"op": "eq", "prop": "life"}).json()["errorCode"] == -1
    assert client.get(URL, params={"licenseIds": "1,x"}).json()["errorCode"] == -2
    assert client.get(URL, params={"op": "eq", "prop": "life", "value": "soon"}).json()["errorCode"] == -2


def test_nothing_matching_is_minus_109_and_an_unknown_coupon_minus_108(client: TestClient) -> None:
    nothing = client.get(URL, params={"licenseIds": "1"})
    assert (nothing.status_code, nothing.json()["errorCode"]) == (404, -109)
    assert client.get(URL, params={"code": "NOPE"}).json()["errorCode"] == -108

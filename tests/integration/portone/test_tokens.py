"""Access tokens: issued once, reused, extended near expiry, refused when bad or expired."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from integrations.portone import AuthError, PortOneClient
from tests.integration.portone.harness import IMP_KEY, IMP_SECRET, START, RunningSandbox, TestClock

pytestmark = pytest.mark.integration


def counting_http_client(paths: list[str]) -> httpx.Client:
    """An httpx client that records the path of every request it sends."""
    return httpx.Client(event_hooks={"request": [lambda request: paths.append(request.url.path)]})


def raw_token(sandbox: RunningSandbox) -> dict[str, int | str]:
    response = sandbox.http.post(
        f"{sandbox.base_url}/users/getToken", json={"imp_key": IMP_KEY, "imp_secret": IMP_SECRET}
    )
    assert response.status_code == 200
    token: dict[str, int | str] = response.json()["response"]
    return token


def test_the_client_asks_for_a_token_once_and_reuses_it(sandbox: RunningSandbox) -> None:
    paths: list[str] = []
    with counting_http_client(paths) as http:
        client = sandbox.client(http_client=http)
        client.prepare("order-1", 1000)
        client.prepare("order-2", 2000)
        client.get_prepared("order-1")

    assert paths.count("/users/getToken") == 1
    assert len(paths) == 4


def test_a_token_lasts_thirty_minutes_and_asking_again_returns_the_same(sandbox: RunningSandbox) -> None:
    first = raw_token(sandbox)
    second = raw_token(sandbox)

    assert first["expired_at"] == int(START.timestamp()) + 30 * 60
    assert second["access_token"] == first["access_token"]
    assert second["expired_at"] == first["expired_at"]


def test_near_expiry_the_client_refreshes_and_the_sandbox_extends_the_same_token(
    sandbox: RunningSandbox, clock: TestClock
) -> None:
    first_expiry = raw_token(sandbox)["expired_at"]
    paths: list[str] = []
    with counting_http_client(paths) as http:
        client = sandbox.client(http_client=http)
        token = client.get_token()
        clock.advance(timedelta(minutes=29, seconds=30))  # 30 s left: inside the client's margin
        refreshed = client.get_token()

    assert refreshed == token
    assert paths.count("/users/getToken") == 2
    assert raw_token(sandbox)["expired_at"] == int(first_expiry) + 5 * 60


def test_an_expired_token_is_refused_and_the_client_gets_a_new_one(
    sandbox: RunningSandbox, portone: PortOneClient, clock: TestClock
) -> None:
    portone.prepare("order-1", 1000)
    old = portone.get_token()

    clock.advance(timedelta(minutes=31))
    refused = sandbox.http.get(
        f"{sandbox.base_url}/payments/prepare/order-1", headers={"Authorization": f"Bearer {old}"}
    )

    assert refused.status_code == 401
    assert refused.json()["code"] == -1
    assert portone.get_prepared("order-1").amount == 1000
    assert portone.get_token() != old


def test_a_client_whose_clock_lags_recovers_from_a_401_by_refreshing_once(
    sandbox: RunningSandbox, clock: TestClock
) -> None:
    paths: list[str] = []
    with counting_http_client(paths) as http:
        client = PortOneClient(sandbox.base_url, IMP_KEY, IMP_SECRET, http_client=http, clock=lambda: START)
        client.prepare("order-1", 1000)
        clock.advance(timedelta(hours=1))  # only the sandbox sees the hour pass

        assert client.get_prepared("order-1").amount == 1000

    assert paths.count("/users/getToken") == 2


@pytest.mark.parametrize(
    "header",
    [
        pytest.param(lambda t: {"Authorization": f"Bearer {t}"}, id="bearer"),
        pytest.param(lambda t: {"Authorization": t}, id="bare-authorization"),
        pytest.param(lambda t: {"X-ImpTokenHeader": t}, id="x-imptokenheader"),
    ],
)
def test_the_token_is_accepted_in_every_header_style(sandbox: RunningSandbox, header: object) -> None:
    token = str(raw_token(sandbox)["access_token"])
    make_headers = header
    assert callable(make_headers)

    response = sandbox.http.get(f"{sandbox.base_url}/payments/imp_000000000000", headers=make_headers(token))

    assert response.status_code == 404  # past the auth check: the payment simply does not exist
    assert response.json()["code"] == -1


def test_requests_without_a_valid_token_get_401(sandbox: RunningSandbox) -> None:
    url = f"{sandbox.base_url}/payments/find/order-1"

    missing = sandbox.http.get(url)
    bogus = sandbox.http.get(url, headers={"Authorization": "Bearer not-a-token"})

    assert (missing.status_code, bogus.status_code) == (401, 401)
    assert bogus.json() == {"code": -1, "message": bogus.json()["message"], "response": None}


def test_wrong_keys_raise_auth_error(sandbox: RunningSandbox) -> None:
    with (
        PortOneClient(sandbox.base_url, IMP_KEY, "wrong-secret") as client,
        pytest.raises(AuthError) as raised,
    ):
        client.prepare("order-1", 1000)

    assert raised.value.status_code == 401

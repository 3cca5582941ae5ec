"""The site defends the browser: security headers on every answer, careful cookies, no cross-site logins.

ASVS level 2 where it applies to the web app: a content security policy that forbids framing and
foreign scripts (but lets the payment gateway's script and windows work), nosniff, a referrer
policy, HSTS over https; the refresh cookie HttpOnly, SameSite and only sent to /auth, Secure over
https; and the calls that ride on cookies (log in, refresh, log out) refused from other sites.
"""

from __future__ import annotations

from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.conftest import make_settings

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"
EMAIL, PASSWORD = "careful@example.com", "abcd1234"


def site(var_dir: Path, base_url: str) -> TestClient:
    settings = make_settings(
        var_dir,
        APP_BASE_URL=base_url,
        PORTONE_SCRIPT_URL="https://cdn.iamport.kr/v1/iamport.js",
        VIEW_WAIT_SECONDS="0",  # no projector runs here: nobody waits for the views
    )
    return TestClient(create_app(settings), base_url=base_url)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with site(tmp_path, "http://127.0.0.1:8000") as browser:
        assert browser.post(f"{V1}/accounts", json={"email": EMAIL, "pw": PASSWORD, "language": "ko"}).is_success
        yield browser


def directives(policy: str) -> dict[str, list[str]]:
    return {name: sources for name, *sources in (part.split() for part in policy.split(";"))}


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/ko/purchase", f"{V1}/payments/settings", f"{V1}/licenses/mine"):
        headers = client.get(path).headers
        policy = directives(headers["content-security-policy"])
        assert policy["frame-ancestors"] == ["'none'"] and headers["x-frame-options"] == "DENY", path
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
        assert policy["script-src"] == ["'self'", "https://cdn.iamport.kr"]  # ours and the gateway's, no inline
        assert (headers["x-content-type-options"], headers["referrer-policy"]) == (
            "nosniff",
            "strict-origin-when-cross-origin",
        )
        assert "strict-transport-security" not in headers  # plain http: HSTS would mean nothing


def test_over_https_browsers_are_told_to_stay_on_https_and_cookies_are_secure(tmp_path: Path) -> None:
    with site(tmp_path, "https://shop.example") as browser:
        browser.post(f"{V1}/accounts", json={"email": EMAIL, "pw": PASSWORD, "language": "ko"})
        login = browser.post(f"{V1}/auth/login", json={"email": EMAIL, "pw": PASSWORD})
    assert login.status_code == 200, login.text
    assert login.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
    cookies = SimpleCookie()
    for header in login.headers.get_list("set-cookie"):
        cookies.load(header)
    assert cookies["rt"]["secure"] and cookies["logged_in"]["secure"]


def test_the_refresh_cookie_is_out_of_scripts_reach_and_only_goes_to_auth(client: TestClient) -> None:
    login = client.post(f"{V1}/auth/login", json={"email": EMAIL, "pw": PASSWORD})
    cookies = SimpleCookie()
    for header in login.headers.get_list("set-cookie"):
        cookies.load(header)
    refresh = cookies["rt"]
    assert (refresh["httponly"], refresh["samesite"], refresh["path"]) == (True, "lax", f"{V1}/auth")
    assert not refresh["secure"]  # plain http in development; see the https test
    assert cookies["logged_in"]["httponly"] == ""  # the web app reads it: only the user id, no secret


@pytest.mark.parametrize(
    "from_elsewhere",
    [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "https://evil.example"}],
    ids=["cross-site", "sibling-site", "foreign-origin"],
)
def test_calls_riding_on_cookies_are_refused_from_other_sites(
    client: TestClient, from_elsewhere: dict[str, str]
) -> None:
    own_page = {"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:8000"}
    forged_login = client.post(f"{V1}/auth/login", json={"email": EMAIL, "pw": PASSWORD}, headers=from_elsewhere)
    assert (forged_login.status_code, forged_login.json()["errorCode"]) == (403, 403)
    assert "set-cookie" not in forged_login.headers

    assert client.post(f"{V1}/auth/login", json={"email": EMAIL, "pw": PASSWORD}, headers=own_page).is_success
    forged_refresh = client.get(f"{V1}/auth/refresh", headers=from_elsewhere)
    assert forged_refresh.status_code == 403
    assert "set-cookie" not in forged_refresh.headers  # the session is neither rotated nor ended
    forged_logout = client.post(f"{V1}/auth/logout", headers=from_elsewhere)
    assert forged_logout.status_code == 403

    refreshed = client.get(f"{V1}/auth/refresh", headers=own_page)
    assert refreshed.status_code == 200, "the session outlived the forged calls"
    assert client.get(f"{V1}/auth/refresh", headers={"Sec-Fetch-Site": "none"}).status_code == 200  # typed address
    assert client.post(f"{V1}/auth/logout", headers=own_page).status_code == 200

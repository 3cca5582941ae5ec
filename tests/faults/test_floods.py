"""Floods against the API as deployed (uvicorn behind a proxy on the same host, which names each client in
X-Forwarded-For): guessing one account's password from many addresses, trying many accounts from one
address, asking for reset mails for one address from many, and reports from one sender or one client: each
limit holds (-4 with HTTP 429). That the owner is not locked out meanwhile: tests/security/test_lockout.py."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest

from tests.faults.stack import ROOT, V1, free_port, until

pytestmark = pytest.mark.integration
VICTIM = "victim@example.com"
PASSWORD = "abcd1234"


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """`python -m api` on the embedded default; every request comes through the trusted local proxy."""
    var_dir = tmp_path_factory.mktemp("floods")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CI")}
    env.update(APP_VAR_DIR=str(var_dir), APP_ENV="test", APP_BASE_URL=f"http://127.0.0.1:{port}")
    with (var_dir / "api.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "api", "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}{V1}", timeout=30)
        try:
            until(lambda: process.poll() is not None or _answers(client), "the API answers")
            assert process.poll() is None, (var_dir / "api.log").read_text()
            registered = client.post("/accounts", json={"email": VICTIM, "pw": PASSWORD, "language": "ko"})
            assert registered.status_code == 200, registered.text
            yield client
        finally:
            client.close()
            process.terminate()
            process.wait(timeout=30)


def _answers(client: httpx.Client) -> bool:
    try:
        return client.get("/health").status_code == 200
    except httpx.HTTPError:
        return False


def login_from(client: httpx.Client, address: str, email: str, password: str = "wrong9999") -> tuple[int, int]:
    """(status, errorCode) of one login attempt from a client at ``address``."""
    answer = client.post("/auth/login", json={"email": email, "pw": password}, headers={"X-Forwarded-For": address})
    return answer.status_code, answer.json().get("errorCode", 0)


def test_guessing_one_password_from_sixty_addresses_stops_at_the_accounts_ceiling(api: httpx.Client) -> None:
    answers = [login_from(api, f"203.0.113.{number}", VICTIM) for number in range(1, 61)]
    assert answers[:50] == [(401, -400)] * 50
    assert answers[50:] == [(429, -4)] * 10, "every unknown client together has the account's ceiling"
    assert login_from(api, "203.0.113.99", VICTIM, PASSWORD) == (429, -4), "a new browser waits, even right"
    other = login_from(api, "203.0.113.1", "someone@example.com")
    assert other == (401, -400), "those addresses made one attempt each: they are not blocked"
    print("one account from 60 addresses: 50 guesses answered -400, 10 refused with -4")


def test_trying_forty_accounts_from_one_address_stops_after_thirty(api: httpx.Client) -> None:
    answers = [login_from(api, "198.51.100.7", f"stuffed{number}@example.com") for number in range(40)]
    assert answers[:30] == [(401, -400)] * 30
    assert answers[30:] == [(429, -4)] * 10, "one client's budget across accounts"
    assert login_from(api, "198.51.100.8", "stuffed0@example.com") == (401, -400), "another client is not blocked"
    print("40 accounts from one address: 30 tries answered -400, 10 refused with -4")


def test_reset_mails_for_one_address_asked_from_many_addresses_stop_at_twenty_an_hour(api: httpx.Client) -> None:
    codes = [
        api.post(
            "/accounts/password-change-email",
            json={"email": VICTIM},
            headers={"X-Forwarded-For": f"192.0.2.{number}"},
        ).status_code
        for number in range(1, 26)
    ]
    # Twenty mails an hour to one address from clients it does not know: registering sent the first.
    assert codes == [200] * 19 + [429] * 6
    print("reset mails for one address from 25 addresses: 19 sent (plus the registration's), 6 refused")


def report_from(client: httpx.Client, address: str, email: str | None = None) -> tuple[int, int]:
    """(status, errorCode) of one ad report (no images) from a client at ``address``, signed with ``email``."""
    form = {"product": "uncpa", "problem": "ad", "url": "https://news.example/article", "checked": "true"}
    if email:
        form["email"] = email
    answer = client.post("/reports", data=form, headers={"X-Forwarded-For": address})
    return answer.status_code, answer.json().get("errorCode", 0)


def test_reports_signed_with_one_address_from_ten_clients_stop_at_five_an_hour(api: httpx.Client) -> None:
    answers = [report_from(api, f"198.18.0.{number}", "flooder@example.com") for number in range(1, 11)]
    assert [status for status, _ in answers] == [200] * 5 + [429] * 5
    assert {code for status, code in answers if status == 429} == {-4}
    assert report_from(api, "198.18.0.1", "someone@example.com")[0] == 200, "another sender is not blocked"
    print("reports signed by one address from 10 clients: 5 kept, 5 refused with -4")


def test_anonymous_reports_from_one_client_stop_at_twenty_an_hour(api: httpx.Client) -> None:
    answers = [report_from(api, "198.18.1.1") for _ in range(25)]
    assert answers[:20] == [(200, 0)] * 20
    assert answers[20:] == [(429, -4)] * 5, "one client's budget"
    assert report_from(api, "198.18.1.2")[0] == 200, "another client is not blocked"
    print("anonymous reports from one client: 20 kept, 5 refused with -4")

"""Finding 10, proxy trust: the API trusted X-Forwarded-For from 127.0.0.1 only, so behind a proxy on another
address every customer shared one rate-limit bucket (20 mails an hour for the whole site), and trusting every
peer instead would let anyone name themselves in the header.

Now TRUSTED_PROXIES names the proxies' networks. From a trusted proxy the client is the rightmost address of
X-Forwarded-For that is not a trusted proxy; from any other peer the header is ignored, and so is
X-Forwarded-Proto, which decides HSTS.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.ratelimit import LOGIN, MAIL
from config.settings import Settings
from tests.conftest import make_settings
from tests.security.shop import V1, Shop, shop, shop_of

__all__ = ["shop"]

pytestmark = pytest.mark.integration

PROXY = "10.0.0.5"


@pytest.fixture
def behind_proxy(settings: Settings) -> Iterator[Shop]:
    """The shop deployed behind a load balancer in 10.0.0.0/8."""
    yield from shop_of(settings.model_copy(update={"trusted_proxies": "10.0.0.0/8"}))


def reset_mail(client: TestClient, forwarded_for: str, email: str) -> int:
    answer = client.post(
        f"{V1}/accounts/password-change-email", json={"email": email}, headers={"X-Forwarded-For": forwarded_for}
    )
    return int(answer.status_code)


def login(client: TestClient, email: str, **headers: str) -> int:
    return int(client.post(f"{V1}/auth/login", json={"email": email, "pw": "wrong9999"}, headers=headers).status_code)


def test_behind_an_untrusted_proxy_the_whole_site_shares_one_budget(shop: Shop) -> None:
    balancer = shop.peer(PROXY)  # TRUSTED_PROXIES left at the local host: the balancer is just a peer
    codes = [reset_mail(balancer, f"198.51.100.{n}", f"buyer{n}@example.com") for n in range(1, 26)]
    assert codes == [200] * MAIL.per_client.amount + [429] * 5, "as it ran: 20 mails an hour for everyone"


def test_behind_a_trusted_proxy_each_customer_has_a_budget_of_their_own(behind_proxy: Shop) -> None:
    balancer = behind_proxy.peer(PROXY)
    codes = [reset_mail(balancer, f"198.51.100.{n}", f"buyer{n}@example.com") for n in range(1, 26)]
    assert codes == [200] * 25


def test_a_forwarded_for_written_by_the_client_itself_is_ignored(behind_proxy: Shop) -> None:
    balancer = behind_proxy.peer(PROXY)
    # The attacker at 198.51.100.7 names a new address each time; the proxy appends the one it saw.
    spoofed = [
        login(balancer, f"stuffed{n}@example.com", **{"X-Forwarded-For": f"192.0.2.{n}, 198.51.100.7"})
        for n in range(LOGIN.per_client.amount + 2)
    ]
    assert spoofed[-2:] == [429, 429], "counted as 198.51.100.7 whatever it wrote"
    assert login(balancer, "other@example.com", **{"X-Forwarded-For": "198.51.100.8"}) == 401


def test_a_chain_of_trusted_proxies_names_the_client_before_them(behind_proxy: Shop) -> None:
    balancer = behind_proxy.peer(PROXY)
    for n in range(LOGIN.per_client.amount):
        login(balancer, f"chain{n}@example.com", **{"X-Forwarded-For": "198.51.100.9, 10.0.0.2"})
    assert login(balancer, "last@example.com", **{"X-Forwarded-For": "198.51.100.9"}) == 429, "the same client"


def test_a_peer_that_is_not_a_proxy_cannot_escape_its_budget_by_naming_others(shop: Shop) -> None:
    attacker = shop.peer("203.0.113.66")
    tries = [
        login(attacker, f"stuffed{n}@example.com", **{"X-Forwarded-For": f"192.0.2.{n}"})
        for n in range(LOGIN.per_client.amount + 2)
    ]
    assert tries == [401] * LOGIN.per_client.amount + [429] * 2, "the header is ignored: the peer is the client"


def test_hsts_follows_the_scheme_only_a_trusted_proxy_may_name(behind_proxy: Shop) -> None:
    over_tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.10"}
    trusted = behind_proxy.peer(PROXY).get(f"{V1}/health", headers=over_tls)
    assert "max-age=31536000" in trusted.headers["strict-transport-security"]
    stranger = behind_proxy.peer("203.0.113.67").get(f"{V1}/health", headers=over_tls)
    assert "strict-transport-security" not in stranger.headers, "a peer cannot say it came over https"


@pytest.mark.parametrize("value", ["*", "10.0.0.0/8, proxy.internal", "10.0.0.300"])
def test_trusted_proxies_are_networks_never_a_wildcard_or_a_name(value: str, tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="TRUSTED_PROXIES"):
        make_settings(tmp_path, TRUSTED_PROXIES=value)
    assert make_settings(tmp_path, TRUSTED_PROXIES="").trusted_proxy_networks == (), "empty: no peer is trusted"

"""Finding 9, in part: licence-key lookups, key registration and device activations had no per-client limit,
and IPv6 clients were counted per address (each customer holds 2^64 of them).

Now each is counted per client and per key (-4 with 429 past either), and an IPv6 client is its /64.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from api.ratelimit import ACTIVATION_PER_CLIENT, ACTIVATION_PER_KEY, KEY_LOOKUP_PER_CLIENT, KEY_LOOKUP_PER_KEY
from domain.licences.keys import new_licence_key
from tests.security.shop import Shop, shop

__all__ = ["shop"]

pytestmark = pytest.mark.integration

_clients = (f"198.18.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def lookup(shop: Shop, client: str, key: str) -> int:
    answer = shop.via_proxy(client, "GET", "/accounts/check/email", params={"userLicenseKey": key})
    return int(answer.status_code)


def activate(shop: Shop, client: str, key: str, device: str = "phone-1") -> int:
    body = {"licenseKey": key, "deviceId": device, "deviceName": "Phone", "platform": "android"}
    return int(shop.via_proxy(client, "POST", "/licenses/activate", json=body).status_code)


def take(shop: Shop, client: str, key: str, customer: dict[str, Any]) -> int:
    headers = {"Authorization": f"Bearer {customer['token']}"}
    return int(shop.via_proxy(client, "POST", f"/licenses/{key}/giveme", headers=headers).status_code)


def test_guessing_keys_from_one_client_is_stopped_and_other_clients_go_on(shop: Shop) -> None:
    allowed = KEY_LOOKUP_PER_CLIENT.amount
    guesses = [lookup(shop, "203.0.113.7", new_licence_key()) for _ in range(allowed + 3)]
    assert guesses == [404] * allowed + [429] * 3
    assert lookup(shop, "203.0.113.8", new_licence_key()) == 404, "another client has its own budget"


def test_taking_keys_into_an_account_shares_the_lookups_budget(shop: Shop) -> None:
    customer = shop.customer("taker@example.com")
    allowed = KEY_LOOKUP_PER_CLIENT.amount
    taken = [take(shop, "203.0.113.9", new_licence_key(), customer) for _ in range(allowed - 5)]
    looked = [lookup(shop, "203.0.113.9", new_licence_key()) for _ in range(5)]
    assert set(taken) == {404} and looked == [404] * 5
    assert take(shop, "203.0.113.9", new_licence_key(), customer) == 429
    assert lookup(shop, "203.0.113.9", new_licence_key()) == 429


def test_one_key_tried_from_a_crowd_is_stopped(shop: Shop) -> None:
    key = new_licence_key()
    allowed = KEY_LOOKUP_PER_KEY.amount
    assert [lookup(shop, next(_clients), key) for _ in range(allowed + 2)] == [404] * allowed + [429] * 2
    assert lookup(shop, next(_clients), key.lower().replace("-", "")) == 429, "the key however it is written"
    assert lookup(shop, next(_clients), new_licence_key()) == 404, "another key is not blocked"


def test_activations_are_limited_per_client_and_per_key(shop: Shop) -> None:
    per_client = ACTIVATION_PER_CLIENT.amount
    spray = [activate(shop, "203.0.113.20", new_licence_key()) for _ in range(per_client + 2)]
    assert spray == [404] * per_client + [429] * 2

    key = new_licence_key()
    per_key = ACTIVATION_PER_KEY.amount
    crowd = [activate(shop, next(_clients), key, device=f"d{n}") for n in range(per_key + 2)]
    assert crowd == [404] * per_key + [429] * 2


def test_an_ipv6_client_is_counted_per_slash_64(shop: Shop) -> None:
    allowed = KEY_LOOKUP_PER_CLIENT.amount
    same_network = [f"2001:db8:1:2:{n:x}::1" for n in range(allowed + 1)]  # a new address each time, one /64
    assert [lookup(shop, address, new_licence_key()) for address in same_network][-1] == 429
    assert lookup(shop, "2001:db8:1:2:ffff:ffff:ffff:ffff", new_licence_key()) == 429
    assert lookup(shop, "2001:db8:1:3::1", new_licence_key()) == 404, "the next /64 is another customer"
    for _ in range(allowed):
        lookup(shop, "198.51.100.1", new_licence_key())
    assert lookup(shop, "::ffff:198.51.100.1", new_licence_key()) == 429, "an IPv4-mapped address is its IPv4"

"""How a visitor pays, through HTTP on each store against the PortOne sandbox: the payment settings the web
reads once (country decided by the server, its currency and methods), points on kcp, a foreign card on kcp, an
order a coupon makes free (method none, no gateway), and a visitor from a country without its own price, who
pays the fallback country's price and gets a coupon on it only when the group applies to default countries."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from integrations.portone import PaymentNotFoundError
from integrations.portone.gateway import PortOneGateway
from tests.fakes import PlainHasher
from tests.integration.portone.harness import RunningSandbox, TestClock
from tests.integration.purchases.conftest import SharedClock
from tests.integration.purchases.test_coupons_api import ADMIN_TOKEN, AdminShop
from tests.support import running_projector

pytestmark = pytest.mark.integration
V1 = "/web/unicornpro/v1"
GEO = "CF-IPCountry"
MONTHLY_ANDROID = 111  # 2,900 won, $2.99, 330 yen
ALL_WON_METHODS = ["creditCard", "bankTransfer", "virtualAccount", "kakaopay", "naverpay", "point"]


@pytest.fixture
def open_shop(settings: Settings, sandbox: RunningSandbox, clock: TestClock) -> Iterator[Callable[..., AdminShop]]:
    """Opens a shop with some settings changed (each with the admin API and a projector)."""
    with ExitStack() as stack:

        def open_with(**changes: Any) -> AdminShop:
            configured = settings.model_copy(update={"test_admin_token": ADMIN_TOKEN, **changes})
            services = Services.build(
                configured, clock=SharedClock(clock), hasher=PlainHasher(), payments=PortOneGateway(sandbox.client())
            )
            stack.callback(services.close)
            stack.enter_context(running_projector(configured))
            shop = AdminShop(TestClient(create_app(services=services)), services, sandbox, clock)
            login = shop.client.post(
                f"{V1}/test-harness/admin/auth/login", json={"email": "admin@unicornpro.test", "password": ADMIN_TOKEN}
            )
            shop.admin = {"Authorization": f"Bearer {login.json()['accessToken']}"}
            return shop

        yield open_with


@pytest.fixture
def shop(open_shop: Callable[..., AdminShop]) -> AdminShop:
    """A shop behind a proxy that tells the visitor's country in CF-IPCountry."""
    return open_shop(country_header=GEO)


def settings_for(shop: AdminShop, country: str | None = None) -> dict[str, Any]:
    answer = shop.client.get(f"{V1}/payments/settings", headers={GEO: country} if country else {})
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def order(shop: AdminShop, country: str | None = None, **body: Any) -> Any:
    payload = {"licenseId": MONTHLY_ANDROID, "paymentMethod": "creditCard", "email": "buyer@example.com", **body}
    return shop.client.post(f"{V1}/payments/licenses/new", json=payload, headers={GEO: country} if country else {})


def history(shop: AdminShop, email: str) -> list[dict[str, Any]]:
    member = shop.account(email)
    answer = shop.client.get(f"{V1}/payments/licenses", headers=member)
    assert answer.status_code == 200, answer.text
    records: list[dict[str, Any]] = answer.json()
    return records


def test_the_settings_tell_the_visitors_country_its_currency_and_the_methods_it_takes(shop: AdminShop) -> None:
    korea = settings_for(shop)
    assert (korea["countryCode"], korea["currency"], korea["paymentMethods"]) == ("KR", "KRW", ALL_WON_METHODS)
    assert korea["billingKeyMethods"] == ["creditCard", "kakaopay", "naverpay"]
    assert korea["scriptUrl"].endswith("/sandbox/iamport.js") and korea["impCode"]
    us = settings_for(shop, "us")
    assert (us["countryCode"], us["currency"], us["paymentMethods"]) == ("US", "USD", ["creditCard"])
    assert (settings_for(shop, "JP")["currency"], settings_for(shop, "DE")["currency"]) == ("JPY", "USD")
    assert settings_for(shop, "XX")["countryCode"] == "KR", "Cloudflare's unknown country is the default"


def test_without_a_trusted_header_configured_the_country_is_the_default_whatever_the_request_says(
    open_shop: Callable[..., AdminShop],
) -> None:
    shop = open_shop(default_country="JP")
    assert (settings_for(shop, "US")["countryCode"], settings_for(shop, "US")["currency"]) == ("JP", "JPY")
    sent = order(shop, "US", countryCode="US", email="jp-buyer@example.com")
    assert sent.status_code == 200, sent.text
    assert (sent.json()["currency"], sent.json()["amount"]) == ("JPY", 330), "the body's countryCode is ignored"


def test_a_buyer_pays_with_points_on_kcp_and_history_says_so(shop: AdminShop) -> None:
    placed = order(shop, paymentMethod="point", email="points@example.com")
    assert placed.status_code == 200, placed.text
    body = placed.json()
    assert (body["pg"], body["payMethod"], body["amount"], body["currency"]) == ("kcp", "point", 2900, "KRW")
    confirmed = shop.confirm(body, shop.pay(body, card_number=None))
    assert confirmed.status_code == 200, confirmed.text
    [record] = history(shop, "points@example.com")
    assert (record["payMethod"], record["pgProvider"], record["amount"], record["cardNumber"]) == (
        "point",
        "kcp",
        2900,
        None,
    )


def test_a_buyer_in_the_us_pays_dollars_by_card_on_kcp_whatever_the_body_says(shop: AdminShop) -> None:
    placed = order(shop, "US", countryCode="KR", email="us-buyer@example.com")
    assert placed.status_code == 200, placed.text
    body = placed.json()
    assert (body["pg"], body["payMethod"], body["amount"], body["currency"]) == ("kcp", "card", 299, "USD")
    confirmed = shop.confirm(body, shop.pay(body))
    assert (confirmed.status_code, confirmed.json()["state"]) == (200, "paid")
    [record] = history(shop, "us-buyer@example.com")
    assert (record["pgProvider"], record["currency"], record["cardNumber"]) == ("kcp", "USD", "411111******1111")


@pytest.mark.parametrize("method", ["bankTransfer", "virtualAccount", "kakaopay", "naverpay", "point", "none"])
def test_a_buyer_in_dollars_cannot_choose_a_won_only_method(shop: AdminShop, method: str) -> None:
    refused = order(shop, "US", paymentMethod=method)
    assert (refused.status_code, refused.json()["errorCode"]) == (400, -2)


def test_an_order_a_coupon_makes_free_is_paid_with_method_none_without_the_gateway(shop: AdminShop) -> None:
    shop.group(name="free month", availableDuration=30, factor="1", subIssuedCount=100, code="FREEMONTH")
    placed = order(shop, code="FREEMONTH", email="free@example.com")
    assert placed.status_code == 200, placed.text
    body = placed.json()
    assert (body["amount"], body["pg"], body["payMethod"]) == (0, "none", "none")
    assert body["impUid"] == f"none-{body['merchantUid']}"
    confirmed = shop.confirm(body, body["impUid"])
    assert confirmed.status_code == 200, confirmed.text
    assert (confirmed.json()["state"], confirmed.json()["accountCreated"]) == ("paid", True)
    with pytest.raises(PaymentNotFoundError):  # the gateway never saw it
        shop.sandbox.client().find_payment(body["merchantUid"])
    [record] = history(shop, "free@example.com")
    assert (record["amount"], record["originalAmount"], record["payMethod"], record["couponCode"]) == (
        0,
        2900,
        "none",
        "FREEMONTH",
    )


def test_a_paid_order_cannot_be_confirmed_as_paid_with_nothing(shop: AdminShop) -> None:
    body = order(shop, email="cheat@example.com").json()
    forged = shop.confirm(body, f"none-{body['merchantUid']}")
    assert (forged.status_code, forged.json()["errorCode"]) == (409, -301)


def _monthly_price(shop: AdminShop, country: str, code: str) -> dict[str, Any]:
    answer = shop.client.get(f"{V1}/purchasable-licenses/new", params={"code": code}, headers={GEO: country})
    assert answer.status_code == 200, answer.text
    [monthly] = [licence for licence in answer.json() if licence["id"] == MONTHLY_ANDROID]
    price: dict[str, Any] = next(price for price in monthly["prices"] if price["countryCode"] == "US")
    return price


def test_a_visitor_from_a_fallback_country_gets_a_us_coupon_only_when_it_applies_to_default_countries(
    shop: AdminShop,
) -> None:
    shop.group(name="us only", countries=["US"], factor="0.3", subIssuedCount=100, code="USONLY")
    shop.group(
        name="us and fallback",
        countries=["US"],
        applyDefaultCountry=True,
        factor="0.3",
        subIssuedCount=100,
        code="USPLUS",
    )

    assert _monthly_price(shop, "US", "USONLY")["requestPrice"] == 209, "$2.99 less 30%, rounded down"
    assert _monthly_price(shop, "DE", "USONLY")["requestPrice"] == 299, "the fallback price, no coupon"
    assert _monthly_price(shop, "DE", "USPLUS")["requestPrice"] == 209

    refused = order(shop, "DE", code="USONLY", email="de-one@example.com")
    assert (refused.status_code, refused.json()["errorCode"]) == (400, -604)
    placed = order(shop, "DE", code="USPLUS", email="de-two@example.com")
    assert placed.status_code == 200, placed.text
    body = placed.json()
    assert (body["amount"], body["currency"], body["pg"]) == (209, "USD", "kcp")
    assert shop.confirm(body, shop.pay(body)).json()["state"] == "paid"
    [record] = history(shop, "de-two@example.com")
    assert (record["couponCode"], record["amount"]) == ("USPLUS", 209)

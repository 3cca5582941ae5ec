"""Coupons, banners and the test-only admin API through HTTP, against the PortOne sandbox, on each store."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.app import create_app
from api.services import Services
from config.settings import Settings
from integrations.portone.gateway import PortOneGateway
from tests.fakes import PlainHasher
from tests.integration.portone.harness import START, RunningSandbox, TestClock
from tests.integration.purchases.conftest import SharedClock
from tests.integration.purchases.test_purchase_api import V1, Shop
from tests.support import running_projector

pytestmark = pytest.mark.integration
ADMIN_TOKEN = "test-admin-secret"
# The spec's test coupon group: a month's licence at 30% off, practically unlimited, in won.
TEST_GROUP = {
    "name": "test",
    "couponGroupType": "public",
    "constraintType": "none",
    "availableDuration": 30,
    "factor": "0.3",
    "operator": "multiply",
    "subIssuedCount": 4294967295,
    "currency": "KRW",
}


class AdminShop(Shop):
    admin: dict[str, str]

    def group(self, **fields: Any) -> dict[str, Any]:
        answer = self.client.post(f"{V1}/test-harness/admin/coupons/group", json=fields, headers=self.admin)
        assert answer.status_code == 200, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def buy(self, code: str, headers: dict[str, str] | None = None, **body: Any) -> Any:
        order = self.order(headers, licenseId=111, code=code, **body)
        return order, self.confirm(order, self.pay(order), headers)


@pytest.fixture
def shop(settings: Settings, sandbox: RunningSandbox, clock: TestClock) -> Iterator[AdminShop]:
    configured = settings.model_copy(update={"test_admin_token": ADMIN_TOKEN})
    services = Services.build(
        configured, clock=SharedClock(clock), hasher=PlainHasher(), payments=PortOneGateway(sandbox.client())
    )
    with running_projector(configured):
        shop = AdminShop(TestClient(create_app(services=services)), services, sandbox, clock)
        login = shop.client.post(
            f"{V1}/test-harness/admin/auth/login", json={"email": "admin@unicornpro.test", "password": ADMIN_TOKEN}
        )
        assert login.status_code == 200, login.text
        shop.admin = {"Authorization": f"Bearer {login.json()['accessToken']}"}
        yield shop
    services.close()


def png(color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 4), color).save(out, format="PNG")
    return out.getvalue()


def test_the_admin_api_needs_the_test_credential(shop: AdminShop) -> None:
    wrong = shop.client.post(
        f"{V1}/test-harness/admin/auth/login", json={"email": "admin@unicornpro.test", "password": "x"}
    )
    assert (wrong.status_code, wrong.json()["errorCode"]) == (401, 401)
    anonymous = shop.client.post(f"{V1}/test-harness/admin/coupons/group", json=TEST_GROUP)
    assert anonymous.status_code == 401


def test_a_visitor_sees_the_groups_banner_and_buys_at_the_coupon_price(shop: AdminShop) -> None:
    created = shop.group(**TEST_GROUP, code="WELCOME30")
    group_id = created["couponGroup"]["id"]
    assert [coupon["code"] for coupon in created["coupons"]] == ["WELCOME30"]
    banner = {
        "type": "event",
        "startAt": "2026-11-01T00:00:00",
        "endAt": "2026-12-31T23:59:59",
        "couponGroupId": group_id,
        "localizations": [{"langCode": "ko", "text": "30% 할인", "url": "/ko/purchase?code=WELCOME30"}],
    }
    posted = shop.client.post(
        f"{V1}/test-harness/admin/event-banners",
        data={"eventBanner": json.dumps(banner)},
        files={"ko.pcImage": ("pc.png", png(), "image/png"), "ko.mobileImage": ("m.png", png("blue"), "image/png")},
        headers=shop.admin,
    )
    assert posted.status_code == 200, posted.text
    assert posted.json()["startAt"] == "2026-11-01T00:00:00+09:00", "banner dates are Korean time"

    shown = shop.client.get(f"{V1}/event-banners", params={"code": "welcome30", "countryCode": "KR"}).json()
    assert shown["couponGroup"]["id"] == group_id
    localization = shown["eventBanner"]["localizations"][0]
    assert localization["text"] == "30% 할인"
    image = shop.client.get(localization["pcImageUrl"])
    assert (image.status_code, image.headers["content-type"], image.content) == (200, "image/png", png())

    listed = shop.client.get(f"{V1}/purchasable-licenses/new", params={"code": "WELCOME30"}).json()
    monthly = next(item for item in listed if item["id"] == 111)
    kr = next(price for price in monthly["prices"] if price["countryCode"] == "KR")
    assert (kr["price"], kr["requestPrice"]) == (2900, 2030)
    assert {"type": "coupon", "factor": "0.3"} in monthly["discountFactors"]
    annual = next(item for item in listed if item["id"] == 121)
    assert all(factor["type"] != "coupon" for factor in annual["discountFactors"]), "the group is for 30-day licences"

    member = shop.account("buyer@example.com")
    order, confirmed = shop.buy("WELCOME30", member)
    assert order["amount"] == 2030, "charged what the list showed"
    assert confirmed.status_code == 200, confirmed.text
    history = shop.client.get(f"{V1}/payments/licenses", headers=member).json()
    assert (history[0]["couponCode"], history[0]["amount"]) == ("WELCOME30", 2030)
    coupon = shop.client.get(f"{V1}/payments/licenses/{order['merchantUid']}/coupon", headers=member).json()
    assert coupon == {"couponCode": "WELCOME30"}
    codes = shop.client.get(
        f"{V1}/test-harness/admin/coupons/coupon", params={"couponGroupIds": group_id}, headers=shop.admin
    ).json()
    assert [(item["code"], item["usedCount"]) for item in codes] == [("WELCOME30", 1)]


def test_uploads_must_be_real_images(shop: AdminShop) -> None:
    answer = shop.client.post(
        f"{V1}/test-harness/admin/event-banners",
        data={"eventBanner": '{"type": "notice", "localizations": [{"langCode": "en", "text": "hi"}]}'},
        files={"en.pcImage": ("fake.png", b"not an image at all", "image/png")},
        headers=shop.admin,
    )
    assert (answer.status_code, answer.json()["errorCode"]) == (400, -1401)


def test_a_notice_shows_for_whole_days_in_korean_time_and_only_in_its_countries(shop: AdminShop) -> None:
    day = (START + timedelta(hours=9)).date().isoformat()
    notice = {
        "type": "notice",
        "startAt": f"{day}T12:00:00+09:00",
        "endAt": f"{day}T13:00:00+09:00",
        "applyCountry": ["KR"],
        "localizations": [{"langCode": "ko", "text": "점검 안내"}],
    }
    posted = shop.client.post(
        f"{V1}/test-harness/admin/event-banners", data={"eventBanner": json.dumps(notice)}, headers=shop.admin
    )
    assert posted.status_code == 200, posted.text
    assert (posted.json()["startAt"], posted.json()["endAt"]) == (f"{day}T00:00:00+09:00", f"{day}T23:59:59+09:00")
    assert (
        shop.client.get(f"{V1}/event-banners", params={"countryCode": "KR"}).json()["notice"]["id"]
        == posted.json()["id"]
    )
    assert shop.client.get(f"{V1}/event-banners", params={"countryCode": "US"}).json()["notice"] is None
    changed = shop.client.patch(
        f"{V1}/test-harness/admin/event-banners",
        data={"eventBanner": json.dumps({"id": posted.json()["id"], "active": False})},
        headers=shop.admin,
    )
    assert changed.status_code == 200, changed.text
    assert shop.client.get(f"{V1}/event-banners", params={"countryCode": "KR"}).json()["notice"] is None


def test_an_account_constrained_code_answers_613_the_second_time(shop: AdminShop) -> None:
    shop.group(**{**TEST_GROUP, "constraintType": "account"}, code="ONEPER")
    member = shop.account("once@example.com")
    _, confirmed = shop.buy("ONEPER", member)
    assert confirmed.status_code == 200, confirmed.text
    check = shop.client.post(
        f"{V1}/payments/coupons/check", json={"code": "ONEPER", "purchaseType": "new"}, headers=member
    )
    assert (check.status_code, check.json()["errorCode"]) == (409, -613)
    again = shop.client.post(
        f"{V1}/payments/licenses/new",
        json={"licenseId": 111, "countryCode": "KR", "paymentMethod": "creditCard", "code": "ONEPER"},
        headers=member,
    )
    assert again.json()["errorCode"] == -613
    guest = shop.client.post(f"{V1}/payments/coupons/check", json={"code": "ONEPER", "purchaseType": "new"})
    assert guest.json()["errorCode"] == -2, "a guest must give the email the constraint is checked on"
    by_email = {"code": "ONEPER", "purchaseType": "new", "email": "ONCE@example.com"}
    assert shop.client.post(f"{V1}/payments/coupons/check", json=by_email).json()["errorCode"] == -613
    other = {**by_email, "email": "someone@example.com"}
    assert shop.client.post(f"{V1}/payments/coupons/check", json=other).json()["code"] == "ONEPER"


def test_codes_are_refused_with_their_reason_and_unknown_codes_on_the_list_answer_108(shop: AdminShop) -> None:
    assert shop.client.get(f"{V1}/payments/coupons", params={"code": "NOPE"}).json()["errorCode"] == -601
    assert shop.client.get(f"{V1}/purchasable-licenses/new", params={"code": "NOPE"}).json()["errorCode"] == -108
    created = shop.group(**TEST_GROUP, code="CLOSING")
    found = shop.client.get(f"{V1}/payments/coupons", params={"code": "closing", "licenseId": 111})
    assert found.json()["couponGroup"]["availableDuration"] == 30
    assert (
        shop.client.get(f"{V1}/payments/coupons", params={"code": "CLOSING", "licenseId": 121}).json()["errorCode"]
        == -604
    )
    patch = {"id": created["couponGroup"]["id"], "expAt": "2026-11-02T00:00:00+09:00"}
    assert (
        shop.client.patch(f"{V1}/test-harness/admin/coupons/group", json=patch, headers=shop.admin).status_code == 200
    )
    assert shop.client.get(f"{V1}/payments/coupons", params={"code": "CLOSING"}).json()["errorCode"] == -605


def test_twenty_buyers_race_for_a_one_use_code_and_exactly_one_keeps_the_coupon_price(shop: AdminShop) -> None:
    shop.group(**{**TEST_GROUP, "subIssuedCount": 1}, code="FIRSTONLY")
    orders = [shop.order(licenseId=111, code="FIRSTONLY", email=f"racer{n}@example.com") for n in range(20)]
    paid = [shop.pay(order) for order in orders]

    def confirm(n: int) -> int:
        return int(shop.confirm(orders[n], paid[n]).status_code)

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(confirm, range(20)))
    assert sorted(statuses) == [200] + [409] * 19
    gateway = shop.services.payments
    at_gateway = [gateway.get_payment(imp_uid) for imp_uid in paid]
    kept = [payment for payment in at_gateway if payment.amount - payment.cancel_amount > 0]
    assert len(kept) == 1 and kept[0].amount == 2030, "one buyer keeps the coupon price; the rest were refunded"
    redeemed = [
        n
        for n in shop.services.store.recorder.select_notifications(start=1, limit=5000)
        if n.topic == "coupon.Redeemed"
    ]
    assert len(redeemed) == 1


def test_a_code_disabled_between_order_and_payment_is_refused_at_confirm_and_refunded(shop: AdminShop) -> None:
    created = shop.group(**TEST_GROUP, code="PAUSED")
    order = shop.order(licenseId=111, code="PAUSED", email="late@example.com")
    assert order["amount"] == 2030, "the price is fixed at the order"
    imp_uid = shop.pay(order)
    patch = {"id": created["couponGroup"]["id"], "enabled": False}
    assert (
        shop.client.patch(f"{V1}/test-harness/admin/coupons/group", json=patch, headers=shop.admin).status_code == 200
    )
    refused = shop.confirm(order, imp_uid)
    assert (refused.status_code, refused.json()["errorCode"]) == (400, -603)
    at_gateway = shop.services.payments.get_payment(imp_uid)
    assert at_gateway.cancel_amount == at_gateway.amount == 2030, "the money went back"
    again = shop.confirm(order, imp_uid)
    assert again.json()["errorCode"] == -603, "the order stays called off, for the reason it was"

"""Marketing runs a promotion from the back office, over HTTP on both stores against the PortOne sandbox: a member
opens a 20% coupon group for annual licences in KR starting tomorrow with a banner in three languages; before
tomorrow the code and the banner wait; after, a buyer pays the coupon price and the group's page shows who redeemed
it, with which payment, and what it gave away; disabled, the next buyer is refused (-603). Private codes are issued
and exported as CSV; banner images are checked as report images are; every change is a staff event with its actor
and reason; support may not touch coupons."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from events.staff import StaffActed
from integrations.portone.gateway import PortOneGateway
from tests.fakes import PlainHasher
from tests.integration.portone.harness import RunningSandbox, TestClock
from tests.integration.purchases.conftest import SharedClock
from tests.integration.purchases.test_back_office_support import Member, first_owner
from tests.integration.purchases.test_coupons_api import ADMIN_TOKEN, AdminShop, png
from tests.integration.purchases.test_purchase_api import V1
from tests.support import running_projector

pytestmark = pytest.mark.integration

# The harness clock starts at 2026-11-02 12:00 +09:00: tomorrow begins at midnight Korean time.
TOMORROW = "2026-11-03T00:00:00"
ANNUAL_KR = {
    "name": "Annual 20% (KR)",
    "couponGroupType": "public",
    "constraintType": "account",
    "availableDuration": 365,
    "countries": ["KR"],
    "factor": "0.2",
    "subIssuedCount": 4294967295,
    "startAt": TOMORROW,
    "code": "YEAR20",
    "reason": "winter campaign",
}


@pytest.fixture
def shop(settings: Settings, sandbox: RunningSandbox, clock: TestClock) -> Iterator[AdminShop]:
    """The shop of the coupon stories (its test harness mounted too), with the views followed."""
    configured = settings.model_copy(update={"test_admin_token": ADMIN_TOKEN})
    services = Services.build(
        configured, clock=SharedClock(clock), hasher=PlainHasher(), payments=PortOneGateway(sandbox.client())
    )
    with running_projector(configured):
        yield AdminShop(TestClient(create_app(services=services)), services, sandbox, clock)
    services.close()


def _member(shop: AdminShop, roles: list[str], email: str) -> Member:
    owner = first_owner(shop)  # type: ignore[arg-type]
    return owner.invite(email, roles)


def _sign_in_again(shop: AdminShop, member: Member, email: str) -> None:
    """After the clock moved past the idle timeout: a fresh session with a one-time code."""
    answer = shop.client.post(f"{V1}/staff/sign-in/totp", json={"email": email, "code": member.code()})
    assert answer.status_code == 200, answer.text
    member.session, member.csrf = shop.client.cookies["staff_session"], answer.json()["csrf"]
    shop.client.cookies.clear()


def _actions(shop: AdminShop, member: Member) -> list[StaffActed]:
    events = shop.services.store.repository.event_store.get(UUID(member.id))
    return [event for event in events if isinstance(event, StaffActed)]


def test_a_marketing_member_runs_a_promotion_from_tomorrow_and_disables_it(shop: AdminShop) -> None:
    ads = _member(shop, ["marketing"], "ads@example.com")
    created = ads.call("POST", "/coupon-groups", json=ANNUAL_KR)
    assert created.status_code == 201, created.text
    group = created.json()
    group_id = group["couponGroup"]["id"]
    assert group["couponGroup"]["startAt"] == "2026-11-03T00:00:00+09:00", "coupon dates are Korean time"
    assert [code["code"] for code in group["codes"]] == ["YEAR20"]
    assert ads.call("POST", "/coupon-groups", json={**ANNUAL_KR, "reason": " "}).json()["errorCode"] == -1

    banner = {
        "type": "event",
        "startAt": TOMORROW,
        "endAt": "2026-11-30T23:59:59",
        "couponGroupId": group_id,
        "localizations": [
            {
                "langCode": "ko",
                "text": "연간 20% 할인",
                "backgroundColor": "#2d1f6b",
                "url": "/ko/purchase?code=YEAR20",
            },
            {"langCode": "en", "text": "20% off a year", "url": "/en/purchase?code=YEAR20"},
            {"langCode": "ja", "text": "年間20%オフ", "url": "/ja/purchase?code=YEAR20"},
        ],
    }
    posted = shop.client.post(
        f"{V1}/staff/banners",
        data={"eventBanner": json.dumps(banner), "reason": "winter campaign"},
        files={"ko.pcImage": ("pc.png", png(), "image/png")},
        cookies={"staff_session": ads.session},
        headers={"X-Staff-CSRF": ads.csrf},
    )
    shop.client.cookies.clear()
    assert posted.status_code == 201, posted.text
    assert posted.json()["localizations"][0]["pcImageUrl"].startswith(f"{V1}/event-banners/images/")
    not_an_image = shop.client.post(
        f"{V1}/staff/banners",
        data={"eventBanner": json.dumps(banner)},
        files={"ko.pcImage": ("pc.png", b"<svg></svg>", "image/png")},
        cookies={"staff_session": ads.session},
        headers={"X-Staff-CSRF": ads.csrf},
    )
    shop.client.cookies.clear()
    assert not_an_image.json()["errorCode"] == -1401

    # Before tomorrow the code waits (-604, not started) and no banner shows.
    early = shop.client.get(f"{V1}/payments/coupons", params={"code": "YEAR20", "licenseId": 121})
    assert early.json()["errorCode"] == -604
    shown = shop.client.get(f"{V1}/event-banners", params={"code": "YEAR20", "countryCode": "KR"}).json()
    assert shown["eventBanner"] is None

    # Tomorrow: the banner shows in each language, and a buyer pays 34,800 -> 24,360 (base) -> 19,488 (coupon).
    shop.clock.advance(timedelta(hours=13))
    _sign_in_again(shop, ads, "ads@example.com")
    shown = shop.client.get(f"{V1}/event-banners", params={"code": "YEAR20", "countryCode": "KR"}).json()
    assert {item["text"] for item in shown["eventBanner"]["localizations"]} == {
        "연간 20% 할인",
        "20% off a year",
        "年間20%オフ",
    }
    monthly = shop.client.get(f"{V1}/payments/coupons", params={"code": "YEAR20", "licenseId": 111})
    assert monthly.json()["errorCode"] == -604, "the group is for annual licences only"
    buyer = shop.account("buyer@example.com")
    order = shop.order(buyer, licenseId=121, code="YEAR20")
    assert order["amount"] == 19488
    assert shop.confirm(order, shop.pay(order), buyer).status_code == 200

    page = ads.call("GET", f"/coupon-groups/{group_id}")
    for _ in range(50):
        if page.json()["redemptions"]:
            break
        page = ads.call("GET", f"/coupon-groups/{group_id}")
    redemption = page.json()["redemptions"][0]
    assert (redemption["buyerEmail"], redemption["merchantUid"], redemption["amount"]) == (
        "buyer@example.com",
        order["merchantUid"],
        19488,
    )
    assert redemption["givenAway"] == 24360 - 19488 and redemption["state"] == "paid"
    assert page.json()["totals"] == [{"currency": "KRW", "redemptions": 1, "charged": 19488, "givenAway": 4872}]
    assert page.json()["codes"] == [{"code": "YEAR20", "used": 1, "issuedAt": page.json()["codes"][0]["issuedAt"]}]
    listed = ads.call("GET", "/coupon-groups").json()
    assert listed[0]["couponGroup"]["id"] == group_id and listed[0]["totals"][0]["givenAway"] == 4872

    # Disabled at once: the next buyer is refused with -603.
    disabled = ads.call("POST", f"/coupon-groups/{group_id}/disable", json={"reason": "budget spent"})
    assert disabled.json()["couponGroup"]["enabled"] is False
    late = shop.client.post(
        f"{V1}/payments/licenses/new",
        json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", "code": "YEAR20"},
        headers=shop.account("late@example.com"),
    )
    assert late.json()["errorCode"] == -603

    # Each change is the member's staff event with its reason.
    acted = [(event.action, event.reason) for event in _actions(shop, ads)]
    assert acted == [
        ("open-coupon-group", "winter campaign"),
        ("post-banner", "winter campaign"),
        ("disable-coupon-group", "budget spent"),
    ]


def test_private_codes_are_issued_exported_and_changed_and_banners_end(shop: AdminShop) -> None:
    ads = _member(shop, ["marketing"], "ads@example.com")
    private: dict[str, Any] = {
        "name": "Partners",
        "couponGroupType": "private",
        "factor": "0.5",
        "issuedCount": 3,
        "expAt": "2026-12-01",
        "reason": "partner codes",
    }
    created = ads.call("POST", "/coupon-groups", json=private)
    assert created.status_code == 201, created.text
    group_id = created.json()["couponGroup"]["id"]
    assert len(created.json()["codes"]) == 3
    more = ads.call("POST", f"/coupon-groups/{group_id}/codes", json={"count": 2, "reason": "two more partners"})
    assert more.status_code == 200, more.text
    assert more.json()["couponGroup"]["issuedCount"] == 5 and len(more.json()["codes"]) == 5
    exported = ads.call("GET", f"/coupon-groups/{group_id}/codes.csv")
    assert exported.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert sorted(row["code"] for row in rows) == sorted(code["code"] for code in more.json()["codes"])
    assert all(row["code"].startswith("UNC-") and row["used"] == "0" for row in rows)

    changed = ads.call(
        "PATCH", f"/coupon-groups/{group_id}", json={"factor": "0.4", "countries": ["kr", "JP"], "reason": "revised"}
    )
    assert changed.json()["couponGroup"]["factor"] == "0.4"
    assert changed.json()["couponGroup"]["countries"] == ["KR", "JP"]
    assert (
        ads.call("PATCH", f"/coupon-groups/{group_id}", json={"issuedCount": 1, "reason": "x"}).json()["errorCode"]
        == -2
    ), "issued codes are never taken back"
    public = ads.call("POST", "/coupon-groups", json={**private, "couponGroupType": "public", "issuedCount": 1})
    public_id = public.json()["couponGroup"]["id"]
    assert ads.call("POST", f"/coupon-groups/{public_id}/codes", json={"count": 1, "reason": "x"}).status_code == 400

    notice = {"type": "notice", "startAt": "2026-11-02", "endAt": "2026-11-03", "localizations": []}
    notice["localizations"] = [{"langCode": lang, "text": f"notice {lang}"} for lang in ("ko", "en", "ja")]
    posted = shop.client.post(
        f"{V1}/staff/banners",
        data={"eventBanner": json.dumps(notice)},
        cookies={"staff_session": ads.session},
        headers={"X-Staff-CSRF": ads.csrf},
    )
    shop.client.cookies.clear()
    assert posted.status_code == 201, posted.text
    banner_id = posted.json()["id"]
    assert shop.client.get(f"{V1}/event-banners", params={"countryCode": "KR"}).json()["notice"]["id"] == banner_id
    changed_banner = shop.client.patch(
        f"{V1}/staff/banners/{banner_id}",
        data={"eventBanner": json.dumps({"endAt": "2026-11-05"}), "reason": "longer"},
        cookies={"staff_session": ads.session},
        headers={"X-Staff-CSRF": ads.csrf},
    )
    shop.client.cookies.clear()
    assert changed_banner.status_code == 200, changed_banner.text
    assert changed_banner.json()["endAt"] == "2026-11-05T23:59:59+09:00"
    assert changed_banner.json()["type"] == "notice" and len(changed_banner.json()["localizations"]) == 3
    ended = ads.call("POST", f"/banners/{banner_id}/end", json={"reason": "done"})
    assert ended.json()["active"] is False
    assert shop.client.get(f"{V1}/event-banners", params={"countryCode": "KR"}).json()["notice"] is None
    assert [item["id"] for item in ads.call("GET", "/banners").json()] == [banner_id]
    tied_to_nothing = ads.call("POST", f"/banners/{banner_id}/end", json={"reason": "again"})
    assert tied_to_nothing.status_code == 200
    assert ads.call("POST", "/banners/99/end", json={"reason": "x"}).status_code == 404


def test_support_may_not_touch_coupons_and_marketing_neither_refunds_nor_sees_card_data(shop: AdminShop) -> None:
    owner = first_owner(shop)  # type: ignore[arg-type]
    support = owner.invite("help@example.com", ["support"])
    ads = owner.invite("ads@example.com", ["marketing"])
    group = {**ANNUAL_KR, "code": "NOPE20"}
    assert support.call("POST", "/coupon-groups", json=group).status_code == 403
    assert support.call("GET", "/coupon-groups").status_code == 403
    assert support.call("POST", "/banners/1/end", json={"reason": "x"}).status_code == 403
    assert owner.call("POST", "/coupon-groups", json=group).status_code == 201

    buyer = shop.account("buyer@example.com")
    order = shop.order(buyer, licenseId=121)
    assert shop.confirm(order, shop.pay(order), buyer).status_code == 200
    assert ads.call("POST", f"/payments/{order['merchantUid']}/refund", json={"reason": "x"}).status_code == 403
    found = ads.call("GET", "/customers", params={"q": order["merchantUid"]})
    for _ in range(50):
        if found.json():
            break
        found = ads.call("GET", "/customers", params={"q": order["merchantUid"]})
    page = ads.call("GET", f"/customers/{found.json()[0]['accountId']}")
    assert page.status_code == 200 and page.json()["payments"][0]["merchant_uid"] == order["merchantUid"]
    assert [payment["card_number"] for payment in page.json()["payments"]] == ["************1111"]
    assert "4111" not in page.text, "no card number, not even the gateway's mask"


def test_the_test_harness_adds_a_member_of_a_role_only_with_its_credential(shop: AdminShop) -> None:
    wanted = {"email": "story@example.com", "name": "Story", "roles": ["marketing"]}
    assert shop.client.post(f"{V1}/test-harness/staff/members", json=wanted).status_code == 401
    added = shop.client.post(f"{V1}/test-harness/staff/members", json=wanted, headers={"X-Admin-Token": ADMIN_TOKEN})
    assert added.status_code == 200, added.text
    member = Member(shop, added.json()["enrolmentLink"])  # type: ignore[arg-type]
    assert member.call("GET", "/me").json()["member"]["roles"] == ["marketing"]
    assert member.call("GET", "/coupon-groups").status_code == 200

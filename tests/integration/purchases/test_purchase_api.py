"""The purchase, licence and history calls through HTTP, against the sandbox, on each store."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Services
from config.settings import Settings
from integrations.portone.gateway import PortOneGateway
from tests.fakes import PlainHasher
from tests.integration.portone.harness import RunningSandbox, TestClock
from tests.integration.purchases.conftest import SharedClock
from tests.support import confirm_address, register_confirmed, running_projector

pytestmark = pytest.mark.integration
V1 = "/web/unicornpro/v1"
CARD = "4111111111111111"


@dataclass
class Shop:
    client: TestClient
    services: Services
    sandbox: RunningSandbox
    clock: TestClock

    def account(self, email: str) -> dict[str, str]:
        """Register, confirm the address from the mail and log in; the bearer header of the new account."""
        register_confirmed(self.client, self.services, email)
        login = self.client.post(f"{V1}/auth/login", json={"email": email, "pw": "abcd1234"})
        assert login.status_code == 200, login.text
        return {"Authorization": f"Bearer {login.json()['accessToken']}"}

    def order(self, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
        payload = {"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard", **body}
        answer = self.client.post(f"{V1}/payments/licenses/new", json=payload, headers=headers or {})
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def pay(self, order: dict[str, Any], **overrides: Any) -> str:
        params = {
            "pg": order["pg"],
            "pay_method": order["payMethod"],
            "merchant_uid": order["merchantUid"],
            "name": order["name"],
            "amount": order["amount"],
            "currency": order["currency"],
            "buyer_email": order["buyerEmail"],
            "card_number": CARD,
            **overrides,
        }
        imp_uid: str = self.sandbox.checkout(**params)["imp_uid"]
        return imp_uid

    def confirm(self, order: dict[str, Any], imp_uid: str, headers: dict[str, str] | None = None) -> Any:
        return self.client.post(
            f"{V1}/payments/licenses/new/confirm",
            params={"localeCode": "ko"},
            json={"impUid": imp_uid, "merchantUid": order["merchantUid"]},
            headers=headers or {},
        )


class Forgetful(PortOneGateway):
    """Never pre-registers the amount, so the sandbox takes whatever the window sends."""

    def prepare(self, merchant_uid: str, amount: int) -> None:
        return None


@pytest.fixture
def gateway_kind() -> type[PortOneGateway]:
    """How the shop talks to the sandbox (a test may parametrize a flawed adapter)."""
    return PortOneGateway


@pytest.fixture
def shop(
    settings: Settings, sandbox: RunningSandbox, clock: TestClock, gateway_kind: type[PortOneGateway]
) -> Iterator[Shop]:
    services = Services.build(
        settings, clock=SharedClock(clock), hasher=PlainHasher(), payments=gateway_kind(sandbox.client())
    )
    with running_projector(settings):
        yield Shop(TestClient(create_app(services=services)), services, sandbox, clock)
    services.close()


def test_a_guest_buys_a_licence_then_registers_its_key_activates_and_renames_a_device(shop: Shop) -> None:
    order = shop.order(email="guest@example.com")
    assert (order["amount"], order["currency"], order["pg"], order["payMethod"]) == (24360, "KRW", "nice", "card")
    imp_uid = shop.pay(order)
    confirmed = shop.confirm(order, imp_uid)
    assert confirmed.status_code == 200, confirmed.text
    body = confirmed.json()
    assert (body["state"], body["email"], body["accountCreated"]) == ("paid", "guest@example.com", True)
    again = shop.confirm(order, imp_uid).json()
    assert (again["userLicenseId"], again["accountCreated"]) == (body["userLicenseId"], True)  # as the first said

    owner = shop.account("owner@example.com")
    claimed = shop.client.post(f"{V1}/licenses/{body['licenseKey'].lower()}/giveme", headers=owner)
    assert claimed.status_code == 200, claimed.text
    licences = shop.client.get(f"{V1}/licenses/mine", headers=owner).json()
    assert [licence["id"] for licence in licences] == [body["userLicenseId"]]
    assert licences[0]["life"] == 365

    activated = shop.client.post(
        f"{V1}/licenses/activate",
        json={
            "licenseKey": body["licenseKey"],
            "deviceId": "pixel-8-abc",
            "deviceName": "Pixel 8",
            "platform": "android",
        },
    )
    assert activated.status_code == 200, activated.text
    assert (activated.json()["devicesCount"], activated.json()["maxDevicesCount"]) == (1, 1)
    renamed = shop.client.patch(
        f"{V1}/licenses/{body['userLicenseId']}/devices/pixel-8-abc", json={"deviceName": "Mina's phone"}, headers=owner
    )
    assert renamed.status_code == 200, renamed.text
    detail = shop.client.get(f"{V1}/licenses/mine/{body['userLicenseId']}", headers=owner).json()
    assert [d["registrationData"]["deviceName"] for d in detail["devices"]] == ["Mina's phone"]
    assert [p["merchantUid"] for p in detail["payments"]] == [order["merchantUid"]]
    # Its one device slot is taken; a bigger plan of the same product exists.
    assert detail["allowedActions"] == ["renameDevice", "removeDevice", "upgrade"]
    history = shop.client.get(f"{V1}/payments/licenses", headers=owner).json()
    assert history[0]["amount"] == 24360
    assert history[0]["originalAmount"] == 34800
    assert history[0]["discountRate"] == "0.3"
    assert history[0]["discountFactors"] == [{"type": "base", "factor": "0.3"}]
    assert history[0]["cardNumber"] and "4111" not in history[0]["cardNumber"][6:]


def test_one_customer_never_sees_or_touches_anothers_licence_or_payment(shop: Shop) -> None:
    buyer = shop.account("buyer@example.com")
    order = shop.order(buyer)
    body = shop.confirm(order, shop.pay(order), buyer).json()
    stranger = shop.account("stranger@example.com")
    assert shop.client.get(f"{V1}/licenses/mine/{body['userLicenseId']}", headers=stranger).status_code == 404
    assert shop.client.get(f"{V1}/payments/licenses/{order['merchantUid']}", headers=stranger).status_code == 404
    assert shop.client.get(f"{V1}/licenses/mine", headers=stranger).json() == []
    assert shop.confirm(order, "imp_000000000000", stranger).status_code == 403
    gone = shop.client.delete(f"{V1}/licenses/{body['userLicenseId']}/devices/any", headers=stranger)
    assert gone.status_code == 404
    taken = shop.client.post(f"{V1}/licenses/{body['licenseKey']}/giveme", headers=stranger)
    assert taken.json()["errorCode"] == -105
    again = shop.client.post(f"{V1}/licenses/{body['licenseKey']}/giveme", headers=buyer)
    assert again.json()["errorCode"] == -106


def test_device_rules_answer_with_the_spec_codes(shop: Shop) -> None:
    buyer = shop.account("devices@example.com")
    order = shop.order(buyer)
    body = shop.confirm(order, shop.pay(order), buyer).json()
    activate = f"{V1}/licenses/activate"
    device = {"licenseKey": body["licenseKey"], "deviceId": "d1", "deviceName": "Tab", "platform": "android"}
    assert shop.client.post(activate, json=device).status_code == 200
    assert shop.client.post(activate, json=device).status_code == 200  # the same device again is fine
    assert shop.client.post(activate, json={**device, "deviceId": "d2"}).json()["errorCode"] == -107
    assert shop.client.post(activate, json={**device, "deviceId": "d3", "platform": "ios"}).json()["errorCode"] == -100
    assert shop.client.post(activate, json={**device, "licenseKey": "0000-0000-0000-0000"}).status_code == 404
    assert shop.client.post(activate, json={**device, "platform": "amiga"}).json()["errorCode"] == -2

    device_url = f"{V1}/licenses/{body['userLicenseId']}/devices"
    assert shop.client.patch(f"{device_url}/d1", json={"deviceName": "x" * 60}, headers=buyer).json()["errorCode"] == -2
    assert (
        shop.client.patch(f"{device_url}/nope", json={"deviceName": "New"}, headers=buyer).json()["errorCode"] == -1404
    )
    assert shop.client.delete(f"{device_url}/d1", headers=buyer).status_code == 200
    assert shop.client.delete(f"{device_url}/d1", headers=buyer).json()["errorCode"] == -1404
    assert shop.client.post(activate, json={**device, "deviceId": "d2"}).status_code == 200


def test_the_open_beta_is_once_per_account_and_closes_at_its_end(shop: Shop) -> None:
    tester = shop.account("beta@example.com")
    assert shop.client.post(f"{V1}/licenses/open-beta", headers=tester).status_code == 200
    assert shop.client.post(f"{V1}/licenses/open-beta", headers=tester).json()["errorCode"] == -114
    late = shop.account("late@example.com")
    ends = shop.services.settings.open_beta_ends_at
    shop.clock.advance(ends - shop.clock() + timedelta(seconds=1))
    refreshed = shop.client.post(f"{V1}/auth/login", json={"email": "late@example.com", "pw": "abcd1234"})
    late = {"Authorization": f"Bearer {refreshed.json()['accessToken']}"}
    ended = shop.client.post(f"{V1}/licenses/open-beta", headers=late)
    assert (ended.status_code, ended.json()["errorCode"]) == (410, -1002)


def test_a_virtual_account_purchase_is_reserved_then_paid_through_the_webhook(shop: Shop) -> None:
    buyer = shop.account("vbank@example.com")
    order = shop.order(buyer, paymentMethod="virtualAccount")
    imp_uid = shop.pay(order)
    reserved = shop.confirm(order, imp_uid, buyer).json()
    assert reserved["state"] == "reserved"
    assert reserved["vbank"]["vbankNum"]
    record = shop.client.get(f"{V1}/payments/licenses/{order['merchantUid']}", headers=buyer).json()
    assert record["status"] == "reserved"
    assert record["vbankNum"] == reserved["vbank"]["vbankNum"]

    assert shop.sandbox.deposit(imp_uid).status_code == 200
    hook = {"imp_uid": imp_uid, "merchant_uid": order["merchantUid"], "status": "paid"}
    assert shop.client.post(f"{V1}/payments/webhook", json=hook).json() == {"ok": True}
    assert shop.client.post(f"{V1}/payments/webhook", json=hook).json() == {"ok": True}  # deliveries repeat
    shop.services.see_latest_write("licences", "payments")
    licence = shop.client.get(f"{V1}/licenses/mine/{reserved['userLicenseId']}", headers=buyer).json()
    assert licence["state"] == "active"
    assert shop.client.get(f"{V1}/payments/licenses/{order['merchantUid']}", headers=buyer).json()["status"] == "paid"


def test_bad_purchase_input_gets_the_spec_codes_and_never_a_500(shop: Shop) -> None:
    new = f"{V1}/payments/licenses/new"
    base = {"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard"}
    assert shop.client.post(new, json=base).json()["errorCode"] == -1  # a guest without an email
    assert shop.client.post(new, json={**base, "email": "nope"}).json()["errorCode"] == -2
    assert shop.client.post(new, json={**base, "email": "a@b.co", "licenseId": 1}).json()["errorCode"] == -302
    assert shop.client.post(new, json={**base, "email": "a@b.co", "paymentMethod": "gold"}).json()["errorCode"] == -2
    confirm = f"{V1}/payments/licenses/new/confirm"
    assert shop.client.post(confirm, json={"impUid": "imp_1", "merchantUid": "nope"}).status_code == 404
    order = shop.order(email="declined@example.com")
    declined = shop.confirm(order, shop.pay(order, card_number="4111111111110002"))
    assert declined.json()["errorCode"] == -300


def test_twenty_concurrent_confirm_requests_make_exactly_one_licence(shop: Shop) -> None:
    order = shop.order(email="racer@example.com")
    imp_uid = shop.pay(order)
    app = shop.client.app

    def confirm(_: int) -> tuple[int, str, bool]:
        with TestClient(app) as client:
            answer = client.post(
                f"{V1}/payments/licenses/new/confirm", json={"impUid": imp_uid, "merchantUid": order["merchantUid"]}
            )
            body = answer.json()
            return answer.status_code, body.get("userLicenseId", ""), body.get("accountCreated", False)

    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(confirm, range(20)))
    assert {status for status, _, _ in answers} == {200}
    assert len({licence for _, licence, _ in answers}) == 1
    assert {created for _, _, created in answers} == {True}, "every racer answers what the winner recorded"
    grants = [
        n
        for n in shop.services.store.recorder.select_notifications(start=1, limit=1000)
        if n.topic == "licence.Granted"
    ]
    assert len(grants) == 1


@pytest.mark.parametrize("gateway_kind", [Forgetful])
def test_a_payment_of_another_amount_is_refused_over_http_and_cancelled_at_the_gateway(shop: Shop) -> None:
    order = shop.order(email="tamper@example.com")
    imp_uid = shop.pay(order, amount=1000)
    refused = shop.confirm(order, imp_uid)
    assert (refused.status_code, refused.json()["errorCode"]) == (409, -301)
    assert shop.services.payments.get_payment(imp_uid).status.value == "cancelled"
    assert shop.confirm(order, imp_uid).json()["errorCode"] == -301


def test_a_confirm_that_loses_the_race_to_the_webhook_still_says_the_purchase_created_the_account(shop: Shop) -> None:
    order = shop.order(email="late-browser@example.com")
    imp_uid = shop.pay(order)
    webhook = shop.client.post(
        f"{V1}/payments/webhook", json={"imp_uid": imp_uid, "merchant_uid": order["merchantUid"], "status": "paid"}
    )
    assert webhook.json() == {"ok": True}
    confirmed = shop.confirm(order, imp_uid)
    assert confirmed.status_code == 200, confirmed.text
    assert (confirmed.json()["state"], confirmed.json()["accountCreated"]) == ("paid", True)


def test_an_order_placed_by_an_account_is_confirmed_by_that_account_only(shop: Shop) -> None:
    buyer = shop.account("buyer@example.com")
    stranger = shop.account("stranger@example.com")
    order = shop.order(buyer)
    imp_uid = shop.pay(order)
    assert shop.confirm(order, imp_uid, stranger).status_code == 403
    assert shop.confirm(order, imp_uid).status_code == 403  # nor by someone without a token
    mine = shop.confirm(order, imp_uid, buyer)
    assert (mine.status_code, mine.json()["accountCreated"]) == (200, False)


def test_registering_from_a_licence_link_takes_the_licence_with_the_account(shop: Shop) -> None:
    order = shop.order(email="gift@example.com", licenseId=131)
    bought = shop.confirm(order, shop.pay(order)).json()
    registered = shop.client.post(
        f"{V1}/accounts",
        params={"userLicenseKey": bought["licenseKey"]},
        json={"email": "friend@example.com", "pw": "abcd1234", "language": "en"},
    )
    assert registered.status_code == 200, registered.text
    confirm_address(shop.client, shop.services, registered.json()["userId"], "friend@example.com")
    login = shop.client.post(f"{V1}/auth/login", json={"email": "friend@example.com", "pw": "abcd1234"})
    headers = {"Authorization": f"Bearer {login.json()['accessToken']}"}
    mine = shop.client.get(f"{V1}/licenses/mine", headers=headers).json()
    assert [licence["id"] for licence in mine] == [bought["userLicenseId"]]
    topics = [n.topic for n in shop.services.store.recorder.select_notifications(start=1, limit=1000)]
    transferred_at = topics.index("licence.Transferred")  # saved with the new account, in one transaction
    assert topics[transferred_at - 2 : transferred_at] == ["account.Registered", "account.EmailClaimed"]

    again = shop.client.post(
        f"{V1}/accounts",
        params={"userLicenseKey": bought["licenseKey"]},
        json={"email": "friend@example.com", "pw": "abcd1234", "language": "en"},
    )
    assert again.json()["errorCode"] == -402
    unknown = shop.client.post(
        f"{V1}/accounts",
        params={"userLicenseKey": "NOPE-NOPE-NOPE-NOPE"},
        json={"email": "nokey@example.com", "pw": "abcd1234", "language": "en"},
    )
    assert unknown.status_code == 200  # registered all the same; the licence page tells what is wrong with a key
    topics = [n.topic for n in shop.services.store.recorder.select_notifications(start=1, limit=1000)]
    assert topics.count("licence.Transferred") == 1

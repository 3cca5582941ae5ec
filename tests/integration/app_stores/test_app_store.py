"""A customer buys the iOS app's annual plan in the App Store; the App Store's stand-in signs as Apple does, our
adapters verify it to the stand-in's root over real HTTP, and Apple's notifications keep the licence as Apple has
it: renewed, in a grace period, expired, refunded (the licence revoked within seconds), a duplicate taken once, and
forged ones (another key, an altered payload, a replay outside the signing window) refused with nothing applied."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta

import jwt

from application.app_stores import reconcile_stores
from integrations.app_store.keys import StandInKeys
from tests.integration.app_stores.conftest import StoreDesk
from tests.support import register_confirmed


def linked(desk: StoreDesk, bought: dict[str, object]) -> dict[str, object]:
    answer = desk.call(
        "POST", "/app-stores/app-store/purchases", json={"signedTransaction": bought["signedTransaction"]}
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, object] = answer.json()
    return found


def moment(value: object) -> datetime:
    return datetime.fromisoformat(str(value))


def test_an_app_store_subscription_lives_on_the_web_as_apple_has_it(desk: StoreDesk) -> None:
    bought = desk.buy_in_app_store()
    original = str(bought["originalTransactionId"])

    # The app sends the signed transaction: verified, recorded as a payment of ours and linked to a licence.
    licence = linked(desk, bought)
    assert licence["store"] == "app-store" and licence["originalTransactionId"] == original
    assert licence["state"] == "active"
    assert moment(licence["expiresAt"]) == desk.clock() + timedelta(days=365)
    key, user_licence_id = str(licence["licenseKey"]), str(licence["userLicenseId"])
    assert linked(desk, bought)["userLicenseId"] == user_licence_id, "linking again finds the same licence"

    # The web shows it with upgrade disabled; its payment is Apple's.
    detail = desk.licence(user_licence_id)
    assert detail["isDisableUpgrade"] is True
    assert "upgrade" not in detail["allowedActions"]
    [payment] = detail["payments"]
    assert payment["payMethod"] == "app-store" and payment["appleTransactionId"] == original
    assert payment["amount"] == 34800 and payment["currency"] == "KRW"

    # The app validates and activates it as a web licence.
    assert desk.validate(key, "ios") == "notActivated"
    assert desk.activate(key, "ios") == "valid"
    assert desk.validate(key, "ios") == "valid"

    # Apple's SUBSCRIBED notification changes nothing more; the same notification again is taken once.
    assert desk.apple_sends(str(bought["signedPayload"])).json() == {"outcome": "applied"}
    assert desk.apple_sends(str(bought["signedPayload"])).json() == {"outcome": "duplicate"}

    # A year later Apple renews it: a second payment, the licence runs another year.
    desk.later(days=364)
    renewed = desk.in_app_store(original, "renew")
    assert desk.apple_sends(str(renewed["signedPayload"])).json() == {"outcome": "applied"}
    detail = desk.licence(user_licence_id)
    assert len(detail["payments"]) == 2
    assert moment(detail["expiresAt"]) > desk.clock() + timedelta(days=360)
    first_end = moment(detail["expiresAt"])

    # The next renewal fails: Apple keeps access for a grace period, and so does the licence.
    desk.later(days=366)
    grace = desk.in_app_store(original, "grace")
    assert desk.apple_sends(str(grace["signedPayload"])).json() == {"outcome": "applied"}
    assert moment(desk.licence(user_licence_id)["expiresAt"]) == first_end + timedelta(days=16)
    assert desk.validate(key, "ios") == "valid"

    # Then it expires: the licence ends now, and the app hears it.
    expired = desk.in_app_store(original, "expire")
    assert desk.apple_sends(str(expired["signedPayload"])).json() == {"outcome": "applied"}
    assert moment(desk.licence(user_licence_id)["expiresAt"]) <= desk.clock()
    assert desk.validate(key, "ios") == "expired"
    assert desk.apple_sends(str(expired["signedPayload"])).json() == {"outcome": "duplicate"}


def test_a_refund_in_the_app_store_revokes_the_licence_within_seconds(desk: StoreDesk) -> None:
    bought = desk.buy_in_app_store("unicornpro.pro.ios.lifetime1")
    licence = linked(desk, bought)
    key = str(licence["licenseKey"])
    assert licence["expiresAt"] is not None
    assert desk.activate(key, "ios") == "valid"

    refunded = desk.in_app_store(str(bought["originalTransactionId"]), "refund")
    assert desk.apple_sends(str(refunded["signedPayload"])).json() == {"outcome": "applied"}
    # The notification's answer waited for the views: the very next validation is refused.
    assert desk.validate(key, "ios") == "revoked"
    detail = desk.licence(str(licence["userLicenseId"]))
    assert detail["state"] == "revoked"
    [payment] = detail["payments"]
    assert payment["cancelAmount"] == payment["amount"] == 59000


def forged_with(keys: StandInKeys, signed: str) -> str:
    """The same payload signed with a chain nobody trusts."""
    payload = jwt.decode(signed, options={"verify_signature": False})
    return jwt.encode(payload, keys.leaf_key, algorithm="ES256", headers={"x5c": keys.x5c})


def altered(signed: str, **changes: object) -> str:
    """The payload changed after Apple signed it."""
    header, payload, signature = signed.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims.update(changes)
    body = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{header}.{body}.{signature}"


def test_forged_app_store_notifications_are_refused_and_change_nothing(desk: StoreDesk) -> None:
    bought = desk.buy_in_app_store()
    original = str(bought["originalTransactionId"])
    licence = linked(desk, bought)
    key, user_licence_id = str(licence["licenseKey"]), str(licence["userLicenseId"])
    refund = desk.in_app_store(original, "refund")  # Apple's real refund, delivered late below

    another_chain = StandInKeys.generate("Forger")
    for forged in (
        forged_with(another_chain, str(refund["signedPayload"])),
        altered(str(refund["signedPayload"]), notificationUUID="00000000-0000-0000-0000-000000000001"),
        "not.a.jws",
    ):
        answer = desk.apple_sends(forged)
        assert answer.status_code == 400, answer.text
        assert answer.json()["errorCode"] == -350
    # A forged transaction from the app is refused too.
    answer = desk.call(
        "POST",
        "/app-stores/app-store/purchases",
        json={"signedTransaction": forged_with(another_chain, str(bought["signedTransaction"]))},
    )
    assert answer.status_code == 400 and answer.json()["errorCode"] == -350
    assert desk.validate(key, "ios") == "notActivated"

    # Apple's own notification, replayed five days after it was signed, is outside its window.
    desk.later(days=5)
    answer = desk.apple_sends(str(refund["signedPayload"]))
    assert answer.status_code == 400 and answer.json()["errorCode"] == -350
    assert desk.licence(user_licence_id)["isDisableUpgrade"] is True
    assert desk.validate(key, "ios") == "notActivated", "nothing forged or replayed was applied"


def test_another_account_cannot_take_an_app_store_purchase(desk: StoreDesk) -> None:
    bought = desk.buy_in_app_store(appAccountToken=None)
    linked(desk, bought)
    register_confirmed(desk.client, desk.services, "someone-else@example.com", "abcd1234")
    answer = desk.call(
        "POST",
        "/app-stores/app-store/purchases",
        as_email="someone-else@example.com",
        json={"signedTransaction": bought["signedTransaction"]},
    )
    assert answer.status_code == 409 and answer.json()["errorCode"] == -351


def test_reconciliation_finds_an_app_store_renewal_whose_notification_was_lost(desk: StoreDesk) -> None:
    bought = desk.buy_in_app_store("unicornpro.pro.ios.monthly1")
    original = str(bought["originalTransactionId"])
    licence = linked(desk, bought)
    user_licence_id = str(licence["userLicenseId"])
    first_end = moment(licence["expiresAt"])

    desk.later(days=30)
    desk.in_app_store(original, "renew", notify=False)  # Apple renews it; its notification never arrives
    desk.later(hours=2)
    services = desk.services  # beat's hourly pass
    done = reconcile_stores(services.store, services.views, services.clock, services.catalogue, services.stores)
    assert done.found == [original] and done.unanswered == []
    assert services.see_latest_write("licences", "payments", "app_stores")
    detail = desk.licence(user_licence_id)
    assert len(detail["payments"]) == 2
    assert moment(detail["expiresAt"]) == first_end + timedelta(days=30)
    again = reconcile_stores(services.store, services.views, services.clock, services.catalogue, services.stores)
    assert again.asked == 0, "a subscription heard of is not asked about again"

"""A customer buys the Android app's monthly plan in Google Play; the app sends its purchase token, our adapter looks
it up with the Play stand-in over real HTTP (a service account's token from the stand-in's OAuth endpoint), and
Google's Real-time Developer Notifications, pushed as Pub/Sub pushes them with an OIDC token, keep the licence as
Google has it: renewed, in a grace period, on hold, expired, refunded (voided: revoked within seconds), a duplicate
taken once, and forged pushes (another key, an altered payload, a token replayed after it expired) refused."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta
from typing import Any

import jwt

from application.app_stores import reconcile_stores
from integrations.google_play.keys import PUSH_ACCOUNT, StandInKeys
from integrations.google_play.standin import GOOGLE_ISSUER
from tests.integration.app_stores.conftest import AUDIENCE, StoreDesk


def linked(desk: StoreDesk, bought: dict[str, Any], product: str = "unicornpro.pro.android.monthly1") -> dict[str, Any]:
    body = {"productId": product, "purchaseToken": bought["purchaseToken"]}
    answer = desk.call("POST", "/app-stores/google-play/purchases", json=body)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def moment(value: object) -> datetime:
    return datetime.fromisoformat(str(value))


def test_a_google_play_subscription_lives_on_the_web_as_google_has_it(desk: StoreDesk) -> None:
    bought = desk.buy_in_google_play()
    token = str(bought["purchaseToken"])
    licence = linked(desk, bought)
    assert licence["store"] == "google-play" and licence["originalTransactionId"] == bought["orderId"]
    assert moment(licence["expiresAt"]) == desk.clock() + timedelta(days=30)
    key, user_licence_id = str(licence["licenseKey"]), str(licence["userLicenseId"])

    detail = desk.licence(user_licence_id)
    assert detail["isDisableUpgrade"] is True and "upgrade" not in detail["allowedActions"]
    [payment] = detail["payments"]
    assert payment["payMethod"] == "google-play" and payment["amount"] == 2900
    assert desk.activate(key, "android") == "valid"

    # The purchase's own push, and the same push again (Pub/Sub delivers at least once).
    assert desk.google_pushes(bought).json() == {"outcome": "applied"}
    assert desk.google_pushes(bought).json() == {"outcome": "duplicate"}

    # Renewed a month later.
    desk.later(days=29)
    renewed = desk.in_google_play(token, "renew")
    assert desk.google_pushes(renewed).json() == {"outcome": "applied"}
    detail = desk.licence(user_licence_id)
    assert len(detail["payments"]) == 2
    paid_until = moment(detail["expiresAt"])
    assert paid_until == moment(licence["expiresAt"]) + timedelta(days=30)

    # The next charge fails: a grace period keeps the licence, then Google puts it on hold.
    desk.later(days=31)
    grace = desk.in_google_play(token, "grace")
    assert desk.google_pushes(grace).json() == {"outcome": "applied"}
    assert moment(desk.licence(user_licence_id)["expiresAt"]) == paid_until + timedelta(days=7)
    assert desk.validate(key, "android") == "valid"
    held = desk.in_google_play(token, "hold")
    assert desk.google_pushes(held).json() == {"outcome": "applied"}
    assert desk.validate(key, "android") == "expired"

    # It expires for good.
    expired = desk.in_google_play(token, "expire")
    assert desk.google_pushes(expired).json() == {"outcome": "applied"}
    assert desk.validate(key, "android") == "expired"


def test_a_voided_google_play_purchase_revokes_the_licence_within_seconds(desk: StoreDesk) -> None:
    bought = desk.buy_in_google_play()
    licence = linked(desk, bought)
    key = str(licence["licenseKey"])
    assert desk.activate(key, "android") == "valid"

    voided = desk.in_google_play(str(bought["purchaseToken"]), "refund")
    assert desk.google_pushes(voided).json() == {"outcome": "applied"}
    assert desk.validate(key, "android") == "revoked"
    detail = desk.licence(str(licence["userLicenseId"]))
    assert detail["state"] == "revoked"
    assert detail["payments"][0]["cancelAmount"] == 2900


def token_signed_by(keys: StandInKeys, now: datetime) -> str:
    claims = {
        "iss": GOOGLE_ISSUER,
        "aud": AUDIENCE,
        "email": PUSH_ACCOUNT,
        "email_verified": True,
        "iat": int(now.timestamp()),
        "exp": int((now + timedelta(hours=1)).timestamp()),
    }
    return jwt.encode(claims, keys.push_key, algorithm="RS256", headers={"kid": "standin-push-1"})


def with_data(pushed: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The push with its notification changed in transit."""
    message = pushed["push"]["message"]
    data = json.loads(base64.b64decode(message["data"]))
    data["subscriptionNotification"].update(changes)
    encoded = base64.b64encode(json.dumps(data).encode()).decode()
    changed = {**message, "data": encoded, "messageId": "forged-1", "message_id": "forged-1"}
    return {**pushed, "push": {**pushed["push"], "message": changed}}


def test_forged_google_play_pushes_are_refused_and_change_nothing(desk: StoreDesk) -> None:
    bought = desk.buy_in_google_play()
    licence = linked(desk, bought)
    key = str(licence["licenseKey"])
    revoked = desk.in_google_play(str(bought["purchaseToken"]), "revoke")  # Google's own push, delivered late below

    # A token signed by a key Google never published; none at all.
    forger = StandInKeys.generate()
    for authorization in (f"Bearer {token_signed_by(forger, desk.clock())}", "Bearer nonsense", ""):
        answer = desk.google_pushes(revoked, authorization=authorization or "Basic x")
        assert answer.status_code == 401, answer.text
    # The payload altered in transit: a purchase Google does not know.
    answer = desk.google_pushes(with_data(revoked, purchaseToken="made-up-token"))
    assert answer.status_code == 400 and answer.json()["errorCode"] == -350
    # A forged purchase token from an app.
    answer = desk.call(
        "POST",
        "/app-stores/google-play/purchases",
        json={"productId": "unicornpro.pro.android.monthly1", "purchaseToken": "made-up-token"},
    )
    assert answer.status_code == 400 and answer.json()["errorCode"] == -350

    # Google's own push, replayed two hours later: its token has expired.
    desk.later(hours=2)
    answer = desk.google_pushes(revoked)
    assert answer.status_code == 401
    assert desk.validate(key, "android") == "notActivated", "nothing forged or replayed was applied"


def test_reconciliation_finds_a_google_play_renewal_whose_notification_was_lost(desk: StoreDesk) -> None:
    bought = desk.buy_in_google_play()
    licence = linked(desk, bought)
    first_end = moment(licence["expiresAt"])

    desk.later(days=30)
    desk.in_google_play(str(bought["purchaseToken"]), "renew")  # the push is never delivered
    desk.later(hours=2)
    services = desk.services
    done = reconcile_stores(services.store, services.views, services.clock, services.catalogue, services.stores)
    assert done.found == [bought["orderId"]]
    assert services.see_latest_write("licences", "payments", "app_stores")
    detail = desk.licence(str(licence["userLicenseId"]))
    assert len(detail["payments"]) == 2
    assert moment(detail["expiresAt"]) > first_end + timedelta(days=29)

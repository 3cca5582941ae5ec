"""An app's life with a licence, over HTTP on each store: seats taken and given back, refused when full, and the
licence's answer when it is refunded or runs out."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import jwt
import pytest
from jwt import PyJWK

from api.ratelimit import VALIDATION_PER_CLIENT, VALIDATION_PER_KEY
from api.routers.apps import answer_from_the_log
from api.schemas.apps import DeviceCheckIn
from domain.catalogue.licences import load_catalogue
from domain.licences.granting import new_licence
from domain.licences.keys import new_licence_key
from domain.licences.licence import LicenceTerms, UserLicence
from events.licences import DeviceSeen, LicenceFlagged
from tests.integration.audit.test_independent_verifier import check_with_go
from tests.security.shop import PASSWORD, V1, Shop, shop
from verifier import licence_verifier
from workers.tasks.licences import sweep_idle_devices

__all__ = ["shop"]

pytestmark = pytest.mark.integration

APPS = "/apps/v1/licence"
MONTHLY_3 = 113  # Unicorn Pro for Android, 30 days, 3 devices
ANNUAL_3 = 123  # the same for 365 days
ANNUAL = 121  # 365 days, 1 device


def a_licence(shop: Shop, licence_id: int = MONTHLY_3, owner: str | None = None) -> UserLicence:
    """A licence sold to someone, as the purchase stories leave it."""
    offered = load_catalogue().get(licence_id)
    assert offered is not None
    licence, index = new_licence(
        account_id=UUID(owner) if owner else uuid4(),
        terms=LicenceTerms.of(offered, "Unicorn Pro"),
        merchant_uid=f"m-{uuid4().hex[:12]}",
        at=shop.clock.now(),
    )
    shop.services.store.save(licence, index)
    return licence


def call(shop: Shop, action: str, key: str, device: str, **extra: str) -> Any:
    body = {"licenceKey": key, "deviceId": device, "platform": "android", **extra}
    if action == "activate":
        body.setdefault("deviceName", f"Phone {device}")
    if action == "deactivate":
        body.pop("platform")
    return shop.via_proxy("198.51.100.7", "POST", f"{APPS}/{action}", json=body)


def status(shop: Shop, key: str, device: str, **extra: str) -> str:
    answer = call(shop, "validate", key, device, **extra)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["status"])


def status_within_seconds(shop: Shop, key: str, device: str, expected: str) -> str:
    """The answer once it is ``expected``, or the last one after 5 s: a change made elsewhere (a refund by a
    worker) reaches the app API's answers as soon as the licences view has it."""
    deadline = time.monotonic() + 5
    answer = status(shop, key, device)
    while answer != expected and time.monotonic() < deadline:
        time.sleep(0.02)
        answer = status(shop, key, device)
    return answer


def test_three_seats_a_fourth_refused_then_let_in_when_one_app_gives_its_seat_back(shop: Shop) -> None:
    key = a_licence(shop).licence_key
    assert status(shop, key, "phone-1") == "notActivated"
    for device in ("phone-1", "phone-2", "phone-3"):
        taken = call(shop, "activate", key, device)
        assert taken.status_code == 200, taken.text
        assert taken.json()["valid"] is True
    assert taken.json()["devicesCount"] == 3
    assert status(shop, key, "phone-4") == "noFreeSeat"
    refused = call(shop, "activate", key, "phone-4")
    assert refused.json()["errorCode"] == -107

    given_back = call(shop, "deactivate", key, "phone-2")
    assert given_back.status_code == 200, given_back.text
    assert given_back.json()["devicesCount"] == 2
    assert status(shop, key, "phone-2") == "deviceReleased"
    assert call(shop, "deactivate", key, "phone-2").json()["errorCode"] == -1404
    assert call(shop, "activate", key, "phone-4").status_code == 200
    assert status(shop, key, "phone-4") == "valid"


def test_validation_records_a_device_as_seen_at_most_once_a_day(shop: Shop) -> None:
    licence = a_licence(shop)
    call(shop, "activate", licence.licence_key, "tablet")
    position = shop.services.store.max_notification_id()
    assert [status(shop, licence.licence_key, "tablet") for _ in range(3)] == ["valid"] * 3
    assert shop.services.store.max_notification_id() == position, "validating wrote nothing"
    shop.clock.advance(timedelta(days=1, minutes=1))
    beat = call(shop, "heartbeat", licence.licence_key, "tablet")
    assert beat.json()["lastSeenAt"].startswith(shop.clock.now().isoformat()[:16])
    events = shop.services.store.repository.get(licence.id).version
    assert events == licence.version + 2, "activated, then seen once"
    kinds = [type(e) for e in shop.services.store.events.get(licence.id)]  # type: ignore[attr-defined]
    assert kinds[-1] is DeviceSeen


def test_unknown_keys_other_platforms_refunds_and_expiry_are_told_apart(shop: Shop) -> None:
    licence = a_licence(shop)
    key = licence.licence_key
    call(shop, "activate", key, "phone-1")
    assert status(shop, "ABCD-EFGH-JKMN-PQRS", "phone-1") == "unknown"
    assert status(shop, key, "phone-1", platform="ios") == "otherPlatform"
    assert call(shop, "validate", key, "phone-1", platform="amiga").json()["errorCode"] == -2

    refunded = a_licence(shop)
    call(shop, "activate", refunded.licence_key, "phone-1")
    held: UserLicence = shop.services.store.repository.get(refunded.id)
    held.revoke("customer asked", shop.clock.now())
    shop.services.store.save(held)
    assert status_within_seconds(shop, refunded.licence_key, "phone-1", "revoked") == "revoked"

    shop.clock.advance(timedelta(days=31))
    assert status(shop, key, "phone-1") == "expired"
    assert call(shop, "activate", key, "phone-2").json()["errorCode"] == -100


def devices_on_the_page(shop: Shop, email: str, licence: UserLicence, count: int) -> list[Any]:
    """The licence page's devices as the customer, logged in now, sees them once the view shows ``count``."""
    login = shop.via_proxy("192.0.2.200", "POST", "/auth/login", json={"email": email, "pw": PASSWORD})
    headers = {"Authorization": f"Bearer {login.json()['accessToken']}"}
    for _ in range(200):
        page = shop.proxy.get(f"{V1}/licenses/mine/{licence.id}", headers=headers)
        assert page.status_code == 200, page.text
        devices: list[Any] = page.json()["devices"]
        if len(devices) == count:
            return devices
        time.sleep(0.05)
    raise AssertionError(f"the page never showed {count} devices: {devices}")


def test_a_device_silent_for_31_days_is_released_by_the_pass_and_its_seat_goes_to_a_new_one(shop: Shop) -> None:
    customer = shop.customer("seats@example.com")
    licence = a_licence(shop, ANNUAL_3, owner=customer["id"])
    key = licence.licence_key
    for device in ("phone-1", "phone-2", "phone-3"):
        assert call(shop, "activate", key, device).status_code == 200
    shown = devices_on_the_page(shop, "seats@example.com", licence, 3)
    assert {(d["id"], d["platform"], d["lastSeenAt"][:10]) for d in shown} == {
        (device, "android", "2026-11-01") for device in ("phone-1", "phone-2", "phone-3")
    }
    for day in range(1, 32):  # two of the apps check in every day; phone-3 was lost
        shop.clock.advance(timedelta(days=1))
        for device in ("phone-1", "phone-2"):
            assert call(shop, "heartbeat", key, device).json()["status"] == "valid"
        if day == 15:
            assert sweep_idle_devices(shop.services) == {}
    assert call(shop, "activate", key, "phone-4").json()["errorCode"] == -107

    shop.services.see_latest_write("licences")
    assert sweep_idle_devices(shop.services) == {str(licence.id): ["phone-3"]}
    assert sweep_idle_devices(shop.services) == {}, "a second pass releases nothing twice"
    assert status(shop, key, "phone-3") == "deviceReleased"
    assert call(shop, "activate", key, "phone-4").status_code == 200
    shown = devices_on_the_page(shop, "seats@example.com", licence, 3)
    assert sorted(d["id"] for d in shown) == ["phone-1", "phone-2", "phone-4"]
    seen = {d["id"]: d["lastSeenAt"][:10] for d in shown}
    assert seen["phone-1"] == shop.clock.now().date().isoformat()


def test_the_offline_token_verifies_with_the_published_keys_and_proves_the_licence_is_in_the_log(shop: Shop) -> None:
    licence = a_licence(shop, ANNUAL_3)
    audit = shop.services.audit
    audit.sign_checkpoint(shop.clock.now())
    activated = call(shop, "activate", licence.licence_key, "phone-1").json()
    jwks = shop.via_proxy("198.51.100.7", "GET", "/apps/v1/.well-known/jwks.json").json()
    kid = jwt.get_unverified_header(activated["licenceToken"])["kid"]
    key = next(PyJWK(k) for k in jwks["keys"] if k["kid"] == kid)
    # A library we did not write checks the signature; times are the test clock's, so they are checked here.
    claims = jwt.decode(activated["licenceToken"], key, algorithms=["EdDSA"], options={"verify_exp": False})
    assert (claims["licence"], claims["device"], claims["product"]) == (str(licence.id), "phone-1", "uncpa")
    assert claims["entitlements"] == ["basic", "https", "pro", "devices:3"]
    assert claims["paidUntil"] == int((shop.clock.now() + timedelta(days=365)).timestamp())
    assert claims["exp"] - claims["iat"] == claims["graceSeconds"] == 14 * 86400
    assert claims["iat"] == int(shop.clock.now().timestamp())
    assert claims["log"]["current"] is False, "the activation came after the checkpoint: its grant is proven"

    audit.sign_checkpoint(shop.clock.now())
    validated = call(shop, "validate", licence.licence_key, "phone-1").json()
    now = shop.clock.now().timestamp()
    log_key = audit.signer.verifier_key()
    checked = licence_verifier.verify(validated["licenceToken"], jwks, log_key=log_key, now=now)
    assert checked["log"]["current"] is True
    assert json.loads(checked["log"]["record"])["originator_version"] == 2
    with pytest.raises(licence_verifier.TokenRefusedError, match="stale-checkpoint"):
        licence_verifier.verify(
            validated["licenceToken"], jwks, log_key=log_key, now=now, min_tree_size=checked["log"]["size"] + 1
        )
    assert call(shop, "validate", licence.licence_key, "phone-9").json()["licenceToken"] is None

    log = checked["log"]  # the independent Go verifier of the audit tools checks the same note and proof
    proof = {"note": log["checkpoint"], "record": log["record"], "index": log["leafIndex"], "proof": log["proof"]}
    outcomes = check_with_go({"verifier_key": log_key, "inclusions": [{"name": "licence", **proof}], "consistency": []})
    assert outcomes == {"licence": "ok"}


def test_a_key_activated_on_many_devices_in_a_week_is_flagged_for_support_and_keeps_working(shop: Shop) -> None:
    licence = a_licence(shop, ANNUAL)  # one seat: a fourth distinct device within 7 days is one too many
    for device in ("d1", "d2", "d3", "d4", "d5"):
        assert call(shop, "activate", licence.licence_key, device).status_code == 200
        assert call(shop, "deactivate", licence.licence_key, device).status_code == 200
    history = list(shop.services.store.events.get(licence.id))  # type: ignore[attr-defined]
    flags = [event for event in history if isinstance(event, LicenceFlagged)]
    assert [(flag.distinct_devices, flag.window_days) for flag in flags] == [(4, 7)], "flagged once in the window"
    assert status(shop, licence.licence_key, "d5") == "deviceReleased", "nothing was blocked"


def test_validation_is_limited_per_key_and_per_client(shop: Shop) -> None:
    key = new_licence_key()
    body = {"licenceKey": key, "deviceId": "phone-1", "platform": "android"}
    crowd = [f"198.18.{n // 250}.{n % 250 + 1}" for n in range(VALIDATION_PER_KEY.amount + 1)]
    per_key = [shop.via_proxy(client, "POST", f"{APPS}/validate", json=body).status_code for client in crowd]
    assert per_key == [200] * VALIDATION_PER_KEY.amount + [429]
    one_client = [
        shop.via_proxy("203.0.113.50", "POST", f"{APPS}/validate", json={**body, "licenceKey": new_licence_key()})
        for _ in range(VALIDATION_PER_CLIENT.amount + 1)
    ]
    assert [answer.status_code for answer in one_client][-2:] == [200, 429]
    assert one_client[-1].json()["errorCode"] == -4


def test_a_seated_device_is_answered_from_the_licences_view_exactly_as_the_log_would_answer(
    shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    licence = a_licence(shop, ANNUAL_3)
    shop.services.audit.sign_checkpoint(shop.clock.now())
    call(shop, "activate", licence.licence_key, "phone-1")
    call(shop, "activate", licence.licence_key, "phone-2")
    shop.services.see_latest_write("licences")

    loads: list[object] = []
    repository = shop.services.store.repository
    real_get = repository.get
    monkeypatch.setattr(repository, "get", lambda *a, **k: loads.append(a) or real_get(*a, **k))
    from_the_view = call(shop, "validate", licence.licence_key, "phone-1").json()
    assert loads == [], "the hot call loaded no aggregate from the log"

    # What the log says of the same licence at the same moment, through the use case the view stands in for:
    # the same answer, token and all (Ed25519 signs deterministically; the clock has not moved).
    from_the_log = answer_from_the_log(
        DeviceCheckIn(licence_key=licence.licence_key, device_id="phone-1", platform="android"), shop.services
    )
    assert from_the_view == from_the_log.model_dump(mode="json", by_alias=True)
    assert jwt.decode(from_the_view["licenceToken"], options={"verify_signature": False})["log"]["current"] is False

    held: UserLicence = real_get(licence.id)
    with shop.services.views.read() as cursor:
        cursor.execute("SELECT version FROM licences_view WHERE user_licence_id = %(id)s", {"id": str(licence.id)})
        row = cursor.fetchone()
    assert row is not None and row["version"] == held.version == 3, "every event of the licence moved the view's"

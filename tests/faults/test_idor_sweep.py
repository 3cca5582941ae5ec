"""Another customer's ids get another customer nothing: an IDOR sweep over every bearer operation.

A customer (the owner) holds a subscription with a billing key and a device, a key issued in a PG
window, and a paid order not yet confirmed. A second customer (the intruder) calls every bearer
operation of the OpenAPI document that names an account, licence, licence key, device, payment or
billing key, with the owner's ids and otherwise valid requests. Every call is refused, nothing the
owner holds changes, no answer shows the owner's data, and the intruder's own lists stay empty. An
operation the sweep does not know yet still gets swept with generated requests naming the owner's ids;
the sweep prints which ones, so new ones get a valid request here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from schemathesis import Case
from schemathesis.openapi import from_asgi

from tests.integration.purchases.desk import GOOD_CARD, SUBSCRIBER, V1, Desk

pytestmark = pytest.mark.integration

INTRUDER = "intruder@example.com"
# Inputs that name something a customer holds, by the name the API gives them.
OWNED_INPUTS = {
    "account_id", "user_license_id", "license_key", "device_id", "merchant_uid", "billingkey_id",
    "userLicenseId", "licenseKey", "merchantUid", "impUid", "billingkeyId", "customerUid",
}  # fmt: skip


@dataclass(frozen=True)
class Owned:
    """The owner's ids, as path parameters and body fields name them."""

    account_id: str
    user_license_id: int
    license_key: str
    device_id: str
    merchant_uid: str
    billingkey_id: str
    window_customer_uid: str
    pending_merchant_uid: str
    pending_imp_uid: str


def sweep_requests(owned: Owned, card: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One valid request per operation, naming the owner's ids (by operation label)."""
    licence = owned.user_license_id
    return {
        f"POST {V1}/accounts/{{account_id}}/please-one-more-confirm-email": {
            "path": f"/accounts/{owned.account_id}/please-one-more-confirm-email"
        },
        f"GET {V1}/licenses/mine/{{user_license_id}}": {"path": f"/licenses/mine/{licence}"},
        f"PATCH {V1}/licenses/{{user_license_id}}/devices/{{device_id}}": {
            "path": f"/licenses/{licence}/devices/{owned.device_id}",
            "json": {"deviceName": "Mine now"},
        },
        f"DELETE {V1}/licenses/{{user_license_id}}/devices/{{device_id}}": {
            "path": f"/licenses/{licence}/devices/{owned.device_id}"
        },
        f"POST {V1}/licenses/{{license_key}}/giveme": {"path": f"/licenses/{owned.license_key}/giveme"},
        f"POST {V1}/payments/licenses/new/confirm": {
            "path": "/payments/licenses/new/confirm",
            "params": {"localeCode": "ko"},
            "json": {"impUid": owned.pending_imp_uid, "merchantUid": owned.pending_merchant_uid},
        },
        f"GET {V1}/payments/licenses/{{merchant_uid}}": {"path": f"/payments/licenses/{owned.merchant_uid}"},
        f"POST {V1}/payments/licenses/{{merchant_uid}}/money-back": {
            "path": f"/payments/licenses/{owned.merchant_uid}/money-back"
        },
        f"PUT {V1}/billingkeys": {"path": "/billingkeys", "json": {"customerUid": owned.window_customer_uid}},
        f"GET {V1}/billingkeys/customerUid/{{billingkey_id}}": {
            "path": f"/billingkeys/customerUid/{owned.billingkey_id}"
        },
        f"PUT {V1}/billingkeys/{{billingkey_id}}": {"path": f"/billingkeys/{owned.billingkey_id}"},
        f"POST {V1}/payments/licenses/subscribe/new": {
            "path": "/payments/licenses/subscribe/new",
            "json": {"licenseId": 111, "countryCode": "KR", "billingkeyId": owned.billingkey_id},
        },
        # The typed card is what pays here; the billingkeyId this body shares with subscribe/new is ignored.
        f"POST {V1}/payments/licenses/subscribe/new/new-billingkey": {
            "path": "/payments/licenses/subscribe/new/new-billingkey",
            "json": {"licenseId": 111, "countryCode": "KR", "billingkeyId": owned.billingkey_id, "card": card},
            "intruders_own": True,
        },
        f"POST {V1}/payments/licenses/subscribe/new/new-billingkey/redirect": {
            "path": "/payments/licenses/subscribe/new/new-billingkey/redirect",
            "json": {"customerUid": owned.window_customer_uid, "licenseId": 111, "countryCode": "KR"},
        },
        f"GET {V1}/payments/licenses/subscribe/{{user_license_id}}": {
            "path": f"/payments/licenses/subscribe/{licence}"
        },
        f"DELETE {V1}/payments/licenses/subscribe/{{user_license_id}}": {
            "path": f"/payments/licenses/subscribe/{licence}"
        },
        f"POST {V1}/payments/licenses/re-subscribe/{{user_license_id}}": {
            "path": f"/payments/licenses/re-subscribe/{licence}",
            "json": {"billingkeyId": owned.billingkey_id},
        },
        f"POST {V1}/payments/licenses/re-subscribe/{{user_license_id}}/new-billingkey": {
            "path": f"/payments/licenses/re-subscribe/{licence}/new-billingkey",
            "json": card,
        },
        f"POST {V1}/payments/licenses/re-subscribe/new-billingkey/redirect": {
            "path": "/payments/licenses/re-subscribe/new-billingkey/redirect",
            "json": {"customerUid": owned.window_customer_uid, "userLicenseId": licence},
        },
        f"POST {V1}/payments/licenses/subscribe/{{user_license_id}}/pay": {
            "path": f"/payments/licenses/subscribe/{licence}/pay"
        },
        f"PUT {V1}/payments/licenses/subscribe/{{user_license_id}}/billingkey": {
            "path": f"/payments/licenses/subscribe/{licence}/billingkey",
            "json": {"billingkeyId": owned.billingkey_id},
        },
        f"GET {V1}/payments/licenses/subscribe/{{user_license_id}}/exit": {
            "path": f"/payments/licenses/subscribe/{licence}/exit"
        },
        f"POST {V1}/payments/licenses/subscribe/{{user_license_id}}/exit": {
            "path": f"/payments/licenses/subscribe/{licence}/exit",
            "json": {"reasons": ["other"], "comment": "", "offerDeclined": True},
        },
        f"POST {V1}/payments/licenses/subscribe/{{user_license_id}}/exit/offer": {
            "path": f"/payments/licenses/subscribe/{licence}/exit/offer",
            "json": {"reasons": [], "comment": ""},
        },
    }


def property_names(schema: dict[str, Any], components: dict[str, Any]) -> set[str]:
    """Every property a request body may carry, through references and unions."""
    if "$ref" in schema:
        return property_names(components[schema["$ref"].rsplit("/", 1)[1]], components)
    names = set(schema.get("properties", {}))
    for key in ("oneOf", "anyOf", "allOf"):
        for part in schema.get(key, []):
            names |= property_names(part, components)
    return names


def operations_naming_owned_things(document: dict[str, Any]) -> list[str]:
    """Labels of the bearer operations with an input that names something a customer holds."""
    components = document.get("components", {}).get("schemas", {})
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not operation.get("security"):
                continue
            inputs = {parameter["name"] for parameter in operation.get("parameters", [])}
            for content in operation.get("requestBody", {}).get("content", {}).values():
                inputs |= property_names(content.get("schema", {}), components)
            if inputs & OWNED_INPUTS:
                found.append(f"{method.upper()} {path}")
    return found


def set_up_owner(desk: Desk) -> Owned:
    """The owner subscribes with a card, activates a device, keeps a PG-window key, and pays an order."""
    desk.views_caught_up()
    account = desk.call("GET", "/accounts").json()
    key = desk.call("PUT", "/billingkeys", json=GOOD_CARD).json()
    subscribed = desk.call(
        "POST", "/payments/licenses/subscribe/new", json={"licenseId": 111, "countryCode": "KR"}
    ).json()
    device = {"deviceId": "owners-phone", "deviceName": "Owner's phone", "platform": "android"}
    activated = desk.guest_call("POST", "/licenses/activate", json={"licenseKey": subscribed["licenseKey"], **device})
    assert activated.status_code == 200, activated.text
    window = desk.call("GET", "/billingkeys/customerUid", params={"requestType": "creditCard"}).json()
    assert desk.issue_key_in_window(window)["success"] is True
    order = desk.call(
        "POST", "/payments/licenses/new", json={"licenseId": 121, "countryCode": "KR", "paymentMethod": "creditCard"}
    ).json()
    paid = desk.sandbox.checkout(
        pg=order["pg"], pay_method=order["payMethod"], merchant_uid=order["merchantUid"], name=order["name"],
        amount=order["amount"], currency=order["currency"], buyer_email=order["buyerEmail"],
        card_number=GOOD_CARD["cardNumber"],
    )  # fmt: skip
    desk.views_caught_up()
    merchant_uid = desk.call("GET", "/payments/licenses").json()[0]["merchantUid"]
    return Owned(
        account_id=account["id"],
        user_license_id=subscribed["userLicenseId"],
        license_key=subscribed["licenseKey"],
        device_id=device["deviceId"],
        merchant_uid=merchant_uid,
        billingkey_id=key["billingkeyId"],
        window_customer_uid=window["customerUid"],
        pending_merchant_uid=order["merchantUid"],
        pending_imp_uid=paid["imp_uid"],
    )


def owners_holdings(desk: Desk, owned: Owned) -> dict[str, Any]:
    """Everything the owner can see of what they hold."""
    desk.views_caught_up()
    reads = {
        "licences": "/licenses/mine",
        "licence": f"/licenses/mine/{owned.user_license_id}",
        "history": "/payments/licenses",
        "payment": f"/payments/licenses/{owned.merchant_uid}",
        "wallet": "/billingkeys",
        "subscription": f"/payments/licenses/subscribe/{owned.user_license_id}",
        "account": "/accounts",
    }
    return {name: desk.call("GET", path).json() for name, path in reads.items()}


def generated_sweep(desk: Desk, label: str, owned: Owned, examples: int, check: Callable[[Any], None]) -> int:
    """Requests schemathesis generates for an operation the sweep has no valid request for, naming owned ids."""
    schema = from_asgi(f"{V1}/openapi.json", desk.client.app)
    operation = next(op.ok() for op in schema.get_all_operations() if op.ok().label == label)
    by_name = {field: str(value) for field, value in vars(owned).items()}
    named = {p.name: by_name[p.name] for p in operation.path_parameters if p.name in by_name}
    calls = 0

    @given(case=operation.as_strategy(path_parameters=named) if named else operation.as_strategy())
    @hypothesis_settings(
        max_examples=examples, derandomize=True, database=None, deadline=None,
        phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    def run(case: Case) -> None:
        nonlocal calls
        calls += 1
        check(case.call(headers={"Authorization": f"Bearer {desk.access_token(INTRUDER)}"}))

    run()
    return calls


def test_a_second_customer_gets_nothing_of_the_firsts_with_their_ids(desk: Desk) -> None:
    owned = set_up_owner(desk)
    desk.register(INTRUDER)
    before = owners_holdings(desk, owned)
    secrets = [SUBSCRIBER, owned.license_key, owned.license_key.lower(), owned.window_customer_uid]

    def refused(answer: Any, label: str = "", intruders_own: bool = False) -> None:
        if intruders_own and answer.status_code == 200:
            # Accepted as the intruder's own purchase: their licence, their account, nothing of the owner's.
            assert answer.json()["email"] == INTRUDER, answer.text
            assert answer.json()["userLicenseId"] != str(owned.user_license_id), answer.text
        else:
            assert 400 <= answer.status_code < 500, f"{label}: {answer.status_code} {answer.text}"
        leaked = [secret for secret in secrets if secret in answer.text]
        assert not leaked, f"{label} shows the owner's {leaked}: {answer.text}"

    requests = sweep_requests(owned, GOOD_CARD)
    answers: dict[str, str] = {}
    document = desk.client.get(f"{V1}/openapi.json").json()
    operations = operations_naming_owned_things(document)
    assert set(requests) <= set(operations), f"sweep requests for unknown operations: {set(requests) - set(operations)}"
    for label in operations:
        if label in requests:
            request = dict(requests[label])
            method = label.split(" ", 1)[0]
            intruders_own = request.pop("intruders_own", False)
            answer = desk.call(method, request.pop("path"), as_email=INTRUDER, **request)
            refused(answer, label, intruders_own)
            # A valid request is refused for whose ids it names, not for its shape.
            assert answer.status_code != 422 and answer.json().get("errorCode") != -2, f"{label}: {answer.text}"
            answers[label] = f"{answer.status_code} {answer.json().get('errorCode', '')}"
    unknown = [label for label in operations if label not in requests]
    generated = {label: generated_sweep(desk, label, owned, 10, refused) for label in unknown}

    assert owners_holdings(desk, owned) == before, "an intruder's call changed what the owner holds"
    intruders = [desk.call("GET", path, as_email=INTRUDER).text for path in ("/licenses/mine", "/payments/licenses")]
    for listing in intruders:
        assert not [secret for secret in secrets if secret in listing], listing
        assert str(owned.user_license_id) not in listing and owned.merchant_uid not in listing, listing
    intruders_keys = desk.call("GET", "/billingkeys", as_email=INTRUDER).json()["billingkeys"]
    assert owned.billingkey_id not in [key["billingkeyId"] for key in intruders_keys]
    # The same requests are the owner's to make: the intruder was refused for whose ids they were.
    for label in (f"GET {V1}/licenses/mine/{{user_license_id}}", f"GET {V1}/payments/licenses/{{merchant_uid}}"):
        assert desk.call("GET", requests[label]["path"]).status_code == 200
    print("\n".join(f"  {label}: {answer}" for label, answer in answers.items()))
    print(
        f"IDOR sweep: {len(operations)} operations naming owned ids, {len(operations) - len(unknown)} with valid "
        f"requests, {sum(generated.values())} generated requests for {sorted(generated) or 'none'}; all refused"
    )

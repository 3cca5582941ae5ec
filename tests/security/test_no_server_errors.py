"""Finding 8, 500s: webhook bodies ``[1,2]``, ``"x"`` and ``123``; a lone surrogate (``"\\ud800"``) in the
account name, the deletion reason and the webhook's ids; a NUL or non-ASCII email at the test harness's admin
login. Each answered 500.

Now a JSON body whose strings hold a lone surrogate is refused once, at the edge (400, -2), whichever route it
is sent to and however it is encoded; a body that is JSON but not an object is an invalid value; secrets are
compared as bytes. The property tests send every JSON operation of the document (and the webhook, which is
not in it) generated lone surrogates and non-object JSON: never a 5xx, always the envelope with -1 or -2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import hypothesis
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from api.access import POLICY
from api.access import operation as operation_key
from tests.security.shop import OPERATOR_TOKEN, PASSWORD, V1, Shop, shop

__all__ = ["shop"]

pytestmark = pytest.mark.integration

JSON = {"Content-Type": "application/json"}
WEBHOOK = ("POST", f"{V1}/payments/webhook")
LONE = "\ud800"


def sent(client: TestClient, method: str, path: str, body: bytes, **headers: str) -> tuple[int, Any]:
    answer = client.request(method, path, content=body, headers={**JSON, **headers})
    assert answer.status_code < 500, f"{method} {path} {body[:80]!r}: {answer.status_code} {answer.text}"
    return answer.status_code, answer.json().get("errorCode")


def escaped(value: Any) -> bytes:
    """JSON as a client writes it: a surrogate as a \\u escape."""
    return json.dumps(value).encode()


def raw(value: Any) -> bytes:
    """JSON with a surrogate written as its three UTF-8-like bytes (json.loads takes those too)."""
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def utf16(value: Any) -> bytes:
    """JSON in UTF-16, which json.loads detects by itself."""
    return json.dumps(value, ensure_ascii=False).encode("utf-16-le", "surrogatepass")


@pytest.mark.parametrize("body", [b"[1,2]", b'"x"', b"123", b"null", b"true"])
def test_a_webhook_body_that_is_not_an_object_is_an_invalid_value(shop: Shop, body: bytes) -> None:
    assert sent(shop.proxy, *WEBHOOK, body) == (400, -2)


@pytest.mark.parametrize("encode", [escaped, raw, utf16])
def test_a_lone_surrogate_in_the_name_the_deletion_reason_or_the_webhook_ids_is_refused(
    shop: Shop, encode: Callable[[Any], bytes]
) -> None:
    owner = shop.customer("owner@example.com")
    bearer = {"Authorization": f"Bearer {owner['token']}"}
    client = shop.proxy
    assert client.patch(f"{V1}/accounts", json={"name": "Mina"}, headers=bearer).status_code == 200

    assert sent(client, "PATCH", f"{V1}/accounts", encode({"name": f"Mi{LONE}na"}), **bearer) == (400, -2)
    deletion = {"deletedReason": f"bye {LONE}", "pw": PASSWORD}
    assert sent(client, "PUT", f"{V1}/accounts/delete", encode(deletion), **bearer) == (400, -2)
    notice = {"imp_uid": f"imp_{LONE}", "merchant_uid": f"m{LONE}", "status": "paid"}
    assert sent(client, *WEBHOOK, encode(notice)) == (400, -2)

    mine = client.get(f"{V1}/accounts", headers=bearer)
    assert (mine.status_code, mine.json()["name"]) == (200, "Mina"), "the account is as it was, not deleted"


def test_a_pair_of_surrogates_is_one_character_and_welcome(shop: Shop) -> None:
    owner = shop.customer("emoji@example.com")
    bearer = {"Authorization": f"Bearer {owner['token']}"}
    changed = shop.proxy.patch(f"{V1}/accounts", content=b'{"name": "Mina \\ud83e\\udd84"}', headers={**JSON, **bearer})
    assert (changed.status_code, changed.json()["name"]) == (200, "Mina \U0001f984")


@pytest.mark.parametrize("email", ["admin\x00@unicornpro.test", "ädmin@unicornpro.test", "管理者@example.com"])
def test_an_odd_email_at_the_admin_login_is_just_not_the_credential(shop: Shop, email: str) -> None:
    body = json.dumps({"email": email, "password": OPERATOR_TOKEN}).encode()
    assert sent(shop.proxy, "POST", f"{V1}/test-harness/admin/auth/login", body) == (401, 401)


def test_a_non_ascii_secret_in_a_header_or_a_link_is_just_wrong(shop: Shop) -> None:
    odd = "é".encode("latin-1")
    for path in ("/test-harness/clock", "/test-harness/admin/coupons/coupon?couponGroupIds=x"):
        answer = shop.proxy.get(f"{V1}{path}", headers=[(b"x-admin-token", odd), (b"authorization", b"Bearer " + odd)])
        assert (answer.status_code, answer.json()["errorCode"]) == (401, 401), path
    link = shop.proxy.get(f"{V1}/reports/images/reports/x/1.png", params={"expires": 1, "signature": "é"})
    assert link.status_code == 403


# Strategies: strings with at least one unpaired surrogate, JSON values holding one somewhere (a key or a value,
# at any depth), and JSON that is not an object.
surrogates = st.characters(categories=["Cs"])
lone_text = st.builds(
    lambda before, lone, after: before + lone + after, st.text(max_size=4), surrogates, st.text(max_size=4)
)
plain = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))


def holding(field: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """A JSON object with a lone surrogate in ``field``'s value, in a key, or deeper."""
    deeper = st.recursive(
        lone_text,
        lambda inner: (
            st.lists(inner, min_size=1, max_size=2)
            | st.dictionaries(st.text(max_size=4), inner, min_size=1, max_size=2)
        ),
        max_leaves=3,
    )
    return st.one_of(
        st.builds(lambda name, value: {name: value}, field, deeper),
        st.builds(lambda key: {key: "x"}, lone_text),
    )


not_objects = st.one_of(
    plain, st.floats(allow_nan=False, allow_infinity=False), st.lists(plain, max_size=3), st.lists(st.lists(plain))
)


def _needs_staff(method: str, path: str) -> bool:
    need = POLICY.get(operation_key(method, path.removeprefix(V1)))
    return need is not None and need.needs_staff


def json_operations(client: TestClient) -> list[tuple[str, str, list[str]]]:
    """Every operation of the document taking JSON (path parameters filled with a word), with its fields."""
    document = client.get(f"{V1}/openapi.json").json()
    schemas = document["components"]["schemas"]
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            # A staff operation refuses a caller without a staff session (401) before it reads a body; the customer
            # these tests call as has none (tests/integration/test_staff_api.py holds staff operations to access).
            if body and not _needs_staff(method, path):
                schema = body["schema"]
                schema = schemas[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema
                concrete = path.replace("{", "").replace("}", "")
                found.append((method.upper(), concrete, sorted(schema.get("properties", {})) or ["x"]))
    return found


def explore(strategy: st.SearchStrategy[Any], check: Callable[[Any], None], examples: int) -> None:
    @given(strategy)
    @hypothesis.settings(
        max_examples=examples, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    def run(value: Any) -> None:
        check(value)

    run()


def test_no_json_operation_answers_a_lone_surrogate_with_a_server_error(shop: Shop) -> None:
    owner = shop.customer("fuzz@example.com")
    headers = {"Authorization": f"Bearer {owner['token']}", "X-Admin-Token": OPERATOR_TOKEN}
    operations = [*json_operations(shop.proxy), (*WEBHOOK, ["imp_uid", "merchant_uid"])]
    assert len(operations) > 25, "the document's JSON operations were found"
    for method, path, fields in operations:
        encodings = st.sampled_from([escaped, raw, utf16])

        def check(case: tuple[Any, Callable[[Any], bytes]], method: str = method, path: str = path) -> None:
            value, encode = case
            assert sent(shop.proxy, method, path, encode(value), **headers) == (400, -2), (method, path, value)

        explore(st.tuples(holding(st.sampled_from(fields)), encodings), check, examples=8)


def test_no_json_operation_answers_a_body_that_is_not_an_object_with_a_server_error(shop: Shop) -> None:
    owner = shop.customer("shapes@example.com")
    headers = {"Authorization": f"Bearer {owner['token']}", "X-Admin-Token": OPERATOR_TOKEN}
    for method, path, _ in [*json_operations(shop.proxy), (*WEBHOOK, [])]:

        def check(value: Any, method: str = method, path: str = path) -> None:
            status, code = sent(shop.proxy, method, path, escaped(value), **headers)
            assert (status, code) in ((400, -1), (400, -2)), (method, path, value, status, code)

        explore(not_objects, check, examples=8)

"""Finding 2: an unconfirmed account's token acted like a customer's.

As it ran: a scope-0 token (email never confirmed) claimed the open beta, ordered and paid, added billing keys,
changed the profile and got a chat identity; only the support-desk sign-on checked the scope. Now every operation
declares what it needs in one table (api/access.py, written out as docs/access.md) and this walk holds every
operation of the OpenAPI document to it: without a token, with an unconfirmed account's, with a confirmed
customer's where only the test harness may call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.access import DOC_PATH, POLICY, Access, operation, render_table
from api.app import create_app
from api.services import Services
from config.settings import Settings
from tests.conftest import make_settings
from tests.fakes import ManualClock, PlainHasher
from tests.faults.test_idor_sweep import operations_naming_owned_things
from tests.support import START, register_confirmed, running_projector

pytestmark = pytest.mark.integration

V1 = "/web/unicornpro/v1"
NOT_APPROVED = -401


@dataclass
class Walk:
    client: TestClient
    document: dict[str, Any]
    unconfirmed: dict[str, str]
    confirmed: dict[str, str]

    def throwaway(self) -> dict[str, str]:
        """Another session's token of the unconfirmed account, for an operation that ends the session it is sent."""
        login = self.client.post(f"{V1}/auth/login", json={"email": "fresh@example.com", "pw": "abcd1234"})
        return {"Authorization": f"Bearer {login.json()['accessToken']}"}


@pytest.fixture
def walk(settings: Settings) -> Iterator[Walk]:
    harness = make_settings(settings.var_dir, TEST_ADMIN_TOKEN="harness-token", TEST_CLOCK="true")
    harness = harness.model_copy(update={"database_url": settings.database_url})
    services = Services.build(harness, clock=ManualClock(START), hasher=PlainHasher())
    with running_projector(harness), TestClient(create_app(services=services)) as client:
        client.post(f"{V1}/accounts", json={"email": "fresh@example.com", "pw": "abcd1234", "language": "ko"})
        register_confirmed(client, services, "proven@example.com")
        tokens = [
            client.post(f"{V1}/auth/login", json={"email": address, "pw": "abcd1234"}).json()
            for address in ("fresh@example.com", "proven@example.com")
        ]
        assert [token["scope"] for token in tokens] == [0, 1]
        unconfirmed, confirmed = ({"Authorization": f"Bearer {token['accessToken']}"} for token in tokens)
        yield Walk(client, client.get(f"{V1}/openapi.json").json(), unconfirmed, confirmed)
    services.close()


def operations(document: dict[str, Any]) -> list[tuple[str, str]]:
    """(method, path below the base path) of every documented operation."""
    return [(method.upper(), path.removeprefix(V1)) for path, items in document["paths"].items() for method in items]


def concrete(path: str) -> str:
    """The path with its parameters filled in (ids that exist nowhere: access is decided before they are read)."""
    return re.sub(r"\{[^}]+\}", lambda _: str(uuid4()), path)


def refused_for_access(answer: Any) -> bool:
    body = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else {}
    return answer.status_code == 401 or (answer.status_code == 403 and body.get("errorCode") == NOT_APPROVED)


def test_every_operation_of_the_api_is_declared_once_and_nothing_else_is(walk: Walk) -> None:
    documented = {operation(method, path) for method, path in operations(walk.document)}
    declared = {key.replace("{key:path}", "{key}") for key in POLICY}
    undocumented_on_purpose = {"POST /payments/webhook"}  # PortOne's notices: verified against PortOne itself
    assert documented == declared - undocumented_on_purpose


def test_each_operation_answers_an_anonymous_an_unconfirmed_and_a_confirmed_caller_as_its_level_says(
    walk: Walk,
) -> None:
    checked: dict[Access, int] = {}
    for method, path in operations(walk.document):
        key = operation(method, path)
        need = POLICY.get(key) or POLICY[key.replace("{key}", "{key:path}")]
        url = f"{V1}{concrete(path)}"
        call = walk.client.request
        anonymous = call(method, url)
        # a logout ends the session of a token it is sent: the walk's own token would end with it
        ending = need is Access.ANYONE_ENDING_A_SESSION
        unconfirmed = call(method, url, headers=walk.throwaway() if ending else walk.unconfirmed)
        label = f"{method} {path} ({need.value})"
        if need.needs_session:
            assert anonymous.status_code == 401, label
        if need.needs_confirmed:
            assert (unconfirmed.status_code, unconfirmed.json()["errorCode"]) == (403, NOT_APPROVED), label
        elif need.reads_token:
            assert not refused_for_access(unconfirmed), f"{label}: {unconfirmed.text}"
        if need in (Access.ANYONE, Access.ANYONE_ENDING_A_SESSION):
            garbage = call(method, url, headers={"Authorization": "Bearer not-a-token"})
            assert garbage.status_code == anonymous.status_code, f"{label}: a token is never refused here"
        if ending:
            assert unconfirmed.status_code == anonymous.status_code, label
        if need is Access.TEST_HARNESS and path.endswith("/auth/login"):  # the harness's credential, in the body
            wrong = call(method, url, json={"email": "admin@unicornpro.test", "password": "guess"})
            assert wrong.status_code == 401, label
        elif need is Access.TEST_HARNESS:
            confirmed = call(method, url, headers=walk.confirmed)
            assert (anonymous.status_code, confirmed.status_code) == (401, 401), label
        checked[need] = checked.get(need, 0) + 1
    assert set(checked) == set(Access), f"every level is walked: {checked}"


def test_every_operation_on_a_customers_own_things_is_in_the_idor_sweep(walk: Walk) -> None:
    swept = set(operations_naming_owned_things(walk.document))
    owner_level = {key for key, need in POLICY.items() if need is Access.OWNER}
    assert {f"{key.split(' ')[0]} {V1}{key.split(' ')[1]}" for key in owner_level} <= swept


def test_the_published_table_is_the_one_the_api_enforces() -> None:
    assert DOC_PATH.read_text(encoding="utf-8") == render_table(), "run: .venv/bin/python -m api.access"


@pytest.fixture(params=["sqlite"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """The policy is the API's, not the store's: one store is enough."""
    return str(request.param)
